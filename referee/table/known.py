"""A newer referee's table, read as far as this referee understands it.

A table written by a newer referee may hold events this one cannot apply
(an action or a kind of row it does not know). It may still be read: the
log is folded from the setup, in order, up to the first event that cannot
be applied, and the table is shown as it stood after the last one that
could.
"""
from __future__ import annotations

import sqlite3
from typing import Any

from referee.errors import RefereeError
from referee.model import Event, EventKind, Setup, State
from referee.rules import GameRules
from referee.table.store import events as log


def known_events(conn: sqlite3.Connection) -> list[Event]:
    """The rows this referee can read, from the setup to the first it cannot."""
    rows = conn.execute(f"SELECT {log.ALL} FROM events ORDER BY seq").fetchall()
    known = []
    for row in rows:
        try:
            known.append(log._event(row))
        except RefereeError:
            break
    return known


def known_state(conn: sqlite3.Connection, rules: GameRules) -> tuple[State, int]:
    """The state after the last event this referee can apply, and that event's seq."""
    states: dict[int, State] = {}
    head, upto = None, 0
    for event in known_events(conn):
        try:
            head = _step(rules, states, event)
        except (RefereeError, KeyError, TypeError, ValueError):
            break
        upto = event.seq
    if head is None:
        raise RefereeError("not even the setup of this table can be read by this referee")
    return states[head], upto


def _step(rules: GameRules, states: dict[int, State], event: Event) -> Any:
    if event.kind is EventKind.SETUP:
        states[event.seq] = rules.setup(Setup.from_dict(event.args), event.dice)
    elif event.kind is EventKind.ACTION:
        states[event.seq] = rules.apply(states[event.parent], event.to_action(), event.dice)  # type: ignore[index]
    if event.head not in states:
        raise KeyError(event.head)
    return event.head
