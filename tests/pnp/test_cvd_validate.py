"""`pnp validate` refuses colour identities a colour-blind player cannot tell
apart when no symbol separates them, and one colour given to two identities
(issue 37, item 8): the decks' colours and every set a style declares (Culture
War's event bands, Petri dish's players and prime areas, ...). The shipped
games pass."""
from __future__ import annotations

from pathlib import Path

import shutil

import pytest
from PIL import Image

from helpers.designer import new_game, pnp, sources
from pnp.errors import Problems
from pnp.faces.templates import TemplateSet
from pnp.pipeline.prepare import load_sources
from pnp.sources.cvdcheck import THRESHOLD, closest_pairs, deck_set, measure
from pnp.sources.cvdsets import style_sets

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
    icons = project / "templates" / "dragon-market" / "icons.yaml"
    icons.write_text(icons.read_text() + "rival-mark:\n  - {circle: [0.5, 0.5, 0.4], fill: color}\n")
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
    assert result.exit_code == 0, result.output
    assert "share the icon" not in result.output


SHIPPED = ["cold-war", "culture-war", "debate", "divide-and-conquer", "petri-dish"]
DECLARED = {"cold-war": {"card type"}, "culture-war": {"event band"}, "debate": {"alignment", "marker"},
            "divide-and-conquer": {"wing", "card kind"}, "petri-dish": {"player", "prime area"}}


@pytest.mark.parametrize("slug", SHIPPED)
def test_the_shipped_games_have_no_clash(slug):
    game = load_sources(ROOT, [slug]).games[slug]
    closest, clashes = closest_pairs(game)
    assert clashes == []
    assert all(c.delta_e >= 0 for c in closest)
    assert THRESHOLD == 10.0
    templates = TemplateSet.load(ROOT, slug)
    problems = Problems(ROOT)
    sets = style_sets(game, templates.style, templates.style_files, problems)
    assert problems.items == []
    assert {s.what for s in sets} == DECLARED[slug]        # every colour set the game tells things apart by
    report, clashes = measure([deck_set(game), *sets])
    assert clashes == []
    assert all(len(closest) == 5 for _, closest in report)  # normal, protan, deutan, tritan, grey


def test_one_colour_for_two_decks_fails_even_with_distinct_icons(tmp_path):
    project = two_decks(new_game(tmp_path), icon="rival-mark")
    game = sources(project) / "game.yaml"
    game.write_text(game.read_text().replace('color: "#cc3333"', 'color: "#669900"'))
    result = pnp(project, "validate")
    assert result.exit_code != 0
    line = [ln for ln in result.output.splitlines() if "one colour for two decks" in ln]
    assert len(line) == 1 and "0.0 ΔE00 apart to normal vision" in line[0] and "game.yaml:" in line[0], result.output


def shipped_copy(tmp_path: Path, slug: str) -> Path:
    root = tmp_path / "shipped"
    shutil.copytree(ROOT / "card_sources" / slug, root / "card_sources" / slug)
    shutil.copytree(ROOT / "templates", root / "templates")
    return root


def test_the_debate_decks_that_shared_a_purple_are_caught(tmp_path):
    """Before: devices and tokens were both #6a3d9a, passed because their icons differ."""
    root = shipped_copy(tmp_path, "debate")
    game = root / "card_sources" / "debate" / "game.yaml"
    text = game.read_text()
    assert text.count('color: "#6a3d9a"') == 1
    game.write_text(text.replace('color: "#d9a928"', 'color: "#6a3d9a"'))
    result = pnp(root, "validate", "debate")
    assert result.exit_code != 0
    assert "debate: decks devices and tokens are 0.0 ΔE00 apart to normal vision" in result.output, result.output


def test_a_declared_colour_set_is_checked_and_a_printed_name_separates(tmp_path):
    project = new_game(tmp_path)
    style = project / "templates" / "dragon-market" / "style.yaml"
    base = style.read_text()
    # red and green: 62 ΔE00 apart to normal eyes, 7 for a deutan
    style.write_text(base + 'guilds:\n  fire: "#cc3333"\n  moss: "#669900"\n'
                     "identities:\n  guild: {colours: guilds}\n")
    result = pnp(project, "validate")
    assert result.exit_code != 0
    clash = [ln for ln in result.output.splitlines() if "guilds fire and moss" in ln]
    assert len(clash) == 1 and "under deutan simulation" in clash[0], result.output
    lines = style.read_text().splitlines()
    assert f"style.yaml:{lines.index('  guild: {colours: guilds}') + 1}:" in clash[0]
    style.write_text(base + 'guilds:\n  fire: "#cc3333"\n  moss: "#669900"\n'
                     "identities:\n  guild: {colours: guilds, named: true}\n")
    result = pnp(project, "validate")
    assert result.exit_code == 0, result.output
    assert "closest guild colours (ΔE00) normal 62" in result.output


