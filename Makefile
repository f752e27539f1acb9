# Two commands on a fresh machine:  make pdfs   and   make test
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: pdfs test fuzz bench clean pictures browser printtools docs

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON) on PATH"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,docs,cluster]'
	$(BIN)/python -m compileall -q pnp referee
	@touch $(STAMP)

## Build every game's PDFs into output/
pdfs: $(STAMP)
	$(BIN)/pnp build

# The browser tests of `referee serve` drive Debian's chromium with chromium-driver.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
browser:
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium chromium-driver; \
	fi

# The DriveThruCards export is made PDF/X-1a by Debian's ghostscript; the tests
# check it with poppler-utils' pdfinfo and pdffonts.
printtools:
	@if ! command -v gs >/dev/null 2>&1 || ! command -v pdfinfo >/dev/null 2>&1; then \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ghostscript poppler-utils; \
	fi

## Run the whole test suite
test: $(STAMP) browser printtools
	$(BIN)/ruff check pnp referee tests scripts benchmarks
	$(BIN)/python -m pytest -q -n auto

## The self-play fuzz at full size: 200 games of every game with --check (slow; the suite plays 10)
fuzz: $(STAMP)
	FUZZ_GAMES=200 $(BIN)/python -m pytest -q -n auto -p no:cacheprovider tests/referee/test_fuzz_*.py

## Regenerate the README's pictures (docs/images/) from a real build
pictures: $(STAMP)
	$(BIN)/python scripts/readme_pictures.py

## Build the documentation site (mkdocs.yml, docs/) into site/; `mkdocs serve` shows it live
docs: $(STAMP)
	$(BIN)/mkdocs build --strict

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) output/*/ site/
