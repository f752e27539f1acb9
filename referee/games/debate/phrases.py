"""Debate actions in words (see referee/wording.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only: status never words an action
    from referee.words.wording import Words


def _picks(w: Words) -> str:
    """What an ability or instant card picked: a thread, a device, where it goes."""
    parts = []
    if w.has("target"):
        parts.append(f"picking thread {w['target']}")
    if w.has("device"):
        parts.append(f"the device {w['device']}")
    if w.has("to"):
        parts.append(f"to thread {w['to']}")
    if w.has("toward"):
        parts.append(f"toward the {'Irrational Mob' if w.args.get('toward') == 'mob' else 'Enlightened Citizen'}")
    if w.has("back"):
        parts.append(f"taking {w['back']} back from the discard pile")
    return (", " + ", ".join(parts)) if parts else ""


def _play(verb: str):
    def phrase(w: Words) -> str:
        return f"{w['player']} {verb} {w['card']} in thread {w['thread']}" + _picks(w)
    return phrase


PHRASES: dict[str, Any] = {
    "argue": _play("argues"),
    "device": _play("plays the device"),
    "ability": lambda w: f"{w['player']} uses their POTUS ability" + _picks(w),
    "destroy": ["{who} destroys {device} in {player}'s thread {thread}",
                "{who} destroys {player}'s thread {thread}"],
    "return": ["{device} goes back to {player}'s hand from thread {thread}",
               "{player}'s thread {thread} goes back to their hand"],
    "potus": "{player} takes {card} as POTUS",
    "deck": ["{player} names their deck: {deck}", "{player} names their deck"],
    "no-argument": "{player} has no argument to play",
    "round-end": "the round ends",
}
