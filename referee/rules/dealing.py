"""What the card games' self-play dealers share (their `selfplay.py`): a
printed copy as (card id, copy number as its QR payload names it), and
taking one copy of a card out of a pile, hand or stack."""
from __future__ import annotations

from collections import Counter

Copy = tuple[str, int]


def take(copies: list[Copy], card_id: str) -> Copy | None:
    """Remove and return the first copy of `card_id` in `copies`, or None."""
    for i, (cid, _) in enumerate(copies):
        if cid == card_id:
            return copies.pop(i)
    return None


def take_each(copies: list[Copy], wanted: Counter[str]) -> list[Copy]:
    """The copies of the wanted card ids, taken out of `copies` (as many as
    there are): what a determiniser puts back where the view says they are."""
    taken: list[Copy] = []
    for card_id, n in wanted.items():
        for _ in range(n):
            copy = take(copies, card_id)
            if copy is None:
                break
            taken.append(copy)
    return taken
