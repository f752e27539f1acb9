"""Paired A/B: game i is played on both sides with the same seed, seats,
agents and factions, so the two plays of game i are a pair, and a
difference between the sides is measured within pairs.

For each measure (a faction's win, a seat's win, the first player's win),
a pair is one of four: won on both sides, on neither, on A only, on B only.
Only the last two (the discordant pairs) carry evidence of a difference:
McNemar's exact test asks whether "A only" and "B only" split like a fair
coin (stats.binomial_two_sided). The pairing is what makes an A/B cheap: a
change that alters few games leaves most pairs identical, and identical
pairs add no noise, where pooling the sides as independent games would.

Every figure reads in one direction, from B (the revision or folder given
to --against: before) to A (this project: the edit), so `delta` is A minus B.
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from referee.simulate.play import GameRecord, Outcome
from referee.simulate.stats import Rate, binomial_two_sided, normal_quantile, wilson

FEWEST_DISCORDANT = 6  # the exact two-sided test cannot reach p < 0.05 on fewer discordant pairs (2/2^5 = 0.0625)
POWER = 0.8


@dataclass(frozen=True)
class Paired:
    """One measure over `n` pairs: hits on each side, and the discordant pairs."""

    n: int
    a_hits: int
    b_hits: int
    a_only: int  # pairs won on A and not on B
    b_only: int

    @property
    def a(self) -> Rate:
        return wilson(self.a_hits, self.n)

    @property
    def b(self) -> Rate:
        return wilson(self.b_hits, self.n)

    @property
    def discordant(self) -> int:
        return self.a_only + self.b_only

    @property
    def delta(self) -> float:
        """A's rate minus B's: what the edit did to this measure."""
        return (self.a_only - self.b_only) / self.n if self.n else 0.0

    @property
    def p_value(self) -> float:
        """McNemar's exact test: the discordant pairs against a fair split."""
        return binomial_two_sided(self.a_only, self.discordant)

    @property
    def variance(self) -> float:
        """The variance of one pair's difference (A won) - (B won), in -1, 0, 1."""
        return max(0.0, self.discordant / self.n - self.delta ** 2) if self.n else 0.0

    def interval(self, z: float = 1.959963984540054) -> tuple[float, float]:
        """delta's 95% interval (normal approximation over the pairs)."""
        if not self.n:
            return (0.0, 0.0)
        half = z * math.sqrt(self.variance / self.n)
        return (max(-1.0, self.delta - half), min(1.0, self.delta + half))

    def smallest_effect(self, alpha: float = 0.05, power: float = POWER) -> float:
        """The smallest shift of this rate the pairs played could have found:
        80% power at 5% two-sided, from the spread the pairs show, and never
        below what the exact test needs at all (6 discordant pairs)."""
        if not self.n:
            return 1.0
        z = normal_quantile(1 - alpha / 2) + normal_quantile(power)
        spread = max(self.variance, 1.0 / self.n)
        return min(1.0, max(z * math.sqrt(spread / self.n), FEWEST_DISCORDANT / self.n))

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval()
        return {"pairs": self.n, "a": self.a.to_json(), "b": self.b.to_json(), "a_only": self.a_only,
                "b_only": self.b_only, "delta": round(self.delta, 4), "delta_low": round(low, 4),
                "delta_high": round(high, 4), "p_value": round(self.p_value, 6),
                "smallest_effect": round(self.smallest_effect(), 4)}


@dataclass(frozen=True)
class _Side:
    """What one play of a game says about each measure."""

    present: frozenset[str]
    won: frozenset[str]
    fingerprint: int


def measures_of(record: GameRecord) -> _Side:
    present, won = set(), set()
    for i, seat in enumerate(record.seats):
        keys = [f"seat:{i}"] + ([f"faction:{seat.faction}"] if seat.faction else [])
        present.update(keys)
        if record.outcome is Outcome.WIN and record.winner == i:
            won.update(keys)
    present.add("first")
    if record.outcome is Outcome.WIN and record.winner == record.first:
        won.add("first")
    print_ = hash((record.outcome.value, record.winner, record.turns, record.actions, record.cards_played))
    return _Side(frozenset(present), frozenset(won), print_)


class Pairs:
    """The pairs of an A/B run, counted as each pair's second game arrives
    (either side may come first); a game waiting for its partner is held
    as a few names, never as its record."""

    def __init__(self) -> None:
        self._waiting: dict[str, dict[int, _Side]] = {"A": {}, "B": {}}
        self._counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
        self.pairs = 0
        self.differ = 0  # pairs whose two games did not play out the same

    def add(self, side: str, index: int, record: GameRecord) -> None:
        other = "B" if side == "A" else "A"
        mine = measures_of(record)
        partner = self._waiting[other].pop(index, None)
        if partner is None:
            self._waiting[side][index] = mine
            return
        a, b = (mine, partner) if side == "A" else (partner, mine)
        self.pairs += 1
        self.differ += a.fingerprint != b.fingerprint
        for key in a.present | b.present:
            x, y = key in a.won, key in b.won
            c = self._counts[key]
            c[0] += 1
            c[1] += x
            c[2] += y
            c[3] += x and not y
            c[4] += y and not x

    def measures(self) -> dict[str, Paired]:
        return {k: Paired(*v) for k, v in sorted(self._counts.items(), key=lambda kv: _order(kv[0]))}


def _order(key: str) -> tuple[int, str]:
    kind = key.split(":", 1)[0]
    return ({"faction": 0, "seat": 1, "first": 2}.get(kind, 3), key)


def label(key: str) -> str:
    """A measure in words: 'anarchy', 'seat 2', 'the first player'."""
    kind, _, name = key.partition(":")
    if kind == "faction":
        return name
    if kind == "seat":
        return f"seat {int(name) + 1}"
    return "the first player"
