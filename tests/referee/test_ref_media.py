"""Tables on read-only and full media, and files that are not tables: each
named in its own words; a failed open writes nothing; `new --force` and
`replay --force` killed midway leave the old table whole."""
from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import sqlite3
import subprocess
import time
from contextlib import closing
from pathlib import Path

import pytest
from conftest import PYTHON, ROOT, Table

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
REFEREE = f"{shlex.quote(PYTHON)} -m referee"


def can_mount() -> bool:
    if not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
                           capture_output=True)
    return probe.returncode == 0


needs_mount = pytest.mark.skipif(not can_mount(), reason="needs unshare and mount (a user namespace)")


def in_namespace(script: str) -> subprocess.CompletedProcess:
    """Run a shell script in a user and mount namespace of its own (mounts vanish with it)."""
    return subprocess.run(["unshare", "-rm", "sh", "-c", f"set -e\n{script}"], env=ENV, capture_output=True,
                          text=True, timeout=120)


def table_at(folder: Path) -> Table:
    folder.mkdir()
    table = Table(folder / "t.db")
    table.run("new culture-war --player ann:anarchy --player bo:technocracy --seed 3 --house-rule first-player=seating")
    table.run("capital ann +2")
    return table


@needs_mount
def test_a_table_on_a_read_only_folder_is_read_and_a_write_says_why(tmp_path):
    table = table_at(tmp_path / "archive")
    want = table.status()
    before = table.db.read_bytes()
    out = tmp_path / "out"
    out.mkdir()
    db = table.db
    done = in_namespace(f"""
mount --bind -o ro {db.parent} {db.parent}
{REFEREE} --db {db} status --json > {out}/status.json
{REFEREE} --db {db} log > {out}/log.txt
{REFEREE} --db {db} export {out}/export.json
{REFEREE} --db {db} report --out {out}/report.pdf
{REFEREE} --db {db} card anarchy-black-market > {out}/card.txt
{REFEREE} --db {db} check > {out}/check.txt
if {REFEREE} --db {db} capital ann +1 2> {out}/refused.txt; then echo wrote; fi
if {REFEREE} --db {db} undo 2>> {out}/refused.txt; then echo wrote; fi
ls -a {db.parent} > {out}/ls.txt
""")
    assert done.returncode == 0 and "wrote" not in done.stdout, done.stderr
    assert json.loads((out / "status.json").read_text()) == want
    assert "capital" in (out / "log.txt").read_text() and (out / "export.json").stat().st_size
    assert (out / "report.pdf").read_bytes()[:4] == b"%PDF" and "Black Market" in (out / "card.txt").read_text()
    assert "sound (2 events" in (out / "check.txt").read_text()
    refused = (out / "refused.txt").read_text().splitlines()
    assert len(refused) == 2 and all("is on a read-only folder" in line and "not played on" in line for line in refused)
    assert table.db.read_bytes() == before
    assert (out / "ls.txt").read_text().split() == [".", "..", "t.db", "t.db.backups"]


