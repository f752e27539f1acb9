"""Reading and appending rows of the event log, and folding them into state.

State is never stored as the truth; it is a fold over ACTION rows along the
chain of parents from a node back to the setup. Snapshots cut that walk
short: every SNAPSHOT_EVERY-th node on any chain stores its state, so finding
the state of any node reads one snapshot and applies fewer than
SNAPSHOT_EVERY actions, however long the game is. The newest action's node
keeps one too (replaced by the next action's), so the table as it is now is
read without applying anything: `status` needs no action code. A snapshot
records the rules version it was made with and is ignored when the rules
change.
"""
from __future__ import annotations

import json
import sqlite3
from typing import Any

from referee.rules import GameRules
from referee.model import Event, EventKind, Seq, Setup, State

SNAPSHOT_EVERY = 32
STATE_FORMAT = "state-1"

COLUMNS = (
    "seq, time, actor, kind, action, args, dice, cards, parent, head, target, "
    "redo, redo_below, depth, rng, turn, active"
)


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _event(row: tuple) -> Event:
    (seq, time, actor, kind, action, args, dice, cards, parent, head, target,
     redo, redo_below, depth, rng, turn, active) = row
    return Event(
        Seq(seq), time, actor, EventKind(kind), action, json.loads(args), tuple(json.loads(dice)),
        json.loads(cards), parent, head, target, redo, redo_below, depth, rng, turn, active,
    )


def last_event(conn: sqlite3.Connection) -> Event:
    row = conn.execute(f"SELECT {COLUMNS} FROM events ORDER BY seq DESC LIMIT 1").fetchone()
    if row is None:  # init_schema and the setup row share one transaction
        raise sqlite3.DatabaseError("the table has no setup event")
    return _event(row)


def get_event(conn: sqlite3.Connection, seq: int) -> Event:
    row = conn.execute(f"SELECT {COLUMNS} FROM events WHERE seq = ?", (seq,)).fetchone()
    if row is None:
        raise sqlite3.DatabaseError(f"the log refers to event {seq}, which is missing")
    return _event(row)


def all_events(conn: sqlite3.Connection, after: int = 0) -> list[Event]:
    rows = conn.execute(f"SELECT {COLUMNS} FROM events WHERE seq > ? ORDER BY seq", (after,))
    return [_event(r) for r in rows]


def count(conn: sqlite3.Connection) -> int:
    return conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]


def insert(conn: sqlite3.Connection, event: Event) -> Event:
    values = event.to_dict()
    for key in ("args", "dice", "cards"):
        values[key] = _dumps(values[key])
    names = [c.strip() for c in COLUMNS.split(",")]
    conn.execute(
        f"INSERT INTO events ({COLUMNS}) VALUES ({', '.join('?' * len(names))})",
        [values[n] for n in names],
    )
    return event


def in_effect(conn: sqlite3.Connection, head: int) -> set[int]:
    """The setup and action rows whose effects make up the state at `head`."""
    rows = conn.execute(
        """WITH RECURSIVE chain(seq) AS (
               SELECT ?
               UNION ALL
               SELECT e.parent FROM events e JOIN chain c ON e.seq = c.seq
               WHERE e.parent IS NOT NULL)
           SELECT seq FROM chain""",
        (head,),
    )
    return {r[0] for r in rows}


def snapshot_key(rules: GameRules) -> str:
    return f"{STATE_FORMAT}/{rules.version}"


def save_snapshot(conn: sqlite3.Connection, rules: GameRules, node: int, state: State) -> None:
    conn.execute(
        "INSERT OR REPLACE INTO snapshots (node, version, state) VALUES (?, ?, ?)",
        (node, snapshot_key(rules), _dumps(state.to_dict())),
    )


def drop_snapshot(conn: sqlite3.Connection, node: int) -> None:
    """Forget a node's snapshot (any rules version): a cache, never the truth."""
    conn.execute("DELETE FROM snapshots WHERE node = ?", (node,))


def state_at(conn: sqlite3.Connection, rules: GameRules, node: int) -> tuple[State, int]:
    """The state at a setup/action node, and how many actions were replayed."""
    key = snapshot_key(rules)
    pending: list[Event] = []
    current = node
    while True:
        row = conn.execute(
            "SELECT state FROM snapshots WHERE node = ? AND version = ?", (current, key)
        ).fetchone()
        if row is not None:
            state = State.from_dict(json.loads(row[0]))
            break
        event = get_event(conn, current)
        if event.kind is EventKind.SETUP:
            state = rules.setup(Setup.from_dict(event.args), event.dice)
            break
        pending.append(event)
        current = event.parent  # type: ignore[assignment]
    for event in reversed(pending):
        state = rules.apply(state, event.to_action(), event.dice)
    return state, len(pending)



def meta(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT key, value FROM meta").fetchall())


SEED_NONE = "none"  # meta's seed of a table whose dice come from the OS's randomness


def seed_text(text: str | None) -> int | None:
    """A seed as meta keeps it: a number, or SEED_NONE (None)."""
    return None if text in (None, SEED_NONE) else int(text)  # type: ignore[arg-type]


def seed_of(conn: sqlite3.Connection) -> int | None:
    """The table's dice seed, or None when its dice come from the OS's randomness."""
    return seed_text(meta(conn).get("seed"))
