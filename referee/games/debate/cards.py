"""Debate cards as the rules see them: plain dicts taken from the card index.

The stats of every card an action names are copied into the action's
arguments when the scorekeeper enters it (see commands.py), so applying and
replaying an action never reads the card sources again. `find_potus` is the
one place the rules themselves read the index: at setup, to turn a player's
POTUS (card id, QR text or a president's name) into stats.
"""
from __future__ import annotations

from typing import Any, Mapping

from referee.errors import CardError, RuleViolation
from referee.games.debate.effects import ability

GAME = "debate"
KIND_OF_TYPE = {"argument": "argument", "rhetorical-device": "device", "potus": "potus"}


def entry(card_id: str, name: str, card_type: str, fields: Mapping[str, Any], quantity: int = 1) -> dict[str, Any]:
    """The stats of one card, as JSON-ready values (`quantity`: its printed copies),
    with its ability as the rules run it, made from its effects (effects.py)."""
    kind = KIND_OF_TYPE.get(card_type)
    if kind is None:
        raise CardError(f"card {card_id} is a {card_type}, which the debate referee does not use")
    out: dict[str, Any] = {"id": card_id, "name": name, "kind": kind, "quantity": max(1, int(quantity or 1))}
    if kind == "potus":
        out.update(gf_bonus=int(fields.get("gf_bonus") or 0), bf_bonus=int(fields.get("bf_bonus") or 0),
                   ability=fields.get("ability"), uses=fields.get("uses") or "passive")
    else:
        out.update(strength=int(fields.get("strength") or 0), cost=int(fields.get("cost") or 0), timing="instant")
        if kind == "argument":
            out.update(alignment=fields["alignment"], stars=int(fields.get("stars") or 1))
    record = ability(fields.get("effects") or (), fields.get("text"))
    if kind == "potus":
        record.pop("timing", None)  # a POTUS's moment is its `uses`
    out.update(record)
    return out


def from_lookup(found: Any) -> dict[str, Any]:
    from referee.cards import of_game  # lazy: the card index, read only when card data is needed

    card = of_game(found, GAME)
    return entry(card.id, card.name, card.type, card.fields, card.quantity)


def find_potus(text: str) -> dict[str, Any]:
    """A POTUS by card id, QR text, full name or surname ("Lincoln")."""
    from referee.cards import lookup  # lazy: the card index, read only when card data is needed
    from referee.cards.index import load_index, project_root  # lazy: as above

    try:
        found = lookup(text)
    except CardError:
        found = None
    if found is not None:
        stats = from_lookup(found)
        if stats["kind"] != "potus":
            raise RuleViolation("POTUS", f"{found.card.id} is not a POTUS card, so it cannot lead a debater")
        return stats
    index = load_index(project_root())
    wanted = text.strip().casefold()
    potuses = [c for c in index.cards.values() if c.game == GAME and c.type == "potus"]
    hits = [c for c in potuses if wanted in (c.name.casefold(), c.name.split()[-1].casefold(),
                                              c.id.removeprefix("deb-"))]
    if len(hits) == 1:
        return entry(hits[0].id, hits[0].name, hits[0].type, hits[0].fields, hits[0].quantity)
    names = ", ".join(sorted(c.id for c in (hits or potuses)))
    if hits:
        raise RuleViolation("POTUS", f"{text!r} matches more than one POTUS ({names}); give the card id")
    raise RuleViolation("POTUS", f"{text!r} is not a POTUS card; choose one of: {names}")


STARTERS = ("a", "b")


def starter_deck(letter: str) -> list[dict[str, Any]]:
    """The 15 tactics of starter deck A or B, as marked on the cards (one copy of each)."""
    from referee.cards.index import load_index, project_root  # lazy: the card index, read only when card data is needed

    wanted = letter.strip().lower()
    if wanted not in STARTERS:
        raise RuleViolation("tactic deck", f"the starter decks are a and b, not {letter!r}")
    index = load_index(project_root())
    return sorted((entry(c.id, c.name, c.type, c.fields, c.quantity) for c in index.cards.values()
                   if c.game == GAME and wanted in (c.fields.get("starter") or [])), key=lambda c: c["id"])
