"""Divide & Conquer cards as plain dicts, copied from the card index into
each action's arguments so that applying and replaying never reads the
card sources. Each carries its printed `quantity`, so the rules can refuse a
copy the table does not have. An asset, deficit or event carries what its
one effect means to the rules (`effects.card_fields`: modifier and ability,
or the event's action, scope, zone, wing and count). `deck_size` reads the
index once, at setup."""
from __future__ import annotations

from typing import Any, Mapping

from referee.errors import CardError
from referee.games.divide_and_conquer.effects import card_fields

GAME = "divide-and-conquer"
PLAYABLE = ("group", "asset", "deficit", "event")
PRINTED_DECK = 108  # copies in the printed shared deck (a test checks it against the card sources)
KEYS = {
    "group": ("wing", "influence"),
    "asset": ("modifier", "ability"),
    "deficit": ("modifier", "ability"),
    "event": ("scope", "action", "zone", "wing", "count", "chosen_by"),
}


def entry(card_id: str, name: str, card_type: str, fields: Mapping[str, Any],
          quantity: int | None = None) -> dict[str, Any]:
    if card_type not in KEYS:
        raise CardError(f"card {card_id} is a {card_type} card, which is not played in Divide & Conquer")
    out: dict[str, Any] = {"id": card_id, "name": name, "type": card_type}
    if quantity is not None:
        out["quantity"] = int(quantity)
    if card_type != "group" and fields.get("effects") is not None:
        out.update(card_fields(card_id, card_type, fields["effects"]))
        if card_type == "event" and fields.get("text"):
            out["text"] = fields["text"]  # its printed words, for the prompts it raises
        return out
    for key in KEYS[card_type]:
        value = fields.get(key)
        if value is not None:
            out[key] = value
    return out


def from_lookup(found: Any) -> dict[str, Any]:
    from referee.cards import of_game  # lazy: the card index, read only when card data is needed

    card = of_game(found, GAME)
    return entry(card.id, card.name, card.type, card.fields, card.quantity)


def deck_size() -> int:
    """Copies of every group, asset, deficit and event in the card sources."""
    from referee.cards.index import load_index, project_root  # lazy: the card index, read only when card data is needed

    index = load_index(project_root())
    return sum(c.quantity for c in index.cards.values() if c.game == GAME and c.type in PLAYABLE)
