"""The Cold War card effects at the table: what each effect kind of
card_sources/cold-war/effects.yaml does, and where the referee does it.

A card's `effects` (copied into the table's state at setup with its other
stats, so a log replays the same) are its printed rules: the text on the
card is generated from them. Each kind the vocabulary marks `applied: true`
has a handler here, called at the effect's trigger:

    remove     your-turn      `special CARD TARGET --at SPOT`: one card leaves the
                              opponent's table (attacks.py); a broken stack stays weak
    redeploy   your-turn      `special CARD TARGET --at SPOT --with M1 [--with M2]`:
                              up to `most` face-down Military cards attack as one
    block      when-targeted  `answer block CARD`: an attack or Special aimed at its owner fails
    redirect   when-attacked  `answer redirect CARD --onto PLAYER:SPOT`: an attack lands elsewhere
    shield     (answer)       `answer shield A B`: two Shields stop a Triad
    (the target answers in the window the action opens, window.py; on a table
    started before it, as --block / --redirect / --shield of the mover's command)
    triad      (your turn)    `triad TARGET A B C`: the three Triad cards as the whole turn

Any other kind (`applied: false`, such as `prompt`) is put to the table as a
prompt (referee/prompts.py) at the effect's moment, and play waits for
`referee resolve N done`: no printed rule passes without a trace.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

ACTIONS = ("remove", "redeploy", "block", "redirect")   # a Special's action: its first such effect
ANSWERS = ("block", "redirect")                          # played on another player's turn, as an answer
REMOVE_ZONES = {"science": "science", "military": "military", "assistant": "assistants"}
MOMENTS = {
    "your-turn": "played on their turn",
    "when-targeted": "played when targeted",
    "when-attacked": "played when attacked",
    "while-in-play": "played",
}


def effects_of(card: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [dict(e) for e in card.get("effects") or () if isinstance(e, Mapping)]


def has(card: Mapping[str, Any], kind: str) -> bool:
    return any(e.get("kind") == kind for e in effects_of(card))


def action(card: Mapping[str, Any]) -> dict[str, Any] | None:
    """The Special's action effect (remove, redeploy, block or redirect), or None."""
    return next((e for e in effects_of(card) if e.get("kind") in ACTIONS), None)


# The kinds the referee applies (each one's function: actions.EFFECT_HANDLERS).
HANDLED = ("remove", "redeploy", "block", "redirect", "shield", "triad")


def prompted(card: Mapping[str, Any], when: str | tuple[str, ...]) -> list[dict[str, Any]]:
    """The card's effects at trigger `when` that no handler applies: the table is asked."""
    moments = (when,) if isinstance(when, str) else when
    return [e for e in effects_of(card)
            if e.get("kind") not in HANDLED and e.get("when", "while-in-play") in moments]


def applied_kinds(path: Path | None = None) -> dict[str, bool]:
    """Each kind of card_sources/cold-war/effects.yaml -> its `applied` flag."""
    import yaml  # lazy: PyYAML is heavy; only the check of the vocabulary reads it

    if path is None:
        from referee.cards.index import project_root  # lazy: the card index, read only when card data is needed

        path = project_root() / "card_sources" / "cold-war" / "effects.yaml"
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    return {str(name): bool((spec or {}).get("applied")) for name, spec in (data.get("kinds") or {}).items()}


def unhandled(applied: Mapping[str, bool]) -> list[str]:
    """Kinds marked `applied: true` that the referee has no handler for (each one a broken promise)."""
    return sorted(kind for kind, yes in applied.items() if yes and kind not in HANDLED)


def ask(p: Any, player: str, cid: str, card: Mapping[str, Any], when: str | tuple[str, ...]) -> None:
    """Queue a prompt for each effect of the card at `when` that the referee cannot apply."""
    for effect in prompted(card, when):
        moment = MOMENTS.get(effect.get("when", "while-in-play"), "played")
        text = str(effect.get("text") or card.get("text") or card.get("name"))
        p.ask(player, cid, str(card.get("name", cid)), moment, text)
