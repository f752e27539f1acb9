"""Table-level functions behind the Divide & Conquer commands.

Each looks up the cards it is given (card id or QR text) in the card index,
copies their stats into the action (keys starting with _ hold that data),
works out which group on the table a reference means, and hands the action
to referee.table.operations.act. Nothing here prints or exits.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Sequence

from referee.table import operations as table
from referee.cards import lookup
from referee.errors import RefereeError
from referee.games.divide_and_conquer import cards, zones
from referee.model import GameSlug, State
from referee.table.results import ActResult

_REF = re.compile(r"^g\d+$", re.IGNORECASE)


def _state(path: Path) -> State:
    state = table.status(path).state
    if state.game is not GameSlug.DIVIDE_AND_CONQUER:
        raise RefereeError(f"{path} is a {state.game.value} table, not a divide-and-conquer one")
    return state


def _card(code: str) -> dict[str, Any]:
    return cards.from_lookup(lookup(code))


def _all_groups(state: State) -> list[dict[str, Any]]:
    out = [g for _, groups in zones.places(state.fields) for g in groups]
    attack = state.fields.get("attack") or {}
    return out + list(attack.get("team") or ()) + list(attack.get("defence") or ())


def group_ref(state: State, text: str, laid: Sequence[str] = ()) -> str:
    """A group reference: `g12`, or the card id / QR text of a group that is
    on the table once (or laid in the same command: `new:N`)."""
    text = text.strip()
    if _REF.match(text):
        return text.lower()
    card_id = _card(text)["id"]
    if card_id in laid:
        return f"new:{list(laid).index(card_id)}"
    hits = [g["ref"] for g in _all_groups(state) if g["id"] == card_id]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise RefereeError(f"no {card_id} group is on the table")
    raise RefereeError(f"{card_id} is on the table {len(hits)} times ({', '.join(hits)}); name one by its g-number")


def play(path: Path, name: str, code: str, actor: str | None = None, onto: str | None = None,
         groups: Sequence[str] = (), attachment: str | None = None, pick: str | None = None) -> ActResult:
    """event, unaffiliate, recruit or attach: one card from the hand."""
    state = _state(path)
    card = _card(code)
    args: dict[str, Any] = {"player": actor or state.active_player.name, "card": card["id"], "_card": card}
    if onto is not None:
        args["onto"] = group_ref(state, onto)
    if groups:
        args["groups"] = [group_ref(state, g) for g in groups]
    if attachment is not None:
        args["attachment"] = _card(attachment)["id"]
    if pick is not None:
        args["pick"] = pick
    return table.act(path, name, args, args["player"], [code, *([attachment] if attachment else [])])


def attack(path: Path, target: str, intent: str, actor: str | None = None) -> ActResult:
    state = _state(path)
    who = actor or state.active_player.name
    return table.act(path, "attack", {"player": who, "target": group_ref(state, target), "intent": intent}, who)


def _laid(path: Path, name: str, codes: Sequence[str], join: Sequence[str], attaches: Sequence[str],
          actor: str | None) -> ActResult:
    state = _state(path)
    attack_now = state.fields.get("attack") or {}
    default = attack_now.get("defender") if name == "raise" else state.active_player.name
    who = actor or default or state.active_player.name
    groups = [_card(c) for c in codes]
    laid = [g["id"] for g in groups]
    plays, shown, used = [], [], list(codes)
    for spec in attaches:
        card_code, sep, onto = spec.rpartition("=")
        if not sep or not card_code.strip() or not onto.strip():
            raise RefereeError(f"--attach {spec!r}: write it as CARD=GROUP, e.g. dc-asset-offshore-trust=g4")
        card = _card(card_code)
        ref = group_ref(state, onto, laid)
        plays.append({"card": card, "onto": ref})
        shown.append(f"{card['id']}={ref}")
        used.append(card_code)
    args: dict[str, Any] = {"player": who, "cards": laid, "_groups": groups, "attach": shown, "_attach": plays}
    if join:
        args["join"] = [group_ref(state, j) for j in join]
    return table.act(path, name, args, who, used)


def team(path: Path, codes: Sequence[str], join: Sequence[str] = (), attaches: Sequence[str] = (),
         actor: str | None = None) -> ActResult:
    return _laid(path, "team", codes, join, attaches, actor)


def raise_(path: Path, codes: Sequence[str], attaches: Sequence[str] = (), actor: str | None = None) -> ActResult:
    return _laid(path, "raise", codes, (), attaches, actor)


def call(path: Path, actor: str | None = None) -> ActResult:
    state = _state(path)
    who = actor or (state.fields.get("attack") or {}).get("defender") or state.active_player.name
    return table.act(path, "call", {"player": who}, who)


def fight(path: Path, dice_text: str | None = None) -> ActResult:
    return table.act(path, "fight", {}, None, (), dice_text)


def hand(path: Path, player: str, change: dict[str, int], reason: str | None = None) -> ActResult:
    return table.act(path, "hand", {"player": player, **change, "reason": reason})
