"""The log as a person or a script reads it: every row, turn bookmarks, and
which actions are currently undone."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.errors import RefereeError
from referee.rules import visible_state
from referee.model import Event, EventKind, Setup, State
from referee.table.public import public_event
from referee.table.store import db
from referee.table.store import events as log
from referee.table.operations import opened


@dataclass(frozen=True)
class LogEntry:
    """A row of the log; `undone` marks an action whose effect is not in the
    current state; `target` is the action an undo or redo row refers to."""

    event: Event
    undone: bool = False
    target: Event | None = None
    before: State | None = None  # the table as players see it before and after an action
    after: State | None = None

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
    """The log of the table at `path`; `last` keeps only the final rows. Each
    action row carries the table before and after it (hidden cards masked),
    so the log can say what the action did."""
    with opened(path) as (conn, rules), db.read(conn):
        newer = getattr(conn, "newer", None) is not None
        if newer:  # a newer referee's table: the rows this referee can read, as far as it can apply them
            from referee.table.known import known_events  # lazy: only a newer referee's table needs it

            events = known_events(conn)
        else:
            events = log.all_events(conn)
        live = log.in_effect(conn, events[-1].head)
    states = _states(rules, events, newer)
    public = [public_event(rules, e) for e in events]  # hidden cards stay hidden
    by_seq = {e.seq: e for e in public}
    entries = []
    for e in public:
        before = states.get(e.parent) if e.kind is EventKind.ACTION and e.parent is not None else None
        after = states.get(e.seq)
        entries.append(LogEntry(
            e,
            e.kind is EventKind.ACTION and e.seq not in live,
            by_seq.get(e.target) if e.target is not None else None,
            visible_state(before) if before is not None else None,
            visible_state(after) if after is not None and e.kind is EventKind.ACTION else None,
        ))
    if last is not None:
        entries = entries[-last:] if last > 0 else []
    return LogView(tuple(entries), len(events))


def _states(rules, events: list[Event], newer: bool = False) -> dict[int, State]:
    """The state at every setup and action node, folded in log order (a
    node's parent always comes before it). A newer referee's table is
    folded up to the first action this referee cannot apply."""
    states: dict[int, State] = {}
    for e in events:
        try:
            if e.kind is EventKind.SETUP:
                states[e.seq] = rules.setup(Setup.from_dict(e.args), e.dice)
            elif e.kind is EventKind.ACTION and e.parent in states:
                states[e.seq] = rules.apply(states[e.parent], e.to_action(), e.dice)
        except RefereeError:
            if not newer:
                raise
            break
    return states
