"""Every printed copy is one physical card (pure).

The shared deck holds each card as many times as it is printed (the
`quantity` copied into the action from the card index). Hands are counted,
not seen, so a card becomes known when it is played: into a base, the
unaffiliated area, onto a group, into an attack or a defence team, or onto
the discard pile. Nothing in the rules brings a discarded card back, so a
card already everywhere its copies can be cannot be played again.
`claim` is asked before each card is put down; the places it lists are the
copies seen on the table now, one entry per copy.
"""
from __future__ import annotations

from typing import Any, Iterator, Mapping

from referee.rules.copies import check_free_copy
from referee.errors import RuleViolation

COPIES_RULE = "printed copies"


def _group_places(fields: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(where, group) for every group the table can see, with words for where."""
    for owner, groups in fields["bases"].items():
        for g in groups:
            yield f"{owner}'s base", g
    for g in fields["unaffiliated"]:
        yield "the unaffiliated area", g
    attack = fields.get("attack") or {}
    for g in attack.get("team") or ():
        yield f"{attack['attacker']}'s attack team", g
    for g in attack.get("defence") or ():
        yield f"{attack['defender']}'s defence team", g


def places_of(fields: Mapping[str, Any], card_id: str) -> list[str]:
    """Where the seen copies of `card_id` are, one entry per copy."""
    out: list[str] = []
    for where, g in _group_places(fields):
        if g["id"] == card_id:
            out.append(f"{where} ({g['ref']})")
        out += [f"on {g['name']} ({g['ref']}) in {where}" for a in g["attached"] if a["id"] == card_id]
    out += ["the discard pile" for cid in fields["discard"] if cid == card_id]
    return out


def counts(fields: Mapping[str, Any]) -> dict[str, int]:
    """Copies seen on the table now, by card id."""
    out: dict[str, int] = {}
    for _, g in _group_places(fields):
        for cid in (g["id"], *(a["id"] for a in g["attached"])):
            out[cid] = out.get(cid, 0) + 1
    for cid in fields["discard"]:
        out[cid] = out.get(cid, 0) + 1
    return out


def claim(fields: Mapping[str, Any], card: Mapping[str, Any], player: str) -> None:
    """Refuse (RuleViolation, rule "printed copies") unless another printed
    copy of `card` is free to come from `player`'s hand. A card without a
    recorded quantity (an action logged before quantities were kept) is not
    checked."""
    quantity = card.get("quantity")
    if quantity is None:
        return
    try:
        check_free_copy(card["id"], card["name"], int(quantity), places_of(fields, card["id"]), rule=COPIES_RULE)
    except RuleViolation as refused:
        raise RuleViolation(refused.rule, f"{player} cannot play {card['name']} from their hand: "
                            f"{refused.message}") from None
