"""The text a card's QR code carries.

Printed now: `PNP:CARD-ID:REVISION:COPY` — the card, the revision of its text
it was printed with, and which printed copy this is (1, 2, ...), so a scan
names the very card on the table. A face shown on its own (a preview, a
print-shop file) has no copy number: `PNP:CARD-ID:REVISION`. Card ids are unique across all games, so
the game is not repeated: the payload stays short and its modules large.

Cards printed before copies were numbered carry `PNP:GAME:CARD-ID:REVISION`;
those still read, with no copy number. Both are upper case so the QR
encoder can use its compact alphanumeric mode.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "PNP"
MAX_COPY_DIGITS = 3  # room kept in every payload for the copy number
_PRINTED = re.compile(r"^PNP:([A-Z0-9-]+):([0-9A-F]{6})(?::([0-9]{1,3}))?$")
_OLD = re.compile(r"^PNP:([A-Z0-9-]+):([A-Z0-9-]+):([0-9A-F]{6})$")


@dataclass(frozen=True)
class Payload:
    card_id: str
    revision: str
    copy: int | None = None   # None: an older print without copy numbers
    game: str | None = None   # only older prints name their game


def format_payload(card_id: str, revision: str, copy: int | None = None) -> str:
    """The payload printed on `copy` of a card (no copy: a face shown on its own)."""
    text = f"{PREFIX}:{card_id}:{revision}"
    return (text if copy is None else f"{text}:{copy}").upper()


def longest_payload(card_id: str) -> str:
    """The payload of the longest shape this card's QR code can carry."""
    return format_payload(card_id, "000000", 10 ** MAX_COPY_DIGITS - 1)


def parse_payload(text: str) -> Payload | None:
    clean = text.strip().upper()
    match = _PRINTED.match(clean)
    if match:
        card_id, revision, copy = match.groups()
        return Payload(card_id.lower(), revision, None if copy is None else int(copy))
    match = _OLD.match(clean)
    if match:
        game, card_id, revision = match.groups()
        return Payload(card_id.lower(), revision, None, game.lower())
    return None
