"""How a sensible debater plays (self-play's heuristic agent).

The rulebook scores a round at its end: each thread's strength against the
one it faces, the overage off the weaker side's fortitude, every tactic's
cost off its own player's. So the debater looks one move ahead on a table
it could be sitting at (the cards it cannot see sampled) and scores the
forum as round end would leave it, its fortitude against the opponent's
(`round_report`); a card kept in hand is worth nothing at round end, so
it plays while a tactic gains it fortitude, and ends its turn when none does.
"""
from __future__ import annotations

from referee.model import PlayerName, State


def evaluate(state: State, player: PlayerName) -> float:
    if state.winner is not None:
        return 1e6 if state.winner == player else -1e6
    if state.finished:
        return 0.0
    from referee.games.debate.actions import round_report  # lazy: the round-end arithmetic

    me = state.player(player).name
    report = round_report(state)
    return float(report.fortitude[me] - max(v for n, v in report.fortitude.items() if n != me))
