"""The table file: one SQLite database per table, in WAL mode.

Durability: every change is one `BEGIN IMMEDIATE ... COMMIT` transaction with
`synchronous=FULL`, so a process killed at any moment leaves either the whole
action or none of it. Concurrency: writers queue on SQLite's lock with a
generous busy timeout, and a lock that is still held after it becomes a
TableError that says the table is busy, never SQLite's own wording.

Trust: every row is checksummed (store/chain.py) and checked as it is read.
Opening never writes to a file it refuses. A table that cannot be written
(a read-only folder, a full disk, a newer referee's table) opens read-only:
it can be read, and a write says why it cannot be. A table of schema 1 is
upgraded in place when opened, in one transaction, keeping a copy
(store/upgrade.py).

The events table refuses UPDATE and DELETE through triggers: the log is
append-only even against a careless `sqlite3` session.
"""
from __future__ import annotations

import os
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from referee import __version__
from referee.errors import TableDamaged, TableError
from referee.table.store import chain
from referee.errors import note
from referee.table.store.chain import (  # noqa: F401  (the schema's names, as store.db has always given them)
    BUSY_TIMEOUT_S, EVENT_COLUMNS, FORMAT, SCHEMA, SCHEMA_VERSION, TRIGGERS, TableConn, meta_of, settle as _settle,
)

MAGIC = b"SQLite format 3\x00"


def _failures():
    from referee.table.store import failures  # lazy: only a failing table needs its words

    return failures


def _connect(path: Path, mode: str, immutable: bool = False) -> TableConn:
    uri = f"{path.resolve().as_uri()}?mode={mode}" + ("&immutable=1" if immutable else "")
    conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None, factory=TableConn)
    conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
    conn.path = path
    return conn


