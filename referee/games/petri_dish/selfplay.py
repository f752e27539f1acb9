"""Self-play's knowledge of the dish: no cards to deal, and how a position
stands for one colour (the heuristic and search agents' evaluation)."""
from __future__ import annotations

from referee.games.petri_dish import engine
from referee.games.petri_dish.dish import colour_of, position_of
from referee.model import PlayerName, State

WIN = 1_000_000.0


def evaluate(state: State, player: PlayerName) -> float:
    """Prime areas held alone count most, then germs' tokens on the dish,
    then liberties, each mine against the opponent's."""
    if state.winner is not None:
        return WIN if state.winner == player else -WIN
    if state.finished:
        return 0.0
    me = colour_of(state.player(player))
    sign = 1 if me == engine.WHITE else -1
    board = position_of(state).board
    areas = 0
    for area in engine.AREA_INDICES:
        mine = theirs = False
        for k in area:
            v = board[k] * sign
            mine, theirs = mine or v > 0, theirs or v < 0
        areas += (mine and not theirs) - (theirs and not mine)
    material = sum(board) * sign
    room = sum(engine.liberties(board, i) * (1 if board[i] * sign > 0 else -1) for i, v in enumerate(board) if v)
    return 12.0 * areas + 2.0 * material + 0.3 * room
