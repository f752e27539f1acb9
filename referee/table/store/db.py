"""The table file: one SQLite database per table, in WAL mode.

Durability: every change is one `BEGIN IMMEDIATE ... COMMIT` transaction with
`synchronous=FULL`, so a process killed at any moment leaves either the whole
action or none of it. Concurrency: writers queue on SQLite's lock with a
generous busy timeout, and a lock that is still held after it becomes a
TableError that says the table is busy, never SQLite's own wording.

The events table refuses UPDATE and DELETE through triggers: the log is
append-only even against a careless `sqlite3` session.
"""
from __future__ import annotations

import os
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from referee.errors import TableError

FORMAT = "referee-table"
SCHEMA_VERSION = "1"
BUSY_TIMEOUT_S = 30.0

SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE events (
        seq INTEGER PRIMARY KEY,
        time TEXT NOT NULL,
        actor TEXT,
        kind TEXT NOT NULL,
        action TEXT NOT NULL,
        args TEXT NOT NULL,
        dice TEXT NOT NULL,
        cards TEXT NOT NULL,
        parent INTEGER,
        head INTEGER NOT NULL,
        target INTEGER,
        redo INTEGER,
        redo_below INTEGER,
        depth INTEGER NOT NULL,
        rng INTEGER NOT NULL,
        turn INTEGER NOT NULL,
        active TEXT NOT NULL
    )""",
    "CREATE TABLE snapshots (node INTEGER PRIMARY KEY, version TEXT NOT NULL, state TEXT NOT NULL)",
    """CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'the referee log is append-only'); END""",
    """CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'the referee log is append-only'); END""",
)


def _connect(path: Path, mode: str) -> sqlite3.Connection:
    uri = f"{path.resolve().as_uri()}?mode={mode}"
    conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
    return conn


def _settle(conn: sqlite3.Connection) -> None:
    """WAL and full syncing; only on files known to be tables (this writes the header)."""
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")


def open_table(path: Path) -> sqlite3.Connection:
    """Open an existing table file, checking that it is one of ours."""
    if not path.exists():
        raise TableError(f"no table file at {path}; start one with: referee new GAME --player NAME ...")
    if path.is_dir():
        raise TableError(f"{path} is a folder, not a table file")
    with translate(path):
        conn = _connect(path, "rw")
        try:
            rows = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.OperationalError:
            conn.close()
            raise TableError(f"{path} is an SQLite file but not a referee table") from None
    if rows.get("format") != FORMAT:
        conn.close()
        raise TableError(f"{path} is an SQLite file but not a referee table")
    if rows.get("schema") != SCHEMA_VERSION:
        conn.close()
        raise TableError(
            f"{path} was written by a different referee (table schema {rows.get('schema')}, "
            f"this referee reads {SCHEMA_VERSION})"
        )
    with translate(path):
        _settle(conn)
    return conn


def create_table(path: Path) -> sqlite3.Connection:
    """Create an empty file for a new table (the caller has removed any old
    one). Fill it with `init_schema` inside the same transaction as the setup
    event, so a table file either has a setup or does not exist as a table."""
    if not path.parent.exists():
        raise TableError(f"cannot create {path}: folder {path.parent} does not exist")
    with translate(path):
        conn = _connect(path, "rwc")
        _settle(conn)
        return conn


def init_schema(conn: sqlite3.Connection, meta: dict[str, str]) -> None:
    for statement in SCHEMA:
        conn.execute(statement)
    conn.executemany(
        "INSERT INTO meta (key, value) VALUES (?, ?)",
        [("format", FORMAT), ("schema", SCHEMA_VERSION), *sorted(meta.items())],
    )


def remove_table(path: Path) -> None:
    """Delete a table file and its WAL companions."""
    for suffix in ("", "-wal", "-shm"):
        try:
            os.remove(f"{path}{suffix}")
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise TableError(f"cannot remove {path}{suffix}: {exc.strerror}") from None


@contextmanager
def translate(path: Path) -> Iterator[None]:
    """Turn SQLite failures into TableErrors that name the file."""
    try:
        yield
    except sqlite3.OperationalError as exc:
        text = str(exc).lower()
        if "locked" in text or "busy" in text:
            raise TableError(
                f"the table {path} stayed busy in another referee for {BUSY_TIMEOUT_S:.0f}s; "
                "nothing was changed, try again"
            ) from None
        if "readonly" in text or "read-only" in text:
            raise TableError(f"the table {path} cannot be written (read-only)") from None
        raise TableError(f"cannot use the table {path}: {exc}") from None
    except sqlite3.DatabaseError as exc:
        raise TableError(f"{path} is damaged or not a referee table ({exc})") from None


@contextmanager
def write(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction. The lock is taken up front, so what the body
    reads cannot change under it before it commits."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


@contextmanager
def read(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One consistent read: every query inside sees the same snapshot."""
    conn.execute("BEGIN")
    try:
        yield conn
    finally:
        conn.execute("COMMIT")
