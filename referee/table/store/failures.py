"""Each way SQLite can fail on a table file, in its own words.

SQLite says why it failed with a result code (Python 3.11 gives it as
`sqlite_errorcode`); an error without one (or raised by a test's fault
injection) is read from its message instead.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

from referee.errors import TableDamaged, TableError, TableReadOnly
from referee.table.store.chain import BUSY_TIMEOUT_S

# primary result codes (sqlite3.h)
PERM, BUSY, LOCKED, NOMEM, READONLY, IOERR, CORRUPT, FULL, CANTOPEN, PROTOCOL, NOTADB = 3, 5, 6, 7, 8, 10, 11, 13, 14, 15, 26

_BY_TEXT = (  # (words in SQLite's message, the code they stand for), for errors without a code
    ("locked", LOCKED), ("busy", BUSY), ("readonly", READONLY), ("read-only", READONLY),
    ("disk is full", FULL), ("disk i/o", IOERR), ("malformed", CORRUPT), ("not a database", NOTADB),
    ("unable to open", CANTOPEN), ("out of memory", NOMEM), ("authorization", PERM),
)


def code_of(exc: sqlite3.Error) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF
    text = str(exc).lower()
    return next((c for words, c in _BY_TEXT if words in text), None)


def explain(exc: sqlite3.Error, path: Path) -> TableError:
    """The TableError that says what went wrong with `path`."""
    code = code_of(exc)
    name = getattr(exc, "sqlite_errorname", None)
    detail = f"{name}: {exc}" if name else str(exc)
    if code in (BUSY, LOCKED):
        return TableError(
            f"the table {path} stayed busy in another referee for {BUSY_TIMEOUT_S:.0f}s; "
            "nothing was changed, try again"
        )
    if code == READONLY:
        return read_only(path, detail)
    if code in (FULL, IOERR, CANTOPEN) and disk_full(path):
        code = FULL
    if code == FULL:
        return TableError(f"the disk holding the table {path} is full ({detail}); nothing was changed: "
                          "free some space and try again")
    if code == IOERR:
        return TableError(f"the table {path} could not be read or written: the disk failed ({detail}); "
                          "nothing was changed; copy the file to another disk and try there")
    if code == CORRUPT:
        return TableDamaged(0, f"SQLite finds the file malformed: {detail}", path)
    if code == NOTADB:
        return TableError(f"{path} is not a table file: it is not an SQLite database ({detail})")
    if code == CANTOPEN:
        return TableError(f"the table {path} cannot be opened ({detail}): is its folder there and may it be read?")
    if code == PERM:
        return TableError(f"the table {path} may not be used: permission refused ({detail})")
    if code == NOMEM:
        return TableError(f"the referee ran out of memory using the table {path}; nothing was changed")
    if code == PROTOCOL:
        return TableError(f"the table {path} is locked in a way this referee cannot share ({detail}); "
                          "is it on a network share? copy it to a local disk")
    if isinstance(exc, sqlite3.OperationalError) and ("no such" in str(exc) or "has no column" in str(exc)):
        return TableDamaged(0, f"its tables are not the referee's: {exc}", path)
    if isinstance(exc, sqlite3.OperationalError):
        return TableError(f"cannot use the table {path}: {detail}")
    return TableDamaged(0, f"SQLite cannot read it: {detail}", path)


def disk_full(path: Path) -> bool:
    """Is the disk holding `path` (all but) full? (SQLite may say "disk I/O error" when it is.)"""
    import os  # lazy: only a failing table asks

    try:
        stat = os.statvfs(path.parent if not path.is_dir() else path)
    except OSError:
        return False
    return stat.f_bavail * stat.f_frsize < 64 * 1024


def read_only(path: Path, why: str) -> TableError:
    return TableReadOnly(
        f"the table {path} is on a read-only folder ({why}): it can be read (status, log, export, report, card) "
        "but not played on; copy it somewhere writable to play on"
    )
