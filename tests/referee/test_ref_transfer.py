"""Export the log as JSON; replay it into a new table, step by step."""
from __future__ import annotations

import json

import pytest

from conftest import Table


@pytest.fixture
def played(table):
    table.run("new culture-war --player Ana:anarchy --player Ben:community --player Cy --seed 77 "
              "--house-rule first-player=seating")
    for line in ["life Ben -5 --reason hit", "roll 2d6", "capital Ana +2", "end-turn", "roll d6 --dice 4 --by Ben",
                 "life Cy -90", "undo", "redo", "capital Ben -1", "undo", "end-turn", "life Ana -3"]:
        table.run(line)
    return table


def test_export_writes_every_event(played, tmp_path):
    out = tmp_path / "game.json"
    played.run(["export", str(out)])
    data = json.loads(out.read_text())
    assert data["format"] == "referee-log" and data["game"] == "culture-war" and data["seed"] == 77
    assert [e["seq"] for e in data["events"]] == list(range(1, 14))
    logged = [{k: v for k, v in e.items() if k != "undone"} for e in played.log()["events"]]
    assert data["events"] == logged
    assert data["final"] == played.status()
    for event in data["events"]:
        assert {"seq", "time", "actor", "action", "args", "dice", "cards"} <= set(event)


def test_replay_rebuilds_the_same_table(played, tmp_path):
    out = tmp_path / "game.json"
    played.run(["export", str(out)])
    copy = Table(tmp_path / "copy.db")
    copy.run(["replay", str(out)])
    original, rebuilt = played.status(), copy.status()
    assert rebuilt == original
    assert copy.log()["events"] == played.log()["events"]


def test_replay_can_step_and_stop_early(played, tmp_path):
    out = tmp_path / "game.json"
    played.run(["export", str(out)])
    copy = Table(tmp_path / "copy.db")
    result = copy.run(["replay", str(out), "--step"])
    assert result.output.count("\n== #") + result.output.startswith("== #") == 13
    assert result.output.count("Culture War - turn") == 13
    copy.run(["replay", str(out), "--upto", "4", "--force"])
    status = copy.status()
    assert status["log_length"] == 4 and status["players"][0]["capital"] == 3


def _tamper(path, seq, **changes):
    data = json.loads(path.read_text())
    data["events"][seq - 1].update(changes)
    path.write_text(json.dumps(data))


def test_a_tampered_export_is_refused_naming_the_event(played, tmp_path):
    out = tmp_path / "game.json"
    played.run(["export", str(out)])
    copy = Table(tmp_path / "copy.db")

    _tamper(out, 4, args={"player": "Ana", "by": -50})
    result = copy.fail(["replay", str(out)])
    assert "event 4 (capital)" in result.output and "Ana" in result.output

    played.run(["export", str(out)])
    _tamper(out, 5, turn=9)
    result = copy.fail(["replay", str(out), "--force"])
    assert "event 5" in result.output and "turn" in result.output

    played.run(["export", str(out)])
    _tamper(out, 2, args={"player": "Ben", "by": -6, "reason": "hit"})
    result = copy.fail(["replay", str(out), "--force"])
    assert "different table" in result.output


def test_export_and_replay_guard_files(played, tmp_path):
    result = played.fail(["export", str(played.db)])
    assert "the table itself" in result.output
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    assert "not a referee export" in played.fail(["export", str(notes)]).output
    assert notes.read_text() == "my notes"
    out = tmp_path / "game.json"
    played.run(["export", str(out)])
    assert "unfinished" in played.fail(["replay", str(out)]).output
    assert "not a referee export" in played.fail(["replay", str(notes)]).output
    assert "no export file" in played.fail(["replay", str(tmp_path / "none.json")]).output
