"""The Petri dish board: 52 foodpoints, their neighbours and the prime areas.

An 8 x 8 grid, files a-h and ranks 1-8, with three points cut from each
corner (shared/seeds/README.md). Points are numbered 0..51 rank by rank from
rank 1, file a to h, so every table below is a plain tuple indexed by point.
"""
from __future__ import annotations

import re

FILES = "abcdefgh"
RANKS = range(1, 9)
REMOVED = frozenset({"a1", "a2", "b1", "g1", "h1", "h2", "a7", "a8", "b8", "g8", "h8", "h7"})

POINTS: tuple[str, ...] = tuple(
    f"{f}{r}" for r in RANKS for f in FILES if f"{f}{r}" not in REMOVED
)
INDEX: dict[str, int] = {name: i for i, name in enumerate(POINTS)}


def _xy(name: str) -> tuple[int, int]:
    return FILES.index(name[0]), int(name[1:]) - 1


def _name(x: int, y: int) -> str | None:
    if 0 <= x < 8 and 0 <= y < 8:
        name = f"{FILES[x]}{y + 1}"
        return None if name in REMOVED else name
    return None


def _neighbours(steps: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    out = []
    for name in POINTS:
        x, y = _xy(name)
        found = (_name(x + dx, y + dy) for dx, dy in steps)
        out.append(tuple(INDEX[n] for n in found if n is not None))
    return tuple(out)


# Liberties are counted on the 4 orthogonal neighbours only.
ORTHOGONAL = _neighbours(((0, 1), (1, 0), (0, -1), (-1, 0)))
# Moves and divisions may reach any of the 8 neighbours.
AROUND = _neighbours(((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)))

PRIME_AREAS: dict[str, tuple[str, ...]] = {
    "south-west": ("a3", "b3", "c3", "b2", "c2", "c1"),
    "south-east": ("f3", "g3", "h3", "f2", "g2", "f1"),
    "north-west": ("a6", "b6", "c6", "b7", "c7", "c8"),
    "north-east": ("f6", "g6", "h6", "f7", "g7", "f8"),
}
AREA_INDICES: tuple[tuple[int, ...], ...] = tuple(
    tuple(INDEX[p] for p in area) for area in PRIME_AREAS.values()
)
PRIME_POINTS = frozenset(p for area in PRIME_AREAS.values() for p in area)

_POINT = re.compile(r"^([a-h])([1-8])$")


def is_point_name(text: str) -> bool:
    """True for any grid coordinate a1-h8, foodpoint or not."""
    return bool(_POINT.match(text))
