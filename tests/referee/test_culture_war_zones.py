"""Culture War's zones and phases beyond the scenario files: copy
conservation over random play, hand arithmetic, refusals that leave the
table byte-identical, the phase hook, and the rule sheet's house rules."""
from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.table import operations as table
from referee.cards.index import load_index, project_root
from referee.errors import RefereeError, RuleViolation
from referee.rules import rules_for
from referee.games.culture_war import commands as core
from referee.games.culture_war.table import zones
from referee.games.culture_war.table.cards import deck_size, resolve
from referee.games.culture_war.table.phases import Phase, phase_of
from referee.model import Action, GameSlug, Setup

ROOT = Path(__file__).resolve().parents[2]
FACTIONS = {"ann": "anarchy", "bo": "technocracy", "cy": "conservative"}


def _index():
    return {c.id: c for c in load_index(project_root()).cards.values() if c.game == "culture-war"}


CARDS = _index()
DECKS = {f: sorted(i for i, c in CARDS.items() if c.deck == f and c.type != "coin") for f in FACTIONS.values()}


def status_bytes(path: Path) -> str:
    """`status --json` as the command prints it."""
    return json.dumps(table.status(path).to_json(), indent=2, ensure_ascii=False)


# ---- invariants -----------------------------------------------------------------------


def where_cards_are(state) -> dict[str, Counter]:
    """Per owner, how many copies of each card are in play, attached, discarded or removed."""
    out: dict[str, Counter] = {p.name: Counter() for p in state.players}
    for piece in state.fields["pieces"].values():
        if piece.get("card"):
            out[piece["owner"]][piece["card"]] += 1
        for mod in piece.get("mods", []):
            if mod.get("card"):
                out[mod["by"]][mod["card"]] += 1
    for pile in ("discards", "removed"):
        for owner, entries in state.fields.get(pile, {}).items():
            for e in entries:
                if e.get("card"):
                    out[owner][e["card"]] += 1
    return out


def assert_conserved(state) -> None:
    """No card is in more places than it has printed copies (per owner), and
    every card of a faction deck is somewhere: hand + draw pile + the cards
    out of the deck (not Real Estate, not the Base Unit) = the deck's size."""
    for owner, counts in where_cards_are(state).items():
        for card, n in counts.items():
            assert n <= CARDS[card].quantity, f"{owner} has {card} in {n} places, printed {CARDS[card].quantity}"
    for p in state.players:
        size = deck_size(p.faction)
        hand, pile = p.fields["hand"], p.fields["draw_pile"]
        assert hand >= 0 and pile >= 0
        out = sum(n for card, n in where_cards_are(state)[p.name].items() if CARDS[card].type != "real-estate")
        assert hand + pile + out - 1 == size, f"{p.name}: {hand} + {pile} + {out - 1} != {size}"
        assert p.fields["discard_pile"] == len(state.fields["discards"][p.name])


# ---- random legal play ------------------------------------------------------------------

KINDS = ["rolloff", "card", "card", "card", "estate", "battle", "battle", "end", "draw", "toss", "discard",
         "capital", "life"]


def one_move(path: Path, kind: str, rng: random.Random) -> None:
    state = table.status(path).state
    names = [p.name for p in state.players]
    active = state.active_player.name
    who = active if rng.random() < 0.8 else rng.choice(names)
    pieces = state.fields["pieces"]
    handles = sorted(pieces, key=int) or ["1"]
    deck = DECKS[FACTIONS[who]]
    if kind == "rolloff":
        contenders = state.fields["order"]["contenders"] or names
        typed = ",".join(str(rng.randint(1, 6)) for _ in contenders)
        core.rolloff(path, typed if rng.random() < 0.5 else None)  # typed dice, or the table's seeded dice
    elif kind == "card":
        card = rng.choice([c for c in deck if CARDS[c].type != "real-estate"])
        target = rng.choice(handles + names) if rng.random() < 0.7 else None
        core.play(path, card, who, target)
    elif kind == "estate":
        core.play(path, rng.choice([c for c in deck if CARDS[c].type == "real-estate"]), who)
    elif kind == "battle":
        mine = [h for h, p in pieces.items() if p["owner"] == active and p["kind"] == "unit"] or handles
        theirs = [h for h, p in pieces.items() if p["owner"] != active and p["kind"] == "unit"]
        defender = rng.choice(theirs) if theirs and rng.random() < 0.8 else rng.choice(names)
        core.fight(path, rng.choice(mine), defender)
    elif kind == "end":
        table.act(path, "end-turn", {})
    elif kind == "draw":
        core.draw(path, rng.randint(1, 3), who)
    elif kind == "toss":
        core.discard_hand(path, rng.choice(deck), who)
    elif kind == "discard":
        core.simple(path, "discard", {"piece": rng.choice(handles)})
    elif kind == "life":  # sometimes enough to put a player out: their cards leave the game
        table.act(path, "life", {"player": rng.choice(names), "by": -rng.choice([2, 4, 45])})
    else:
        table.act(path, "capital", {"player": rng.choice(names), "by": rng.randint(1, 4)})


