"""docs/tutorial.md, followed as written: the sample error is the one pnp
prints, a required stat is named missing on every card while an optional one
is not, and the Tabletop Simulator files it names are the ones written."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = (ROOT / "docs" / "tutorial.md").read_text()


def _section(title: str) -> str:
    return TUTORIAL.split(f"## {title}", 1)[1].split("\n## ", 1)[0]


@pytest.fixture
def dragon(tmp_path) -> Path:
    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        assert CliRunner().invoke(main, ["new-game", "dragon-market"]).exit_code == 0
    finally:
        os.chdir(old)
    return tmp_path


def validate(project: Path):
    return CliRunner().invoke(main, ["--project", str(project), "validate"])


def test_the_sample_error_is_what_pnp_prints(dragon):
    sample = next(l.strip() for l in _section("3. Make it yours").splitlines()
                  if l.startswith("    card_sources/dragon-market/starter.yaml:"))
    assert "Scout a cost of `-1`" in _section("3. Make it yours")
    deck = dragon / "card_sources" / "dragon-market" / "starter.yaml"
    text = deck.read_text()
    scout = text.index("id: dragon-market-scout")
    at = text.index("    cost: 1\n", scout)
    deck.write_text(text[:at] + "    cost: -1\n" + text[at + len("    cost: 1\n"):])
    result = validate(dragon)
    assert result.exit_code != 0
    assert sample in result.output, result.output


def test_a_required_stat_names_every_card_and_an_optional_one_none(dragon):
    section = _section("3. Make it yours")
    game = dragon / "card_sources" / "dragon-market" / "game.yaml"
    base = game.read_text()
    game.write_text(base.replace("      cost: int>=0\n", "      cost: int>=0\n      power: int\n"))
    result = validate(dragon)
    missing = re.findall(r"starter\.yaml:(\d+): (\S+): missing field 'power'", result.output)
    assert len(missing) == 4 and "all four" in section, result.output
    first_line, first_id = missing[0]
    assert f"starter.yaml:{first_line}: {first_id}: missing field 'power'" in " ".join(section.split())
    game.write_text(base.replace("      cost: int>=0\n", "      cost: int>=0\n      power: int?\n"))
    template = dragon / "templates" / "dragon-market" / "card.xml.j2"
    shown = re.search(r"`(\{% if card\.power.*?)`", section).group(1)
    template.write_text(template.read_text().replace("</card>", f'<text x="2" y="2" w="10" h="5" style="cost">{shown}</text>\n</card>'))
    result = validate(dragon)
    assert result.exit_code == 0, result.output


@pytest.mark.pdf
def test_the_tts_files_it_names_are_the_ones_written(dragon, tmp_path):
    section = _section("5. Playtest in Tabletop Simulator")
    named = set(re.findall(r"`([a-z0-9-]+\.(?:png|json))`", section)) - {"starter-sheet-2.png"}
    result = CliRunner().invoke(main, ["--project", str(dragon), "export", "dragon-market", "--shop", "tts"])
    assert result.exit_code == 0, result.output
    written = {p.name for p in (dragon / "output" / "dragon-market" / "shop-tts").iterdir()}
    assert named == written
