"""Divide & Conquer: card text is rules. Every asset, deficit and event
prints the text of its one effect (card_sources/divide-and-conquer/
effects.yaml), and the referee applies that same effect:

- every kind marked `applied: true` has a handler in
  referee/games/divide_and_conquer/effects.py (and no handler is left over);
- every card, played in a legal situation, leaves a trace: the table comes
  out different because of its effect (or a prompt waits; no kind needs one
  today);
- every kind and every trigger has a scenario file
  (tests/referee/scenarios/divide-and-conquer-effect-*.yaml, `covers:`).
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml

from referee.rules import prompts
from referee.cards import lookup
from referee.cards.index import load_index, project_root
from referee.errors import CardError, RuleViolation
from referee.rules import rules_for
from referee.games.divide_and_conquer import battle
from referee.games.divide_and_conquer.effects import HANDLERS, card_fields
from referee.model import Action, GameSlug, Setup

from test_rules_divide_and_conquer import card, play, step  # the same helpers as the rules tests

ROOT = Path(__file__).resolve().parents[2]
GAME = "divide-and-conquer"
RULES = rules_for(GAME)
PLAYERS = ("Ana", "Ben", "Cy", "Dee")
SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob(f"{GAME}-effect-*.yaml"))


def vocabulary():
    from pnp.errors import Problems
    from pnp.sources.effectcheck import load_vocabulary

    problems = Problems(ROOT)
    vocab = load_vocabulary(ROOT / "card_sources" / GAME / "effects.yaml", problems)
    assert not problems, problems
    return vocab


def rules_cards():
    index = load_index(project_root())
    return sorted((c for c in index.cards.values() if c.game == GAME and c.type in ("asset", "deficit", "event")),
                  key=lambda c: c.id)


def the_effect(card_id: str) -> dict:
    effects = lookup(card_id).card.fields["effects"]
    assert len(effects) == 1, card_id
    return effects[0]


# ---- the vocabulary and the handlers -----------------------------------------------------------


def test_every_applied_kind_has_a_referee_handler_and_no_handler_is_left_over():
    vocab = vocabulary()
    applied = {name for name, kind in vocab.kinds.items() if kind.applied}
    missing = sorted(applied - set(HANDLERS))
    assert not missing, f"kinds marked applied: true in effects.yaml with no referee handler: {missing}"
    assert not sorted(set(HANDLERS) - set(vocab.kinds)), "handlers for kinds effects.yaml does not have"
    for name, handler in HANDLERS.items():
        assert set(handler.moments) <= set(vocab.triggers), name


def test_kinds_a_person_must_carry_out_are_prompted():
    """A kind marked applied: false would need a prompt at its moment; the
    game has none today, so every card's coverage is full."""
    vocab = vocabulary()
    assert [name for name, kind in vocab.kinds.items() if not kind.applied] == []
    from pnp.sources.loader import load_sources

    game = load_sources(ROOT, [GAME]).games[GAME]
    assert {c.coverage.value for c in game.cards if c.type in ("asset", "deficit", "event")} == {"full"}


def test_a_card_with_an_effect_the_referee_cannot_apply_is_refused_by_name():
    with pytest.raises(CardError, match="dc-x: the referee has no handler for effect kind 'teleport'"):
        card_fields("dc-x", "asset", [{"kind": "teleport"}])
    with pytest.raises(CardError, match="goes on event cards, not a asset"):
        card_fields("dc-x", "asset", [{"kind": "player-draws", "count": 1, "when": "on-play"}])
    with pytest.raises(CardError, match="happens on-attack or on-defend, not while-in-play"):
        card_fields("dc-x", "asset", [{"kind": "fight-influence", "amount": 2}])
    with pytest.raises(CardError, match="has 2 effects"):
        card_fields("dc-x", "asset", [{"kind": "event-immune"}, {"kind": "defends-all"}])


def test_the_printed_scope_of_each_event_kind_is_the_referees():
    style = yaml.safe_load((ROOT / "templates" / GAME / "style.yaml").read_text())
    events = {name: h for name, h in HANDLERS.items() if h.types == ("event",)}
    assert style["event_scopes"] == {name: h.fields({"count": 1})["scope"] for name, h in events.items()}


def test_every_rules_card_carries_its_text_and_what_its_effect_means_to_the_rules():
    for c in rules_cards():
        assert c.fields["text"], c.id
        entry = card(c.id)
        assert ("ability" in entry) if c.type != "event" else ("action" in entry and "scope" in entry), c.id


# ---- walk every card ----------------------------------------------------------------------------


def start():
    return RULES.setup(Setup(GameSlug.DIVIDE_AND_CONQUER, tuple((p, None) for p in PLAYERS), 1,
                             house_rules={"deck-size": "60"}), ())


