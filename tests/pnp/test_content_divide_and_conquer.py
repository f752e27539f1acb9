"""Political Divide & Conquer: the shared deck validates, its composition rules
bite when broken, and the numbers the issue asks for hold in the card data."""
from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
import yaml

from pnp.pipeline.prepare import validate
from pnp.errors import ValidationFailed
from pnp.sources.loader import load_sources

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

TABLE_WIDE = r"kind: (each-discards-group|everyone-draws|everyone-discards|pass-left)\b[^}]*"
ONE_TARGET = r"kind: (discard-group|unaffiliate-group|claim-unaffiliated|discard-attachment)\b[^}]*"
BREAKS = [
    ("a third influence-6 group", "    wing: left\n    influence: 3\n", "    wing: left\n    influence: 6\n",
     "Exactly two groups have influence 6"),
    ("both influence-6 groups on one wing", "    wing: left\n    influence: 6\n", "    wing: right\n    influence: 6\n",
     "One of the two influence-6 groups is left-wing"),
    ("no Lawyers-like asset", r"\{kind: defends-all\}", "{kind: influence, amount: 1}",
     "There is a Lawyers-like asset that joins every defence"),
    ("no Conspiracy-like asset", r"\{kind: base-joins-attacks\}", "{kind: influence, amount: 1}",
     "There is a Conspiracy-Theorist-like asset that lets a base group join attacks"),
    ("no table-wide events", TABLE_WIDE, "kind: player-draws, count: 1, when: on-play",
     "There are events that hit everyone at the table"),
    ("no one-target events", ONE_TARGET, "kind: player-draws, count: 1, when: on-play",
     "There are events that hit one target"),
]


@pytest.mark.parametrize("what, old, new, rule", BREAKS, ids=[b[0] for b in BREAKS])
def test_broken_composition_names_the_rule(project, what, old, new, rule):
    if old.startswith("    "):
        edit(project, old, new)
    else:  # a pattern: every effect it matches changes
        path = project / DECK
        text, n = re.subn(old, new, path.read_text())
        assert n, old
        path.write_text(text)
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


def effect(card) -> dict:
    """The one effect of an asset, deficit or event."""
    assert len(card.fields["effects"]) == 1, card.id
    return card.fields["effects"][0]


AMOUNTS = ("influence", "fight-influence")


@pytest.mark.parametrize("kind, sign", [("asset", 1), ("deficit", -1)])
def test_modifiers_are_effects_and_never_change_sign(game, kind, sign):
    cards = [c for c in game.cards if c.type == kind]
    assert cards
    for c in cards:
        e = effect(c)
        if e["kind"] in AMOUNTS:
            assert e["amount"] * sign > 0, f"{c.id}: an {kind} changes influence by a {('positive', 'negative')[sign < 0]} amount"
        else:
            assert "amount" not in e, c.id
        assert c.text, f"{c.id}: every asset and deficit prints its rule"


def kinds_of(cards, kind):
    return sum(c.quantity for c in cards if effect(c)["kind"] == kind)


def test_plain_and_special_assets_and_deficits(game):
    assets = [c for c in game.cards if c.type == "asset"]
    deficits = [c for c in game.cards if c.type == "deficit"]
    assert {effect(c)["amount"] for c in assets if effect(c)["kind"] == "influence"} == {1, 2, 3}
    assert {effect(c)["amount"] for c in deficits if effect(c)["kind"] == "influence"} == {-1, -2, -3}
    for kind in ("defends-all", "base-joins-attacks", "event-immune"):
        assert kinds_of(assets, kind) >= 1, kind
    for kind in ("flips-wing", "cancels-assets"):
        assert kinds_of(deficits, kind) >= 1, kind
    assert {effect(c)["when"] for c in assets if effect(c)["kind"] == "fight-influence"} == {"on-attack", "on-defend"}


def test_events_cover_every_scope(game):
    scopes = yaml.safe_load((ROOT / "templates" / GAME / "style.yaml").read_text())["event_scopes"]
    events = [c for c in game.cards if c.type == "event"]
    assert {scopes[effect(c)["kind"]] for c in events} == {"one-target", "one-player", "everyone"}
    # the rulebook's two examples: a Scandal-like hit on one group, a table-wide strike on one wing
    assert any(effect(c)["kind"] == "discard-group" for c in events)
    wings = {effect(c).get("wing") for c in events if effect(c)["kind"] == "each-discards-group"}
    assert wings == {"left", "right"}  # satire lands on both sides
