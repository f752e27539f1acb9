"""What the card games' self-play dealers share (their `selfplay.py`): a
printed copy as (card id, copy number as its QR payload names it), and
taking one copy of a card out of a pile, hand or stack."""
from __future__ import annotations

Copy = tuple[str, int]


def take(copies: list[Copy], card_id: str) -> Copy | None:
    """Remove and return the first copy of `card_id` in `copies`, or None."""
    for i, (cid, _) in enumerate(copies):
        if cid == card_id:
            return copies.pop(i)
    return None
