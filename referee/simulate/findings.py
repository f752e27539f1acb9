"""The one-sided report's findings: every test a run makes (each faction's,
each seat's and the first player's win rate against the fair share; each
card's win rate when played against when not), corrected together for the
false discovery rate (Benjamini-Hochberg, stats.fdr).

A card's "wins when played" is a correlation, and is said to be one: a
player ahead plays more cards, and a card is played when it can be. What a
card is worth is found by intervention (an A/B with the card changed or
removed: `--against`, compare.py).
"""
from __future__ import annotations

from typing import Any

from referee.simulate.stats import Rate, against_share, fdr

Q = 0.05  # the false discovery rate of a run's findings
CARD_FLOOR = 30  # a card's correlation is reported once played in this many seat-games
UNFINISHED_SHARE = 0.5  # above this share of capped, jammed or drawn games, no balance verdict


def tests(figures: dict[str, Any]) -> dict[str, tuple[float, str, bool]]:
    """Every test of the run: name -> (p-value, its line, whether it may be reported)."""
    fair = figures["fair"]
    out: dict[str, tuple[float, str, bool]] = {}
    for name, rate in figures["factions"].items():
        if name != "(none)":
            out[f"faction:{name}"] = (against_share(rate.hits, rate.n, fair),
                                      f"{name} wins {pct(rate)} of its games, against a fair {fair:.0%}", True)
    for seat, rate in figures["seats"].items():
        out[f"seat:{seat}"] = (against_share(rate.hits, rate.n, fair),
                               f"seat {int(seat) + 1} wins {pct(rate)}, against a fair {fair:.0%}", True)
    first = figures["first"]
    out["first"] = (against_share(first.hits, first.n, fair),
                    f"the first player wins {pct(first)}, against a fair {fair:.0%}", True)
    for card, d in figures["cards"].items():
        if d["played"].n and d["not_played"].n:
            out[f"card:{card}"] = (d["test"].p_value,
                                   f"{card}: its player wins {pct(d['played'])} when it is played, "
                                   f"{pct(d['not_played'])} when not (a correlation, not the card's effect)",
                                   d["played"].n >= CARD_FLOOR)
    return out


def q_values(figures: dict[str, Any]) -> dict[str, float]:
    return fdr({k: v[0] for k, v in tests(figures).items()})


def findings(games: int, outcomes: dict[str, int], figures: dict[str, Any]) -> list[str]:
    """The verdict's balance lines, or why there is no balance verdict."""
    won = outcomes.get("win", 0)
    unfinished = games - won
    if not won:
        return [f"no balance verdict: none of the {games} games was won (drawn, capped or jammed), so there "
                "is no fair share to weigh a win rate against"]
    if unfinished > UNFINISHED_SHARE * games:
        return [f"no balance verdict: {unfinished} of {games} games were capped, jammed or drawn, so the win "
                "rates say more about the agents than about the game"]
    every = tests(figures)
    q = fdr({k: v[0] for k, v in every.items()})
    lines = [f"{line} (q={q[k]:.3g})" for k, (p, line, shown) in every.items() if shown and q[k] < Q]
    return lines or [f"no significant imbalance at {games} games ({len(every)} tests, false discovery rate 5%)"]


def pct(rate: Rate) -> str:
    return f"{rate.value:.0%} (95% {rate.low:.0%}-{rate.high:.0%}, n={rate.n})"
