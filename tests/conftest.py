import re
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Speed is measured in `make bench`, never in a test: no per-example deadline,
# and no health check that fails a test because a shared machine is slow.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")

ROOT = Path(__file__).resolve().parents[1]
# The project's own packages first: run from another folder, tests/pnp and
# tests/referee (folders of tests) would otherwise pass for the packages.
if str(ROOT) not in sys.path[:1]:
    sys.path.insert(0, str(ROOT))
# The tests' shared helpers (tests/helpers/) import as `helpers`.
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(1, str(ROOT / "tests"))


@pytest.fixture(scope="session")
def checkout() -> Path:
    """The project's own folder, for a test that reads its files (the source
    checks, the shipped card sources and art): such a test is an integration
    test, not a unit one (see WRITES_FILES below)."""
    return ROOT


@pytest.fixture
def mini_project(tmp_path: Path) -> Path:
    """A one-game project: the real templates and a small, valid deck."""
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    game = tmp_path / "card_sources" / "culture-war"
    game.mkdir(parents=True)
    text = (ROOT / "card_sources/culture-war/game.yaml").read_text().split("  - id: community")[0]
    head, _, rest = text.partition("composition:")
    (game / "game.yaml").write_text(head + "decks:" + rest.split("\ndecks:", 1)[1])
    (game / "anarchy.yaml").write_text(MINI_DECK)
    return tmp_path


MINI_DECK = """\
cards:
  - id: test-recruit
    name: Test Recruit
    type: unit
    quantity: 2
    cost: 1
    atk: 0
    def: 0
    unit_type: Recruit
    traits: [base]
  - id: test-brawler
    name: Test Brawler
    type: unit
    cost: 2
    atk: 2
    def: 1
    unit_type: Mob
    traits: [hero]
    text: "Hits hard: +1 {atk} when attacking."
    flavor: "Loud."
  - id: test-squat
    name: Test Squat
    type: real-estate
    production: 1
    text: "Nothing special."
  - id: test-shield
    name: Test Shield
    type: mod
    cost: 1
    target: unit
    text: "+2 {def}."
    effects: [{stat: def, amount: 2, target: attached}]
"""


# The unit layer (`pytest -m unit`, docs: the tests' layers): tests of values built by
# hand in memory, the rules, the model and pure functions. A test that asks for a
# folder, a table file, a project or the checkout's own files (any fixture below),
# builds or draws a PDF, or is slow belongs to the integration layers instead;
# `make test` runs them all.
WRITES_FILES = frozenset({"tmp_path", "tmp_path_factory", "tmpdir", "tmpdir_factory", "table", "card_project",
                          "mini_project", "capsys", "capfd", "checkout"})


# A file whose module-level mark puts every test of it in the PDF or slow layer.
_WHOLE_FILE_LAYER = re.compile(r"^pytestmark = \[?pytest\.mark\.(pdf|slow)\b", re.M)


def pytest_ignore_collect(collection_path, config):
    """`pytest -m unit` does not even import a file whose every test is pdf or
    slow (its module-level `pytestmark`): none of them could be selected, and
    importing their PDF and browser tools is much of the unit layer's time."""
    if (config.option.markexpr or "").strip() != "unit" or collection_path.suffix != ".py" \
            or not collection_path.name.startswith("test_"):
        return None
    return True if _WHOLE_FILE_LAYER.search(collection_path.read_text(encoding="utf-8")) else None


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("slow") or item.get_closest_marker("pdf"):
            continue
        if WRITES_FILES & set(getattr(item, "fixturenames", ())):
            continue
        item.add_marker(pytest.mark.unit)
