"""Culture War's and Divide & Conquer's determinisers (issue 35): a table
sampled from one player's view, so the search agent's playouts can play the
other players' cards (OpenSpiel's resample_from_infostate idea).

Each game is played for real (heuristic seats, kept), replayed to a few
points, and sampled from one player's view and own hand: the sample must
agree with every count and face-up card the view shows (the game's own
dealer check, `violations`), keep the player's hand as it is, and give the
others hands drawn from their decks' unseen copies (so different samples
differ; the real dealer is never passed in). The search agent's playouts
then play the other seats' sampled cards."""
from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import replace

import pytest

from referee.model import Action, GameSlug, PlayerName
from referee.rules import rules_for
from referee.simulate.agents import AgentKind, determiniser, selfplay_module
from referee.simulate.play import Outcome, play_game, setup_of
from referee.simulate.runner import make_plan
from referee.simulate.search import SearchAgent
from referee.rules.unseen import unseen

GAMES = [("culture-war", 2), ("divide-and-conquer", 4)]


def _kept(game: str, players: int, seed: int = 3):
    plan = make_plan(game, players, (), ("heuristic",), 1, seed=seed, keep=1)
    config = replace(plan.config(0), keep=True)
    return config, play_game(config)


def _tables(game: str, players: int, points: int = 4):
    """(state, real dealer) at a few points of a kept heuristic game."""
    config, record = _kept(game, players)
    rules = rules_for(GameSlug.parse(game))
    module = selfplay_module(GameSlug.parse(game))
    with unseen():
        state = rules.setup(setup_of(config), record.setup_dice)
        table = module.deal(rules, state, random.Random(f"deal:{config.seed}"))
        marks = {len(record.steps) * k // (points + 1) for k in range(1, points + 1)}
        for i, step in enumerate(record.steps):
            if i in marks:
                yield rules, state, copy.deepcopy(table)  # the real dealer plays on after the yield
            before, state = state, rules.apply(state, step.action, step.dice)
            table.after(before, step.action, state)


@pytest.mark.parametrize("game, players", GAMES)
def test_a_sample_agrees_with_the_view_and_keeps_the_player_s_own_hand(game, players):
    sample = determiniser(GameSlug.parse(game))
    assert sample is not None
    checked = 0
    for rules, state, real in _tables(game, players):
        hands = real.hands()
        for p in state.players:
            me = PlayerName(p.name)
            world, dealt = sample(rules, state, me, tuple(hands[me]), random.Random(7))
            assert world == state  # nothing in the view is changed
            assert dealt.violations(state) == []  # every count and face-up card as the view has them
            assert Counter(dealt.hands()[me]) == Counter(hands[me])
            checked += 1
    assert checked >= 4 * players


@pytest.mark.parametrize("game, players", GAMES)
def test_the_others_hands_are_sampled_from_what_the_player_cannot_see(game, players):
    sample = determiniser(GameSlug.parse(game))
    rules, state, real = list(_tables(game, players, points=2))[0]
    me = PlayerName(state.players[0].name)
    mine = tuple(real.hands()[me])
    others = [p.name for p in state.players[1:] if real.hands()[PlayerName(p.name)]]
    assert others
    drawn = {tuple(sorted(sample(rules, state, me, mine, random.Random(k))[1].hands()[PlayerName(others[0])]))
             for k in range(12)}
    assert len(drawn) > 1  # a sample, not the real hand read back
    real_hand = tuple(sorted(real.hands()[PlayerName(others[0])]))
    assert drawn != {real_hand}  # the real hand is never read back


@pytest.mark.parametrize("game, players", GAMES)
def test_search_playouts_now_play_the_other_players_cards(game, players, monkeypatch):
    """A playout from a sampled table: the other seats play cards from their sampled hands."""
    rules, state, real = list(_tables(game, players, points=2))[0]
    slug = GameSlug.parse(game)
    me = PlayerName(state.active_player.name)
    agent = SearchAgent(budget=1, depth=40)
    played: list[Action] = []
    sample = determiniser(slug)

    def sampled(rules_, view, player, hand, rng):
        world, dealt = sample(rules_, view, player, hand, rng)
        follow = dealt.after

        def after(before, action, new):
            played.append(action)
            follow(before, action, new)

        dealt.after = after
        return world, dealt

    monkeypatch.setattr("referee.simulate.search.determiniser", lambda game_: sampled)  # records, then deals
    with unseen():
        base = agent._heuristic.pick(rules, state, lambda: state, me, {me: real.hands()[me]}, random.Random(1),
                                     lambda a: True)
        for k in range(3):
            agent._playout(rules, state, state, me, {me: real.hands()[me]}, base.action, random.Random(k))
    cards = {"culture-war": ("play",), "divide-and-conquer": ("recruit", "team", "event", "attach", "raise",
                                                              "unaffiliate")}[game]
    by_others = [a for a in played if a.name in cards and (a.args.get("player") or a.actor) != me]
    assert by_others, [a.name for a in played]


def test_search_against_the_heuristic_finishes_a_culture_war_game():
    plan = make_plan("culture-war", 2, (), ("search", "heuristic"), 1, seed=5, budget=4)
    record = play_game(plan.config(0))
    assert record.outcome is Outcome.WIN
    assert {s.agent for s in record.seats} == {AgentKind.SEARCH, AgentKind.HEURISTIC}
