"""Pure helpers over the Cold War part of a table's state (`State.fields`).

    decks[player]  {"country", "country_name", "leader": id, "cards": {id: stats}}
    desks[player]  one player's cards, as lists of card ids:
        science    groups of face-up Science & Culture cards (1 card, or a stack of 3)
        military   groups of face-down cards (Military Power or Propaganda)
        propaganda the ids in `military` that are Propaganda cards
        assistants Assistant Leaders on the Leader stack
        discard, removed (out of the game), pile (a Fallen Leader's draw pile),
        lent (a Fallen Leader's cards lent to others), weakened (zones whose
        stack of 3 lost a card; cleared when the owner's turn starts),
        set_up, fallen

Spots name what can be attacked: S1, S2 ... (Science & Culture), M1 ...
(Military), A1 ... (Assistant Leaders, for Specials) and L (the Leader
stack). A card inside a stack of 3 is S1.2, M1.3 ... The numbering follows
the order on the table and changes when the owner regroups.
"""
from __future__ import annotations

import re
from typing import Any, Iterator, Mapping

from referee.errors import RuleViolation

ZONES = ("science", "military")
ZONE_LETTER = {"science": "S", "military": "M"}
LETTER_ZONE = {"S": "science", "M": "military", "A": "assistants"}
ZONE_WORDS = {"science": "Science & Culture", "military": "Military", "assistants": "Leader stack"}
SPOT = re.compile(r"^(?:L|([SMA])(\d{1,2})(?:\.(\d))?)$", re.IGNORECASE)
STACK = 3


def new_desk() -> dict[str, Any]:
    return {"set_up": False, "fallen": False, "science": [], "military": [], "propaganda": [],
            "assistants": [], "weakened": [], "discard": [], "removed": [], "pile": [], "lent": []}


def is_spot(token: str) -> bool:
    return bool(SPOT.match(token.strip()))


def card(f: Mapping[str, Any], cid: str) -> dict[str, Any]:
    for deck in f["decks"].values():
        if cid in deck["cards"]:
            return deck["cards"][cid]
    raise KeyError(cid)


def owner(f: Mapping[str, Any], cid: str) -> str | None:
    for name, deck in f["decks"].items():
        if cid in deck["cards"]:
            return name
    return None


def name_of(f: Mapping[str, Any], cid: str) -> str:
    try:
        return card(f, cid)["name"]
    except KeyError:
        return cid


def card_defence(f: Mapping[str, Any], holder: str, cid: str, propaganda: int) -> int:
    """A card's defence where it lies: a Propaganda card counts `propaganda`."""
    if cid in f["desks"][holder]["propaganda"]:
        return propaganda
    return int(card(f, cid).get("defence", 0))


def group_defence(f: Mapping[str, Any], holder: str, ids: list[str], propaganda: int) -> int:
    return sum(card_defence(f, holder, c, propaganda) for c in ids)


def leader_stack(f: Mapping[str, Any], player: str) -> list[str]:
    return [f["decks"][player]["leader"], *f["desks"][player]["assistants"]]


def spots(desk: Mapping[str, Any]) -> Iterator[tuple[str, str, list[str]]]:
    """(label, zone, card ids) for every Science & Culture and Military spot."""
    for zone in ZONES:
        for i, group in enumerate(desk[zone], start=1):
            yield f"{ZONE_LETTER[zone]}{i}", zone, group


def defence_cards(f: Mapping[str, Any], player: str) -> list[str]:
    """Every Science & Culture and Military card on a player's table."""
    desk = f["desks"][player]
    return [c for zone in ZONES for group in desk[zone] for c in group]


def locate(f: Mapping[str, Any], cid: str) -> tuple[str, str] | None:
    """(holder, zone) for a card on some player's table, else None."""
    for holder, desk in f["desks"].items():
        for zone in ZONES:
            if any(cid in group for group in desk[zone]):
                return holder, zone
        if cid in desk["assistants"]:
            return holder, "assistants"
    return None


def find_in_zone(desk: Mapping[str, Any], zone: str, cid: str) -> tuple[int, int]:
    for gi, group in enumerate(desk[zone]):
        if cid in group:
            return gi, group.index(cid)
    raise KeyError(cid)


def parse_spot(desk: Mapping[str, Any], player: str, token: str) -> tuple[str, int, int | None]:
    """A spot label on `player`'s table: (zone, group index, card index or None).

    Zone "leader" is the Leader stack (L). Raises RuleViolation when there is
    no such spot."""
    match = SPOT.match(token.strip())
    if match is None:
        raise RuleViolation("spots", f"{token!r} is not a spot on {player}'s table; use S1, M2, A1, L or M1.2")
    letter, number, inner = match.groups()
    if letter is None:
        return "leader", 0, None
    zone = LETTER_ZONE[letter.upper()]
    items = desk[zone]
    index = int(number) - 1
    if not 0 <= index < len(items):
        have = f"{len(items)}" if items else "none"
        raise RuleViolation("spots", f"{player} has no {token.upper()} ({ZONE_WORDS[zone]} spots: {have})")
    if zone == "assistants":
        if inner is not None:
            raise RuleViolation("spots", f"{token.upper()} is one Assistant Leader card; write A{number}")
        return zone, index, None
    if inner is None:
        return zone, index, None
    pos = int(inner) - 1
    if not 0 <= pos < len(items[index]):
        raise RuleViolation("spots", f"{player}'s {letter.upper()}{number} holds {len(items[index])} card(s), "
                                     f"so there is no {token.upper()}")
    return zone, index, pos


def take(f: dict[str, Any], holder: str, zone: str, cid: str, mover: str | None) -> bool:
    """Lift a card off a player's table. A stack of 3 that loses a card falls
    apart into single cards; if that happens to someone other than `mover`,
    their zone is weakened until their own turn. Returns True if a stack broke."""
    desk = f["desks"][holder]
    if zone == "assistants":
        desk["assistants"].remove(cid)
        return False
    gi, _ = find_in_zone(desk, zone, cid)
    group = desk[zone][gi]
    rest = [c for c in group if c != cid]
    broke = len(group) == STACK
    desk[zone][gi:gi + 1] = [[c] for c in rest]
    if cid in desk["propaganda"]:
        desk["propaganda"].remove(cid)
    if broke and holder != mover and zone not in desk["weakened"]:
        desk["weakened"].append(zone)
    return broke


def to_discard(f: dict[str, Any], cid: str) -> None:
    """A card goes to its owner's discard pile (a lent card goes home)."""
    home = owner(f, cid)
    desk = f["desks"][home]
    if cid in desk["lent"]:
        desk["lent"].remove(cid)
    desk["discard"].append(cid)


def to_removed(f: dict[str, Any], cid: str) -> None:
    """A card leaves the game for the rest of the round."""
    home = owner(f, cid)
    desk = f["desks"][home]
    if cid in desk["lent"]:
        desk["lent"].remove(cid)
    desk["removed"].append(cid)
