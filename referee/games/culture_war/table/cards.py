"""Card data for Culture War, read through the referee's card index.

Rules never read YAML themselves: a command resolves the card (by id or QR
payload) into a plain dict of the stats the rules use, and that dict travels
in the action's arguments, so the log replays exactly even if the sources
change later. Setup looks up each faction's starting Real Estate and Base Unit
here too.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from referee.errors import CardError, RefereeError

GAME = "culture-war"
CARD_TYPES = ("unit", "real-estate", "mod", "flash", "happening", "operation")
STAT_KEYS = ("cost", "atk", "def", "unit_type", "traits", "effects", "production", "capacity", "target")


def stats_of(info: Any) -> dict[str, Any]:
    """The fields of a CardInfo the rules need, as plain JSON values."""
    fields = info.fields
    out: dict[str, Any] = {"id": info.id, "name": info.name, "type": info.type, "deck": info.deck,
                           "quantity": int(info.quantity or 1)}
    for key in STAT_KEYS:
        value = fields.get(key)
        if value is not None:
            out[key] = value
    out["effects"] = [dict(e) for e in (fields.get("effects") or [])]
    if info.type == "unit":
        out["traits"] = list(fields.get("traits") or [])
    return out


def resolve(code: str) -> dict[str, Any]:
    """A Culture War card named by id or QR payload, as a stats dict."""
    from referee.cards import lookup  # lazy: the card index, read only when card data is needed

    found = lookup(code)
    if found.card.game != GAME:
        raise CardError(f"card {found.card.id} belongs to {found.card.game}, but this table plays {GAME}")
    if found.card.type not in CARD_TYPES:
        raise RefereeError(f"card {found.card.id} is a {found.card.type}, which Culture War cannot play")
    return stats_of(found.card)


@lru_cache(maxsize=8)
def deck_size(faction: str) -> int | None:
    """How many cards a faction deck shuffles into its draw pile: every
    printed copy but the Real Estate (a pile of its own) and the Base Unit put
    in play at the start. None when the deck holds no cards."""
    from referee.cards.index import load_index, project_root  # lazy: the card index, read only when card data is needed

    try:
        index = load_index(project_root())
    except CardError as exc:
        raise CardError(f"cannot count {faction}'s deck: {exc}") from None
    deck = [c for c in index.cards.values() if c.game == GAME and c.deck == faction
            and c.type in CARD_TYPES and c.type != "real-estate"]
    if not deck:
        return None
    has_base = any(c.type == "unit" and "base" in (c.fields.get("traits") or []) for c in deck)
    return sum(max(1, int(c.quantity or 1)) for c in deck) - (1 if has_base else 0)


@lru_cache(maxsize=8)
def starting_cards(faction: str) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """A faction deck's plain Real Estate (no text, no effects) and its Base
    Unit (traits base, 0 ATK, 0 DEF), the first of each in deck order; None
    for either when the deck holds none. CardError when the sources cannot be read."""
    from referee.cards.index import load_index, project_root  # lazy: the card index, read only when card data is needed

    try:
        index = load_index(project_root())
    except CardError as exc:
        raise CardError(f"cannot find {faction}'s starting Real Estate and Base Unit: {exc}") from None
    deck = sorted((c for c in index.cards.values() if c.game == GAME and c.deck == faction),
                  key=lambda c: (c.path, c.line))
    estate = next((c for c in deck if c.type == "real-estate" and not c.fields.get("text")
                   and not c.fields.get("effects")), None)
    base = next((c for c in deck if c.type == "unit" and "base" in (c.fields.get("traits") or [])
                 and c.fields.get("atk") == 0 and c.fields.get("def") == 0), None)
    return (stats_of(estate) if estate else None, stats_of(base) if base else None)