def play_randomly(moves, folder: Path) -> Counter:
    """Play `moves` on a new table file in `folder`; how many of each kind got through."""
    accepted: Counter = Counter()
    path = folder / "table.db"
    table.new_table(path, "culture-war", [f"{n}:{f}" for n, f in FACTIONS.items()], 7)
    assert_conserved(table.status(path).state)
    for kind, seed in moves:
        before = status_bytes(path)
        try:
            one_move(path, kind, random.Random(seed))
        except RefereeError:
            assert status_bytes(path) == before, f"a refused {kind} changed the table"
            continue
        accepted[kind] += 1
        state = table.status(path).state
        assert_conserved(state)
        if state.finished:
            break
    return accepted


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 10**9)), max_size=40))
def test_random_play_never_puts_a_card_in_more_places_than_printed(tmp_path_factory, moves):
    play_randomly(moves, tmp_path_factory.mktemp("zones"))


@pytest.mark.slow
def test_random_play_really_plays_and_gets_refused(tmp_path):
    """The property is only worth something if moves get through, and
    refusals happen too (a used copy, an empty hand, the wrong phase)."""
    rng = random.Random(3)
    accepted = play_randomly([(rng.choice(KINDS), rng.randrange(10**9)) for _ in range(250)], tmp_path)
    for kind in ("rolloff", "card", "estate", "battle", "end", "draw", "toss", "discard", "life"):
        assert accepted[kind] > 0, accepted


# ---- hooks and arithmetic --------------------------------------------------------------


def _state(*extra: tuple[str, str]):
    rules = rules_for("culture-war")
    return rules, rules.setup(Setup(GameSlug.CULTURE_WAR, (("ann", "anarchy"), ("bo", "technocracy")), 1,
                                    None, dict(extra)), ())


def test_the_phase_hook_names_each_phase():
    rules, state = _state()
    assert rules.phase(state) == "roll-off" and phase_of(state) is Phase.ROLL_OFF
    state = rules.apply(state, Action("rolloff", {"rolls": 2}), [2, 5])
    assert rules.phase(state) == "card deployment (bo's turn 1)"
    state = rules.apply(state, Action("battle", {"attacker": "4", "defender": "2", "rolls": 2}), [6, 1])
    assert phase_of(state) is Phase.COMBAT and rules.phase(state).startswith("combat")
    state = rules.apply(state, Action("end-turn", {}), [])
    assert rules.phase(state) == "card deployment (ann's turn 2)"
    assert rules.rules_can_decide(state)
    state = rules.apply(state, Action("life", {"player": "bo", "to": 0}), [])
    assert rules.phase(state) == "game over" and not rules.rules_can_decide(state)


@pytest.mark.parametrize("name, args", [
    ("end-turn", {}), ("draw", {"player": "ann", "count": 1}), ("ally", {"players": ["ann", "bo"]}),
    ("battle", {"attacker": "2", "defender": "4", "rolls": 2}), ("discard", {"piece": "2"}),
    ("donate", {"from": "ann", "to": "bo", "amount": 1}),
    ("play", {"player": "ann", "card": "anarchy-window-smasher", "_card": None}),
])
def test_before_the_roll_off_everything_else_is_refused(name, args):
    rules, state = _state()
    if "_card" in args:
        args = {**args, "_card": resolve("anarchy-window-smasher")}
    with pytest.raises(RuleViolation) as err:
        rules.check(state, Action(name, args))
    assert err.value.rule == "the first player is decided by a roll-off"
    assert str(err.value).startswith("roll-off phase: ")


def test_the_scorekeepers_corrections_are_not_play_and_pass_before_the_roll_off():
    rules, state = _state()
    for action in (Action("life", {"player": "bo", "by": -1}), Action("capital", {"player": "ann", "by": 2})):
        rules.check(state, action)
        state = rules.apply(state, action, [])
    assert (state.players[0].capital, state.players[1].life) == (3, 99) and rules.phase(state) == "roll-off"


