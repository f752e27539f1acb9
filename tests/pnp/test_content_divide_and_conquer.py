"""Political Divide & Conquer: the shared deck validates, its composition rules
bite when broken, and the numbers the issue asks for hold in the card data."""
from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from pnp.build import validate
from pnp.errors import ValidationFailed
from pnp.sources import load_sources

ROOT = Path(__file__).resolve().parents[2]
GAME = "divide-and-conquer"
DECK = f"card_sources/{GAME}/deck.yaml"


def _copy_project(dest: Path) -> Path:
    """This game alone, with the real templates, so other games' state cannot interfere."""
    shutil.copytree(ROOT / "templates", dest / "templates")
    shutil.copytree(ROOT / "card_sources" / GAME, dest / "card_sources" / GAME)
    return dest


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return _copy_project(tmp_path)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    root = _copy_project(tmp_path_factory.mktemp("dc"))
    return load_sources(root, [GAME]).games[GAME]


def copies(cards, **where):
    return sum(c.quantity for c in cards if all(c.fields.get(k) == v for k, v in where.items()))


def problems(project: Path) -> list[str]:
    with pytest.raises(ValidationFailed) as info:
        validate(project, [GAME])
    return str(info.value).splitlines()


def edit(project: Path, old: str, new: str, count: int = 1) -> None:
    path = project / DECK
    text = path.read_text()
    assert old in text, f"{old!r} not in {DECK}"
    path.write_text(text.replace(old, new, count))


# (a) the real sources validate, templates and all ---------------------------------

def test_real_sources_validate(project):
    sources = validate(project, [GAME])
    g = sources.games[GAME]
    assert [d.id for d in g.decks][0] == "shared"  # the quick-reference deck may follow
    assert sum(c.quantity for c in g.cards) >= 100


def test_ids_carry_the_game_prefix_and_no_other_game_uses_it(game):
    assert all(c.id.startswith("dc-") and len(c.id) <= 32 for c in game.cards)
    for other in (ROOT / "card_sources").glob("*/*.yaml"):
        if other.parent.name != GAME:
            assert "id: dc-" not in other.read_text(), f"{other} uses the dc- prefix"


# (b) breaking a composition rule fails, naming the rule -----------------------------

BREAKS = [
    ("a third influence-6 group", "    wing: left\n    influence: 3\n", "    wing: left\n    influence: 6\n",
     "Exactly two groups have influence 6"),
    ("both influence-6 groups on one wing", "    wing: left\n    influence: 6\n", "    wing: right\n    influence: 6\n",
     "One of the two influence-6 groups is left-wing"),
    ("no Lawyers-like asset", "ability: defends-all", "ability: plain", "There is a Lawyers-like asset that joins every defence"),
    ("no Conspiracy-like asset", "ability: base-joins-attacks", "ability: plain",
     "There is a Conspiracy-Theorist-like asset that lets a base group join attacks"),
    ("no table-wide events", "scope: everyone", "scope: one-player", "There are events that hit everyone at the table"),
    ("no one-target events", "scope: one-target", "scope: one-player", "There are events that hit one target"),
]


@pytest.mark.parametrize("what, old, new, rule", BREAKS, ids=[b[0] for b in BREAKS])
def test_broken_composition_names_the_rule(project, what, old, new, rule):
    edit(project, old, new, count=-1 if old.startswith(("ability", "scope")) else 1)
    lines = problems(project)
    assert any("composition rule broken in deck shared" in line and rule in line for line in lines), lines


def test_a_short_deck_fails_naming_the_size_rule(project):
    path = project / DECK
    text = path.read_text()
    path.write_text(text.split("  # ------------------------------------------------------ events")[0])
    lines = problems(project)
    assert any("The shared deck has at least 100 cards" in line and "has 92" in line for line in lines), lines


# (c) the numbers the issue and the rulebook demand ------------------------------

def test_at_least_100_cards_and_room_to_draw_at_eight_players(game):
    total = sum(c.quantity for c in game.cards)
    assert total >= 100
    # eight players are dealt 6 each and still draw for several rounds
    assert total - 8 * 6 >= 8 * 6


def test_influence_distribution(game):
    groups = [c for c in game.cards if c.type == "group"]
    by_value = Counter()
    for c in groups:
        by_value[c.fields["influence"]] += c.quantity
    assert set(by_value) <= {1, 2, 3, 4, 5, 6}
    assert by_value[4] == by_value[5] == by_value[6] == 2
    for value in (4, 5, 6):  # "two of each": one per wing
        assert copies(groups, influence=value, wing="left") == 1
        assert copies(groups, influence=value, wing="right") == 1
    low = sum(by_value[v] for v in (1, 2, 3))
    assert low > sum(by_value.values()) / 2  # most groups are 1-3
    assert all(by_value[v] > 0 for v in (1, 2, 3))


def test_the_wings_are_balanced(game):
    groups = [c for c in game.cards if c.type == "group"]
    for wing in ("left", "right"):
        assert copies(groups, wing=wing) == 26
    total = {w: sum(c.fields["influence"] * c.quantity for c in groups if c.fields["wing"] == w) for w in ("left", "right")}
    assert total["left"] == total["right"]


def _influence_effects(card):
    return [e for e in card.fields["effects"] if e["stat"] == "influence"]


WHEN = {"plain": None, "defence-only": "on-defend", "attack-only": "on-attack"}


@pytest.mark.parametrize("kind, sign", [("asset", 1), ("deficit", -1)])
def test_modifiers_are_data_and_match_their_effects(game, kind, sign):
    cards = [c for c in game.cards if c.type == kind]
    assert cards
    for c in cards:
        n, ability = c.fields["modifier"], c.fields["ability"]
        assert n * sign >= 0, f"{c.id}: an {kind} never has a {('negative', 'positive')[sign < 0]} modifier"
        effects = _influence_effects(c)
        if ability in WHEN:
            assert n != 0, f"{c.id}: a {ability} card changes influence"
            assert effects == [dict({"stat": "influence", "amount": n, "target": "attached"},
                                    **({"when": WHEN[ability], "duration": "battle"} if WHEN[ability] else {}))], c.id
        else:
            assert n == 0 and effects == [], f"{c.id}: a special card's power is its ability field"
            assert c.fields["text"], f"{c.id}: a special card explains its power"


def test_plain_and_special_assets_and_deficits(game):
    assets = [c for c in game.cards if c.type == "asset"]
    deficits = [c for c in game.cards if c.type == "deficit"]
    assert {c.fields["modifier"] for c in assets if c.fields["ability"] == "plain"} == {1, 2, 3}
    assert {c.fields["modifier"] for c in deficits if c.fields["ability"] == "plain"} == {-1, -2, -3}
    assert copies(assets, ability="defends-all") >= 1
    assert copies(assets, ability="base-joins-attacks") >= 1
    assert copies(assets, ability="event-immune") >= 1


def test_events_cover_every_scope(game):
    events = [c for c in game.cards if c.type == "event"]
    assert {c.fields["scope"] for c in events} == {"one-target", "one-player", "everyone"}
    # the rulebook's two examples: a Scandal-like hit on one group, a table-wide strike on one wing
    assert any(c.fields["scope"] == "one-target" and c.fields["action"] == "destroy-group" for c in events)
    wings = {c.fields["wing"] for c in events if c.fields["scope"] == "everyone" and c.fields["action"] == "destroy-group"}
    assert wings == {"left", "right"}  # satire lands on both sides
