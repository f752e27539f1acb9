"""Interval estimates and tests for win rates, in plain math (no numpy).

A win rate from n games is a binomial proportion; its 95% interval is
Wilson's score interval, which stays inside 0..1 and behaves at small n and
at rates near 0 or 1 (where the normal approximation does not). Two rates
(an A/B pair, a card played against not played) are compared with the pooled
two-proportion z-test; a rate against a fair share by the score test (the
test Wilson's interval inverts); paired outcomes (A/B on the same seeds) by
McNemar's exact test (paired.py); and every run's tests together under
Benjamini and Hochberg's false discovery rate (`fdr`).
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
    # at 0 hits the low bound is 0 exactly, at n hits the high bound is 1
    # (the formula's rounding leaves 2.8e-17, which would exclude a fair 0)
    low = 0.0 if hits == 0 else max(0.0, centre - half)
    high = 1.0 if hits == n else min(1.0, centre + half)
    return Rate(hits, n, low, high)


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


def against_share(hits: int, n: int, share: float) -> float:
    """The two-sided p-value of hits/n against a fair `share`: the score
    test, whose 95% acceptance region is exactly Wilson's interval."""
    if n == 0 or not 0.0 < share < 1.0:
        return 1.0
    z = abs(hits / n - share) / math.sqrt(share * (1 - share) / n)
    return math.erfc(z / math.sqrt(2))


def binomial_two_sided(k: int, n: int) -> float:
    """The exact two-sided p-value of k successes in n fair coin flips
    (the sign test; McNemar's exact test on the discordant pairs)."""
    if n == 0:
        return 1.0
    low = min(k, n - k)
    tail = sum(math.comb(n, i) for i in range(low + 1)) / 2.0 ** n
    return min(1.0, 2.0 * tail)


def fdr(p_values: dict[str, float], q: float = 0.05) -> dict[str, float]:
    """Benjamini-Hochberg adjusted p-values (q-values) over every test
    given: a test is a finding at false discovery rate `q` when its q-value
    is below q. Sorted ascending, the i-th of m p-values becomes
    min over j >= i of p_j * m / j, at most 1."""
    m = len(p_values)
    ranked = sorted(p_values.items(), key=lambda kv: kv[1])
    out: dict[str, float] = {}
    running = 1.0
    for i in range(m, 0, -1):
        name, p = ranked[i - 1]
        running = min(running, p * m / i)
        out[name] = min(1.0, running)
    return out


def normal_quantile(p: float) -> float:
    """The standard normal's p-quantile (Acklam's rational approximation,
    relative error below 1.2e-9)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"a quantile needs 0 < p < 1, not {p}")
    a = (-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.3577518672690, -30.66479806614716,
         2.506628277459239)
    b = (-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572)
    c = (-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
         2.938163982698783)
    d = (0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416)
    if p < 0.02425 or p > 1 - 0.02425:
        t = math.sqrt(-2 * math.log(p if p < 0.5 else 1 - p))
        x = (((((c[0] * t + c[1]) * t + c[2]) * t + c[3]) * t + c[4]) * t + c[5]) / \
            ((((d[0] * t + d[1]) * t + d[2]) * t + d[3]) * t + 1)
        return x if p < 0.5 else -x
    r = p - 0.5
    t = r * r
    return (((((a[0] * t + a[1]) * t + a[2]) * t + a[3]) * t + a[4]) * t + a[5]) * r / \
        (((((b[0] * t + b[1]) * t + b[2]) * t + b[3]) * t + b[4]) * t + 1)
