"""The table file's schema (version 2), and the connection type that carries
what opening a table found out. Shared by store.db and store.upgrade."""
from __future__ import annotations

import sqlite3
from pathlib import Path

from referee.errors import TableError

FORMAT = "referee-table"
BUSY_TIMEOUT_S = 30.0
SCHEMA_VERSION = "2"

EVENT_COLUMNS = (
    "seq INTEGER PRIMARY KEY", "time TEXT NOT NULL", "actor TEXT", "kind TEXT NOT NULL", "action TEXT NOT NULL",
    "args TEXT NOT NULL", "dice TEXT NOT NULL", "cards TEXT NOT NULL", "parent INTEGER", "head INTEGER NOT NULL",
    "target INTEGER", "redo INTEGER", "redo_below INTEGER", "depth INTEGER NOT NULL", "rng INTEGER NOT NULL",
    "turn INTEGER NOT NULL", "active TEXT NOT NULL",
    "referee TEXT NOT NULL DEFAULT ''", "rules TEXT NOT NULL DEFAULT ''", "hash TEXT NOT NULL DEFAULT ''",
)
TRIGGERS = (
    """CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'the referee log is append-only'); END""",
    """CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'the referee log is append-only'); END""",
)
SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    f"CREATE TABLE events ({', '.join(EVENT_COLUMNS)})",
    "CREATE TABLE snapshots (node INTEGER PRIMARY KEY, version TEXT NOT NULL, state TEXT NOT NULL, "
    "event_hash TEXT NOT NULL DEFAULT '', sum TEXT NOT NULL DEFAULT '')",
    *TRIGGERS,
)


class TableConn(sqlite3.Connection):
    """A connection to a table file, with what opening it found out."""

    path: Path
    meta: dict[str, str]
    refusal: TableError | None  # why it may not be written, if it may not
    heal: list  # (node, state) snapshots found damaged and rebuilt, to save again once the read is over
    newer: str | None  # the newer referee or schema that wrote it, if one did

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.meta, self.refusal, self.heal, self.newer = {}, None, [], None


def settle(conn: sqlite3.Connection) -> None:
    """WAL and full syncing; only on files known to be tables (this writes the header)."""
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")


def meta_of(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT key, value FROM meta").fetchall())
