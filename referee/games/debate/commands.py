"""Table-level functions behind the debate commands (one per command).

Each looks up the cards it is given (card id or QR text) in the card index,
copies their stats into the action, and hands it to referee.table.operations.act, so
the log holds everything a replay needs. Nothing here prints or exits.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.table import operations as table
from referee.cards import looks_like_payload, lookup
from referee.errors import RefereeError
from referee.games.debate import cards
from referee.games.debate.actions import round_report
from referee.games.debate.forum import Report
from referee.model import GameSlug, State
from referee.table.results import ActResult


@dataclass(frozen=True)
class Played:
    """What a tactic or an ability did, and the card whose instant ability the
    players may have to carry out by hand (`view.ability_note` words it)."""

    result: ActResult
    card: dict[str, Any] | None = None


def _state(path: Path) -> State:
    state = table.status(path).state
    if state.game is not GameSlug.DEBATE:
        raise RefereeError(f"{path} is a {state.game.value} table, not a debate one")
    return state


def _card(code: str) -> dict[str, Any]:
    return cards.from_lookup(lookup(code))


def _player(path: Path, player: str | None) -> str:
    return player if player is not None else _state(path).active_player.name


def play(path: Path, name: str, code: str, thread: int, player: str | None = None,
         target: int | None = None, device: str | None = None, to: int | None = None,
         toward: str | None = None, back: str | None = None) -> Played:
    """`argue` or `device`: a tactic from PLAYER's hand into their thread.
    `back` names the card an ability takes back from the discard pile."""
    who = _player(path, player)
    card = _card(code)
    args = {"player": who, "thread": thread, "card": card["id"], "_card": card, "target": target, "device": device,
            "to": to, "toward": toward, "back": back}
    result = table.act(path, name, args, who, [code])
    return Played(result, card if card.get("timing") == "instant" else None)


def remove(path: Path, name: str, player: str, thread: int, device: str | None = None,
           actor: str | None = None) -> ActResult:
    """`destroy` or `return`: take a tactic out of PLAYER's thread. The one
    destroying it is `actor`, else the player whose turn it is."""
    if actor is None and name == "destroy":
        actor = _state(path).active_player.name
    return table.act(path, name, {"player": player, "thread": thread, "device": device}, actor)


def ability(path: Path, player: str, target: int | None = None, device: str | None = None,
            to: int | None = None, toward: str | None = None, back: str | None = None) -> Played:
    state = _state(path)
    name = state.player(player).name
    card = (state.fields.get("potus") or {}).get(name)
    result = table.act(path, "ability", {"player": name, "target": target, "device": device, "to": to,
                                         "toward": toward, "back": back}, name)
    return Played(result, card or None)


def potus(path: Path, player: str, code: str) -> ActResult:
    card = cards.find_potus(code)
    return table.act(path, "potus", {"player": player, "card": card["id"], "_card": card}, None, [code if code.strip().upper().startswith("PNP:") else card["id"]])


def deck(path: Path, player: str, codes: list[str]) -> ActResult:
    """`deck`: PLAYER's 15-card tactic deck, as starter deck `a` or `b` or 15
    card codes. The list is hidden from the other player; the log keeps it
    for the scorekeeper only, so no card revisions are recorded either."""
    state = _state(path)
    name = state.player(player).name
    if len(codes) == 1 and codes[0].strip().lower() in cards.STARTERS:
        entries = cards.starter_deck(codes[0])
    else:
        entries = [_card(code) for code in codes]
    return table.act(path, "deck", {"player": name, "_deck": entries}, None,
                     unchecked=any(looks_like_payload(code) for code in codes))


def no_argument(path: Path, player: str | None = None) -> ActResult:
    """`no-argument`: PLAYER shows a hand without arguments, so phase one may pass without one."""
    who = _player(path, player)
    return table.act(path, "no-argument", {"player": who}, who)


def parse_amount(text: str, what: str) -> dict[str, int]:
    """-N / +N change by an amount; =N sets a value, and =-N sets a negative
    one (fortitude can fall below 0 before a match ends)."""
    cleaned = text.strip().replace("\u2212", "-")
    if cleaned.startswith("="):
        number = cleaned[1:].strip()
        sign = -1 if number.startswith("-") else 1
        digits = number.lstrip("+-").strip()
        if digits.isdigit() and len(number) - len(number.lstrip("+-")) <= 1:
            return {"to": sign * int(digits)}
    return table.parse_change(text, what)


def fortitude(path: Path, player: str, change: dict[str, int], reason: str | None = None) -> ActResult:
    return table.act(path, "fortitude", {"player": player, **change, "reason": reason})


@dataclass(frozen=True)
class RoundEnd:
    """The round end done (or only previewed: no result) and its arithmetic."""

    result: ActResult | None
    report: Report


def round_end(path: Path, preview: bool = False) -> RoundEnd:
    """Resolve the round (or, with preview, only show what it would do)."""
    if preview:
        return RoundEnd(None, round_report(_state(path)))
    result = table.act(path, "round-end", {})
    return RoundEnd(result, round_report(result.before))
