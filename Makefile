# Two commands on a fresh machine:  make pdfs   and   make test
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: pdfs test bench clean pictures

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON) on PATH"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/python -m compileall -q pnp referee
	@touch $(STAMP)

## Build every game's PDFs into output/
pdfs: $(STAMP)
	$(BIN)/pnp build

## Run the whole test suite
test: $(STAMP)
	$(BIN)/python -m pytest -q

## Regenerate the README's pictures (docs/images/) from a real build
pictures: $(STAMP)
	$(BIN)/python scripts/readme_pictures.py

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) output/*/
