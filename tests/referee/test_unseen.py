"""`unseen()` (referee/unseen.py): self-play skips what only a person reads
(move words, Culture War's `now` figures), and that changes no game.

The guard on "no rule and no agent reads them": the same seeds played with
and without them give the same actions, dice and results, move for move."""
from __future__ import annotations

from dataclasses import replace

import pytest

from referee.rules import rules_for
from referee.rules.legal import legal_moves
from referee.model import PlayerName
from referee.simulate import play
from referee.simulate.runner import make_plan
from referee.rules.unseen import for_people, unseen


def test_the_switch_is_on_outside_and_off_inside_and_restored():
    assert for_people()
    with unseen():
        assert not for_people()
        with unseen():
            assert not for_people()
        assert not for_people()
    assert for_people()


@pytest.mark.parametrize("game,players,agent,seed,cap", [
    ("culture-war", 3, "random", 11, 200), ("culture-war", 4, "random", 12, 200),
    ("culture-war", 3, "heuristic", 13, 2), ("petri-dish", 2, "random", 3, 200)])
def test_the_same_seeds_give_the_same_games_seen_and_unseen(game, players, agent, seed, cap):
    plan = make_plan(game, players, (), (agent,) + ("random",) * (players - 1), 2, seed=seed, turn_cap=cap)
    for index in range(2):
        config = replace(plan.config(index), keep=True)
        seen = play._play_game(config)  # outside `unseen`: words and figures made
        quick = play.play_game(config)  # inside it, as self-play plays
        assert quick.steps and quick.steps == seen.steps
        assert (quick.outcome, quick.winner, quick.turns, quick.cards_played) == \
            (seen.outcome, seen.winner, seen.turns, seen.cards_played)


def _mid_game_table():
    """A Culture War table a few actions into a seeded game, with pieces in play."""
    rules = rules_for("culture-war")
    config = replace(make_plan("culture-war", 3, (), ("random",), 1, seed=4).config(0), keep=True)
    record = play._play_game(config)
    return rules, play.setup_of(config), record.setup_dice, record.steps


def test_culture_war_pieces_carry_now_only_when_seen():
    rules, setup, setup_dice, steps = _mid_game_table()
    seen_state = rules.setup(setup, setup_dice)
    with unseen():
        quick_state = rules.setup(setup, setup_dice)
    with_pieces = 0
    for step in steps:
        seen_state = rules.apply(seen_state, step.action, step.dice)
        with unseen():
            quick_state = rules.apply(quick_state, step.action, step.dice)
        pieces = seen_state.fields["pieces"]
        assert all("now" in p for p in pieces.values() if p["kind"] in ("unit", "estate"))
        assert not any("now" in p for p in quick_state.fields["pieces"].values())
        bare = {h: {k: v for k, v in p.items() if k != "now"} for h, p in pieces.items()}
        assert bare == quick_state.fields["pieces"]
        with_pieces += bool(pieces)
    assert with_pieces > 10


def test_moves_listed_unseen_are_the_same_actions_without_words():
    rules, setup, setup_dice, steps = _mid_game_table()
    state = rules.setup(setup, setup_dice)
    for step in steps[:15]:
        state = rules.apply(state, step.action, step.dice)
    player = PlayerName(state.active_player.name)
    worded = legal_moves(rules, state, player)
    with unseen():
        bare = legal_moves(rules, state, player)
    assert [m.action for m in bare] == [m.action for m in worded]
    pairs = [(b.action.name, b.text, w.text) for b, w in zip(bare, worded) if b.action is not None]
    assert all(b in (name, w) for name, b, w in pairs)  # unworded, or worded where it costs nothing
    assert any(b == name != w for name, b, w in pairs)