@needs_mount
def test_a_full_disk_at_open_is_named_and_the_table_still_read(tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    db = disk / "t.db"
    done = in_namespace(f"""
mount -t tmpfs -o size=300k tmpfs {disk}
{REFEREE} --db {db} new petri-dish --player ann --player bo --seed 3 > /dev/null
{REFEREE} --db {db} place c1 > /dev/null
dd if=/dev/zero of={disk}/filler bs=4k 2> /dev/null || true
{REFEREE} --db {db} status --json > {out}/status.json 2> {out}/status.err
if {REFEREE} --db {db} place d4 2> {out}/refused.txt; then echo wrote; fi
rm {disk}/filler
{REFEREE} --db {db} place d4 > /dev/null
{REFEREE} --db {db} status --json > {out}/after.json
""")
    assert done.returncode == 0 and "wrote" not in done.stdout, done.stderr
    assert '"reserve": 15' in (out / "status.json").read_text()
    assert "the disk holding the table" in (out / "status.err").read_text()
    refused = (out / "refused.txt").read_text()
    assert "is full" in refused and "nothing was changed" in refused and "not a referee table" not in refused
    assert '"log_length": 3' in (out / "after.json").read_text()


def test_each_kind_of_bad_file_has_its_own_words_and_is_left_as_it_was(tmp_path):
    good = table_at(tmp_path / "good")
    other = tmp_path / "other.db"
    with closing(sqlite3.connect(other)) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
        conn.commit()
    unknown = tmp_path / "unknown.db"
    shutil.copy(good.db, unknown)
    with closing(sqlite3.connect(unknown)) as conn:
        conn.execute("UPDATE meta SET value = 'chess' WHERE key = 'game'")
        conn.commit()
    cut = tmp_path / "cut.db"
    cut.write_bytes(good.db.read_bytes()[:6000])
    stub = tmp_path / "stub.db"
    stub.write_bytes(good.db.read_bytes()[:40])
    lone = tmp_path / "lone.db"
    Path(f"{lone}-wal").write_bytes(b"\0" * 32)
    text, empty, binary = tmp_path / "notes.db", tmp_path / "empty.db", tmp_path / "image.db"
    text.write_text("my shopping list\n")
    empty.write_bytes(b"")
    binary.write_bytes(bytes(range(256)) * 4)
    cases = {
        other: "SQLite database of another program (tables: recipes)",
        unknown: "is damaged (the header's checksum fails",  # sealed: a changed game is damage
        cut: "is cut short",
        stub: "is cut short",
        lone: "its write-ahead log",
        text: "it is a text file, not an SQLite database",
        empty: "is an empty file",
        binary: "a binary file of another kind",
    }
    messages = set()
    for path, words in cases.items():
        before = path.read_bytes() if path.exists() else None
        for line in ("status", "capital ann +1", "log"):
            result = Table(path).run(line, ok=False)
            assert result.exit_code == 1 and "Traceback" not in result.output
            lines = result.output.strip().splitlines()
            assert len(lines) == 1 and words in lines[0] and str(path) in lines[0], (path, result.output)
            messages.add(lines[0].split(str(path))[-1][:40])
        assert (path.read_bytes() if path.exists() else None) == before
        assert not Path(f"{path}-shm").exists()
    assert len(messages) >= len(cases) - 1  # the two cut-short files share their words


def test_a_table_of_a_game_this_referee_lacks(tmp_path):
    good = table_at(tmp_path / "good")
    with closing(sqlite3.connect(good.db)) as conn:
        meta = {**dict(conn.execute("SELECT key, value FROM meta")), "game": "chess"}
        from referee.table.store import chain

        conn.execute("UPDATE meta SET value = 'chess' WHERE key = 'game'")
        conn.execute("UPDATE meta SET value = ? WHERE key = 'sum'", (chain.meta_sum(meta),))
        conn.commit()
    result = good.run("status", ok=False)
    assert "is a table for 'chess', a game this referee does not know" in result.output


SLOW_BUILD = """
import os, sys, time
from pathlib import Path
from referee.table import files, operations
real = files.db.write_out
def slow(conn, target):
    print("building", flush=True)
    time.sleep(30)
files.db.write_out = slow
operations.new_table(Path(sys.argv[1]), "petri-dish", ["ann", "bo"], seed=9, force=True)
"""


def test_new_force_killed_midway_leaves_the_old_table_whole_and_no_temporary_file(tmp_path):
    table = table_at(tmp_path / "t")
    before = table.status()
    proc = subprocess.Popen([PYTHON, "-c", SLOW_BUILD, str(table.db)], env=ENV, stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "building"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
    assert table.status() == before
    assert sorted(p.name for p in table.db.parent.iterdir()) == ["t.db", "t.db.backups"]


def test_a_leftover_of_a_build_killed_in_its_copy_is_cleared_by_the_next(tmp_path):
    table = table_at(tmp_path / "t")
    dead = subprocess.Popen([PYTHON, "-c", "pass"])
    dead.wait()
    time.sleep(0.01)
    leftover = table.db.with_name(f".t.db.new-{dead.pid}")
    leftover.write_bytes(b"half a table")
    table.run("new petri-dish --player ann --player bo --force")
    assert not leftover.exists()


def test_each_sqlite_failure_has_its_own_words(tmp_path):
    from referee.table.store import failures

    path = tmp_path / "t.db"
    said = {}
    for name in ("BUSY", "LOCKED", "READONLY", "FULL", "IOERR", "CORRUPT", "NOTADB", "CANTOPEN", "PERM", "NOMEM",
                 "PROTOCOL"):
        exc = sqlite3.OperationalError("something went wrong")
        exc.sqlite_errorcode = getattr(failures, name)
        text = str(failures.explain(exc, path))
        assert str(path) in text and "not a referee table" not in text, (name, text)
        said[name] = text.replace(str(path), "")[:60]
    assert len(set(said.values())) == len(said) - 1  # busy and locked are one thing to a person
    missing = str(failures.explain(sqlite3.OperationalError("no such table: events"), path))
    assert "its tables are not the referee's" in missing
