"""What a Cold War action's arguments show to the players (`public_args`).

Face-down cards and Propaganda stay hidden in every output a player reads:
a card placed face down (Military Power, a Special, or any card placed as
Propaganda), the face-down and Propaganda cards of a setup, and cards named
while regrouping (which may be face down). Their ids become PLACEHOLDER and
the `propaganda` flag is dropped, so a face-down placement reads the same
whatever the card is. Cards played face up, discarded, flipped or given up
in a challenge are seen by everyone at the table and stay as they are; a
face-down card a Special names by id (rather than by spot) is hidden too,
since a block leaves it on the table unseen.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

from referee.errors import CardError
from referee.games.cold_war.desk import is_spot

PLACEHOLDER = "a face-down card"
FACE_UP_WHEN_PLACED = ("science", "assistant")


def card_type(cid: Any) -> str | None:
    """A card's type from the card index; None when unknown (then it is hidden)."""
    if not isinstance(cid, str):
        return None
    return _types().get(cid)


@lru_cache(maxsize=1)
def _types() -> dict[str, str]:
    """Every Cold War card's type, read once per process (a log prints many actions)."""
    from referee.cards.index import load_index, project_root  # lazy: the card index, read only when card data is needed

    try:
        index = load_index(project_root())
    except (CardError, OSError):  # no card index: hide rather than guess
        return {}
    return {cid: str(info.type) for cid, info in index.cards.items() if info.game == "cold-war"}


def public_args(name: str, args: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(args)
    if name == "place":
        out.pop("propaganda", None)
        if args.get("propaganda") or card_type(args.get("card")) not in FACE_UP_WHEN_PLACED:
            out["card"] = PLACEHOLDER
    elif name == "setup":
        # the face-up cards first, then one placeholder per face-down card, whichever list named it:
        # how many were typed with --propaganda is as hidden as the cards themselves
        cards = list(args.get("cards") or [])
        shown = [c for c in cards if card_type(c) in FACE_UP_WHEN_PLACED]
        down = len(cards) - len(shown) + len(args.get("propaganda") or [])
        out.pop("propaganda", None)
        out["cards"] = shown + [PLACEHOLDER] * down
    elif name == "special" and isinstance(args.get("at"), str) and not _is_spot(args["at"]):
        if card_type(args["at"]) not in FACE_UP_WHEN_PLACED:  # a face-down card named by id (kept if blocked)
            out["at"] = PLACEHOLDER
    elif name == "regroup":
        out["stacks"] = [[t if _is_spot(t) else PLACEHOLDER for t in ([g] if isinstance(g, str) else g)]
                         for g in args.get("stacks") or []]
    return out


def _is_spot(token: Any) -> bool:
    return isinstance(token, str) and is_spot(token)
