"""The Culture War turn: the roll-off for the first player (a board step,
see actions.py) and `end-turn`, which ends one turn and runs the next
one's start: start-of-turn card effects, then resource collection (draw,
then coins), from a player's second turn.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Mapping, Sequence

from referee.errors import RefereeError, RuleViolation
from referee.rules.facts import Fact
from referee.games.culture_war.effects import turn_effects
from referee.games.culture_war.table import phases
from referee.games.culture_war.table import zones
from referee.games.culture_war.table.board import Board
from referee.games.culture_war.effects.static import freeze
from referee.games.culture_war.table.phases import ROLL_OFF_RULE, play_order
from referee.model import Action, State


# ---- the roll-off --------------------------------------------------------------


def check_rolloff(rules: Any, state: State, action: Action) -> None:
    order = state.fields["order"]
    if order["settled"]:
        why = ("the table plays in seating order (house rule first-player=seating)" if order["mode"] == "seating"
               else f"{order['first']} already goes first")
        raise RuleViolation(ROLL_OFF_RULE, f"{phases.phase_of(state).value} phase: there is no roll-off to "
                                           f"make: {why}")
    if state.turn != 1 or state.fields.get("begun"):
        raise RuleViolation(ROLL_OFF_RULE, "the roll-off comes before anyone plays")
    if int(action.args.get("rolls") or 0) < 1:
        raise RefereeError("the roll-off needs dice")


def rolloff(board: Board, args: Mapping[str, Any], dice: Callable[[], int]) -> None:
    order = board.f["order"]
    rolls = args.get("rolls")  # None: roll until someone has won (the seeded dice)
    used = 0
    while (used < rolls) if rolls is not None else not order["settled"]:
        if order["settled"]:
            raise RuleViolation(ROLL_OFF_RULE, f"{order['first']} won the roll-off after {used} dice; "
                                               f"{rolls - used} more were given")
        contenders = order["contenders"]
        if rolls is not None and rolls - used < len(contenders):
            raise RuleViolation(ROLL_OFF_RULE, f"each round of the roll-off needs one die for each of "
                                               f"{', '.join(contenders)}; {rolls - used} left")
        rolled = [[name, dice()] for name in contenders]
        used += len(contenders)
        order["rounds"].append(rolled)
        top = max(d for _, d in rolled)
        order["contenders"] = [n for n, d in rolled if d == top]
        line = "roll-off: " + ", ".join(f"{n} {d}" for n, d in rolled)
        if len(order["contenders"]) == 1:
            order.update(settled=True, first=order["contenders"][0], contenders=[])
            board.note(f"{line} -> {order['first']} goes first; then "
                               + ", ".join(play_order(board.seats, order["first"])[1:]))
        else:
            board.note(f"{line} -> {' and '.join(order['contenders'])} tie on {top} and roll again")


# ---- the turn -------------------------------------------------------------------


def apply_end_turn(rules: Any, state: State, action: Action, dice: Sequence[int]) -> State:
    return end_turn(state, dice)[0]


def play_end_turn(rules: Any, state: State, action: Action, dice: Sequence[int]) -> tuple[State, list[Fact]]:
    return end_turn(state, dice)


def narrate_end_turn(rules: Any, state: State, action: Action, dice: Sequence[int]) -> list[Fact]:
    return end_turn(state, dice)[1]


def end_turn(state: State, dice: Sequence[int]) -> tuple[State, list[Fact]]:
    """The turn ends and the next player still in begins theirs; also what
    happened on the way, in words (end- and start-of-turn effects, the draw,
    production)."""
    board = Board(state)
    ending = board.active
    source = lenient(dice)
    turn_effects.at_turn(board, ending, "end-of-turn", source)
    if ending not in board.f["had_turn"]:
        board.f["had_turn"].append(ending)
    board.f["timed"] = [t for t in board.f["timed"] if t["until"] not in ("turn", "battle")]
    board.f["attacks"] = 0
    if not board.f["order"]["settled"]:  # a table logged before the roll-off was enforced
        board.f["order"].update(settled=True, first=board.seats[0], contenders=[])
    notes = list(board.notes)
    state = freeze(board)
    for _ in range(len(state.players)):
        if state.finished:
            return state, notes
        state = next_turn(state)
        board = Board.taking(state)  # `state` is this end-turn's own, frozen just above
        if board.active in board.f["had_turn"]:  # start-of-turn effects, then the draw, then coins
            turn_effects.start_of_turn(board, board.active, source, draw=zones.TURN_DRAW)
        else:
            turn_effects.end_truces(board, board.active)
        notes += board.notes
        state = freeze(board)
        if not state.active_player.eliminated or state.finished:
            break
    return state, notes


def next_turn(state: State) -> State:
    """Play passes to the next player still in; a round ends when it passes the first player."""
    count = len(state.players)
    first = state.fields["order"].get("first")
    start = state.index_of(first) if first else 0
    nxt = state.active
    for _ in range(count):
        nxt = (nxt + 1) % count
        if not state.players[nxt].eliminated:
            break
    wrapped = (nxt - start) % count <= (state.active - start) % count
    return replace(state, active=nxt, turn=state.turn + 1, round=state.round + (1 if wrapped else 0))


def turn_dice(rules: Any, state: State, action: Action) -> tuple[int, ...]:
    """Dice an end-turn rolls: the ending player's end-of-turn rolls, then the
    next player's start-of-turn rolls (from their second turn)."""
    board = Board.reading(state)  # counting the rolls only reads
    count = turn_effects.turn_dice(board, board.active, "end-of-turn")
    nxt = Board.reading(next_turn(state))
    if nxt.active in board.f["had_turn"] or nxt.active == board.active:
        count += turn_effects.turn_dice(nxt, nxt.active, "start-of-turn")
    return (6,) * count


def lenient(values: Sequence[int]) -> Callable[[], int]:
    """The dice of an end-turn in order. They are counted before the turn ends
    (`_turn_dice`); should a roll come that was not counted, it reads 3, a face
    no printed roll acts on."""
    it = iter(values)
    return lambda: next(it, 3)
