"""What the core hands back to the command line: plain frozen results.

Each result knows its JSON form; render.py turns it into text for a person.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.model import Event, EventKind, State

CORE_KEYS = ("game", "title", "turn", "round", "active", "winner", "crowd", "log_length", "players")


@dataclass(frozen=True)
class StatusView:
    state: State
    title: str
    log_length: int
    path: Path
    seed: int

    def to_json(self) -> dict[str, Any]:
        """The status for scripts. A game's own fields are added at the top
        level and each player's own fields inside that player; names already
        used by the core keep their core meaning."""
        s = self.state
        players = []
        for p in s.players:
            entry: dict[str, Any] = {
                "name": p.name, "faction": p.faction, "life": p.life,
                "capital": p.capital, "eliminated": p.eliminated,
            }
            for key, value in p.fields.items():
                entry.setdefault(key, value)
            players.append(entry)
        out: dict[str, Any] = {
            "game": s.game.value,
            "title": self.title,
            "turn": s.turn,
            "round": s.round,
            "active": s.active_player.name,
            "winner": s.winner,
            "crowd": s.crowd,
            "log_length": self.log_length,
            "players": players,
            "house_rules": dict(s.house_rules),
            "seed": self.seed,
        }
        for key, value in s.fields.items():
            out.setdefault(key, value)
        return out


@dataclass(frozen=True)
class CardUse:
    """A card an action referred to, and any warning about the printed copy."""

    card_id: str
    revision: str
    warning: str | None = None


@dataclass(frozen=True)
class ActResult:
    event: Event
    before: State
    after: State
    warnings: tuple[str, ...] = ()
    undone: Event | None = None  # for undo/redo: the action undone or redone


@dataclass(frozen=True)
class RollResult:
    event: Event

    def to_json(self) -> dict[str, Any]:
        args = self.event.args
        return {
            "expr": args["expr"],
            "dice": list(self.event.dice),
            "kept": list(args["kept"]),
            "total": args["total"],
            "seq": self.event.seq,
        }


@dataclass(frozen=True)
class LogEntry:
    event: Event
    undone: bool = False
    target: Event | None = None

    def to_json(self) -> dict[str, Any]:
        data = self.event.to_dict()
        data["undone"] = self.undone
        return data


@dataclass(frozen=True)
class LogView:
    entries: tuple[LogEntry, ...]
    total: int

    def bookmarks(self) -> list[dict[str, Any]]:
        """Where each turn begins: the first row showing a new turn number."""
        marks, last = [], None
        for entry in self.entries:
            e = entry.event
            if e.turn != last:
                marks.append({"turn": e.turn, "active": e.active, "seq": e.seq})
                last = e.turn
        return marks

    def to_json(self) -> dict[str, Any]:
        return {
            "log_length": self.total,
            "bookmarks": self.bookmarks(),
            "events": [e.to_json() for e in self.entries],
        }


@dataclass(frozen=True)
class ExportResult:
    path: Path
    events: int


@dataclass(frozen=True)
class ReplayStep:
    event: Event
    status: StatusView


@dataclass(frozen=True)
class ReplayResult:
    status: StatusView
    events: int
    steps: tuple[ReplayStep, ...] = field(default=())


def is_state_node(event: Event) -> bool:
    return event.kind in (EventKind.SETUP, EventKind.ACTION)
