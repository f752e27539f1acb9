"""The table file's schema (version 2), and the checksums that make it
verifiable. (One module: both are on every command's path, and a module
costs start-up.)

- Every event row carries `hash`: a digest of the previous row's hash and
  the row's own stored columns, so the log is a chain, as git's objects are;
  changing, dropping or reordering any row breaks it from there on.
- Every snapshot carries the hash of the event it folds to and `sum`, a
  digest of its own columns, so a damaged or misplaced snapshot is found
  before it is trusted.
- The meta table carries `sum` over its fixed keys, and `head`, the last
  row's seq and hash, so a row lost from the end of the log is found too.

The digest is BLAKE2b (16 bytes, hex). It is taken from `_blake2`, the
module hashlib itself uses, because `import hashlib` also loads OpenSSL
(7 ms, more than a whole `referee status` may add).
"""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Iterable, Sequence

try:  # hashlib's own BLAKE2, without OpenSSL's start-up
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import blake2b  # lazy: only where _blake2 is missing

from referee.errors import TableDamaged, TableError

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
    seen: dict[int, str]  # rows checked against the chain in the current transaction, and their hashes

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.meta, self.refusal, self.heal, self.newer, self.seen = {}, None, [], None, {}


def settle(conn: sqlite3.Connection) -> None:
    """WAL and full syncing; only on files known to be tables (this writes the header)."""
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")


def meta_of(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT key, value FROM meta").fetchall())


GENESIS = ""  # the "previous hash" of the setup row
UNSEALED = ("head", "sum")  # meta keys the meta sum leaves out (head changes with every write)


def digest(text: str) -> str:
    return blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def row_hash(prev: str, values: Sequence[object]) -> str:
    """The hash of an event row: its stored columns (all but `hash`), after the previous row's hash."""
    return digest(f"{prev}\n{values!r}")


def snapshot_sum(node: int, version: str, state: str, event_hash: str) -> str:
    return digest(f"{node!r}\n{version!r}\n{event_hash!r}\n{state!r}")


def meta_sum(meta: dict[str, str]) -> str:
    return digest(repr(sorted((repr(k), repr(v)) for k, v in meta.items() if k not in UNSEALED)))


def head_mark(seq: int, hashed: str) -> str:
    return f"{seq}:{hashed}"


def verify_rows(rows: Iterable[tuple], prev: str, first: int) -> str:
    """Check consecutive raw rows (stored columns, `hash` last) against the
    chain, `prev` being the hash of the row before `first`. Returns the last
    row's hash; raises TableDamaged at the first row that does not follow."""
    expected = first
    for row in rows:
        seq, stored = row[0], row[-1]
        if seq != expected:
            raise TableDamaged(expected, "the row is missing from the log" if isinstance(seq, int) and seq > expected
                               else f"a row numbered {seq!r} is out of place")
        if row_hash(prev, row[:-1]) != stored:
            raise TableDamaged(seq, "its contents do not match its checksum")
        prev, expected = stored, expected + 1
    return prev
