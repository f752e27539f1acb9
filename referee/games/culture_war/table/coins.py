"""Coins on a Culture War board, by faction: kept in each player's bank and
on their Real Estate (`Board.bank`, `Board.sources`); moving them is
`payments`'."""
from __future__ import annotations

from typing import Mapping

PLAIN = "plain"  # coins of a Real Estate with no faction: every card counts them as its own


def coins_total(coins: Mapping[str, int]) -> int:
    return sum(coins.values())


def coins_text(coins: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {f}" for f, n in sorted(coins.items()) if n) or "none"


def tidy(coins: dict[str, int]) -> None:
    """Drop the factions a pile of coins has none of left."""
    for f in [f for f, n in coins.items() if n <= 0]:
        del coins[f]
