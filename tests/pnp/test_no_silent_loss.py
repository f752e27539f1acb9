"""Issue 28, section 1: nothing is lost without a word. A deck that reads as
no cards is an error (and the last good PDF stays), a workbook is read from
the right sheet, a formula with no saved value and a date Excel made of what
was typed are errors, and an empty game file is one clear line."""
from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from openpyxl import Workbook

from pnp.cli import main
from pnp.sources.loader import load_sources

DECK_DIR = Path("card_sources/culture-war")
GAME = DECK_DIR / "game.yaml"
HEADER = ["id", "name", "type", "cost", "atk", "def", "unit_type"]
ROW = ["sheet-unit", "Sheet Unit", "unit", 1, 1, 0, "Mob"]


def run(project: Path, *args: str):
    result = CliRunner().invoke(main, ["--project", str(project), *args])
    assert "Traceback" not in result.output
    return result


def use_deck_file(project: Path, name: str) -> Path:
    game = project / GAME
    game.write_text(game.read_text().replace("file: anarchy.yaml", f"file: {name}"))
    return project / DECK_DIR / name


def workbook(project: Path, sheets: dict[str, list[list]]) -> Path:
    book = Workbook()
    book.remove(book.active)
    for title, rows in sheets.items():
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(row)
    path = use_deck_file(project, "anarchy.xlsx")
    book.save(path)
    return path


def card_ids(project: Path) -> list[str]:
    return [c.id for c in load_sources(project, ["culture-war"]).games["culture-war"].cards]


# ---------------------------------------------------------------------------- which sheet

def test_a_notes_tab_before_the_cards_does_not_hide_them(mini_project):
    workbook(mini_project, {"notes": [["remember to print the backs"]], "cards": [HEADER, ROW]})
    assert card_ids(mini_project) == ["sheet-unit"]


def test_without_a_cards_sheet_the_only_sheet_with_an_id_column_is_read(mini_project):
    workbook(mini_project, {"notes": [["to do"], ["more"]], "Anarchy deck": [HEADER, ROW]})
    assert card_ids(mini_project) == ["sheet-unit"]


def test_several_sheets_with_an_id_column_are_named_in_the_error(mini_project):
    workbook(mini_project, {"old": [HEADER, ROW], "new": [HEADER, ROW]})
    result = run(mini_project, "validate")
    assert result.exit_code != 0
    assert "anarchy.xlsx:1: -: several sheets have an `id` column ('old', 'new'); name the one that holds the cards 'cards'" \
        in result.output


def test_a_workbook_with_no_sheet_of_cards_is_an_error(mini_project):
    workbook(mini_project, {"notes": [["nothing here"]]})
    result = run(mini_project, "validate")
    assert result.exit_code != 0 and "no sheet holds the cards" in result.output and "'notes'" in result.output


# ---------------------------------------------------------------------------- no cards

@pytest.mark.parametrize("name, content, says", [
    ("anarchy.yaml", "cards: []\n", "`cards:` is an empty list"),
    ("anarchy.csv", "id,name,type,cost\n", "no card rows under its header row"),
    ("anarchy.yaml", "", "the file is empty"),
])
def test_a_deck_with_no_cards_is_an_error(mini_project, name, content, says):
    path = use_deck_file(mini_project, name)
    path.write_text(content)
    result = run(mini_project, "validate")
    assert result.exit_code != 0
    assert f"{DECK_DIR / name}:1: -: deck 'anarchy' has no cards" in result.output and says in result.output


@pytest.mark.pdf
def test_a_deck_that_reads_as_no_cards_leaves_the_last_good_pdf(mini_project):
    assert run(mini_project, "build", "culture-war").exit_code == 0
    pdf = mini_project / "output/culture-war/deck-anarchy.pdf"
    good = pdf.read_bytes()
    workbook(mini_project, {"notes": [["a notes tab and nothing else"]]})
    result = run(mini_project, "build", "culture-war")
    assert result.exit_code != 0
    assert pdf.read_bytes() == good


# ---------------------------------------------------------------------------- cells

def test_a_formula_with_no_saved_value_is_an_error_that_says_to_save_it(mini_project):
    workbook(mini_project, {"cards": [HEADER, ["sheet-unit", "Sheet Unit", "unit", "=1+1", 1, 0, "Mob"]]})
    result = run(mini_project, "validate")
    assert result.exit_code != 0
    line = next(l for l in result.output.splitlines() if "=1+1" in l)
    assert "anarchy.xlsx:2: " in line and "column cost" in line and "no saved value" in line
    assert "save it there" in line
    assert "missing field" not in result.output


def test_an_excel_date_in_a_text_field_is_an_error_not_a_timestamp(mini_project):
    workbook(mini_project, {"cards": [HEADER + ["text"], ROW + [datetime.datetime(2026, 5, 6)]]})
    result = run(mini_project, "validate")
    assert result.exit_code != 0
    assert "anarchy.xlsx:2: sheet-unit: column text: the spreadsheet made a date or time" in result.output
    assert "format the column as Text" in result.output


# ---------------------------------------------------------------------------- the game file

@pytest.mark.parametrize("content, says", [
    ("", "the game file is empty"),
    ("# just a comment\n", "the game file is empty"),
    ("- a\n- b\n", "a game file must be a mapping"),
    ("name: [\n", "YAML syntax error"),
])
def test_an_empty_or_broken_game_file_is_one_clear_error(mini_project, content, says):
    (mini_project / GAME).write_text(content)
    for command in (["validate"], ["build", "culture-war"], ["list", "culture-war"]):
        result = run(mini_project, *command)
        assert result.exit_code != 0, result.output
        assert f"{GAME}:" in result.output and says in result.output, result.output
        assert "KeyError" not in result.output and "internal error" not in result.output.lower()
