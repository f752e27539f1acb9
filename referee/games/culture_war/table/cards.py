"""Card data for Culture War, read through the referee's card index.

Rules never read YAML themselves: a command resolves the card (by id or QR
payload) into a plain dict of the stats the rules use, and that dict travels
in the action's arguments, so the log replays exactly even if the sources
change later. Setup looks up each faction's starting Real Estate and Base Unit
here too.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

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


# ---- the printed cards, for the move generator and self-play's dealer -------------------------


@lru_cache(maxsize=None)
def card(card_id: str) -> Mapping[str, Any]:
    """A Culture War card by id, as the stats dict an action carries (cached:
    the whole game's cards are read from the index once, not once per card)."""
    found = _every_card().get(card_id)
    if found is not None:
        return found
    return resolve(card_id)  # a short code or a QR payload, or the error naming what is wrong


@lru_cache(maxsize=1)
def _every_card() -> Mapping[str, Mapping[str, Any]]:
    from referee.cards.index import load_index, project_root  # lazy: the card index, read only when moves are asked for

    index = load_index(project_root())
    return {c.id: stats_of(c) for c in index.cards.values() if c.game == GAME and c.type in CARD_TYPES}


@lru_cache(maxsize=None)
def estate_cards(deck: str | None) -> tuple[Mapping[str, Any], ...]:
    """The Real Estate cards of a faction's deck (every faction's when None), in deck order."""
    from referee.cards.index import load_index, project_root  # lazy: the card index, read only when moves are asked for

    index = load_index(project_root())
    found = sorted((c for c in index.cards.values() if c.game == GAME and c.type == "real-estate"
                    and (deck is None or c.deck == deck)), key=lambda c: (c.path, c.line))
    return tuple(stats_of(c) for c in found)


@lru_cache(maxsize=None)
def deck_cards(deck: str | None) -> tuple[str, ...]:
    """The ids of a faction deck's printed copies that are shuffled into its
    draw pile (every copy but Real Estate and the one Base Unit put in play),
    one id per copy: what self-play deals hands from."""
    from referee.cards.index import load_index, project_root  # lazy: the card index, read only when moves are asked for

    index = load_index(project_root())
    found = sorted((c for c in index.cards.values() if c.game == GAME and c.type in CARD_TYPES
                    and c.type != "real-estate" and (deck is None or c.deck == deck)), key=lambda c: (c.path, c.line))
    ids = [c.id for c in found for _ in range(max(1, int(c.quantity or 1)))]
    base = starting_cards(deck)[1] if deck else None
    if base is not None and base["id"] in ids:
        ids.remove(base["id"])
    return tuple(ids)
