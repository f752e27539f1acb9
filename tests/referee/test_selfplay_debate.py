"""The debate's self-play dealer (referee/games/debate/selfplay.py): the
decks dealt by printed copy as the starter decks list them, hands followed
through a game, and a short game per agent."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from referee.errors import RuleViolation
from referee.rules import rules_for
from referee.games.debate import selfplay
from referee.games.debate.cards import starter_deck
from referee.model import Action, GameSlug, PlayerName
from referee.simulate.play import Outcome, play_game, setup_of
from referee.simulate.runner import make_plan

RULES = rules_for(GameSlug.DEBATE)


def _dealt(seed: int = 1):
    plan = make_plan("debate", None, (), ("random",), 1, seed=seed)
    state = RULES.setup(setup_of(plan.config(0)), (11,))
    return state, selfplay.deal(RULES, state, random.Random(seed))


def test_each_debater_gets_a_starter_deck_by_copy_and_a_hand_of_five():
    state, table = _dealt()
    for seat, name in enumerate(table.names):
        printed = Counter(c["id"] for c in starter_deck("ab"[seat]))
        copies = [*table.hand[name], *table.draw[name], *table.out[name]]
        assert Counter(cid for cid, _ in copies) == printed
        assert len(table.hand[name]) == 5 and len(table.draw[name]) == 10 and not table.out[name]
        assert len(table.hands()[PlayerName(name)]) == state.fields["piles"][name]["hand"]
    # the one card both starter decks hold (printed twice) is two different copies
    shared = [c for n in table.names for c in table.hand[n] + table.draw[n] if c[0] == "deb-revisit-the-record"]
    assert sorted(n for _, n in shared) == [1, 2]
    assert table.violations(state) == []


def test_the_dealer_follows_a_game_and_notices_a_lost_card():
    plan = make_plan("debate", None, (), ("random",), 1, seed=4, turn_cap=40, keep=1)
    record = play_game(plan.config(0))
    state, table = _dealt(4)
    state = RULES.setup(setup_of(plan.config(0)), record.setup_dice)
    table = selfplay.deal(RULES, state, random.Random("deal:4"))
    for step in record.steps:
        before, state = state, RULES.apply(state, step.action, step.dice)
        table.after(before, step.action, state)
        assert table.violations(state) == []
    name = table.names[0]
    if table.hand[name]:
        table.hand[name].pop()  # a card vanishes from the physical hand
        assert any("holds" in p for p in table.violations(state))


def test_a_named_deck_replaces_the_physical_one_and_the_opponent_takes_the_other():
    state, table = _dealt()
    first, second = table.names
    act = Action("deck", {"player": second, "_deck": starter_deck("a")}, None)
    after = RULES.apply(state, act, ())
    table.after(state, act, after)
    assert Counter(c for c, _ in table._copies_of(second)) == Counter(c["id"] for c in starter_deck("a"))
    assert Counter(c for c, _ in table._copies_of(first)) == Counter(c["id"] for c in starter_deck("b"))
    assert table.violations(after) == []


def test_a_malformed_action_is_refused_not_a_crash():
    # found by --check's mutated candidates: an action no command writes
    state, _ = _dealt()
    for act in (Action("argue", {}, PlayerName(state.players[0].name)),
                Action("device", {"player": state.players[0].name, "thread": 1, "card": "x", "_card": "P1"}, None)):
        with pytest.raises(RuleViolation):
            RULES.check(state, act)


def test_determinise_keeps_the_own_hand_and_samples_the_rest():
    state, table = _dealt()
    me = PlayerName(table.names[0])
    view = RULES.visible_state(state, (me,))
    hand = table.hands()[me]
    whole, sampled = selfplay.determinise(RULES, view, me, hand, random.Random(3))
    assert sorted(sampled.hands()[me]) == sorted(hand)
    for name in table.names:
        assert whole.fields["piles"][name]["hand"] == state.fields["piles"][name]["hand"]
    assert sampled.violations(whole) == [] or all("printed copy" in p for p in sampled.violations(whole))


@pytest.mark.parametrize("agent,cap,budget", [("random", 200, 0), ("heuristic", 4, 0),
                                              pytest.param("search", 2, 4, marks=pytest.mark.slow)])
def test_a_short_seeded_game_per_agent(agent, cap, budget):
    plan = make_plan("debate", None, (), (agent,), 1, seed=2, turn_cap=cap, budget=budget or 200)
    record = play_game(plan.config(0))
    assert record.outcome in (Outcome.WIN, Outcome.DRAW, Outcome.CAPPED)
    assert record.actions > 0
    if agent == "random":
        assert record.outcome is Outcome.WIN