def as_turn_of(state, name):
    return replace(state, active=[p.name for p in state.players].index(name))


def situation():
    """Ana: g1 Tenured Faculty Lounge (left 4, with a +1 asset) and g4 Latte
    Liberals (left 2); Cy: g2 Cable News Opinion Desk (right 3); g3 Gun Show
    Regulars (right 2) unaffiliated. Ana's turn."""
    state = start()
    state = play(state, "recruit", "dc-left-tenured-faculty-lounge")        # Ana: g1
    state = play(state, "attach", "dc-asset-viral-hashtag", onto="g1")       # Ben
    state = play(state, "recruit", "dc-right-cable-news-opinion")           # Cy: g2
    state = play(state, "unaffiliate", "dc-right-gun-show-regulars")        # Dee: g3
    state = play(state, "recruit", "dc-left-latte-liberals")                # Ana: g4
    return as_turn_of(state, "Ana")


def attempt(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except RuleViolation as refused:
        return f"refused ({refused.rule})"


def _defence(state, target):
    s = as_turn_of(state, "Ben")
    s = step(s, "attack", player="Ben", target=target, intent="destroy")
    s = step(s, "team", player="Ben", cards=[], _groups=[], _attach=[])
    s = step(s, "call", player=s.fields["attack"]["defender"])
    return battle.totals(s.fields)[2]


def _join(state):
    s = as_turn_of(state, "Ana")
    s = step(s, "attack", player="Ana", target="g3", intent="take-over")
    s = step(s, "team", player="Ana", cards=[], _groups=[], _attach=[], join=["g1"])
    return battle.totals(s.fields)[0]


def probes(state) -> dict[str, Any]:
    """What the table's rules make of it: the scores, the defence of g1 and of
    g4, whether g1 may join Ana's attack, whether an event may pick g1."""
    return {
        "scores": {p.name: (p.fields["left"], p.fields["right"], p.fields["net"]) for p in state.players},
        "defend g1": attempt(lambda: _defence(state, "g1")),
        "defend g4": attempt(lambda: _defence(state, "g4")),
        "g1 joins": attempt(lambda: _join(state)),
        "event on g1": attempt(lambda: bool(play(as_turn_of(state, "Ana"), "event", "dc-event-career-ending-scandal",
                                                 groups=["g1"]))),
    }


def _in_a_fight(state, attach: list) -> int:
    """Ana attacks g3 with Graduate Student Union from her hand, with `attach` on it."""
    s = step(state, "attack", player="Ana", target="g3", intent="take-over")
    s = step(s, "team", player="Ana", cards=["dc-left-graduate-student-union"],
             _groups=[card("dc-left-graduate-student-union")], _attach=attach)
    return battle.totals(s.fields)[0]


EVENT_ARGS: dict[str, Callable[[dict], dict]] = {
    "discard-group": lambda e: {"groups": ["g2"]},
    "each-discards-group": lambda e: {"groups": ["g4"] if e.get("wing") == "left" else ["g2"]},
    "unaffiliate-group": lambda e: {"groups": ["g2"]},
    "claim-unaffiliated": lambda e: {"groups": ["g3"]},
    "discard-attachment": lambda e: {"groups": ["g1"], "attachment": "dc-asset-viral-hashtag"},
    "player-draws": lambda e: {"pick": "Ben"},
    "blind-discard": lambda e: {"pick": "Ben"},
    "take-from-hand": lambda e: {"pick": "Ben"},
    "everyone-draws": lambda e: {},
    "everyone-discards": lambda e: {},
    "pass-left": lambda e: {},
}


def table_of(state, actor: str, event_id: str) -> dict[str, Any]:
    """The table an event may change, less its own bookkeeping (the event
    card leaving the actor's hand for the discard pile)."""
    f = state.fields
    return {"bases": f["bases"], "unaffiliated": f["unaffiliated"], "deck": f["deck"],
            "discard": [c for c in f["discard"] if c != event_id], "hidden": f.get("hidden_discards"),
            "hands": {p.name: p.fields["hand"] + (1 if p.name == actor and event_id in f["discard"] else 0)
                      for p in state.players}}


def test_every_event_kind_and_every_fight_moment_has_a_walk():
    for name, handler in HANDLERS.items():
        if handler.types == ("event",):
            assert name in EVENT_ARGS, name


@pytest.mark.parametrize("card_id", [c.id for c in rules_cards()])
def test_every_card_played_in_a_legal_situation_leaves_a_trace(card_id):
    before = situation()
    effect = the_effect(card_id)
    kind, when = effect["kind"], effect.get("when", "while-in-play")
    if kind in EVENT_ARGS:
        if kind == "pass-left":  # with every hand full the counts stay put: Cy's hand is empty here
            before = as_turn_of(step(before, "hand", player="Cy", to=0), "Ana")
        after = play(before, "event", card_id, **EVENT_ARGS[kind](effect))
        passed = step(before, "end-turn")  # the same turn with no event: the next player draws all the same
        assert prompts.pending(after) or table_of(after, "Ana", card_id) != table_of(passed, "Ana", card_id), \
            f"{card_id}: played, and nothing on the table changed"
        assert after.fields["last_event"]["card"] == card_id
        return
    if when == "on-attack":
        plain = _in_a_fight(before, [])
        boosted = _in_a_fight(before, [{"card": card(card_id), "onto": "new:0"}])
        assert boosted - plain == effect["amount"], card_id
        return
    after = play(before, "attach", card_id, onto="g1")
    seen, was = probes(after), probes(before)
    assert prompts.pending(after) or seen != was, f"{card_id}: attached, and nothing the rules decide changed"
    changed = {k for k in seen if seen[k] != was[k]}
    expected = {
        "influence": {"scores", "defend g1"},
        "fight-influence": {"defend g1"},
        "defends-all": {"defend g4"},
        "base-joins-attacks": {"g1 joins"},
        "event-immune": {"event on g1"},
        "flips-wing": {"scores"},
        "cancels-assets": {"scores", "defend g1"},
    }[kind]
    assert expected <= changed, (card_id, changed)


# ---- scenario data per kind and per trigger ---------------------------------------------------


def test_every_kind_and_every_trigger_has_a_scenario_that_plays_such_a_card():
    vocab = vocabulary()
    kinds, triggers = set(), set()
    for path in SCENARIOS:
        scenario = yaml.safe_load(path.read_text())
        covers = scenario.get("covers") or {}
        assert covers.get("kinds"), f"{path.name}: say which kinds it covers (covers: {{kinds: [...]}})"
        run = " ".join(str(s.get("run", "")) for s in scenario.get("steps") or ())
        played = {(e["kind"], e.get("when", "while-in-play")) for c in rules_cards() if c.id in run
                  for e in c.fields["effects"]}
        for kind in covers["kinds"]:
            assert kind in {k for k, _ in played}, f"{path.name}: covers {kind} but plays no such card"
        for trigger in covers.get("triggers") or ():
            assert trigger in {w for k, w in played if k in covers["kinds"]}, f"{path.name}: {trigger}"
        kinds |= set(covers["kinds"])
        triggers |= set(covers.get("triggers") or ())
    assert sorted(set(vocab.kinds) - kinds) == [], "effect kinds with no scenario"
    assert sorted(set(vocab.triggers) - triggers) == [], "triggers with no scenario"


# ---- an owner's pick is a prompt ---------------------------------------------------------------


def test_on_the_last_turn_the_game_waits_for_every_owners_pick_before_it_ends():
    state = RULES.setup(Setup(GameSlug.DIVIDE_AND_CONQUER, tuple((p, None) for p in PLAYERS), 1,
                              house_rules={"deck-size": "28"}), ())
    state = play(state, "recruit", "dc-right-defence-contractor")      # Ana: g1
    state = play(state, "recruit", "dc-right-crypto-bros")             # Ben: g2
    state = play(state, "recruit", "dc-left-latte-liberals")           # Cy: g3; Dee draws the last card
    assert state.fields["deck"] == 0 and state.fields["last_drawer"] == "Dee"
    state = play(state, "event", "dc-event-market-crash")
    waiting = prompts.pending(state)
    assert [(p.player, p.choices, p.moment) for p in waiting] == [("Ana", ("g1",), "played"), ("Ben", ("g2",), "played")]
    assert "Ana picks the right-wing group they give up: g1 Defence Contractor Cartel." in waiting[0].text
    assert not state.fields["over"] and state.active_player.name == "Dee"
    with pytest.raises(RuleViolation, match="end-turn must wait: waiting for Ana"):
        RULES.check(state, Action("end-turn", {}, None))
    with pytest.raises(RuleViolation, match="prompt 1 is for Ana, not Ben"):
        RULES.check(state, Action("resolve", {"prompt": 1, "answer": "g1"}, "Ben"))
    state = step(state, "resolve", prompt=1, answer="g1")
    assert not state.fields["over"] and state.fields["bases"]["Ana"] == []
    state = step(state, "resolve", prompt=2, answer="g2")
    assert state.fields["over"] and state.winner == "Cy"
    assert state.fields["last_event"]["notes"] == ["Ana gives up Defence Contractor Cartel (g1)",
                                                   "Ben gives up Crypto Bros for Liberty (g2)"]


def test_picks_named_with_the_event_are_applied_at_once_and_the_turn_ends():
    state = play(situation(), "event", "dc-event-culture-panic", groups=["g4"])
    assert prompts.pending(state) == () and state.active_player.name == "Ben"
    assert [g["ref"] for g in state.fields["bases"]["Ana"]] == ["g1"]
