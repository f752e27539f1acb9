"""A Culture War action checked and then applied to the same state with no
dice is played once: `apply` takes the board `check` played it on
(board_actions._CHECKED). What it gives must be exactly what a fresh play gives."""
from __future__ import annotations

from dataclasses import replace

import pytest

from referee.games.culture_war import board_actions as cw_rules
from referee.games.culture_war.rules import RULES
from referee.model import Action
from referee.simulate import play
from referee.simulate.runner import make_plan


def _game(seed: int):
    config = replace(make_plan("culture-war", 3, (), ("random",), 1, seed=seed).config(0), keep=True)
    record = play._play_game(config)
    return RULES.setup(play.setup_of(config), record.setup_dice), record.steps


@pytest.mark.parametrize("seed", [31, 32])
def test_applied_after_its_check_is_the_same_as_applied_alone(seed):
    state, steps = _game(seed)
    reused = 0
    for step in steps:
        if step.action.name not in ("battle", "window", "settle", "rolloff", "end-turn") and not step.dice:
            alone = RULES.apply(state, step.action, ())  # no check before it: played afresh
            RULES.check(state, step.action)
            kept = cw_rules._CHECKED.last
            after = RULES.apply(state, step.action, ())
            reused += kept is not None and cw_rules._CHECKED.last is None
            assert after.to_dict() == alone.to_dict()
            again = RULES.apply(state, step.action, ())  # the kept board is taken once: a fresh play
            assert again.to_dict() == alone.to_dict() and again.fields is not after.fields
        state = RULES.apply(state, step.action, step.dice)
    assert reused > 5


def test_a_board_checked_for_another_state_or_action_is_not_taken():
    state, steps = _game(33)
    for first in steps:
        if first.action.name == "ally":
            break
        state = RULES.apply(state, first.action, first.dice)
    action = first.action
    RULES.check(state, action)
    later = RULES.apply(state, action, ())
    twin = Action(action.name, dict(action.args), action.actor)  # equal, not the same
    RULES.check(state, action)
    assert cw_rules._checked(later, action) is None  # another state
    RULES.check(state, action)
    assert cw_rules._checked(state, twin) is None  # another action
    RULES.check(state, action)
    assert cw_rules._checked(state, action) is not None
    assert RULES.apply(state, twin, ()).to_dict() == later.to_dict()
