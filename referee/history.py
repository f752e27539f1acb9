"""The log as a person or a script reads it: every row, turn bookmarks, and
which actions are currently undone."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.model import Event, EventKind
from referee.public import public_event
from referee.store import db
from referee.store import events as log
from referee.table import opened


@dataclass(frozen=True)
class LogEntry:
    """A row of the log; `undone` marks an action whose effect is not in the
    current state; `target` is the action an undo or redo row refers to."""

    event: Event
    undone: bool = False
    target: Event | None = None

    def to_json(self) -> dict[str, Any]:
        data = self.event.to_dict()
        data["undone"] = self.undone
        return data


@dataclass(frozen=True)
class LogView:
    """The rows shown and the length of the whole log."""

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


def history(path: Path, last: int | None = None) -> LogView:
    """The log of the table at `path`; `last` keeps only the final rows."""
    with opened(path) as (conn, rules), db.read(conn):
        events = log.all_events(conn)
        live = log.in_effect(conn, events[-1].head)
    events = [public_event(rules, e) for e in events]  # hidden cards stay hidden
    by_seq = {e.seq: e for e in events}
    entries = [
        LogEntry(
            e,
            e.kind is EventKind.ACTION and e.seq not in live,
            by_seq.get(e.target) if e.target is not None else None,
        )
        for e in events
    ]
    if last is not None:
        entries = entries[-last:] if last > 0 else []
    return LogView(tuple(entries), len(events))
