"""How a sensible Petri dish player plays (self-play's heuristic agent).

One move ahead on the whole board (nothing is hidden): the move that leaves
the prime areas, the germs' tokens and their liberties best for this colour
(selfplay.evaluate). A pass answered by a pass ends the game drawn, so the
policy passes only when it has no other move, and claims a draw by
repetition only when it stands worse."""
from __future__ import annotations

from referee.games.petri_dish.selfplay import evaluate
from referee.rules.choosing import Options
from referee.rules.legal import Candidate

PASSING = ("pass", "claim-draw")


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
    best = o.best(scored)
    claims = [c for c in passes if c.action.name == "claim-draw" and o.legal(c)]
    if claims and (best is None or now <= 12.0):  # not a prime area ahead: take the draw
        return claims[0]
    return best if best is not None else o.best((0.0, c) for c in passes)
