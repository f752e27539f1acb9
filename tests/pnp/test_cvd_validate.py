"""`pnp validate` refuses deck colours a colour-blind player cannot tell
apart when no icon separates them (issue 37, item 8); the shipped games pass."""
from __future__ import annotations

from pathlib import Path

import pytest

from helpers.designer import new_game, pnp, sources
from pnp.pipeline.prepare import load_sources
from pnp.sources.cvdcheck import THRESHOLD, closest_pairs

ROOT = Path(__file__).resolve().parents[2]


def two_decks(project: Path, icon: str) -> Path:
    """dragon-market with a second deck, red beside the first deck made green
    (#cc3333 / #669900: 62 ΔE00 apart to normal eyes, 7 for a deutan)."""
    src = sources(project)
    game = src / "game.yaml"
    text = game.read_text().replace('color: "#3b6ea5"', 'color: "#669900"')
    text = text.replace("\ndocuments:", f"""
  - id: rival
    name: Rival deck
    file: rival.yaml
    back: back
    color: "#cc3333"
    icon: {icon}

documents:""")
    game.write_text(text)
    (src / "rival.yaml").write_text((src / "starter.yaml").read_text().replace("id: dragon-market-", "id: rival-"))
    return project


def test_two_decks_that_collapse_for_a_deutan_fail_with_one_clear_error(tmp_path):
    project = two_decks(new_game(tmp_path), icon="dragon-market-mark")  # same icon as starter
    result = pnp(project, "validate")
    assert result.exit_code != 0
    clash = [ln for ln in result.output.splitlines() if "share the icon" in ln]
    assert len(clash) == 1 and "7.2 ΔE00 apart under deutan" in clash[0], result.output
    assert "dragon-market" in clash[0] and "starter" in clash[0] and "rival" in clash[0]
    assert "game.yaml" in clash[0]
    assert "Traceback" not in result.output


def test_a_distinct_icon_is_the_symbol_that_lets_them_pass(tmp_path):
    project = two_decks(new_game(tmp_path), icon="rival-mark")
    result = pnp(project, "validate")
    assert "share the icon" not in result.output, result.output


@pytest.mark.parametrize("slug", ["cold-war", "culture-war", "debate", "divide-and-conquer", "petri-dish"])
def test_the_shipped_games_have_no_clash(slug):
    game = load_sources(ROOT, [slug]).games[slug]
    closest, clashes = closest_pairs(game)
    assert clashes == []
    assert all(c.delta_e >= 0 for c in closest)
    assert THRESHOLD == 10.0
