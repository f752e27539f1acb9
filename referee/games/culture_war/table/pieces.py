"""The pieces in play on a Culture War board: what a card becomes on entering
play, what a piece is (hero, cyber), and finding the piece a scorekeeper
typed (`7`, `#7`, `ann/window-smasher-2`)."""
from __future__ import annotations

import re
from typing import Any, Iterable, Mapping

from referee.errors import RefereeError
from referee.games.culture_war.table.board import Board

DEFAULT_PRODUCTION = 1
DEFAULT_CAPACITY = 3
KINDS = {"unit": "unit", "real-estate": "estate", "operation": "operation"}
KIND_WORDS = {"unit": "unit", "estate": "Real Estate", "operation": "Operation"}


def hero(piece: Mapping[str, Any]) -> bool:
    return "hero" in (piece.get("traits") or [])


def cyber(piece: Mapping[str, Any]) -> bool:
    return "cyber" in (piece.get("traits") or [])


def slug(piece: Mapping[str, Any]) -> str:
    """The short name of a piece for handles: its card id without the deck prefix."""
    card, deck = piece.get("card") or "", piece.get("deck") or ""
    if card and deck and card.startswith(deck + "-"):
        return card[len(deck) + 1:]
    if card:
        return card
    return re.sub(r"[^a-z0-9]+", "-", piece["name"].lower()).strip("-")


def new_piece(card: Mapping[str, Any], owner: str, turn: int) -> dict[str, Any]:
    """A card entering play, as a piece: a copy of the stats the rules use,
    plus what play adds (Mods on it, coins, when it came, when it last attacked)."""
    kind = KINDS[card["type"]]
    piece: dict[str, Any] = {"kind": kind, "owner": owner, "card": card.get("id"), "name": card["name"],
                             "deck": card.get("deck"), "effects": [dict(e) for e in card.get("effects", [])],
                             "mods": []}
    if kind == "unit":
        piece.update({"cost": int(card.get("cost") or 0), "atk": int(card.get("atk") or 0),
                      "def": int(card.get("def") or 0), "unit_type": card.get("unit_type"),
                      "traits": list(card.get("traits") or []), "adj": {}, "attacked": 0, "since": turn})
    elif kind == "estate":
        piece.update(production=card.get("production"), capacity=card.get("capacity"), coins={}, since=turn)
    return piece


def find_piece(board: Board, text: str, kinds: Iterable[str] = ("unit",)) -> str:
    """The handle a scorekeeper typed: `7`, `#7`, `ann/window-smasher`,
    `ann/window-smasher-2` (Ann's second one), or a unique start of the name."""
    kinds = tuple(kinds)
    what = " or ".join(KIND_WORDS[k] for k in kinds)
    raw = text.strip()
    bare = raw.lstrip("#")
    if bare.isdigit():
        piece = board.pieces.get(bare)
        if piece is None or piece["kind"] not in kinds:
            raise RefereeError(f"there is no {what} #{bare} in play ({_listing(board, kinds)})")
        return bare
    owner_text, sep, rest = bare.partition("/")
    if not sep or not rest:
        raise RefereeError(
            f"{raw!r} is not a handle: type the number status shows (7 or #7) or PLAYER/NAME "
            "like ann/window-smasher-2"
        )
    owner = board.name(owner_text)
    mine = [(h, p) for h, p in board.owned(owner) if p["kind"] in kinds]
    rest = rest.lower()
    for wanted, index in _readings(rest):
        exact = [h for h, p in mine if slug(p) == wanted]
        matches = exact or [h for h, p in mine if slug(p).startswith(wanted)]
        if index is None and len(matches) == 1:
            return matches[0]
        if index is not None and 1 <= index <= len(matches):
            return matches[index - 1]
        if index is None and len(matches) > 1:
            names = ", ".join(f"{owner.lower()}/{slug(board.pieces[h])}-{i} (#{h})"
                              for i, h in enumerate(matches, 1))
            raise RefereeError(f"{raw!r} could mean {names}; add the number")
    raise RefereeError(f"{owner} has no {what} matching {rest!r} in play ({_listing(board, kinds, owner)})")

def _listing(board: Board, kinds: tuple[str, ...], owner: str | None = None) -> str:
    found = [f"#{h} {p['name']} ({p['owner']})" for h, p in board.in_order()
             if p["kind"] in kinds and (owner is None or p["owner"] == owner)]
    return "in play: " + ", ".join(found) if found else "none in play"


def _readings(text: str) -> list[tuple[str, int | None]]:
    """`window-smasher-2` is either a name ending in -2 or copy 2 of window-smasher."""
    out: list[tuple[str, int | None]] = [(text, None)]
    match = re.match(r"^(.*?)-?(\d+)$", text)
    if match and match.group(1):
        out.append((match.group(1), int(match.group(2))))
    return out
