"""The table file tested as a database is: killed at random points,
failing at every SQLite call of a write, and with every byte flipped.

Sizes: the suite runs a few dozen kills, a fault at every call of five
writes and a sample of the bytes; `make fuzz` (FUZZ_GAMES set) runs
hundreds of kills and flips every byte. Each test prints its counts.
"""
from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from referee.errors import NothingToDo, RefereeError
from referee.model import Action
from referee.rules import rules_for
from referee.rules.legal import random_legal
from referee.table import operations as table
from referee.table.check import check_table
from referee.table.history import history
from referee.table.known import known_state
from referee.table.store import db
from referee.errors import collecting

FULL = int(os.environ.get("FUZZ_GAMES", "0")) >= 100
KILLS = 300 if FULL else 24


def fold_of(path: Path) -> dict:
    """The state the log folds to, from the setup, trusting no snapshot."""
    conn = db.open_table(path)
    try:
        state, _ = known_state(conn, rules_for(conn.meta["game"]))
    finally:
        conn.close()
    return state.to_dict()


def sound(path: Path) -> None:
    report = check_table(path)
    assert report.sound, "\n".join(report.lines())
    assert table.status(path).state.to_dict() == fold_of(path)


# ---- kill -9 at random points ---------------------------------------------------------------


def play_forever(path: Path, seed: int) -> None:
    """The child: random legal moves, undo, redo and rolls, as fast as it can."""
    rng = random.Random(seed)
    rules = rules_for("petri-dish")
    while True:
        r = rng.random()
        try:
            if r < 0.12:
                table.undo(path)
            elif r < 0.18:
                table.redo(path)
            elif r < 0.24:
                table.roll(path, "2d6")
            else:
                state = table.status(path).state
                if state.finished:
                    table.undo(path)
                    continue
                chosen = random_legal(rules, state, state.active_player.name, None, rng)
                if chosen is None:
                    table.undo(path)
                else:
                    table.perform(path, chosen.action)
        except NothingToDo:
            pass


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="forks the writer")
def test_killed_at_random_points_the_chain_verifies_status_is_the_fold_and_undo_works(tmp_path):
    path = tmp_path / "crash.db"
    table.new_table(path, "petri-dish", ["ann", "bo"], seed=5)
    rng = random.Random(38)
    kills, longest = 0, 0
    for n in range(KILLS):
        pid = os.fork()
        if pid == 0:  # the child plays until it is killed
            try:
                play_forever(path, n)
            finally:
                os._exit(1)
        time.sleep(rng.uniform(0.01, 0.25))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        kills += 1
        sound(path)
        length = table.status(path).log_length
        longest = max(longest, length)
        try:
            table.undo(path)
        except NothingToDo:
            pass
        assert table.status(path).log_length in (length, length + 1)
        sound(path)
    print(f"\n{kills} kills, the log grew to {longest} events; after every kill the chain verified, "
          "status equalled the fold and undo worked")
    assert longest > 12  # the child did play between kills


# ---- an I/O fault at every SQLite call of a write --------------------------------------------


REAL_CONN = db.TableConn


def faulty(at: int, calls: list[int]):
    class FaultyConn(REAL_CONN):
        """Fails the at-th call to SQLite, as a disk would: disk I/O error."""

        def _tick(self):
            calls[0] += 1
            if calls[0] == at:
                exc = sqlite3.OperationalError("disk I/O error")
                exc.sqlite_errorcode = 10  # SQLITE_IOERR
                raise exc

        def execute(self, *args, **kwargs):
            self._tick()
            return super().execute(*args, **kwargs)

        def executemany(self, *args, **kwargs):
            self._tick()
            return super().executemany(*args, **kwargs)

    return FaultyConn


WRITES = {
    "act": lambda p: table.act(p, "capital", {"player": "ann", "by": 1}),
    "undo": lambda p: table.undo(p),
    "redo": lambda p: table.redo(p),
    "roll": lambda p: table.roll(p, "2d6"),
    "new": lambda p: table.new_table(p, "culture-war", ["ann:anarchy", "bo:technocracy"], seed=4, force=True),
}


