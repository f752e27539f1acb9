"""Fixtures for the referee tests: a table file, a CLI runner, a card project."""
from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable


class Table:
    """Runs referee commands against one table file, as typed in a shell."""

    def __init__(self, db: Path):
        self.db = db
        self.runner = CliRunner()
        self.reveal: list[str] = []  # players whose hidden cards `status` shows (games with hidden cards)

    def run(self, line: str | list[str], ok: bool = True, input: str | None = None):
        argv = shlex.split(line) if isinstance(line, str) else list(line)
        result = self.runner.invoke(cli, ["--db", str(self.db), *argv], input=input)
        if ok and result.exit_code != 0:
            raise AssertionError(f"`referee {line}` failed ({result.exit_code}):\n{result.output}")
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError(f"`referee {line}` raised {result.exception!r}")
        return result

    def fail(self, line: str | list[str]):
        """Run a command that must be refused without touching the table."""
        before = self.status() if self.db.exists() else None
        result = self.run(line, ok=False)
        assert result.exit_code != 0, f"`referee {line}` should have failed:\n{result.output}"
        assert "Traceback" not in result.output
        if before is not None:
            after = self.status()
            assert after == before, f"`referee {line}` failed but changed the table"
        return result

    def status(self, reveal: list[str] | None = None) -> dict:
        flags = [x for name in (self.reveal if reveal is None else reveal) for x in ("--reveal", name)]
        return json.loads(self.run(["status", "--json", *flags]).output)

    def log(self) -> dict:
        return json.loads(self.run("log --json").output)


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path / "table.db")


GAME_YAML = """\
name: Test Game
players: {min: 2, max: 5}
card_size: poker
card_types:
  unit:
    template: unit
    fields:
      cost: int>=0
      atk: int
      def: int
decks:
  - id: alpha
    name: Alpha
    file: alpha.yaml
    back: back
"""

DECK_YAML = """\
cards:
  - id: alpha-courier
    name: Courier
    type: unit
    quantity: 3
    cost: 2
    atk: 2
    def: 0
    text: "Fast."
  - id: alpha-wall
    name: Wall
    type: unit
    cost: 3
    atk: 0
    def: 4
"""


@pytest.fixture
def card_project(tmp_path: Path) -> Path:
    """A tiny project following docs/card-sources.md: one culture-war deck."""
    root = tmp_path / "project"
    (root / "templates").mkdir(parents=True)
    game = root / "card_sources" / "culture-war"
    game.mkdir(parents=True)
    (game / "game.yaml").write_text(GAME_YAML)
    (game / "alpha.yaml").write_text(DECK_YAML)
    return root
