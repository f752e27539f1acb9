"""Issue 28, section 2: every mistake named where it is made. A template's
own mistake at the template's file and line, once; no `:0:` locations; a
`;`-separated CSV reads; CSS colour names; "did you mean"; hints to quote
YAML values."""
from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.sources.loader import load_sources

DECK_DIR = Path("card_sources/culture-war")
GAME = DECK_DIR / "game.yaml"
DECK = DECK_DIR / "anarchy.yaml"
FRAME = Path("templates/culture-war/_frame.xml.j2")


def run(project: Path, *args: str):
    result = CliRunner().invoke(main, ["--project", str(project), *args])
    assert "Traceback" not in result.output
    return result


def failing(project: Path, *args: str) -> str:
    result = run(project, *(args or ("validate",)))
    assert result.exit_code != 0, result.output
    assert ":0:" not in result.output, result.output
    return result.output


def edit(project: Path, rel: Path, old: str, new: str) -> None:
    path = project / rel
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def line_of(project: Path, rel: Path, needle: str) -> int:
    return next(i for i, l in enumerate((project / rel).read_text().splitlines(), 1) if needle in l)


# ---------------------------------------------------------------------------- templates

@pytest.mark.parametrize("written, message", [
    ('<icon name="atkk" x="1" y="1" size="3"/>', "unknown icon 'atkk' (icons.yaml); did you mean atk?"),
    ('<text x="1" y="1" w="9" h="4" style="titel">x</text>', "unknown paragraph style 'titel'"),
    ('<rect x="1" y="1" w="2" h="2" fill="nvy"/>', "colour 'nvy' is not a colour: write #rrggbb, #rgb or a CSS colour name"),
    ('<rectangle x="1" y="1" w="2" h="2"/>', "unknown element <rectangle> (use rect, circle"),
    ('<circle cx="1" cy="1" r="big"/>', "<circle> r='big' is not a number"),
])
def test_a_template_mistake_is_named_once_at_the_templates_own_line(mini_project, written, message):
    lines = (mini_project / FRAME).read_text().splitlines(keepends=True)
    lines.insert(3, written + "\n")
    (mini_project / FRAME).write_text("".join(lines))
    output = failing(mini_project)
    hits = [l for l in output.splitlines() if message in l]
    assert len(hits) == 1, output
    assert f"{FRAME}:4: " in hits[0], hits[0]
    assert "anarchy.yaml" not in output


def test_a_css_colour_name_is_a_colour_everywhere(mini_project):
    edit(mini_project, GAME, 'color: "#b3261e"', "color: navy")
    lines = (mini_project / FRAME).read_text().splitlines(keepends=True)
    lines.insert(3, '<rect x="1" y="1" w="2" h="2" fill="darkred" stroke="#abc"/>\n')
    (mini_project / FRAME).write_text("".join(lines))
    style = mini_project / "templates/culture-war/style.yaml"
    style.write_text(style.read_text().replace("colors:\n", "colors:\n  extra: rebeccapurple\n", 1))
    assert run(mini_project, "validate").exit_code == 0
    deck = load_sources(mini_project, ["culture-war"]).games["culture-war"].decks[0]
    assert deck.color == "#000080"


def test_a_bad_deck_colour_is_named_at_its_line_in_the_game_file(mini_project):
    edit(mini_project, GAME, 'color: "#b3261e"', "color: nvy")
    output = failing(mini_project)
    assert f"{GAME}:{line_of(mini_project, GAME, 'color: nvy')}: -: deck 'anarchy': colour 'nvy' is not a colour" in output
    assert "did you mean navy?" in output and "invalid literal" not in output


# ---------------------------------------------------------------------------- no :0:

def test_a_missing_deck_file_is_named_at_its_line_in_the_game_file(mini_project):
    edit(mini_project, GAME, "file: anarchy.yaml", "file: anarchi.yaml")
    output = failing(mini_project)
    line = line_of(mini_project, GAME, "file: anarchi.yaml")
    assert f"{GAME}:{line}: -: deck 'anarchy': file 'anarchi.yaml' not found" in output
    assert "did you mean anarchy.yaml?" in output


def test_a_missing_template_is_named_at_its_line_in_the_game_file(mini_project):
    edit(mini_project, GAME, "template: unit", "template: unitt")
    output = failing(mini_project)
    line = line_of(mini_project, GAME, "template: unitt")
    assert f"{GAME}:{line}: -: card type 'unit': template 'unitt' not found" in output


def test_an_undecodable_csv_says_save_as_utf8(mini_project):
    path = mini_project / DECK_DIR / "anarchy.csv"
    path.write_bytes("id,name,type,cost,atk,def,unit_type\nok-one,Fine,unit,1,1,0,Mob\n"
                     "caf-unit,Café,unit,1,1,0,Mob\n".encode("cp1252"))
    edit(mini_project, GAME, "file: anarchy.yaml", "file: anarchy.csv")
    output = failing(mini_project)
    assert f"{DECK_DIR}/anarchy.csv:3: -: not UTF-8 text: byte 0xE9 on row 3" in output
    assert "save it as UTF-8" in output


