"""Making a table file whole or not at all, and keeping the one it replaces."""
from __future__ import annotations

import os
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Callable

from referee.errors import TableError
from referee.table.store import db


def build_then_swap(path: Path, build: Callable[[sqlite3.Connection], None]) -> Path | None:
    """Make a new table and move it into place when complete, so a refusal
    or a crash part-way never leaves a half-made table or loses the old one.
    The table is built in memory and only then written beside `path` (one
    backup-API copy, synced) and renamed over it: a process killed while
    building leaves no file behind, and one killed in the short copy leaves
    a `.NAME.new-PID` that the next build clears away. A file already at
    `path` is kept, renamed beside it (`archive_name`); its new path is
    returned."""
    if not path.parent.is_dir():
        raise TableError(f"cannot create {path}: folder {path.parent} does not exist")
    _clear_leftovers(path)
    building = path.with_name(f".{path.name}.new-{os.getpid()}")
    db.remove_table(building)
    try:
        conn = db.memory_table(path)
        try:
            with db.translate(path):
                build(conn)
                db.write_out(conn, building)
        finally:
            conn.close()
        archived = archive_table(path) if path.exists() else None
        os.replace(building, path)
    except OSError as exc:
        raise TableError(f"cannot write the table {path}: {exc.strerror}") from None
    finally:
        db.remove_table(building)
    return archived


def _clear_leftovers(path: Path) -> None:
    """`.NAME.new-PID` files of builds whose process is gone (killed in the copy)."""
    prefix = f".{path.name}.new-"
    try:
        names = [n for n in os.listdir(path.parent) if n.startswith(prefix)]
    except OSError:
        return
    for name in names:
        pid = name[len(prefix):].split("-")[0]
        if pid.isdigit() and not _alive(int(pid)):
            db.remove_table(path.parent / name)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def archive_name(path: Path, when: datetime | None = None) -> Path:
    """`table.db` -> `table.2026-11-23T14-05.db` beside it (then -2, -3 ... if taken)."""
    stamp = (when or datetime.now()).strftime("%Y-%m-%dT%H-%M")
    candidate = path.with_name(f"{path.stem}.{stamp}{path.suffix}")
    n = 2
    while candidate.exists():
        candidate = path.with_name(f"{path.stem}.{stamp}-{n}{path.suffix}")
        n += 1
    return candidate


def archive_table(path: Path) -> Path:
    """Rename an old table (with its WAL, folded in first) out of the way; never delete it."""
    target = archive_name(path)
    try:
        conn = sqlite3.connect(str(path))
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()
    except sqlite3.Error:
        pass  # not a SQLite file: it is kept as it is
    os.replace(path, target)
    for side in ("-wal", "-shm"):
        if os.path.exists(f"{path}{side}"):
            os.replace(f"{path}{side}", f"{target}{side}")
    return target
