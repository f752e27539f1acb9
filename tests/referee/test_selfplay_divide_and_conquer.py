"""Divide & Conquer self-play: the dealer (referee/games/divide_and_conquer/
selfplay.py) against the printed deck list, the plays a team or raise lists
(plays.py) against a brute force, and a short seeded game for each agent."""
from __future__ import annotations

import random
from collections import Counter
from itertools import product

import pytest

from referee.cards.index import load_index, project_root
from referee.rules import rules_for
from referee.games.divide_and_conquer import cards, plays, selfplay
from referee.model import GameSlug, Setup
from referee.simulate.play import Outcome, play_game
from referee.simulate.runner import make_plan

RULES = rules_for("divide-and-conquer")


def printed_deck() -> Counter:
    """The shared deck as the card sources list it: copies per card id."""
    index = load_index(project_root())
    return Counter({c.id: int(c.quantity) for c in index.cards.values()
                    if c.game == "divide-and-conquer" and c.type in cards.PLAYABLE})


@pytest.mark.parametrize("players, deck_size", [(4, None), (8, None), (5, 60)])
def test_the_deal_holds_every_printed_copy_once_and_matches_the_counts(players, deck_size):
    seats = tuple((f"p{i}", None) for i in range(players))
    rules = {} if deck_size is None else {"deck-size": str(deck_size)}
    state = RULES.setup(Setup(GameSlug.DIVIDE_AND_CONQUER, seats, 7, house_rules=rules), ())
    table = selfplay.deal(RULES, state, random.Random(3))
    copies = [*table.deck, *table.aside, *(c for h in table.hand.values() for c in h)]
    assert len(copies) == len(set(copies)) == sum(printed_deck().values()) == cards.PRINTED_DECK
    assert Counter(cid for cid, _ in copies) == printed_deck()
    for cid, n in printed_deck().items():  # copy numbers 1..quantity, as the QR payloads name them
        assert sorted(k for c, k in copies if c == cid) == list(range(1, n + 1))
    first = state.active_player.name
    assert {n: len(h) for n, h in table.hand.items()} == {p.name: 6 + (p.name == first) for p in state.players}
    assert len(table.deck) == state.fields["deck"] and len(table.aside) == state.fields["set_aside"]
    assert table.violations(state) == []
    assert sorted(table.hands()[first]) == sorted(cid for cid, _ in table.hand[first])


def test_the_dealer_follows_the_hands_through_a_whole_game():
    plan = make_plan("divide-and-conquer", 4, (), ("random",), 1, seed=11, keep=1, house_rules=("deck-size=60",))
    record = play_game(plan.config(0))
    assert record.outcome in (Outcome.WIN, Outcome.DRAW)
    # replayed with a fresh dealer, every action's cards come from the dealer's hands and nothing breaks
    config = plan.config(0)
    state = RULES.setup(Setup(GameSlug.DIVIDE_AND_CONQUER, tuple((s.name, s.faction) for s in config.seats),
                              config.seed, house_rules=dict(config.house_rules)), record.setup_dice)
    table = selfplay.deal(RULES, state, random.Random("deal:11"))
    for step in record.steps:
        before, state = state, RULES.apply(state, step.action, step.dice)
        table.after(before, step.action, state)
        assert table.violations(state) == [], step.action
    assert state.finished and all(not h for h in table.hand.values())
    assert len(table.hidden) == state.fields["hidden_discards"] > 0


# ---- plays.py --------------------------------------------------------------------------------