def _sniff(path: Path) -> TableError | None:
    """What plainly is not a table, in words: not SQLite at all, or an SQLite
    file cut short of a header. Read only once SQLite has refused the file:
    opening and closing the file by hand while this process holds an SQLite
    connection to it would drop that connection's POSIX locks (and let
    another referee corrupt the file)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(100)
            size = os.fstat(handle.fileno()).st_size
    except OSError as exc:
        return TableError(f"cannot read the table {path}: {exc.strerror}")
    if not head:
        return TableError(f"{path} is an empty file, not a table (a table that was never written?)")
    if not head.startswith(MAGIC):
        if MAGIC.startswith(head):
            return TableError(f"{path} is cut short: {size} bytes, not even an SQLite header; "
                              "the copy or download did not finish")
        kind = "a text file" if _texty(head) else "a binary file of another kind"
        return TableError(f"{path} is not a table file: it is {kind}, not an SQLite database")
    if len(head) < 100:
        return TableError(f"{path} is cut short: {size} bytes, less than an SQLite header")
    page = int.from_bytes(head[16:18], "big")
    pages = int.from_bytes(head[28:32], "big") * (65536 if page == 1 else page)
    wal = Path(f"{path}-wal")
    if head[24:28] == head[92:96] and size < pages and not (wal.exists() and wal.stat().st_size):
        return TableError(f"{path} is cut short: {size} bytes, but its header says {pages}; "
                          "the copy did not finish (a backup may help: `referee backups`)")
    return None


def _check_length(conn: sqlite3.Connection, path: Path) -> None:
    """An SQLite file shorter than its pages (a copy that did not finish)."""
    wal = Path(f"{path}-wal")
    if wal.exists() and wal.stat().st_size:
        return  # the newest pages may be in the WAL
    pages, page = conn.execute("SELECT * FROM pragma_page_count(), pragma_page_size()").fetchone()
    size = path.stat().st_size
    if size < pages * page:
        conn.close()
        raise TableError(f"{path} is cut short: {size} bytes, but its header says {pages * page}; "
                         "the copy did not finish (a backup may help: `referee backups`)")


def _texty(head: bytes) -> bool:
    import codecs  # lazy: only a file that is not a table is looked at so

    try:
        text = codecs.getincrementaldecoder("utf-8")().decode(head)  # (a character cut at byte 100 is no matter)
    except UnicodeDecodeError:
        return False
    return all(c.isprintable() or c in "\t\r\n" for c in text)


def open_table(path: Path) -> TableConn:
    """Open an existing table file, checking that it is one of ours. A table
    that cannot be written opens read-only, `refusal` saying why."""
    with translate(path):
        return _open_table(path)


def _open_table(path: Path) -> TableConn:
    if not path.exists():
        if Path(f"{path}-wal").exists():
            raise TableError(f"no table file at {path}, but its write-ahead log {path}-wal is there: the table's "
                             "latest changes without the table; put the .db file back beside it")
        raise TableError(f"no table file at {path}; start one with: referee new GAME --player NAME ...")
    if path.is_dir():
        raise TableError(f"{path} is a folder, not a table file")
    if path.stat().st_size == 0:  # SQLite would take it for an empty database
        raise TableError(f"{path} is an empty file, not a table (a table that was never written?)")
    conn = connection(path)
    _check_meta(conn, path)
    if conn.meta.get("schema") == "1":
        from referee.table.store import upgrade  # lazy: only an old table is upgraded

        conn = upgrade.bring_up(conn, path)
    elif conn.refusal is None:
        try:
            _settle(conn)
        except sqlite3.Error as exc:
            conn.close()
            raise _failures().explain(exc, path) from None
    return conn


def connection(path: Path) -> TableConn:
    """A connection to an existing SQLite file with a meta table, read
    and write if it may be written, else read-only (`refusal` says why);
    nothing about the meta is judged yet."""
    writable = os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)
    conn, refusal = None, None
    if writable:
        try:
            conn = _connect(path, "rw")
            conn.meta = _read_meta(conn)
        except sqlite3.Error as exc:
            if conn is not None:
                conn.close()
            conn = None
            if _failures().code_of(exc) not in (_failures().READONLY, _failures().CANTOPEN, _failures().FULL, _failures().IOERR):
                raise (_sniff(path) or _failures().explain(exc, path)) from None
            refusal = _failures().explain(exc, path)
            if _failures().code_of(exc) == _failures().READONLY:
                refusal = _failures().read_only(path, "SQLite may not write there")
            elif _failures().disk_full(path):
                note(f"the disk holding the table {path} is full: it is read, but cannot be played on "
                     "until some space is freed")
    else:
        refusal = _failures().read_only(path, "the file or its folder may not be written")
    if conn is None:
        conn = _open_read_only(path)
        conn.refusal = refusal
    try:
        _check_length(conn, path)
    except sqlite3.Error as exc:
        conn.close()
        raise _failures().explain(exc, path) from None
    return conn


def _open_read_only(path: Path) -> TableConn:
    """A read-only connection; `immutable` when SQLite cannot make the WAL's
    shared-memory file there (a read-only folder) and no WAL is waiting."""
    conn = None
    try:
        conn = _connect(path, "ro")
        conn.meta = _read_meta(conn)
        return conn
    except sqlite3.Error as exc:
        if conn is not None:
            conn.close()
        first = exc
    wal = Path(f"{path}-wal")
    if wal.exists() and wal.stat().st_size:
        raise TableError(f"the table {path} cannot be read here: its latest changes wait in {wal}, "
                         f"which SQLite cannot open on this folder ({first}); copy both files somewhere writable")
    conn = None
    try:
        conn = _connect(path, "ro", immutable=True)
        conn.meta = _read_meta(conn)
        return conn
    except sqlite3.Error as exc:
        if conn is not None:
            conn.close()
        raise (_sniff(path) or _failures().explain(exc, path)) from None


def _read_meta(conn: TableConn) -> dict[str, str]:
    try:
        return dict(conn.execute("SELECT key, value FROM meta").fetchall())
    except UnicodeDecodeError:
        conn.close()
        raise TableDamaged(0, "its header's text is not valid UTF-8", conn.path) from None
    except sqlite3.OperationalError as exc:
        if "no such table" not in str(exc):
            raise
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        conn.close()
        raise TableError(
            f"{conn.path} is an SQLite database of another program (tables: {', '.join(tables) or 'none'}), "
            "not a referee table"
        ) from None


def _check_meta(conn: TableConn, path: Path) -> None:
    meta = conn.meta
    sealed = meta.get("sum")
    if sealed is not None and sealed != chain.meta_sum(meta):
        conn.close()
        raise TableDamaged(0, "the header's checksum fails: its game, seed or version were changed", path)
    if meta.get("format") != FORMAT:
        conn.close()
        raise TableError(f"{path} is an SQLite database of another program (no referee-table mark), "
                         "not a referee table")
    schema = meta.get("schema", "")
    if schema not in ("1", SCHEMA_VERSION):
        if not (schema.isdigit() and int(schema) > int(SCHEMA_VERSION)):
            conn.close()
            raise TableDamaged(0, f"its schema {schema!r} is not one any referee writes", path)
        newer(conn, f"table schema {schema}")
    elif sealed is None and schema != "1":
        conn.close()
        raise TableDamaged(0, "the header's checksum is missing", path)
    written = meta.get("referee")
    if written and _version(written) > _version(__version__):
        newer(conn, f"referee {written}")


def newer(conn: TableConn, what: str) -> None:
    """Mark a table written by a newer referee: readable, never written."""
    from referee.errors import TableReadOnly  # lazy: only a newer table needs it

    conn.refusal = TableReadOnly(f"the table {conn.path} was written by {what}, this is referee {__version__}: "
                                 "upgrade to play on (it can still be read)")
    conn.newer = what


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(p) if p.isdigit() else 0 for p in text.split("."))


def create_table(path: Path) -> TableConn:
    """Create an empty file for a new table (the caller has removed any old
    one). Fill it with `init_schema` inside the same transaction as the setup
    event, so a table file either has a setup or does not exist as a table."""
    if not path.parent.exists():
        raise TableError(f"cannot create {path}: folder {path.parent} does not exist")
    with translate(path):
        conn = _connect(path, "rwc")
        _settle(conn)
        return conn


def memory_table(path: Path) -> TableConn:
    """An empty table in memory, to be built and then written out whole (`write_out`)."""
    conn = sqlite3.connect(":memory:", isolation_level=None, factory=TableConn)
    conn.path = path
    return conn


def write_out(conn: sqlite3.Connection, target: Path) -> None:
    """Copy a table built in memory to a new file, synced, in WAL mode."""
    out = sqlite3.connect(str(target), isolation_level=None)
    try:
        conn.backup(out)
        out.execute("PRAGMA synchronous = FULL")
        out.execute("PRAGMA journal_mode = WAL")
        out.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        out.close()
    fd = os.open(target, os.O_RDONLY)  # a file of our own making, that no SQLite connection holds now
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def init_schema(conn: sqlite3.Connection, meta: dict[str, str]) -> None:
    for statement in SCHEMA:
        conn.execute(statement)
    rows = {"format": FORMAT, "schema": SCHEMA_VERSION, "referee": __version__, **meta}
    rows["sum"] = chain.meta_sum(rows)
    conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", sorted(rows.items()))
    if isinstance(conn, TableConn):
        conn.meta = rows


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
    except TableDamaged as exc:
        if exc.path is None:
            raise exc.at(path) from None
        raise
    except sqlite3.Error as exc:
        raise _failures().explain(exc, path) from None
    except UnicodeDecodeError:
        raise TableDamaged(0, "some of its text is not valid UTF-8", path) from None


@contextmanager
def write(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction. The lock is taken up front, so what the body
    reads cannot change under it before it commits."""
    refusal = getattr(conn, "refusal", None)
    if refusal is not None:
        raise refusal
    _forget(conn)
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # SQLite could not roll back now: it does when the file is next opened
        raise


@contextmanager
def read(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One consistent read: every query inside sees the same snapshot."""
    _forget(conn)
    conn.execute("BEGIN")
    try:
        yield conn
    finally:
        if conn.in_transaction:
            conn.execute("COMMIT")


def _forget(conn: sqlite3.Connection) -> None:
    """A new transaction may see new rows: what the last one checked is not taken on trust."""
    seen = getattr(conn, "seen", None)
    if seen:
        seen.clear()


def peek_game(path: Path) -> str | None:
    """The game a table file is for, or None; never writes, never raises."""
    for immutable in (False, True):
        try:
            conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro" + ("&immutable=1" if immutable else ""),
                                   uri=True, timeout=5)
            try:
                row = conn.execute("SELECT value FROM meta WHERE key = 'game'").fetchone()
            finally:
                conn.close()
            return row[0] if row else None
        except sqlite3.Error:
            continue
    return None