# ---------------------------------------------------------------------------- ; CSV

def test_a_semicolon_separated_csv_reads_like_a_comma_separated_one(mini_project):
    rows = [["id", "name", "type", "cost", "atk", "def", "unit_type", "traits", "text"],
            ["semi-unit", "Semi, Colon", "unit", "2", "1", "0", "Mob", "base; hero", "Gain 1 {atk}."]]
    path = mini_project / DECK_DIR / "anarchy.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle, delimiter=";").writerows(rows)
    edit(mini_project, GAME, "file: anarchy.yaml", "file: anarchy.csv")
    assert run(mini_project, "validate").exit_code == 0
    (card,) = load_sources(mini_project, ["culture-war"]).games["culture-war"].cards
    assert (card.id, card.name, card.fields["cost"], card.fields["traits"]) == ("semi-unit", "Semi, Colon", 2, ["base", "hero"])


# ---------------------------------------------------------------------------- did you mean

def test_an_unknown_field_gets_a_did_you_mean(mini_project):
    edit(mini_project, DECK, "    atk: 2\n", "    atack: 2\n")
    assert "unknown field 'atack'" in (out := failing(mini_project)) and "did you mean atk?" in out


def test_an_unknown_spreadsheet_header_is_named_once_with_a_did_you_mean(mini_project):
    path = mini_project / DECK_DIR / "anarchy.csv"
    path.write_text("id,name,type,cots,atk,def,unit_type\n" + "".join(f"u-{i},U,unit,1,1,0,Mob\n" for i in range(30)))
    edit(mini_project, GAME, "file: anarchy.yaml", "file: anarchy.csv")
    output = failing(mini_project)
    hits = [l for l in output.splitlines() if "'cots'" in l]
    assert len(hits) == 1 and f"{DECK_DIR}/anarchy.csv:1: " in hits[0] and "did you mean cost?" in hits[0], output


def test_a_mistyped_game_name_gets_a_did_you_mean(mini_project):
    for command in ("build", "validate", "list"):
        assert "did you mean culture-war?" in failing(mini_project, command, "culture-wr")


def test_a_mistyped_card_id_in_preview_gets_a_did_you_mean(mini_project, tmp_path):
    output = failing(mini_project, "preview", "test-brawlr", "--out", str(tmp_path / "p.png"))
    assert "did you mean test-brawler" in output


# ---------------------------------------------------------------------------- quoting

@pytest.mark.parametrize("old, new, hint", [
    ("name: Test Brawler", "name: Yes", 'put the word in quotes: "Yes"'),
    ("name: Test Brawler", "name: 1984", 'put it in quotes to keep it as written, "1984"'),
    ("name: Test Brawler", "name: 2026-05-06", "YAML reads it as a date"),
    ("unit_type: Mob", "unit_type: {atk}", "as a mapping; put the whole text in quotes"),
    ('flavor: "Loud."', "flavor: Note: loud", 'a value that holds a colon and a space must be in quotes'),
])
def test_a_yaml_surprise_gets_a_hint_to_quote_it(mini_project, old, new, hint):
    edit(mini_project, DECK, old, new)
    output = failing(mini_project)
    assert f"{DECK}:{line_of(mini_project, DECK, new)}: " in output and hint in output, output


@pytest.mark.pdf
def test_a_css_colour_name_builds_the_rule_sheet_it_colours(tmp_path):
    """The first deck's colour is the rule sheet's accent: `navy` once failed there."""
    root = Path(__file__).resolve().parents[2]
    for name in ("card_sources", "templates"):
        shutil.copytree(root / name, tmp_path / name)
    edit(tmp_path, Path("card_sources/petri-dish/game.yaml"), 'color: "#6b8f3a"', "color: navy")
    result = run(tmp_path, "build", "petri-dish")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "output/petri-dish/rules-rules.pdf").is_file()


def test_text_that_does_not_fit_on_a_back_is_named_at_the_back_templates_line(mini_project):
    back = Path("templates/culture-war/back.xml.j2")
    lines = (mini_project / back).read_text().splitlines(keepends=True)
    lines.insert(3, '<text x="1" y="1" w="3" h="1" style="title">Far too long for this box</text>\n')
    (mini_project / back).write_text("".join(lines))
    output = failing(mini_project)
    assert f"{back}:4: anarchy (back): text does not fit" in output, output


def test_a_bad_style_colour_is_named_at_its_line_in_style_yaml(mini_project):
    style = Path("templates/style.yaml")
    text = (mini_project / style).read_text()
    assert text.count("\ncolors:\n") == 1
    (mini_project / style).write_text(text.replace("\ncolors:\n", "\ncolors:\n  odd: bleu\n", 1))
    output = failing(mini_project)
    line = line_of(mini_project, style, "odd: bleu")
    assert f"{style}:{line}: -: colors.odd: colour 'bleu' is not a colour" in output and "did you mean blue?" in output
