"""Warnings about faces that are not errors (pnp.faces.facecheck: text or a
QR code inside the safe zone, a picture under 300 dpi, text shrunk below its
style's size), said once per kind of card: per game, card type (or deck
back), rule and element, with the worst case and how many cards have it.

A deck's build records its grouped notes in the build state, so a later
build that finds the deck up to date says them again: a warning stays until
its cause is fixed."""
from __future__ import annotations

from typing import Any

# Every rule's worst case is its smallest value: mm to the trim, dpi, points.
# (Nothing here loads ReportLab: a build with nothing to draw says its warnings too.)


class KindNotes:
    """Notes gathered face by face, grouped by (kind, rule, what)."""

    def __init__(self) -> None:
        self.groups: dict[tuple[str, str, str], dict[str, Any]] = {}

    def add(self, kind: str, card: str, notes) -> None:
        """The notes (pnp.faces.facecheck.Note) of one face of a card of `kind` ("unit", or "anarchy back")."""
        for note in notes:
            key = (kind, note.rule.value, note.what)
            group = self.groups.get(key)
            if group is None:
                self.groups[key] = {"kind": kind, "rule": note.rule.value, "what": note.what, "value": note.value,
                                    "message": note.message, "cards": [card]}
                continue
            if card not in group["cards"]:
                group["cards"].append(card)
            if note.value < group["value"]:
                group["value"], group["message"] = note.value, note.message

    def entries(self) -> list[dict[str, Any]]:
        """The groups, as the build state keeps them (JSON)."""
        return list(self.groups.values())


def merged(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Groups of several decks (of one game) merged by (kind, rule, what)."""
    out: dict[tuple[str, str, str], dict[str, Any]] = {}
    for e in entries:
        key = (e["kind"], e["rule"], e["what"])
        if key not in out:
            out[key] = {**e, "cards": list(e["cards"])}
            continue
        group = out[key]
        group["cards"] += [c for c in e["cards"] if c not in group["cards"]]
        if e["value"] < group["value"]:
            group["value"], group["message"] = e["value"], e["message"]
    return list(out.values())


def warning_lines(game: str, entries: list[dict[str, Any]]) -> list[str]:
    """One line per kind of card, rule and element: the worst case, and the cards it is on."""
    lines = []
    for e in sorted(merged(entries), key=lambda e: (e["kind"], e["rule"], e["what"])):
        cards = e["cards"]
        on = cards[0] if len(cards) == 1 else f"{len(cards)} cards, e.g. {cards[0]}"
        worst = "" if len(cards) == 1 else "at worst "
        lines.append(f"warning: {game} {e['kind']}: {worst}{e['message']} ({on})")
    return lines
