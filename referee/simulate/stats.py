"""Interval estimates and tests for win rates, in plain math (no numpy).

A win rate from n games is a binomial proportion; its 95% interval is
Wilson's score interval, which stays inside 0..1 and behaves at small n and
at rates near 0 or 1 (where the normal approximation does not). Two rates
(an A/B pair, a card played against not played) are compared with the pooled
two-proportion z-test.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054  # the two-sided 95% quantile of the standard normal


@dataclass(frozen=True)
class Rate:
    """`hits` of `n` with its 95% Wilson interval (all 0 when n is 0)."""

    hits: int
    n: int
    low: float
    high: float

    @property
    def value(self) -> float:
        return self.hits / self.n if self.n else 0.0

    def excludes(self, p: float) -> bool:
        """True when the interval does not contain `p` (significant at 95%)."""
        return self.n > 0 and not (self.low <= p <= self.high)

    def to_json(self) -> dict:
        return {"hits": self.hits, "n": self.n, "rate": round(self.value, 4),
                "low": round(self.low, 4), "high": round(self.high, 4)}


def wilson(hits: int, n: int, z: float = Z95) -> Rate:
    """Wilson's score interval for hits/n."""
    if hits < 0 or n < 0 or hits > n:
        raise ValueError(f"a rate needs 0 <= hits <= n, not {hits}/{n}")
    if n == 0:
        return Rate(0, 0, 0.0, 0.0)
    p = hits / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Rate(hits, n, max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Difference:
    """Rate b minus rate a, and the two-sided p-value that they are equal."""

    a: Rate
    b: Rate
    delta: float
    p_value: float

    @property
    def significant(self) -> bool:
        return self.p_value < 0.05

    def to_json(self) -> dict:
        return {"a": self.a.to_json(), "b": self.b.to_json(), "delta": round(self.delta, 4),
                "p_value": round(self.p_value, 6), "significant": self.significant}


def difference(a_hits: int, a_n: int, b_hits: int, b_n: int) -> Difference:
    """The pooled two-proportion z-test of b against a."""
    a, b = wilson(a_hits, a_n), wilson(b_hits, b_n)
    if a_n == 0 or b_n == 0:
        return Difference(a, b, 0.0, 1.0)
    pooled = (a_hits + b_hits) / (a_n + b_n)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / a_n + 1 / b_n))
    delta = b.value - a.value
    if spread == 0:
        return Difference(a, b, delta, 1.0 if delta == 0 else 0.0)
    z = abs(delta) / spread
    return Difference(a, b, delta, math.erfc(z / math.sqrt(2)))


def games_for_margin(margin: float, p: float = 0.5, z: float = Z95) -> int:
    """Games needed so a rate near `p` is known to +/- `margin` (95%)."""
    return math.ceil(z * z * p * (1 - p) / (margin * margin))
