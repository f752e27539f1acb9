"""Property tests for the Petri dish: random legal play through the table
rules never reaches an illegal position, every listed action is accepted,
and every action not listed is refused."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from helpers.sizes import two_sizes
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.errors import RuleViolation
from referee.games.petri_dish import engine
from referee.games.petri_dish.geometry import AROUND, POINTS
from referee.games.petri_dish.dish import action_args, legal_strings, position_of
from referee.games.petri_dish.rules import RULES
from referee.model import Action, GameSlug, Setup

_spec = importlib.util.spec_from_file_location(
    "petri_brute", Path(__file__).with_name("test_rules_petri_dish_brute.py"))
brute = sys.modules.setdefault("petri_brute", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(brute)  # type: ignore[union-attr]


def to_action(line: str) -> Action:
    words = line.split()
    keys = {"place": ("at",), "grow": ("at",), "move": ("from", "onto"), "divide": ("from", "onto")}
    return Action(words[0], dict(zip(keys.get(words[0], ()), words[1:])))


def assert_healthy(state) -> None:
    """The position is one the rulebook allows, checked with the brute force's own geometry."""
    board = {p: (v["owner"][0].upper(), v["size"]) for p, v in state.fields["board"].items() if v}
    assert set(state.fields["board"]) == brute.FOOD
    b = brute.Brute(board)
    assert b.healthy(), board
    for player in state.players:
        colour = player.faction[0].upper()
        assert player.fields["reserve"] == b.reserve(colour) >= 0
    holder = brute.area_holder(board, int(state.house_rules["areas-to-win"]))
    if state.winner is None:
        assert holder is None
    else:
        assert state.player(state.winner).faction[0].upper() == holder


@two_sizes(bounded=8, full=30, name="examples")
def test_random_legal_play_stays_legal_and_the_listing_is_exact(examples):

    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data(), house=st.sampled_from([{}, {"large-divide-liberties": "2"}, {"areas-to-win": "2"}]))
    def random_play(data, house):
        state = RULES.setup(Setup(GameSlug.PETRI_DISH, (("Ann", None), ("Bo", None)), 1, house_rules=house), ())
        steps = data.draw(st.integers(min_value=2, max_value=80), label="steps")
        for _ in range(steps):
            listed = legal_strings(state)
            if not listed:
                assert state.winner is not None or state.fields["result"]
                break
            pos = position_of(state)
            generated = engine.legal_actions(pos)
            assert listed[:len(generated)] == [engine.action_text(a) for a in generated]
            for line in listed:  # every listed action is accepted by the rules
                RULES.check(state, to_action(line))
            legal = set(generated)
            refused = []  # everything else is refused, naming a rule
            for i in range(len(POINTS)):
                candidates = [(engine.PLACE, -1, i), (engine.GROW, i, -1)]
                candidates += [(k, i, j) for j in AROUND[i] for k in (engine.MOVE, engine.DIVIDE)]
                for move in candidates:
                    if move not in legal:
                        assert engine.refusal(pos, move) is not None, engine.action_text(move)
                        refused.append(move)
            for move in data.draw(st.lists(st.sampled_from(refused), max_size=4), label="refused"):
                name, args = action_args(move)  # the table's check refuses them too
                with pytest.raises(RuleViolation):
                    RULES.check(state, Action(name, args))
            choice = data.draw(st.sampled_from(listed), label="action")
            before_turn, mover = state.turn, state.active_player.faction
            state = RULES.apply(state, to_action(choice), ())
            assert_healthy(state)
            if choice != "claim-draw":
                assert state.turn == before_turn + 1 and state.active_player.faction != mover

    random_play()


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_the_engine_and_the_brute_force_agree_along_random_games(data):
    b = brute.Brute()
    pos = engine.Position()
    for _ in range(data.draw(st.integers(min_value=0, max_value=60), label="steps")):
        theirs = dict(b.successors())
        mine = {engine.action_text(a): a for a in engine.legal_actions(pos)}
        assert sorted(mine) == sorted(theirs)
        if not mine:
            break
        label = data.draw(st.sampled_from(sorted(mine)), label="action")
        pos, b = engine.play(pos, mine[label]).position, theirs[label]
        assert pos.board == brute.position_of(b).board
        assert (pos.result is not None) == b.over
