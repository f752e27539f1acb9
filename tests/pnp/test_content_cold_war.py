"""15 Minute Cold War content: the real decks validate, every composition rule
from the issue fails loudly when broken, and the Fallen Leader odds of the
rulebook's appendix follow from the card data."""
from __future__ import annotations

import dataclasses
import shutil
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from pnp.pipeline.prepare import card_context, prepare_game, validate
from pnp.errors import Problems, ValidationFailed
from pnp.faces.elements import QR, Text
from pnp.render.tools import load_tools
from pnp.sources.loader import load_sources

ROOT = Path(__file__).resolve().parents[2]
GAME = "cold-war"
SRC = f"card_sources/{GAME}"
DECKS = ("westmark", "albion", "vostokia", "grauberg")


@pytest.fixture(scope="module")
def game(checkout):
    """The game with its country decks only (the quick-reference deck is not a country)."""
    g = load_sources(checkout, [GAME]).games[GAME]
    return dataclasses.replace(g, decks=tuple(d for d in g.decks if d.id in DECKS))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the project holding only this game."""
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    shutil.copytree(ROOT / SRC, tmp_path / SRC)
    return tmp_path


def copies(deck):
    return [c for c in deck.cards for _ in range(c.quantity)]


# ---------------------------------------------------------------- (a) validates

def test_real_sources_validate(checkout):
    sources = validate(checkout, [GAME])
    g = sources.games[GAME]
    assert [d.id for d in g.decks] == list(DECKS) + ["reference"]
    assert {d.id: d.copies for d in g.decks if d.id in DECKS} == {d: 25 for d in DECKS}
    assert g.players == (2, 4)


def test_the_copy_validates(project):
    validate(project, [GAME])


# ------------------------------------------------- (b) broken rules are named

def edit_card(project: Path, deck: str, card_id: str, old: str, new: str) -> None:
    """Replace the first `old` after `- id: card_id` in a deck file."""
    path = project / SRC / f"{deck}.yaml"
    text = path.read_text()
    start = text.index(f"- id: {card_id}\n")
    at = text.index(old, start)
    assert at < text.find("- id: ", start + 6) or text.find("- id: ", start + 6) < 0, "edit left the card"
    path.write_text(text[:at] + new + text[at + len(old):])


BREAKS = [
    ("westmark", "cold-wm-orbital-umbrella", "shield: true", "shield: false",
     "Each deck has exactly 2 Special cards with the Shield icon", "has 1"),
    ("vostokia", "cold-vk-heavy-icbm", "triad: true\n    triad_leg: land\n", "triad: false\n",
     "Each deck has exactly 3 Military Power cards with the Nuclear Triad icon", "has 2"),
    ("albion", "cold-al-patrol-sub", "triad_leg: sea", "triad_leg: land",
     "The 3 Nuclear Triad cards are one each of land, sea and air", "has 2"),
    ("grauberg", "cold-gr-optics-works", "fallen_draw: lend", "fallen_draw: nothing",
     "Fallen Leader odds: all 5 Science & Culture cards are lent", "has 4"),
    ("westmark", "cold-wm-marines", "fallen_draw: attack", "fallen_draw: lend",
     "Fallen Leader odds: all 11 Military Power cards attack", "has 10"),
    ("grauberg", "cold-gr-artillery", "type: military", "type: military\n    quantity: 2",
     "Each country deck has exactly 25 cards", "has 26"),
    ("albion", "cold-al-foreign-sec", "type: assistant\n    defence: 100",
     "type: science\n    defence: 100", "Each deck has exactly 5 Science & Culture cards", "has 6"),
    ("vostokia", "cold-vk-marshal", "type: assistant\n    defence: 150\n    fallen_draw: nothing",
     "type: military\n    attack: 100\n    defence: 150\n    triad: false\n    fallen_draw: attack",
     "Each deck has exactly 11 Military Power cards", "has 12"),
]


@pytest.mark.parametrize("deck,card,old,new,rule,count", BREAKS, ids=[b[4][:40] for b in BREAKS])
def test_broken_composition_names_the_rule(project, deck, card, old, new, rule, count):
    edit_card(project, deck, card, old, new)
    with pytest.raises(ValidationFailed) as info:
        validate(project, [GAME])
    lines = [l for l in str(info.value).splitlines() if rule in l]
    assert lines, str(info.value)
    assert lines[0].startswith(f"{SRC}/game.yaml:")
    assert f"deck {deck}" in lines[0] and count in lines[0]


def test_three_decks_are_too_few(project):
    game_file = project / SRC / "game.yaml"
    text = game_file.read_text()
    cut = text.index("  - id: grauberg")
    game_file.write_text(text[:cut])
    with pytest.raises(ValidationFailed) as info:
        validate(project, [GAME])
    assert "at least 4 country decks" in str(info.value) and "has 3" in str(info.value)


def test_a_triad_leg_on_a_plain_military_card_is_refused(project):
    edit_card(project, "westmark", "cold-wm-marines", "triad: false", "triad: false\n    triad_leg: sea")
    with pytest.raises(ValidationFailed) as info:
        validate(project, [GAME])
    assert "Only Nuclear Triad cards name a triad leg" in str(info.value)


# ------------------------------------------------------ (c) numbers from data

def test_fallen_leader_odds_follow_from_the_data(game):
    """Appendix: 20.8% help (lend), 45.8% harm (attack), 33.3% nothing."""
    want = {"lend": (Fraction(5, 24), 20.8), "attack": (Fraction(11, 24), 45.8), "nothing": (Fraction(8, 24), 33.3)}
    for deck in game.decks:
        pile = [c for c in copies(deck) if c.type != "leader"]
        assert len(pile) == 24, deck.id
        counts = Counter(c.fields["fallen_draw"] for c in pile)
        for kind, (odds, percent) in want.items():
            assert Fraction(counts[kind], len(pile)) == odds, (deck.id, kind)
            assert round(100 * counts[kind] / len(pile), 1) == percent, (deck.id, kind)


def test_fallen_draw_matches_the_card_colour(game):
    """Brown Military attacks, blue Science & Culture is lent, the rest do nothing."""
    expected = {"military": "attack", "science": "lend", "assistant": "nothing", "special": "nothing"}
    for card in game.cards:
        if card.type != "leader":
            assert card.fields["fallen_draw"] == expected[card.type], card.id


def test_deck_make_up(game):
    for deck in game.decks:
        cards = copies(deck)
        types = Counter(c.type for c in cards)
        assert types["leader"] == 1 and types["military"] == 11 and types["science"] == 5
        assert types["assistant"] + types["special"] == 8 and types["assistant"] >= 1
        triads = [c for c in cards if c.type == "military" and c.fields["triad"]]
        assert sorted(c.fields["triad_leg"] for c in triads) == ["air", "land", "sea"], deck.id
        assert sum(1 for c in cards if c.type == "special" and c.fields["shield"]) == 2, deck.id


def test_values_use_the_rulebook_scale(game):
    """Every attack and defence is a multiple of 50, within the 50-300 band of
    the rulebook's 50 + 150 + 100 = 300 example, and each deck can rebuild that
    very stack: a 50 and a 150 Military defence plus one Propaganda card."""
    style = yaml.safe_load((ROOT / "templates" / GAME / "style.yaml").read_text())
    notes = yaml.safe_load((ROOT / SRC / "game.yaml").read_text())["notes"]
    assert style["propaganda"] == notes["propaganda_defence"] == 100
    for deck in game.decks:
        mil_def = set()
        for card in deck.cards:
            for key in ("attack", "defence"):
                v = card.fields.get(key)
                if v is not None:
                    assert v % 50 == 0 and 50 <= v <= 300, (card.id, key, v)
            if card.type == "military":
                mil_def.add(card.fields["defence"])
        assert {50, 150} <= mil_def, deck.id
        assert 50 + 150 + style["propaganda"] == 300


def test_ids_are_prefixed_and_short(game):
    for card in game.cards:
        assert card.id.startswith("cold-") and len(card.id) <= 32, card.id


# ----------------------------------------------------------- faces

@pytest.fixture(scope="module")
def faces(game):
    problems = Problems(ROOT)
    prepared, _ = prepare_game(game, load_tools(ROOT, GAME), problems)  # (deck faces, documents)
    assert not problems, problems.items
    return {d.deck.id: d for d in prepared}


def test_leader_face_carries_the_fallen_leader(game, faces):
    for deck in game.decks:
        leader = next(c for c in deck.cards if c.type == "leader")
        face = faces[deck.id].fronts[leader.id]
        text = " ".join(el.markup for el in face.elements if isinstance(el, Text))
        assert "FALLEN LEADER" in text and leader.fields["fallen_name"].replace("'", "&#39;") in text
        assert "no hand" in text and "+1 point" in text


def test_every_face_has_a_qr_and_readable_text(game, faces):
    for deck in game.decks:
        for card in deck.cards:
            face = faces[deck.id].fronts[card.id]
            qrs = [el for el in face.elements if isinstance(el, QR)]
            assert len(qrs) == 1 and qrs[0].size >= 15, card.id
            assert qrs[0].payload == card_context(card, deck, game)["payload"]
            for el in face.elements:
                if isinstance(el, Text) and el.markup and el.style in ("rules", "rules_light"):
                    assert el.size >= 6.75, (card.id, el.field, el.size)


def test_triad_and_shield_icons_are_printed(game, faces):
    import re

    from pnp.faces.elements import Icon, Text
    for deck in game.decks:
        for card in deck.cards:
            elements = faces[deck.id].fronts[card.id].elements
            names = {el.name for el in elements if isinstance(el, Icon)}
            badge = [el for el in elements if isinstance(el, Text) and el.field == "triad_leg"]
            inline = {m for el in badge for m in re.findall(r'name="([^"]+)"', el.markup)}  # the TRIAD chip's icon
            assert ("triad" in names | inline) == bool(card.fields.get("triad")), card.id
            assert ("shield" in names) == bool(card.fields.get("shield")), card.id