@pytest.mark.slow
def test_an_io_fault_at_every_sqlite_call_of_a_write_leaves_the_table_or_exactly_the_new_event(tmp_path, monkeypatch):
    base = tmp_path / "base.db"
    table.new_table(base, "culture-war", ["ann:anarchy", "bo:technocracy"], seed=4,
                    house_rules=["first-player=seating"])
    table.act(base, "capital", {"player": "ann", "by": 1})
    table.act(base, "end-turn", {})
    table.undo(base)
    faults = outcomes = 0
    for name, write in WRITES.items():
        k = 0
        while True:
            k += 1
            path = tmp_path / f"{name}-{k}.db"
            shutil.copy(base, path)
            before = [(e.event.seq, e.event.action) for e in history(path).entries]
            calls = [0]
            monkeypatch.setattr(db, "TableConn", faulty(k, calls))
            try:
                with collecting():
                    write(path)
                failed = False
            except RefereeError as exc:
                failed = True
                assert "internal" not in str(exc)
            finally:
                monkeypatch.setattr(db, "TableConn", REAL_CONN)
            if calls[0] < k:  # the write made fewer calls than k: every call has failed once
                assert not failed
                break
            faults += 1
            after = [(e.event.seq, e.event.action) for e in history(path).entries]
            if name == "new":
                assert after == before or [a for _, a in after] == ["new"], (k, after)
            else:
                assert after in (before, before + [(before[-1][0] + 1, {"act": "capital"}.get(name, name))]), (k, after)
            sound(path)
            outcomes += failed
            path.unlink()
        assert k > 5, name
    print(f"\n{faults} injected faults over {len(WRITES)} writes: the table was unchanged or had exactly "
          f"the new event every time ({outcomes} refused with a TableError)")


# ---- every byte flipped ------------------------------------------------------------------------


def small_table(path: Path) -> tuple[dict, dict]:
    table.new_table(path, "petri-dish", ["ann", "bo"], seed=3)
    table.perform(path, Action("place", {"at": "c1"}, "ann"))
    table.perform(path, Action("place", {"at": "f8"}, "bo"))
    table.undo(path)
    table.roll(path, "d6")
    return table.status(path).to_json(), history(path).to_json()


def read_back(path: Path) -> tuple[object, object, list[str]]:
    """status and log of a table, as a person would see them (errors as text)."""
    with collecting() as notes:
        shown = []
        for read in (lambda: table.status(path).to_json(), lambda: history(path).to_json()):
            try:
                shown.append(read())
            except RefereeError as exc:
                shown.append(f"error: {exc}")
    return shown[0], shown[1], list(notes)


@pytest.mark.slow
def test_every_flipped_byte_is_harmless_or_reported_never_silent(tmp_path):
    original = tmp_path / "small.db"
    want_status, want_log = small_table(original)
    data = original.read_bytes()
    assert not Path(f"{original}-wal").exists()
    page = int.from_bytes(data[16:18], "big")
    if FULL:
        offsets = range(len(data))
    else:  # the file header, every page's header, and every 61st byte besides
        offsets = sorted({*range(100), *(p + i for p in range(0, len(data), page) for i in range(12)),
                          *range(0, len(data), 61)})
    harmless = reported = healed = 0
    silent = []
    flipped = tmp_path / "flipped.db"
    for i in offsets:
        db.remove_table(flipped)
        damaged = bytearray(data)
        damaged[i] ^= 1 << (i % 8)
        flipped.write_bytes(bytes(damaged))
        status, log_view, notes = read_back(flipped)
        errors = [x for x in (status, log_view) if isinstance(x, str)]
        if (status, log_view) == (want_status, want_log):
            if notes:
                healed += 1
            else:
                harmless += 1
        elif errors or notes:
            reported += 1
        else:
            silent.append(i)
    print(f"\n{len(offsets)} flips of a {len(data)}-byte table: {harmless} harmless, {healed} healed with a "
          f"warning, {reported} reported, {len(silent)} silent")
    assert not silent, f"flips at {silent[:20]} changed what the table shows without a word"
    assert reported > 0
