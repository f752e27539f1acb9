"""How a sensible Petri dish player plays (self-play's heuristic agent).

One move ahead on the whole board (nothing is hidden): the move that leaves
the prime areas, the germs' tokens and their liberties best for this colour
(selfplay.evaluate). Past the opening it passes when no move improves its
position (rather than shuffling germs back and forth); a pass answered by
a pass ends the game drawn, as two players in a dead position agree. It
claims a draw by repetition unless it holds a prime area more."""
from __future__ import annotations

from referee.games.petri_dish import engine
from referee.games.petri_dish.dish import colour_of, position_of
from referee.model import PlayerName, State
from referee.rules.choosing import Options
from referee.rules.legal import Candidate

PASSING = ("pass", "claim-draw")
OPENING = 12  # turns in which a player grows and spreads even when no single move scores better


def evaluate(state: State, player: PlayerName) -> float:
    """The race for the prime areas: each held alone counts most (three win),
    and in each area not held alone, the germs' tokens there and beside it,
    mine against the opponent's; then the tokens in play and their liberties."""
    if state.winner is not None:
        return 1e6 if state.winner == player else -1e6
    if state.finished:
        return 0.0
    sign = 1 if colour_of(state.player(player)) == engine.WHITE else -1
    board = position_of(state).board
    score = 0.0
    for area in engine.AREA_INDICES:
        mine = sum(board[k] * sign for k in area if board[k] * sign > 0)
        theirs = -sum(board[k] * sign for k in area if board[k] * sign < 0)
        if mine and not theirs:
            score += 14.0
        elif theirs and not mine:
            score -= 14.0
        else:
            score += 1.5 * (mine - theirs)
    held = sum(1 for a in engine.AREA_INDICES if all(board[k] * sign >= 0 for k in a) and any(board[k] * sign > 0 for k in a))
    score += 25.0 * (held >= 2)  # two held alone: one more wins
    material = sum(board) * sign
    room = sum(engine.liberties(board, i) * (1 if board[i] * sign > 0 else -1) for i, v in enumerate(board) if v)
    return score + 1.0 * material + 0.2 * room


def choose(o: Options) -> Candidate | None:
    me = o.player
    now = evaluate(o.view, me)
    scored, passes = [], []
    for c in o.each():
        if c.action.name in PASSING:
            passes.append(c)
            continue
        if not o.legal(c):
            continue
        after = o.after(c.action)
        if after is not None:
            scored.append((evaluate(after, me), c))
    opening = o.view.turn <= OPENING
    best = o.best(scored, floor=float("-inf") if opening else now)  # past the opening: pass rather than shuffle
    claims = [c for c in passes if c.action.name == "claim-draw" and o.legal(c)]
    if claims and (best is None or now <= 12.0):  # not a prime area ahead: take the draw
        return claims[0]
    return best if best is not None else o.best((0.0, c) for c in passes)
