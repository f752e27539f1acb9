"""Pure helpers over the Cold War part of a table's state (`State.fields`).

    decks[player]  {"country", "country_name", "leader": id, "cards": {id: stats}}
    desks[player]  one player's cards:
        science    groups of face-up Science & Culture cards, {"n": label number, "cards": [ids]}
                   (1 card, or a stack of 3)
        military   groups of face-down cards (Military Power or Propaganda), the same shape
        next       the next free label number of each zone
        propaganda the ids in `military` that are Propaganda cards
        assistants Assistant Leaders on the Leader stack
        discard    the discard pile, bottom first (never shuffled)
        removed    cards out of the game this round
        lent       a Fallen Leader's cards lent to others
        weakened   zones whose stack of 3 lost a card; cleared when the owner's turn starts
        hand, known, unseen, draw, order, resets: the hand and the draw pile (see zones.py)
        set_up, fallen

Spots name what can be attacked: S1, S2 ... (Science & Culture), M1 ...
(Military), A1 ... (Assistant Leaders, for Specials) and L (the Leader
stack). A card inside a stack of 3 is S1.2, M1.3 ... A spot keeps its label
while it is on the table: a new card or stack takes the next free number, a
stack takes the lowest label of the cards that form it, and a broken stack's
first card keeps the stack's label.
"""
from __future__ import annotations

import re
from typing import Any, Iterator, Mapping

from referee.errors import RuleViolation

ZONES = ("science", "military")
ZONE_LETTER = {"science": "S", "military": "M"}
LETTER_ZONE = {"S": "science", "M": "military", "A": "assistants"}
ZONE_WORDS = {"science": "Science & Culture", "military": "Military", "assistants": "Leader stack"}
SPOT = re.compile(r"^(?:L|([SMA])(\d{1,3})(?:\.(\d))?)$", re.IGNORECASE)
STACK = 3


def new_desk(pile: list[str] | None = None) -> dict[str, Any]:
    pile = list(pile or [])
    return {"set_up": False, "fallen": False, "science": [], "military": [], "next": {"science": 1, "military": 1},
            "propaganda": [], "assistants": [], "weakened": [], "discard": [], "removed": [], "lent": [],
            "hand": 0, "known": [], "unseen": pile, "draw": len(pile), "order": [], "resets": 0}


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


# ---- spots ------------------------------------------------------------------------


def label(zone: str, group: Mapping[str, Any]) -> str:
    return f"{ZONE_LETTER[zone]}{group['n']}"


def spots(desk: Mapping[str, Any]) -> Iterator[tuple[str, str, list[str]]]:
    """(label, zone, card ids) for every Science & Culture and Military spot, by label."""
    for zone in ZONES:
        for group in sorted(desk[zone], key=lambda g: g["n"]):
            yield label(zone, group), zone, group["cards"]


def add_group(desk: dict[str, Any], zone: str, cards: list[str], number: int | None = None) -> str:
    """A new spot holding `cards`; it takes `number` or the next free label."""
    if number is None:
        number = desk["next"][zone]
    desk["next"][zone] = max(desk["next"][zone], number + 1)
    desk[zone].append({"n": number, "cards": list(cards)})
    return f"{ZONE_LETTER[zone]}{number}"


def zone_cards(desk: Mapping[str, Any], zone: str) -> list[str]:
    if zone == "assistants":
        return list(desk["assistants"])
    return [c for g in desk[zone] for c in g["cards"]]


def defence_cards(f: Mapping[str, Any], player: str) -> list[str]:
    """Every Science & Culture and Military card on a player's table."""
    desk = f["desks"][player]
    return [c for zone in ZONES for c in zone_cards(desk, zone)]


def locate(f: Mapping[str, Any], cid: str) -> tuple[str, str] | None:
    """(holder, zone) for a card on some player's table, else None."""
    for holder, desk in f["desks"].items():
        for zone in ZONES:
            if cid in zone_cards(desk, zone):
                return holder, zone
        if cid in desk["assistants"]:
            return holder, "assistants"
    return None


def group_of(desk: Mapping[str, Any], zone: str, cid: str) -> dict[str, Any]:
    for group in desk[zone]:
        if cid in group["cards"]:
            return group
    raise KeyError(cid)


def group_at(desk: Mapping[str, Any], zone: str, number: int) -> dict[str, Any] | None:
    for group in desk[zone]:
        if group["n"] == number:
            return group
    return None


def parse_spot(desk: Mapping[str, Any], player: str, token: str) -> tuple[str, Any, int | None]:
    """A spot label on `player`'s table: (zone, group or assistant index, card index or None).

    Zone "leader" is the Leader stack (L). Raises RuleViolation when there is
    no such spot."""
    match = SPOT.match(token.strip())
    if match is None:
        raise RuleViolation("spots", f"{token!r} is not a spot on {player}'s table; use S1, M2, A1, L or M1.2")
    letter, number, inner = match.groups()
    if letter is None:
        return "leader", None, None
    zone = LETTER_ZONE[letter.upper()]
    if zone == "assistants":
        index = int(number) - 1
        if not 0 <= index < len(desk["assistants"]):
            have = len(desk["assistants"]) or "none"
            raise RuleViolation("spots", f"{player} has no {token.upper()} (Assistant Leaders: {have})")
        if inner is not None:
            raise RuleViolation("spots", f"{token.upper()} is one Assistant Leader card; write A{number}")
        return zone, index, None
    group = group_at(desk, zone, int(number))
    if group is None:
        have = ", ".join(label(zone, g) for g in sorted(desk[zone], key=lambda g: g["n"])) or "none"
        raise RuleViolation("spots", f"{player} has no {token.upper()} ({ZONE_WORDS[zone]} spots: {have})")
    if inner is None:
        return zone, group, None
    pos = int(inner) - 1
    if not 0 <= pos < len(group["cards"]):
        raise RuleViolation("spots", f"{player}'s {letter.upper()}{number} holds {len(group['cards'])} card(s), "
                                     f"so there is no {token.upper()}")
    return zone, group, pos


# ---- cards leaving a table ----------------------------------------------------------


def take(f: dict[str, Any], holder: str, zone: str, cid: str, mover: str | None) -> bool:
    """Lift one card off a player's table. A stack of 3 that loses a card
    falls apart into single cards (the first keeps the stack's label); if
    that happens to someone other than `mover`, their zone is weakened until
    their own turn. Returns True if a stack broke."""
    desk = f["desks"][holder]
    if zone == "assistants":
        desk["assistants"].remove(cid)
        return False
    group = group_of(desk, zone, cid)
    rest = [c for c in group["cards"] if c != cid]
    broke = len(group["cards"]) == STACK
    desk[zone].remove(group)
    for i, other in enumerate(rest):
        add_group(desk, zone, [other], group["n"] if i == 0 else None)
    if cid in desk["propaganda"]:
        desk["propaganda"].remove(cid)
    if broke and holder != mover and zone not in desk["weakened"]:
        desk["weakened"].append(zone)
    return broke


def take_group(f: dict[str, Any], holder: str, zone: str, number: int) -> list[str]:
    """Lift a whole spot (a card, or a stack beaten whole) off the table; nothing is weakened."""
    desk = f["desks"][holder]
    group = group_at(desk, zone, number)
    assert group is not None
    desk[zone].remove(group)
    for cid in group["cards"]:
        if cid in desk["propaganda"]:
            desk["propaganda"].remove(cid)
    return list(group["cards"])


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
