"""Scan mode, fed through piped standard input."""
from __future__ import annotations

import os
import subprocess

import pytest

from referee.cli.main import cli
from referee.errors import RefereeError
from referee.table.scan import LineKind, classify

from conftest import PYTHON, ROOT


def test_lines_are_classified():
    commands = set(cli.commands)
    known = {"alpha-wall"}.__contains__
    assert classify("   ", commands, known).kind is LineKind.SKIP
    assert classify("# note", commands, known).kind is LineKind.SKIP
    assert classify("QUIT", commands, known).kind is LineKind.QUIT
    assert classify("PNP:CULTURE-WAR:ALPHA-WALL:ABC123", commands, known).kind is LineKind.CARD
    assert classify("alpha-wall", commands, known).kind is LineKind.CARD
    line = classify('life Ben -5 --reason "two words"', commands, known)
    assert line.kind is LineKind.COMMAND and line.argv == ("life", "Ben", "-5", "--reason", "two words")
    assert classify("referee status", commands, known).argv == ("status",)
    assert classify("status", commands, lambda _: True).kind is LineKind.COMMAND  # commands win
    assert classify("nonsense", commands, known).kind is LineKind.COMMAND
    with pytest.raises(RefereeError, match="cannot read the line"):
        classify('life "Ben', commands, known)


def test_scan_shows_cards_runs_commands_and_survives_errors(card_project, table, monkeypatch):
    monkeypatch.chdir(card_project)
    table.run("new culture-war --player Ana --player Ben")
    from pnp.sources.loader import load_sources

    rev = load_sources(card_project).cards["alpha-courier"].revision
    script = "\n".join([
        "# the scorekeeper's session",
        "status",
        f"PNP:CULTURE-WAR:ALPHA-COURIER:{rev}",
        "life Ben -5",
        "alpha-wall",
        "fly away",
        "capital Ana -9",
        "life Zed -1",
        "",
        "scan",
        "capital Ana +2",
        "quit",
        "life Ben -50",
    ]) + "\n"
    result = table.run("scan", ok=False, input=script)
    assert result.exit_code == 1
    assert "Courier" in result.stdout and "Wall" in result.stdout
    err = result.stderr
    assert "line 6: error" in err and "fly" in err
    assert "line 7: error" in err and "Ana has 1 capital" in err
    assert "line 8: error" in err and "Zed" in err
    assert "line 10: error" in err and "already scanning" in err
    assert "4 of 9 scanned lines failed" in err
    assert "Traceback" not in result.output
    status = table.status()
    assert [p["life"] for p in status["players"]] == [100, 95]  # nothing after `quit` ran
    assert status["players"][0]["capital"] == 3


def test_scan_of_a_clean_session_exits_zero(table):
    table.run("new petri-dish --player W --player B")
    result = table.run("scan", input="place d4\nstatus --json\n")
    assert result.exit_code == 0
    assert table.status()["active"] == "B"


def test_scan_through_a_real_pipe(tmp_path):
    db = tmp_path / "pipe.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REFEREE_DB": str(db)}
    subprocess.run([PYTHON, "-m", "referee", "new", "debate", "--player", "A", "--player", "B",
                    "--house-rule", "crowd-spread=0"], env=env, check=True, capture_output=True)
    proc = subprocess.run([PYTHON, "-m", "referee", "scan"], input="crowd -4\ncrowd =99\nstatus\n",
                          env=env, capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 1
    assert "crowd: -4 (Irrational Mob)" in proc.stdout
    assert "line 2: error" in proc.stderr and "Traceback" not in proc.stderr
