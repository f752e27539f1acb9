"""What a print shop's order says: the image names of the image shops (one
front per card, or per printed copy with --copies; one back per deck) and,
in order.csv, in plain words what to upload and how many to order."""
from __future__ import annotations


def front_png(card_id: str, copy: int = 0) -> str:
    """A card's front image: one per card, or (copy >= 1) one per printed copy."""
    return f"{card_id}-{copy}-front.png" if copy else f"{card_id}-front.png"


def back_png(deck_id: str) -> str:
    return f"{deck_id}-back.png"


ORDER_COLUMNS = ["deck", "card_id", "name", "quantity", "front_files", "back_files", "upload"]


def upload_words(output: str, quantity: int, fronts: list[str], backs: list[str]) -> str:
    """What to do with a card's files at the shop, in plain words (`output`: pnp.extras.export.Output's value)."""
    back = f", back {backs[0]}" if backs else " (no back)"
    if output == "png" and len(fronts) == 1:
        return f"upload {fronts[0]} once{back}; order {quantity} cop{'y' if quantity == 1 else 'ies'}"
    if output == "png":
        return f"upload each of the {len(fronts)} fronts once (each its own copy number){back}; 1 copy of each"
    if output == "deck-pdf":
        return f"in the deck's one PDF: {len(fronts)} front page{'s' if len(fronts) != 1 else ''} for this card; upload the PDF once"
    return f"{len(fronts)} PDF{'s' if len(fronts) != 1 else ''}, one per copy (front page, then back page); 1 copy of each"
