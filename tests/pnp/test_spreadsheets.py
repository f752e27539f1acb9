"""Deck files as CSV or Excel: the same cards as YAML, the same checks
located file:row, lossless conversion both ways, and incremental builds."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.sources.loader import load_sources

DECK_DIR = Path("card_sources/culture-war")


def run(project: Path, *args: str):
    return CliRunner().invoke(main, ["--project", str(project), *args])


def cards_of(project: Path) -> dict[str, tuple]:
    """What a card is, as the pipeline sees it (its place in the file aside)."""
    game = load_sources(project, ["culture-war"]).games["culture-war"]
    return {c.id: (c.name, c.type, c.quantity, c.fields, c.revision, c.deck) for c in game.cards}


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_a_converted_deck_gives_the_same_cards_and_converts_back(mini_project, fmt):
    before = cards_of(mini_project)
    result = run(mini_project, "convert", "culture-war", "anarchy", "--to", fmt)
    assert result.exit_code == 0, result.output
    assert (mini_project / DECK_DIR / f"anarchy.{fmt}").is_file()
    assert f"file: anarchy.{fmt}" in (mini_project / DECK_DIR / "game.yaml").read_text()
    assert cards_of(mini_project) == before
    (mini_project / DECK_DIR / "anarchy.yaml").unlink()
    result = run(mini_project, "convert", "culture-war", "anarchy", "--to", "yaml")
    assert result.exit_code == 0, result.output
    assert cards_of(mini_project) == before


def test_the_csv_format_is_what_a_designer_would_type(mini_project):
    run(mini_project, "convert", "culture-war", "anarchy", "--to", "csv")
    rows = list(csv.DictReader((mini_project / DECK_DIR / "anarchy.csv").open()))
    shield = next(r for r in rows if r["id"] == "test-shield")
    assert shield["effects"] == "[{stat: def, amount: 2, target: attached}]"
    brawler = next(r for r in rows if r["id"] == "test-brawler")
    assert brawler["traits"] == "hero" and brawler["cost"] == "2" and brawler["quantity"] == ""
    recruit = next(r for r in rows if r["id"] == "test-recruit")
    assert recruit["quantity"] == "2"


def write_csv(project: Path, rows: list[list[str]]) -> Path:
    path = project / DECK_DIR / "anarchy.csv"
    with path.open("w", newline="") as handle:
        csv.writer(handle).writerows(rows)
    game = project / DECK_DIR / "game.yaml"
    game.write_text(game.read_text().replace("file: anarchy.yaml", "file: anarchy.csv"))
    return path


HEADER = ["id", "name", "type", "quantity", "cost", "atk", "def", "unit_type", "traits", "text", "effects"]


def test_every_problem_in_a_sheet_is_named_by_file_and_row(mini_project):
    write_csv(mini_project, [
        HEADER + ["colour"],
        ["ok-unit", "Fine", "unit", "", "1", "1", "1", "Mob", "base; hero", "", "", ""],
        ["bad-cost", "Bad", "unit", "", "lots", "1", "1", "Mob", "", "", "", ""],
        ["bad-trait", "Worse", "unit", "", "1", "1", "1", "Mob", "base; wizard", "", "", ""],
        ["bad-yaml", "Broken", "unit", "", "1", "1", "1", "Mob", "", "", "[{stat: atk", ""],
        ["bad-icon", "Icon", "unit", "", "1", "1", "1", "Mob", "", "Gain 1 {nope}.", "", ""],
        ["odd-column", "Odd", "unit", "", "1", "1", "1", "Mob", "", "", "", "red"],
        ["ok-unit", "Twice", "unit", "", "1", "1", "1", "Mob", "", "", "", ""],
    ])
    result = run(mini_project, "validate")
    assert result.exit_code != 0 and "Traceback" not in result.output
    out = result.output
    where = "card_sources/culture-war/anarchy.csv"
    assert f"{where}:3: bad-cost: cost" in out
    assert f"{where}:4: bad-trait: traits" in out and "wizard" in out
    assert f"{where}:5: bad-yaml: column effects: not valid inline YAML" in out
    assert f"{where}:6: bad-icon: unknown icon token {{nope}}" in out
    assert f"{where}:1: -: column 'colour' (column 12) is not a field of any card type" in out  # once, at the header
    assert "odd-column" not in out
    assert f"{where}:8: ok-unit: duplicate id 'ok-unit'" in out


def test_a_duplicate_id_across_a_sheet_and_a_yaml_deck_is_caught(mini_project):
    game = mini_project / DECK_DIR / "game.yaml"
    text = game.read_text()
    assert "file: anarchy.yaml" in text
    run(mini_project, "convert", "culture-war", "anarchy", "--to", "xlsx")
    # a second deck, in YAML, that repeats one id of the Excel deck
    (mini_project / DECK_DIR / "extra.yaml").write_text(
        "cards:\n  - id: test-squat\n    name: Copy\n    type: real-estate\n    production: 1\n")
    game.write_text(game.read_text().replace("decks:\n", "decks:\n  - {id: extra, name: Extra, file: extra.yaml, back: back}\n", 1))
    result = run(mini_project, "validate")
    assert result.exit_code != 0
    assert "duplicate id 'test-squat'" in result.output and "anarchy.xlsx" in result.output


@pytest.mark.pdf
def test_text_that_does_not_fit_is_named_by_row(mini_project, tmp_path):
    write_csv(mini_project, [HEADER, ["wordy", "Wordy", "unit", "", "1", "1", "1", "Mob", "", "Far too much. " * 120, ""]])
    result = run(mini_project, "build", "--out", str(tmp_path / "out"))
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "card_sources/culture-war/anarchy.csv:2: wordy:" in result.output
    assert not list((tmp_path / "out").rglob("*.pdf"))


@pytest.mark.pdf
def test_an_edited_sheet_rebuilds_just_its_deck(mini_project, tmp_path):
    run(mini_project, "convert", "culture-war", "anarchy", "--to", "csv")
    out = tmp_path / "out"
    assert run(mini_project, "build", "--out", str(out)).exit_code == 0
    again = run(mini_project, "build", "--out", str(out))
    assert "rebuilt" not in again.output, again.output
    sheet = mini_project / DECK_DIR / "anarchy.csv"
    sheet.write_text(sheet.read_text().replace("Test Brawler", "Test Bruiser"))
    edited = run(mini_project, "build", "--out", str(out))
    assert edited.exit_code == 0, edited.output
    rebuilt = [l for l in edited.output.splitlines() if l.startswith("rebuilt")]
    assert rebuilt and all("deck-anarchy" in l or "manifest" in l for l in rebuilt), rebuilt
    manifest = json.loads((out / "culture-war" / "manifest.json").read_text())
    assert any(c["id"] == "test-brawler" for c in manifest["cards"])
