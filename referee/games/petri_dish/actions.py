"""The Petri dish actions, each a check and an apply function over
(rules, state, action[, dice]): the five board actions the engine plays
(place, move, grow, divide, pass), claim-draw, and end-turn, which the dish
refuses (a turn ends by playing). rules.py lists them in ACTIONS.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from referee.errors import RuleViolation
from referee.games.petri_dish import engine
from referee.games.petri_dish.dish import REPETITIONS_FOR_DRAW, action_of, position_of, repetitions, state_after, who
from referee.model import Action, State


def check_turn(state: State, action: Action) -> None:
    if action.actor is None:
        return
    actor = state.player(action.actor)
    if actor.name != state.active_player.name:
        raise RuleViolation(
            "turn order",
            f"it is {who(state.active_player)}'s turn, so {who(actor)} cannot {action.name}",
        )


def check_board_action(rules: Any, state: State, action: Action) -> None:
    """place, move, grow, divide or pass: the engine's `refusal` says why not."""
    check_turn(state, action)
    move = action_of(action)
    why = engine.refusal(position_of(state), move)
    if why is not None:
        rule, reason = why
        raise RuleViolation(rule, f"{who(state.active_player)} cannot {engine.action_text(move)}: {reason}")


def apply_board_action(rules: Any, state: State, action: Action, dice: Sequence[int]) -> State:
    pos = position_of(state)
    after = engine.play(pos, action_of(action)).position
    return state_after(state, after)


def check_claim_draw(rules: Any, state: State, action: Action) -> None:
    check_turn(state, action)
    seen = repetitions(state)
    if seen < REPETITIONS_FOR_DRAW:
        times = "once" if seen == 1 else f"{seen} times"
        raise RuleViolation(
            "draw by threefold repetition",
            f"{who(state.active_player)} cannot claim a draw: this position, with the same side "
            f"to move, has occurred {times}, and it takes {REPETITIONS_FOR_DRAW}",
        )


def apply_claim_draw(rules: Any, state: State, action: Action, dice: Sequence[int]) -> State:
    mover = who(state.active_player)
    return replace(state, fields={
        **state.fields,
        "result": f"draw claimed by {mover}: the position occurred {REPETITIONS_FOR_DRAW} times",
    })


def refuse_end_turn(rules: Any, state: State, action: Action) -> None:
    raise RuleViolation(
        "a turn ends by playing",
        f"{who(state.active_player)} ends the turn by placing, moving, growing, dividing or passing; "
        "type `pass` to let the turn go",
    )
