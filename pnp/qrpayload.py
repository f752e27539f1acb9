"""The text a card's QR code carries: game, card id and revision."""
from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "PNP"
_PATTERN = re.compile(r"^PNP:([A-Z0-9-]+):([A-Z0-9-]+):([0-9A-F]{6})$")


@dataclass(frozen=True)
class Payload:
    game: str
    card_id: str
    revision: str


def format_payload(game: str, card_id: str, revision: str) -> str:
    """Upper case so the QR encoder can use its compact alphanumeric mode."""
    return f"{PREFIX}:{game}:{card_id}:{revision}".upper()


def parse_payload(text: str) -> Payload | None:
    match = _PATTERN.match(text.strip().upper())
    if not match:
        return None
    game, card_id, revision = match.groups()
    return Payload(game.lower(), card_id.lower(), revision)