def brute(groups: dict, joinable: list, attach: dict, in_fight: list, held: int, least: int) -> set:
    """Every play, by trying every keep/lay choice for each copy, in canonical form."""
    out = set()
    g_ids = [c for c, n in sorted(groups.items()) for _ in range(n)]
    a_ids = [c for c, n in sorted(attach.items()) for _ in range(n)]
    for take in product((False, True), repeat=len(g_ids)):
        laid = tuple(c for c, t in zip(g_ids, take) if t)
        for jt in product((False, True), repeat=len(joinable)):
            joined = tuple(j for j, t in zip(joinable, jt) if t)
            targets = [*in_fight, *joined, *(f"new:{laid.index(g)}" for g in dict.fromkeys(laid))]
            for where in product([None, *targets], repeat=len(a_ids)):
                attaches = tuple(sorted((a, t) for a, t in zip(a_ids, where) if t is not None))
                play = plays.Play(laid, joined, attaches)
                if play.size >= least and len(laid) + len(attaches) <= held:
                    out.add((laid, joined, attaches))
    return out


CASE = dict(groups={"g-a": 2, "g-b": 1}, joinable=["g9"], attach={"x-1": 2, "y-2": 1}, in_fight=["g1", "g4"])


@pytest.mark.parametrize("held, least", [(6, 0), (3, 1), (1, 1)])
def test_every_play_is_listed_once_when_the_budget_allows(held, least):
    found = plays.listed(**CASE, held=held, least=least, budget=10**6)
    canon = [(p.groups, p.joined, tuple(sorted(p.attaches))) for p in found.plays]
    assert found.complete_to is None
    assert len(canon) == len(set(canon))
    assert set(canon) == brute(**CASE, held=held, least=least)


def test_a_budget_lists_whole_sizes_smallest_first():
    every = brute(**CASE, held=6, least=0)
    found = plays.listed(**CASE, held=6, least=0, budget=60)
    k = found.complete_to
    assert k is not None and 1 <= k < max(len(a) + len(b) + len(c) for a, b, c in every)
    canon = {(p.groups, p.joined, tuple(sorted(p.attaches))) for p in found.plays}
    assert canon == {p for p in every if len(p[0]) + len(p[1]) + len(p[2]) <= k}
    assert len(canon) <= 60 < len({p for p in every if len(p[0]) + len(p[1]) + len(p[2]) <= k + 1})


def test_copies_already_on_the_table_cannot_be_laid():
    assert plays.counted(["a", "a", "b", "c"], {"a": 1, "b": 0, "c": 3}) == {"a": 1, "c": 1}


# ---- a short seeded game per agent -----------------------------------------------------------


@pytest.mark.parametrize("agent", ["random", "heuristic", pytest.param("search", marks=pytest.mark.slow)])
def test_a_seeded_game_per_agent_ends_in_a_win_or_a_draw(agent):
    small = "deck-size=30" if agent == "search" else "deck-size=40"  # a short game: the fast layer's time
    plan = make_plan("divide-and-conquer", 4, (), (agent,), 1, seed=5, budget=3, house_rules=(small,))
    record = play_game(plan.config(0))
    assert record.outcome in (Outcome.WIN, Outcome.DRAW), record.outcome
    assert record.actions > 6 and sum(len(c) for c in record.cards_played) > 0
    again = play_game(plan.config(0))
    assert (again.winner, again.actions, again.cards_played) == (record.winner, record.actions, record.cards_played)


def test_evaluate_prefers_the_larger_net():
    plan = make_plan("divide-and-conquer", 4, (), ("random",), 1, seed=3, keep=1, house_rules=("deck-size=50",))
    record = play_game(plan.config(0))
    config = plan.config(0)
    state = RULES.setup(Setup(GameSlug.DIVIDE_AND_CONQUER, tuple((s.name, s.faction) for s in config.seats),
                              config.seed, house_rules=dict(config.house_rules)), record.setup_dice)
    for step in record.steps[:-1]:
        state = RULES.apply(state, step.action, step.dice)
    nets = {p.name: p.fields["net"] for p in state.players}
    best, worst = max(nets, key=nets.get), min(nets, key=nets.get)
    if nets[best] - nets[worst] >= 5:
        assert selfplay.evaluate(state, best) > selfplay.evaluate(state, worst)
