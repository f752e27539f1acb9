"""A hostile or broken source never hangs pnp nor makes it read outside the
project (issue 37): a YAML alias bomb is refused at once, wherever YAML is
read (a card file, a spreadsheet cell); a picture outside the project (a
template's `<art src="../...">`, an absolute path, a deck file or rule sheet
given as `../`) is refused with one error at its line; a runaway template is
one error, never an internal MemoryError."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers.designer import CARDS, GAME, new_game, pnp, sources

TEN = ", ".join(["*a{}"] * 10)


def alias_bomb(levels: int = 9) -> str:
    """Nested aliases: 10 ** levels leaves written in a few hundred bytes."""
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [{TEN.format(*[i - 1] * 10)}]" for i in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


@pytest.fixture
def project(tmp_path) -> Path:
    return new_game(tmp_path)


def _validate_in_a_process(project: Path) -> subprocess.CompletedProcess:
    """`pnp validate` in its own process, killed after 60 s: a hang fails the test instead of stalling the suite."""
    return subprocess.run([sys.executable, "-m", "pnp", "--project", str(project), "validate"],
                          capture_output=True, text=True, timeout=60, env={"PNP_NO_CACHE": "1", "PATH": ""})


def test_an_alias_bomb_in_a_card_file_is_refused_at_once(project):
    deck = sources(project) / "starter.yaml"
    deck.write_text(deck.read_text() + "\nextra:\n" + "".join("  " + line + "\n" for line in alias_bomb().splitlines()))
    start = time.monotonic()
    result = _validate_in_a_process(project)
    took = time.monotonic() - start
    assert result.returncode == 1, result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"Error: card_sources/{GAME}/starter.yaml:") and "aliases" in line and "1,000,000" in line
    assert "Traceback" not in result.stderr
    assert took < 30, took  # before the guard it ran until killed


def test_an_alias_that_holds_itself_is_refused(project):
    deck = sources(project) / "starter.yaml"
    deck.write_text(deck.read_text().replace("    flavor: \"Sees the road", "    traits: &loop [1, *loop]\n    flavor: \"Sees the road", 1))
    result = pnp(project, "validate")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "starter.yaml:10: -: a YAML alias refers to the value it is in" in result.output, result.output


def test_anchors_and_merge_keys_still_work(project):
    deck = sources(project) / "starter.yaml"
    text = deck.read_text()
    text = text.replace("  - id: dragon-market-messenger\n    name: Messenger\n    type: card\n    cost: 1\n",
                        "  - &plain\n    id: dragon-market-messenger\n    name: Messenger\n    type: card\n    cost: 1\n")
    text = text.replace("  - id: dragon-market-wildcard\n    name: Wildcard\n    type: card\n    cost: 3\n",
                        "  - <<: *plain\n    id: dragon-market-wildcard\n    name: Wildcard\n    cost: 3\n")
    deck.write_text(text)
    result = pnp(project, "list", GAME, "--json")
    assert result.exit_code == 0, result.output
    assert '"dragon-market-wildcard"' in result.output


def test_an_alias_bomb_in_a_spreadsheet_cell_is_one_error_at_its_row(project):
    game = sources(project) / "game.yaml"
    game.write_text(game.read_text().replace("file: starter.yaml", "file: starter.csv")
                    .replace("      cost: int>=0", "      cost: int>=0\n      tags: \"list[str]?\""))
    bomb = "[" + ", ".join(["&a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
                           + [f"&a{i} [{TEN.format(*[i - 1] * 10)}]" for i in range(1, 10)]) + "]"
    rows = ["id,name,type,cost,tags", "dragon-market-scout,Scout,card,1,\"" + bomb + "\"",
            "dragon-market-builder,Builder,card,2,"]
    (sources(project) / "starter.csv").write_text("\n".join(rows) + "\n")
    start = time.monotonic()
    result = pnp(project, "validate")
    assert time.monotonic() - start < 20
    assert result.exit_code == 1 and "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: card_sources/{GAME}/starter.csv:2: dragon-market-scout: "
                                                   "column tags: YAML aliases"), result.output


def test_a_template_art_outside_the_project_is_refused(project, tmp_path_factory):
    secret = tmp_path_factory.mktemp("elsewhere") / "secret.svg"
    secret.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>')
    template = project / "templates" / GAME / "card.xml.j2"
    original = template.read_text()
    relative = Path("..") / ".." / secret.relative_to(secret.parents[1])  # from the project to the other folder
    for src in (f"../{secret.parent.name}/{secret.name}", str(secret), f"templates/../../{relative}"):
        template.write_text(original.replace("</card>", f'<art src="{src}" x="5" y="20" w="20" h="20"/>\n</card>'))
        result = pnp(project, "validate")
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
        assert f"templates/{GAME}/card.xml.j2:17: " in result.output, result.output
        assert "outside the project" in result.output, result.output
        assert len(result.output.strip().splitlines()) == 1, result.output


def test_a_link_in_templates_art_to_a_file_outside_is_refused(project, tmp_path_factory):
    secret = tmp_path_factory.mktemp("elsewhere") / "secret.svg"
    secret.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>')
    art = project / "templates" / "art"
    art.mkdir()
    (art / "innocent.svg").symlink_to(secret)
    (sources(project) / "art.yaml").write_text(f"cards:\n  {CARDS[0]}: innocent\n")
    result = pnp(project, "validate")
    assert result.exit_code == 1 and "art.yaml:2: dragon-market-scout: no illustration" in result.output, result.output


def test_a_deck_file_or_rule_sheet_outside_the_project_is_refused(project, tmp_path_factory):
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (elsewhere / "cards.yaml").write_text((sources(project) / "starter.yaml").read_text())
    (elsewhere / "rules.md").write_text("# Secret\n\nNot yours.\n")
    game = sources(project) / "game.yaml"
    text = game.read_text()
    up = f"../../../{elsewhere.name}"
    game.write_text(text.replace("file: starter.yaml", f"file: {up}/cards.yaml")
                    .replace("source: rules.md", f"source: {up}/rules.md"))
    result = pnp(project, "validate")
    assert result.exit_code == 1 and "Traceback" not in result.output
    out = result.output
    assert f"game.yaml:17: -: deck 'starter': file '{up}/cards.yaml' is outside the project" in out, out
    assert f"game.yaml:26: rules: rule sheet source '{up}/rules.md' is outside the project" in out, out


@pytest.mark.parametrize("runaway", ["{{ 'x' * 3000000000 }}", "{{ [0] * 10000000000 }}", "{{ 7 ** 99999999 }}",
                                     "{% set s = 'x' * 900 %}{{ 10000 * s }}"])
def test_a_runaway_template_is_one_error_at_its_line(project, runaway):
    template = project / "templates" / GAME / "card.xml.j2"
    template.write_text(template.read_text().replace("</card>", f"<!-- {runaway} -->\n</card>"))
    start = time.monotonic()
    result = pnp(project, "validate")
    assert time.monotonic() - start < 20
    assert result.exit_code == 1, result.output
    assert "internal error" not in result.output and "MemoryError" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: templates/{GAME}/card.xml.j2:17: ")
    assert "more than" in lines[0] and "a template may make" in lines[0], lines[0]


def test_a_runaway_rule_sheet_is_one_error(project):
    rules = sources(project) / "rules.md"
    rules.write_text(rules.read_text() + "\n{{ 'x' * 3000000000 }}\n")
    result = pnp(project, "validate")
    assert result.exit_code == 1 and "internal error" not in result.output
    assert "rules.md" in result.output and "a template may make" in result.output, result.output
