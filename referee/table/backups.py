"""Rolling backups of a table, in a folder beside it (`table.db.backups/`).

A copy is taken with SQLite's online backup API (a consistent copy even
while another referee writes) when a table is made (`new`), imported
(`replay`), when an undo steps back past a turn, and otherwise at most
every EVERY events. The newest KEEP are kept. `restore` brings one back as
a new table file, checked before it is handed over; the table itself is
never touched. A backup that cannot be taken (a full disk) is a warning:
the command it follows has already succeeded.
"""
from __future__ import annotations

import os
import re
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from referee.errors import RefereeError, TableError
from referee.errors import note

EVERY = 50  # events between two routine backups
KEEP = 10
REASONS = {"new": "a new table", "import": "a replayed table", "undo": "an undo past a turn",
           "every": f"the routine one (every {EVERY} events)"}
_NAME = re.compile(r"^(?P<seq>\d{6})-(?P<reason>[a-z]+)-(?P<stamp>[0-9T-]+)\.db$")


@dataclass(frozen=True)
class Backup:
    file: Path
    seq: int
    reason: str
    stamp: str

    @property
    def when(self) -> str:
        day, _, clock = self.stamp.partition("T")
        return f"{day} {clock[:2]}:{clock[2:4]}:{clock[4:6]}"


@dataclass(frozen=True)
class BackupList:
    path: Path
    folder: Path
    backups: tuple[Backup, ...]

    def lines(self) -> list[str]:
        if not self.backups:
            return [f"no backups of {self.path} yet (one is taken at `new`, `replay`, an undo past a turn, "
                    f"and every {EVERY} events, in {self.folder})"]
        out = [f"backups of {self.path} in {self.folder} (restore one with `referee restore N`):"]
        for n, b in enumerate(self.backups, start=1):
            size = b.file.stat().st_size if b.file.exists() else 0
            out.append(f"  {n:>2}  event {b.seq:<6} {b.when}  {REASONS.get(b.reason, b.reason):<34} "
                       f"{size // 1024 or 1} KB  {b.file.name}")
        return out


@dataclass(frozen=True)
class Restored:
    path: Path
    source: Path
    seq: int


def folder_of(path: Path) -> Path:
    return path.with_name(f"{path.name}.backups")


def _backups(path: Path) -> list[Backup]:
    try:
        names = os.listdir(folder_of(path))
    except OSError:
        return []
    found = [Backup(folder_of(path) / n, int(m["seq"]), m["reason"], m["stamp"])
             for n in names if (m := _NAME.match(n))]
    return sorted(found, key=lambda b: (b.seq, b.stamp, b.file.name))


def list_backups(path: Path) -> BackupList:
    return BackupList(path, folder_of(path), tuple(_backups(path)))


def after_write(path: Path, seq: int, reason: str | None = None) -> None:
    """Called after a command wrote event `seq`: take a backup if one is due."""
    if reason is None:
        existing = _backups(path)
        if existing and seq - existing[-1].seq < EVERY:
            return
        if not existing and seq < EVERY:
            return
        reason = "every"
    take(path, seq, reason)


def take(path: Path, seq: int, reason: str) -> Path | None:
    folder = folder_of(path)
    target = folder / f"{seq:06d}-{reason}-{datetime.now().strftime('%Y-%m-%dT%H%M%S')}.db"
    partial = folder / f".partial-{os.getpid()}.db"
    try:
        folder.mkdir(exist_ok=True)
        _copy(path, partial)
        os.replace(partial, target)
    except (OSError, sqlite3.Error) as exc:
        note(f"could not back up the table {path} to {folder} ({exc}); the command itself was done")
        return None
    finally:
        _remove(partial)
    for old in _backups(path)[:-KEEP]:
        _remove(old.file)
    return target


def _copy(source: Path, target: Path) -> None:
    """A consistent copy by SQLite's online backup API, as one file (no WAL beside it)."""
    _remove(target)
    src = sqlite3.connect(str(source), timeout=30)  # (read-write: closing it tidies the WAL away)
    try:
        dst = sqlite3.connect(str(target))
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
        finally:
            dst.close()
    finally:
        src.close()


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        try:
            os.remove(f"{path}{suffix}")
        except OSError:
            pass


def restore_backup(path: Path, which: str | None, target: Path | None) -> Restored:
    """Copy a backup to a new table file (default: beside the table), checked sound."""
    backups = _backups(path)
    if which is None:
        if not backups:
            raise RefereeError(f"no backups of {path} to restore (none in {folder_of(path)})")
        chosen = backups[-1]
    elif which.isdigit() and len(which) < 4:
        if not 1 <= int(which) <= len(backups):
            raise RefereeError(f"there is no backup {which} of {path}; `referee backups` lists {len(backups)}")
        chosen = backups[int(which) - 1]
    else:
        file = Path(which)
        m = _NAME.match(file.name)
        if not file.is_file():
            raise RefereeError(f"no backup file at {file}")
        chosen = Backup(file, int(m["seq"]) if m else 0, m["reason"] if m else "?", m["stamp"] if m else "")
    if target is None:
        target, n = path.with_name(f"{path.stem}.restored-{chosen.seq}{path.suffix}"), 2
        while target.exists():
            target, n = path.with_name(f"{path.stem}.restored-{chosen.seq}-{n}{path.suffix}"), n + 1
    elif target.exists():
        raise RefereeError(f"{target} exists; restore to a new file (restore never overwrites one)")
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        _copy(chosen.file, partial)
        from referee.table.check import check_table  # lazy: the check folds the log

        report = check_table(partial)
        if not report.sound:
            raise TableError(f"the backup {chosen.file} is itself damaged ({report.lines()[-1]}); "
                             "choose another with `referee backups`")
        os.replace(partial, target)
    except sqlite3.Error as exc:
        raise TableError(f"cannot restore {chosen.file}: {exc}") from None
    except OSError as exc:
        raise TableError(f"cannot write {target}: {exc.strerror}") from None
    finally:
        _remove(partial)
    return Restored(target, chosen.file, report.events)
