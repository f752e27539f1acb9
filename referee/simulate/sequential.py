"""`--until-decided`: play an A/B in batches and stop when the answer is
clear, in the spirit of Fishtest's sequential probability ratio test.

After each batch, every paired measure (paired.py) is weighed by the
generalised SPRT that Fishtest uses for Elo (the normal approximation of
the log-likelihood ratio, with the variance estimated from the games):
for the mean of the pairs' differences d (A won minus B won, each -1, 0
or 1) and hypotheses H0: mean 0 against H1: mean theta,

    LLR = n * theta * (mean - theta / 2) / variance

once with theta = +effect and once with -effect (both directions). Wald's
bounds decide: log((1 - beta) / alpha') or above is a difference, and
log(beta / (1 - alpha')) or below on both sides is no difference of
`effect` or more. alpha' is alpha split over both directions of every
measure (Bonferroni), so the chance that some measure is called different
when none is stays below alpha. The run stops at the first difference, or
when every measure is cleared, or at --games.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

from referee.errors import RefereeError
from referee.simulate.paired import Paired, label

ALPHA = 0.05
BETA = 0.05
EFFECT = 0.05  # the smallest change of a win rate worth finding, by default: 5 points
MOST_BATCHES = 10
FEWEST_IN_BATCH = 10


class State(str, Enum):
    DIFFERENT = "different"
    SAME = "no difference"
    OPEN = "undecided"


@dataclass(frozen=True)
class Decision:
    state: State
    pairs: int
    effect: float
    measure: str | None = None  # the measure found different
    llr: float = 0.0  # its log-likelihood ratio (the largest, while open)
    upper: float = 0.0
    lower: float = 0.0
    stopped: bool = False  # the run was stopped (Ctrl-C) before it could decide

    def line(self) -> str:
        if self.state is State.DIFFERENT:
            return (f"decided after {self.pairs} pairs: {label(self.measure or '')} differs "
                    f"(sequential test, LLR {self.llr:.2f} >= {self.upper:.2f})")
        if self.state is State.SAME:
            return (f"decided after {self.pairs} pairs: no win rate moved by {self.effect:.0%} or more "
                    f"(sequential test, every LLR <= {self.lower:.2f})")
        if self.stopped:
            return f"undecided: the run was stopped after {self.pairs} pairs (LLR {self.llr:.2f}, needs {self.upper:.2f})"
        return (f"undecided at the most games asked ({self.pairs} pairs): play more to tell a change of "
                f"{self.effect:.0%} (largest LLR {self.llr:.2f}, needs {self.upper:.2f})")

    def to_json(self) -> dict:
        return {"state": self.state.value, "stopped": self.stopped, "pairs": self.pairs, "effect": self.effect, "measure": self.measure,
                "llr": round(self.llr, 4), "upper": round(self.upper, 4), "lower": round(self.lower, 4)}


def llr(m: Paired, theta: float) -> float:
    """The generalised SPRT's log-likelihood ratio of mean theta against mean 0."""
    if not m.n:
        return 0.0
    variance = max(m.variance, 1.0 / m.n)  # no discordant pair yet: as if one
    return m.n * theta * (m.delta - theta / 2) / variance


def bounds(tests: int, alpha: float = ALPHA, beta: float = BETA) -> tuple[float, float]:
    each = alpha / (2 * max(1, tests))
    return math.log(beta / (1 - each)), math.log((1 - beta) / each)


def decide(measures: dict[str, Paired], effect: float = EFFECT, final: bool = False) -> Decision:
    """The sequential verdict on the pairs so far (`final`: no more games come)."""
    lower, upper = bounds(len(measures))
    pairs = max((m.n for m in measures.values()), default=0)
    best_key, best = None, -math.inf
    cleared = True
    for key, m in measures.items():
        up, down = llr(m, effect), llr(m, -effect)
        if max(up, down) > best:
            best_key, best = key, max(up, down)
        if max(up, down) >= upper:
            return Decision(State.DIFFERENT, pairs, effect, key, max(up, down), upper, lower)
        cleared = cleared and up <= lower and down <= lower
    if cleared and measures:
        return Decision(State.SAME, pairs, effect, None, best, upper, lower)
    return Decision(State.OPEN, pairs, effect, best_key, best if best_key else 0.0, upper, lower)


def batches(games: int) -> list[tuple[int, int]]:
    """(first game, games) of each batch: at most 10 looks, at least 10 games a look."""
    size = max(FEWEST_IN_BATCH, math.ceil(games / MOST_BATCHES))
    return [(start, min(size, games - start)) for start in range(0, games, size)]


def check_sequential(until_decided: bool, games_given: bool, against: str | None, effect: float | None) -> None:
    """Refuse a sequential run that cannot stop, before anything runs."""
    if effect is not None and not until_decided:
        raise RefereeError("--effect is the smallest change --until-decided looks for; give --until-decided too")
    if not until_decided:
        return
    if not games_given:
        raise RefereeError("--until-decided needs a maximum: give --games N, the most games a side may play")
    if against is None:
        raise RefereeError("--until-decided decides an A/B: give --against REV-or-DIR or --without CARD")
    if effect is not None and not 0.0 < effect < 1.0:
        raise RefereeError(f"--effect is a change of win rate between 0 and 1 (0.05 is 5 points), not {effect}")