def test_a_declaration_that_does_not_read_is_one_error_at_its_line(tmp_path):
    project = new_game(tmp_path)
    style = project / "templates" / "dragon-market" / "style.yaml"
    style.write_text(style.read_text() + "identities:\n  guild: {colours: no_such_key}\n")
    result = pnp(project, "validate")
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "identities: guild: style key 'no_such_key' is not a mapping of names to colours" in result.output


@pytest.mark.pdf
def test_the_petri_player_colours_are_what_the_tokens_print_and_what_is_checked(tmp_path):
    root = shipped_copy(tmp_path, "petri-dish")
    style = root / "templates" / "petri-dish" / "style.yaml"
    text = style.read_text()
    style.write_text(text.replace('black: "#1f1f1f"', 'black: "#2a4d8f"'))
    out = tmp_path / "black.png"
    assert pnp(root, "preview", "petri-germ-black", "--dpi", "300", "--out", str(out)).exit_code == 0
    image = Image.open(out).convert("RGB")
    token = image.crop((0, 0, image.height, image.height))   # the face: the left of face and back
    coloured = [(n, c) for n, c in token.getcolors(maxcolors=1 << 20) if min(c) < 230]   # not paper, not white marks
    assert max(coloured)[1] == (0x2a, 0x4d, 0x8f)            # the token's fill is the style's black
    style.write_text(text.replace('black: "#1f1f1f"', 'black: "#f4f4ec"'))   # as pale as white
    result = pnp(root, "validate", "petri-dish")
    assert result.exit_code != 0
    assert "petri-dish: players white and black are" in result.output and "to normal vision" in result.output


def test_the_debate_fortitude_markers_are_told_apart_by_colour_alone(tmp_path):
    """Both say FORTITUDE under the same icon: a gold turned navy-blue is refused."""
    root = shipped_copy(tmp_path, "debate")
    tokens = root / "card_sources" / "debate" / "tokens.yaml"
    tokens.write_text(tokens.read_text().replace('color: "#d9a928"', 'color: "#243457"'))
    result = pnp(root, "validate", "debate")
    assert result.exit_code != 0
    assert "debate: markers deb-fortitude-gold and deb-fortitude-navy are" in result.output, result.output
    assert "style.yaml:" in result.output and "no icon or printed name tells them apart" in result.output


def test_a_build_says_the_colour_clash_validate_refuses_and_again_while_it_holds(tmp_path):
    """The check runs on every build, not only `pnp validate`: a build draws what it is
    given and states the clash, at its file and line; an up-to-date build says it again,
    and a fixed colour silences it."""
    project = two_decks(new_game(tmp_path), icon="dragon-market-mark")  # collapses for a deutan
    first = pnp(project, "build")
    assert first.exit_code == 0, first.output
    said = [ln for ln in first.output.splitlines() if "share the icon" in ln]
    assert len(said) == 1 and said[0].startswith("warning: ") and "game.yaml:" in said[0], first.output
    assert "7.2 ΔE00 apart under deutan" in said[0] and "pnp validate" in said[0]
    again = pnp(project, "build")
    assert "up to date" in again.output and [ln for ln in again.output.splitlines() if "share the icon" in ln] == said
    game = sources(project) / "game.yaml"
    game.write_text(game.read_text().replace('color: "#cc3333"', 'color: "#1f4e99"'))  # blue beside the green
    fixed = pnp(project, "build")
    assert fixed.exit_code == 0 and "share the icon" not in fixed.output, fixed.output


def test_the_shipped_games_build_with_no_colour_warning():
    from pnp.pipeline.prepare import colour_identity_warnings

    for slug in SHIPPED:
        assert colour_identity_warnings(ROOT, load_sources(ROOT, [slug]).games[slug]) == []
