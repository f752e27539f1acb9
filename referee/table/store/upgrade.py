"""Bringing a schema-1 table (no checksums, no versions) up to schema 2.

In place, in one transaction, after copying the file as it was beside it
(`table.schema-1.db`): the rows gain the `referee`, `rules` and `hash`
columns, the chain is computed over the rows as they are, and the old
snapshots are dropped (they were never checked, so they are not sealed:
the state is folded from the log and saved again on the next read). A
table that cannot be written is upgraded in memory only, to be read.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

from referee.errors import TableError
from referee.table.store import chain, failures
from referee.errors import note

NEW_COLUMNS = (
    "ALTER TABLE events ADD COLUMN referee TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE events ADD COLUMN rules TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE events ADD COLUMN hash TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE snapshots ADD COLUMN event_hash TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE snapshots ADD COLUMN sum TEXT NOT NULL DEFAULT ''",
)


def kept_name(path: Path) -> Path:
    candidate, n = path.with_name(f"{path.stem}.schema-1{path.suffix}"), 2
    while candidate.exists():
        candidate, n = path.with_name(f"{path.stem}.schema-1-{n}{path.suffix}"), n + 1
    return candidate


def bring_up(conn: chain.TableConn, path: Path) -> chain.TableConn:
    """The table at schema 2: upgraded in place, or (read-only) in memory."""
    if conn.refusal is not None:
        return _in_memory(conn, path)
    keep = kept_name(path)
    try:
        copy = sqlite3.connect(str(keep))
        try:
            conn.backup(copy)
        finally:
            copy.close()
        conn.execute("BEGIN IMMEDIATE")
        try:
            if chain.meta_of(conn).get("schema") == "1":  # not upgraded meanwhile by another referee
                upgrade(conn)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        chain.settle(conn)
    except sqlite3.Error as exc:
        conn.close()
        raise failures.explain(exc, path) from None
    except OSError as exc:
        conn.close()
        raise TableError(f"cannot upgrade the table {path}: {exc.strerror}") from None
    conn.meta = chain.meta_of(conn)
    note(f"the table {path} was upgraded to table schema 2 (every event checksummed); "
         f"the file as it was is kept as {keep}")
    return conn


def _in_memory(conn: chain.TableConn, path: Path) -> chain.TableConn:
    mem = sqlite3.connect(":memory:", isolation_level=None, factory=chain.TableConn)
    try:
        conn.backup(mem)
    except sqlite3.Error as exc:
        raise failures.explain(exc, path) from None
    finally:
        conn.close()
    mem.path, mem.refusal = path, conn.refusal
    mem.execute("BEGIN")
    upgrade(mem)
    mem.execute("COMMIT")
    mem.meta = chain.meta_of(mem)
    note(f"the table {path} is an old one (table schema 1) that cannot be written here, so it is read "
         "as it is, without checksums to check it against")
    return mem


def upgrade(conn: sqlite3.Connection) -> None:
    """The schema-1 to schema-2 changes, inside the caller's transaction."""
    for trigger in ("events_append_only_update", "events_append_only_delete"):
        conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    for statement in NEW_COLUMNS:
        conn.execute(statement)
    from referee.table.store import events as log  # lazy: store.events imports the rules contract

    prev, last = chain.GENESIS, None
    for row in conn.execute(f"SELECT {log.STORED} FROM events ORDER BY seq").fetchall():
        prev, last = chain.row_hash(prev, row), row[0]
        conn.execute("UPDATE events SET hash = ? WHERE seq = ?", (prev, last))
    conn.execute("DELETE FROM snapshots")
    for trigger in chain.TRIGGERS:
        conn.execute(trigger)
    meta = {**chain.meta_of(conn), "schema": chain.SCHEMA_VERSION}
    meta.pop("sum", None)
    meta["sum"] = chain.meta_sum(meta)
    rows = [*meta.items()] + ([("head", chain.head_mark(last, prev))] if last is not None else [])
    conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", rows)