def test_every_faction_starts_with_five_in_hand_and_the_rest_to_draw():
    rules = rules_for("culture-war")
    factions = ["anarchy", "community", "technocracy", "conservative", "libertarian"]
    state = rules.setup(Setup(GameSlug.CULTURE_WAR, tuple((f[:3], f) for f in factions), 1), ())
    for p in state.players:
        printed = sum(c.quantity for c in CARDS.values() if c.deck == p.faction)
        estates = sum(c.quantity for c in CARDS.values() if c.deck == p.faction and c.type == "real-estate")
        assert p.fields == {"hand": 5, "draw_pile": printed - estates - 1 - 5, "discard_pile": 0, "hand_known": []}


def test_a_player_without_a_faction_keeps_no_hand():
    rules = rules_for("culture-war")
    state = rules.setup(Setup(GameSlug.CULTURE_WAR, (("a", None), ("b", "anarchy")), 1, None,
                              {"first-player": "seating"}), ())
    assert state.players[0].fields == {} and state.players[1].fields["hand"] == 5
    with pytest.raises(RefereeError, match="no draw pile"):
        rules.check(state, Action("draw", {"player": "a", "count": 1}))
    after = rules.apply(state, Action("play", {"player": "a", "card": "anarchy-dumpster-diver",
                                               "_card": resolve("anarchy-dumpster-diver")}), [])
    assert after.players[0].fields == {}


def test_copies_are_counted_per_owner_from_the_card_index():
    rules, state = _state(("first-player", "seating"), ("starting-capital", "3"))
    card = resolve("anarchy-gas-mask")
    assert card["quantity"] == CARDS["anarchy-gas-mask"].quantity == 1
    action = Action("play", {"player": "ann", "card": card["id"], "_card": card, "on": "2"})
    rules.check(state, action)
    state = rules.apply(state, action, [])
    assert zones.places(state, "ann", "anarchy-gas-mask") == ["attached to #2 as a Mod"]
    assert zones.places(state, "bo", "anarchy-gas-mask") == []
    with pytest.raises(RuleViolation) as err:
        rules.check(state, action)
    assert err.value.rule == "printed copies" and "attached to #2 as a Mod" in str(err.value)


# ---- the rule sheet -----------------------------------------------------------------------


def test_the_rule_sheet_states_every_house_rule_with_its_range():
    text = (ROOT / "card_sources" / "culture-war" / "rules.md").read_text()
    rules = rules_for("culture-war")
    for key, rule in rules.house_rules.items():
        assert f"--house-rule {key}=" in text, key
        assert rule.choices or rule.minimum is not None, f"{key} has no range"
        if rule.choices:
            for choice in rule.choices:
                assert f"{key}={choice}" in text, f"the sheet does not name {key}={choice}"
        else:
            row = next(line for line in text.splitlines() if f"--house-rule {key}=" in line)
            assert f"N from {rule.minimum} to {rule.maximum}" in row, key
    assert not re.search(r"rulebook|\.ya?ml|\.py\b|nobody has to", text, re.I)


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_settle_skips_only_what_would_change_nothing(seed):
    """`zones.settle` returns the table as it is when no card changes zone;
    on every step of seeded random games (seen and unseen) it gives exactly
    what the full work-out (`zones.moved`) gives, and it skips some steps."""
    from dataclasses import replace as with_changes

    from referee.games.culture_war.rules import RULES
    from referee.simulate import play
    from referee.simulate.runner import make_plan

    config = with_changes(make_plan("culture-war", 4, (), ("random",), 1, seed=seed).config(0), keep=True)
    record = play._play_game(config)
    state = RULES.setup(play.setup_of(config), record.setup_dice)
    skipped = 0
    for step in record.steps:
        if step.action.name in ("battle", "window", "settle", "rolloff"):
            state = RULES.apply(state, step.action, step.dice)
            continue
        raw = super(type(RULES), RULES).game_apply(state, step.action, step.dice)  # before zones move cards
        quick, full = zones.settle(state, raw, step.action), zones.moved(state, raw, step.action)
        assert quick.to_dict() == full.to_dict()
        skipped += quick is raw
        state = RULES.apply(state, step.action, step.dice)
    assert skipped > 10 and len(record.steps) > skipped
