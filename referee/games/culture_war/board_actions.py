"""Culture War's actions played on a Board (board.py, a working copy of the
table): `board_action` makes the table entry of one, checked by running its
step on a throw-away Board so `check` and `apply` cannot disagree, applied by
running it on the real one with exactly the recorded dice.

This module holds no step: the steps (actions.py, battle/attacks.py,
alliances.py, turns.py) are named in action_table.py, which loads only when an
action is played or listed, never for `status`.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from referee.errors import RefereeError, RuleViolation
from referee.games.culture_war.effects import static as effects
from referee.games.culture_war.effects.static import freeze
from referee.games.culture_war.table.board import Board
from referee.games.culture_war.table.dice import DiceShortage, feeder
from referee.games.culture_war.table.pieces import find_piece
from referee.model import Action, State
from referee.rules import ActionSpec, DiceNeeded
from referee.rules.facts import Fact

Step = Callable[[Board, Mapping[str, Any], Any], None]  # (board, args, dice): changes the board, leaves notes


# ---- actions played on a Board ------------------------------------------------------


@dataclass(frozen=True)
class BoardAction(ActionSpec):
    """An action played on a Board by its `step` (see board_action)."""

    step: Step | None = None
    then: Callable[[Board], dict] | None = None  # changes to the State after the step (the roll-off's first player)


def board_action(name: str, step: Step, dice: DiceNeeded | None = None, check: Any = None,
                 check_roll: int | None = None, then: Callable[[Board], dict] | None = None) -> BoardAction:
    """The table entry of an action played on a Board by `step`.

    Checked by running the step on a throw-away Board with no dice (or every
    die reading `check_roll`: a card that rolls as it is played is legal
    whatever it rolls), unless `check` is given; applied by running it on the
    real one with exactly the recorded dice (`then(board)` adds changes to
    the State, such as who plays first after the roll-off); narrated by
    running it again from the same dice."""

    def check_on_board(rules: Any, state: State, action: Action) -> None:
        _CHECKED.last = None
        rolled: list[int] = []

        def die() -> int:
            if not check_roll:
                return _no_dice()
            rolled.append(check_roll)
            return check_roll

        board = run(state, action, step, die)
        if not rolled:  # what `apply` with no dice would do to this very state: kept for it
            _CHECKED.last = (state, action, board)

    def apply_on_board(rules: Any, state: State, action: Action, dice_: Sequence[int]) -> State:
        return _applied(state, action, dice_, step, then)[0]

    def narrate(rules: Any, state: State, action: Action, dice_: Sequence[int]) -> list[Fact]:
        return run(state, action, step, feeder(dice_)).notes

    def play_on_board(rules: Any, state: State, action: Action, dice_: Sequence[int]) -> tuple[State, list[Fact]]:
        return _applied(state, action, dice_, step, then)

    return BoardAction(name, check or check_on_board, apply_on_board, dice, narrate, play_on_board, step, then)


def run(state: State, action: Action, step: Step, dice: Callable[[], int] | None) -> Board:
    board = Board(state)
    step(board, action.args, dice)
    return board


def _applied(state: State, action: Action, dice: Sequence[int], step: Step,
             then: Callable[[Board], dict] | None) -> tuple[State, list[Fact]]:
    used: list[int] = []
    source = feeder(dice)

    def counted() -> int:
        used.append(source())
        return used[-1]

    board = _checked(state, action) if not dice else None
    try:
        if board is None:
            board = run(state, action, step, counted)
    except DiceShortage:
        raise RuleViolation("a tie is rolled again",
                            f"the dice {_dice(dice)} run out before the battle is over; type every die") from None
    if len(used) != len(dice):
        raise RuleViolation("dice", f"{action.name} used {len(used)} of the {len(dice)} dice given")
    return freeze(board, **(then(board) if then else {})), board.notes


# The board the last `check` played an action on, with no die rolled, and
# what it was played from: (state, action, board). Applying that very action
# to that very state with no dice would play the step again on a new copy
# and give the same board (a step is a pure function of the table, its
# arguments and its dice), so `_applied` takes this one instead, once. Self-
# play checks each move it draws and then applies it. One per thread.
_CHECKED = threading.local()


def _checked(state: State, action: Action) -> Board | None:
    last = getattr(_CHECKED, "last", None)
    _CHECKED.last = None
    if last is not None and last[0] is state and last[1] is action:
        return last[2]
    return None


def _no_dice() -> int:
    raise DiceShortage("checking an action rolls no dice")


def _dice(values: Sequence[int]) -> str:
    return ",".join(map(str, values)) or "(none)"


def _rolled(rules: Any, state: State, action: Action) -> tuple[int, ...]:
    """A battle, a roll-off, a shown battle and its settling: as many d6 as rolled (`rolls`)."""
    return (6,) * int(action.args.get("rolls") or 0)


def _card_rolls(rules: Any, state: State, action: Action) -> tuple[int, ...]:
    """A card played: a d6 for each roll its effects make as it is played."""
    from referee.games.culture_war import actions  # lazy: action code loads only when an action is played
    from referee.games.culture_war.effects import handlers as fx  # lazy: as above

    card = action.args["_card"]
    now = [e for e in effects.read(card.get("effects")) if effects.when_of(e) in actions.NOW_OF.get(card["type"], ())]
    rolls = fx.rolls_in(now)
    if any(e["kind"] == "destroy" and e.get("what") == "your-unit" for e in now) and action.args.get("on"):
        try:  # a unit destroyed by card text may roll to survive (Leaderless Crowd)
            piece = state.fields["pieces"][find_piece(Board(state), str(action.args["on"]), ("unit",))]
        except RefereeError:
            piece = {}
        rolls += fx.rolls_in([e for e in effects.live_effects(piece) if effects.when_of(e) == "would-die"])
    return (6,) * rolls


def _first_player(board: Board) -> dict:
    first = board.f["order"]["first"]
    return {"active": board.seats.index(first)} if first else {}
