"""What a player may read of a logged event.

Every player-readable output (command echoes, `log`, `log --json`, undo and
redo, `replay --step`, an export made without --full) shows an action's
arguments as the game's `public_args` gives them: face-down cards, hands,
Propaganda and a shuffled deck's order are left out or become placeholders.
The stored log keeps everything, so the scorekeeper's `export --full`
replays the whole game.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.model import VIA, Event, EventKind


def public_event(rules: Any, event: Event | None) -> Event | None:
    """`event` as any player may read it (None stays None)."""
    if event is None or event.kind is not EventKind.ACTION:
        return event
    shown = rules.public_args(event.to_action())
    if VIA in event.args:  # how it reached the referee (a phone) is the log's, not the rules'
        shown = {**shown, VIA: event.args[VIA]}
    return event if shown == dict(event.args) else replace(event, args=shown)

