"""Durability: a writer killed with SIGKILL mid-game, and two writers at once."""
from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

from conftest import PYTHON, ROOT, Table

WRITER = Path(__file__).resolve().parents[1] / "helpers" / "writer.py"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def reasons(table: Table, player: str) -> list[str]:
    return [e["args"]["reason"] for e in table.log()["events"]
            if e["action"] == "capital" and e["args"]["player"] == player]


def test_kill_9_loses_no_committed_action_and_leaves_a_sound_file(tmp_path):
    table = Table(tmp_path / "crash.db")
    table.run("new culture-war --player A --player B --seed 1 --house-rule first-player=seating")
    rng = random.Random(99)
    committed_total = 0
    for round_ in range(4):
        proc = subprocess.Popen([PYTHON, str(WRITER), str(table.db), "A", "0"], env=ENV,
                                stdout=subprocess.PIPE, text=True)
        target = rng.randint(20, 60)
        reported = []
        while len(reported) < target:
            reported.append(int(proc.stdout.readline()))
        time.sleep(rng.random() * 0.01)  # land somewhere inside a later transaction
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        reported += [int(line) for line in proc.stdout.read().split()]  # said before it died
        proc.stdout.close()

        with sqlite3.connect(table.db) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        logged = reasons(table, "A")
        # every action reported as committed is there, in order; at most one more
        # (committed but killed before it could say so) follows it
        assert logged[committed_total:committed_total + len(reported)] == [f"A-{i}" for i in reported]
        assert len(logged) - committed_total - len(reported) in (0, 1)
        committed_total = len(logged)
        # the table still works, and its state is the fold of what is logged
        assert table.status()["players"][0]["capital"] == 1 + committed_total
        table.run("end-turn")
        table.run("undo")
    assert committed_total >= 80


def test_two_writers_keep_every_action_in_order(tmp_path):
    table = Table(tmp_path / "two.db")
    table.run("new culture-war --player A --player B --seed 1")
    go = tmp_path / "go"
    procs = [subprocess.Popen([PYTHON, str(WRITER), str(table.db), who, "150", str(go)], env=ENV,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for who in ("A", "B")]
    time.sleep(0.3)  # both processes started and waiting
    go.touch()
    outputs = [p.communicate(timeout=120) for p in procs]
    for proc, (out, err) in zip(procs, outputs):
        assert proc.returncode == 0, err
        assert err == "" and "locked" not in err
        assert out.split() == [str(i) for i in range(150)]
    assert reasons(table, "A") == [f"A-{i}" for i in range(150)]
    assert reasons(table, "B") == [f"B-{i}" for i in range(150)]
    status = table.status()
    assert status["log_length"] == 301
    assert [p["capital"] for p in status["players"]] == [151, 151]
    seqs = [e["seq"] for e in table.log()["events"]]
    assert seqs == list(range(1, 302))


def test_two_command_lines_at_once(tmp_path):
    """The same through the real command, as two scorekeepers' terminals would."""
    db = tmp_path / "cli.db"
    env = {**ENV, "REFEREE_DB": str(db)}
    subprocess.run([PYTHON, "-m", "referee", "new", "culture-war", "--player", "A", "--player", "B"],
                   env=env, check=True, capture_output=True)
    loop = ("import subprocess, sys\n"
            "for i in range(8):\n"
            "    r = subprocess.run([sys.executable, '-m', 'referee', 'capital', sys.argv[1], '+1'],"
            " capture_output=True, text=True)\n"
            "    sys.stderr.write(r.stderr)\n"
            "    assert r.returncode == 0\n")
    procs = [subprocess.Popen([PYTHON, "-c", loop, who], env=env, stderr=subprocess.PIPE, text=True)
             for who in ("A", "B")]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0 and err == ""
    status = Table(db).status()
    assert [p["capital"] for p in status["players"]] == [9, 9] and status["log_length"] == 17
