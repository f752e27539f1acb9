"""The plays a team or a raise can lay, smallest first, within a budget (pure;
legal.py turns them into moves).

A play is a multiset of the hand's groups, a set of base groups joining (a
team only) and the hand's assets and deficits each put on a card in the
fight: the target, the teams, a joined group or a group laid in the same
play (`new:I`, the I-th group laid; copies of one card are interchangeable,
so only the first copy of each is a target). The number of plays grows
exponentially with the hand (215,550 raises were possible in one state of a
random game), so they are listed by size, the cards laid plus the groups
joining: every play of size 0, 1, 2 ... while the list stays within
`BUDGET`; the first size that would overflow it is left out whole, and
`complete_to` says the largest size listed (None: every play is listed).
Plays of one card or none are always listed.

What makes a play possible here is what `battle.lay` asks of its cards: a
group laid is a group, an attachment an asset or deficit on a card in the
fight, no more cards than the hand holds (`held`), and no more copies of a
card than the printed copies not yet on the table (`free`). Whether the
attack's stage lets this player lay at all is `rules.check`'s (legal.py
asks it once).
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, product
from typing import Iterator, Mapping, Sequence

BUDGET = 300  # plays listed per team or raise, at most (one-card plays are always listed)


@dataclass(frozen=True)
class Play:
    groups: tuple[str, ...]  # card ids laid as groups, sorted
    joined: tuple[str, ...]  # refs of base groups joining
    attaches: tuple[tuple[str, str], ...]  # (card id, onto): a ref, or new:I

    @property
    def size(self) -> int:
        return len(self.groups) + len(self.joined) + len(self.attaches)


@dataclass(frozen=True)
class Listed:
    plays: list[Play]
    complete_to: int | None  # the largest size listed whole; None: every play is listed


def counted(cards: Sequence[str], free: Mapping[str, int]) -> dict[str, int]:
    """Copies of each card that may be laid: held, and printed copies not yet on the table."""
    out: dict[str, int] = {}
    for c in sorted(cards):
        if out.get(c, 0) < free.get(c, 0):
            out[c] = out.get(c, 0) + 1
    return out


def listed(groups: Mapping[str, int], joinable: Sequence[str], attach: Mapping[str, int],
           in_fight: Sequence[str], held: int, least: int, budget: int = BUDGET) -> Listed:
    """Every play of `least` cards or more (see the module docstring)."""
    most = min(held, sum(groups.values()) + sum(attach.values())) + len(joinable)
    out: list[Play] = []
    for size in range(least, most + 1):
        batch: list[Play] = []
        for play in _of_size(size, groups, joinable, attach, in_fight, held):
            batch.append(play)
            if size > 1 and len(out) + len(batch) > budget:
                return Listed(out, size - 1)
        out += batch
    return Listed(out, None)


def _of_size(size: int, groups: Mapping[str, int], joinable: Sequence[str], attach: Mapping[str, int],
             in_fight: Sequence[str], held: int) -> Iterator[Play]:
    for laid in _multisets(groups, size):
        for k in range(0, min(len(joinable), size - len(laid)) + 1):
            rest = size - len(laid) - k
            if len(laid) + rest > held:
                continue
            for joined in combinations(joinable, k):
                targets = [*in_fight, *joined, *(f"new:{laid.index(g)}" for g in dict.fromkeys(laid))]
                for cards in _multisets(attach, rest, exact=True):
                    for attaches in _placements(cards, targets):
                        yield Play(laid, joined, attaches)


def _multisets(counts: Mapping[str, int], most: int, exact: bool = False) -> Iterator[tuple[str, ...]]:
    """Sub-multisets of `counts` (sorted ids) of at most (or exactly) `most` cards."""
    distinct = sorted(counts)
    for take in product(*(range(counts[c] + 1) for c in distinct)):
        total = sum(take)
        if total == most or (not exact and total < most):
            yield tuple(c for c, k in zip(distinct, take) for _ in range(k))


def _placements(cards: Sequence[str], targets: Sequence[str]) -> Iterator[tuple[tuple[str, str], ...]]:
    """Every way to put each of `cards` (sorted) on one of `targets`; copies are interchangeable."""
    distinct = list(dict.fromkeys(cards))
    per = [[tuple((c, t) for t in chosen) for chosen in combinations_with_replacement(targets, cards.count(c))]
           for c in distinct]
    for pick in product(*per):
        yield tuple(pair for group in pick for pair in group)
