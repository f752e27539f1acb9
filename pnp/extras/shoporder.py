"""What a print shop's order says: the image names of the image shops (one
front per card, or per printed copy with --copies; one back per deck, or per
distinct back of a deck with a back per card) and,
in order.csv, in plain words what to upload and how many to order."""
from __future__ import annotations

from dataclasses import dataclass


def front_png(card_id: str, copy: int = 0) -> str:
    """A card's front image: one per card, or (copy >= 1) one per printed copy."""
    return f"{card_id}-{copy}-front.png" if copy else f"{card_id}-front.png"


def back_png(deck_id: str, number: int = 0) -> str:
    """The deck's one back, or (number >= 1) the n-th distinct back of a deck with a back per card."""
    return f"{deck_id}-back-{number}.png" if number else f"{deck_id}-back.png"


@dataclass(frozen=True)
class SharedBack:
    """A back image and the copies it is ordered for: every copy of every card it is behind."""

    file: str
    cards: tuple[str, ...]
    copies: int


def back_sharing(deck, back_files: dict[str, str]) -> dict[str, SharedBack]:
    """Each card's back image, with all the cards behind which it is printed and their copies."""
    cards: dict[str, list] = {}
    for card in deck.cards:
        if card.id in back_files:
            cards.setdefault(back_files[card.id], []).append(card)
    return {card.id: SharedBack(name, tuple(c.id for c in group), sum(c.quantity for c in group))
            for name, group in cards.items() for card in group}


ORDER_COLUMNS = ["deck", "card_id", "name", "quantity", "front_files", "back_files", "upload"]


def upload_words(output: str, quantity: int, fronts: list[str], backs: list[str],
                 shared: SharedBack | None = None) -> str:
    """What to do with a card's files at the shop, in plain words (`output`: pnp.extras.export.Output's
    value; `shared`: the image shops' back, with the cards it is behind)."""
    back = f", back {backs[0]}" if backs else " (no back)"
    if backs and shared is not None and len(shared.cards) > 1:
        back += f" (one image behind {len(shared.cards)} cards, {shared.copies} copies in all)"
    if output == "png" and len(fronts) == 1:
        return f"upload {fronts[0]} once{back}; order {quantity} cop{'y' if quantity == 1 else 'ies'}"
    if output == "png":
        return f"upload each of the {len(fronts)} fronts once (each its own copy number){back}; 1 copy of each"
    if output == "deck-pdf":
        return f"in the deck's one PDF: {len(fronts)} front page{'s' if len(fronts) != 1 else ''} for this card; upload the PDF once"
    return f"{len(fronts)} PDF{'s' if len(fronts) != 1 else ''}, one per copy (front page, then back page); 1 copy of each"
