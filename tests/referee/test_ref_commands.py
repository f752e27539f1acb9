"""The command line as a person types it: wiring, output and refusals."""
from __future__ import annotations

import json
import sqlite3

from click.testing import CliRunner

from referee.rules import dice
from referee.cli.main import cli


def test_help_carries_examples_for_every_command():
    runner = CliRunner()
    top = runner.invoke(cli, ["--help"])
    assert top.exit_code == 0 and "Examples:" in top.output
    for name in cli.commands:
        result = runner.invoke(cli, [name, "--help"])
        assert result.exit_code == 0, name
        assert "referee " in result.output.split("Options:")[0] or name == "games", name


def test_negative_amounts_work_as_typed(table):
    table.run("new culture-war --player Ana --player Ben")
    table.run(["life", "Ben", "-5", "--reason", "courier"])
    table.run("capital Ana -1")
    table.run("life -- Ana -7")
    table.run("life Ana +3")
    players = {p["name"]: p for p in table.status()["players"]}
    assert (players["Ben"]["life"], players["Ana"]["life"], players["Ana"]["capital"]) == (95, 96, 0)


def test_the_table_file_comes_from_db_then_env_then_cwd(tmp_path, monkeypatch):
    runner = CliRunner()
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REFEREE_DB", raising=False)
    assert runner.invoke(cli, ["new", "culture-war", "--player", "A", "--player", "B"]).exit_code == 0
    assert (tmp_path / "table.db").exists()
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "env.db"))
    assert runner.invoke(cli, ["new", "petri-dish", "--player", "A", "--player", "B"]).exit_code == 0
    assert json.loads(runner.invoke(cli, ["status", "--json"]).output)["game"] == "petri-dish"
    result = runner.invoke(cli, ["status", "--json", "--db", str(tmp_path / "table.db")])
    assert json.loads(result.output)["game"] == "culture-war"
    result = runner.invoke(cli, ["--db", str(tmp_path / "table.db"), "status", "--json"])
    assert json.loads(result.output)["game"] == "culture-war"


def test_status_json_has_the_promised_keys(table):
    table.run("new culture-war --player Ana:anarchy --player Ben:community --seed 9")
    data = table.status()
    for key in ("game", "turn", "active", "winner", "crowd", "log_length", "players"):
        assert key in data
    assert set(data["players"][0]) >= {"name", "faction", "life", "capital", "eliminated"}
    assert (data["game"], data["active"], data["winner"], data["crowd"]) == ("culture-war", "Ana", None, None)


def test_status_text_is_an_aligned_table(table):
    table.run("new culture-war --player Ana:anarchy --player Bartholomew:technocracy --life 7")
    table.run("life Ana +100")
    lines = table.run("status").output.splitlines()
    header = next(line for line in lines if "player" in line and "life" in line)
    rows = [line for line in lines[2:] if "Ana " in line or "Bartholomew " in line]
    end = header.index("life") + len("life")
    assert [row[end - 3:end].strip() for row in rows] == ["107", "7"]
    assert len({row.index("anarchy" if "Ana " in row else "technocracy") for row in rows}) == 1


def test_missing_foreign_and_corrupt_files_are_named(tmp_path):
    runner = CliRunner()
    missing = tmp_path / "nope.db"
    result = runner.invoke(cli, ["status", "--db", str(missing)])
    assert result.exit_code == 1 and str(missing) in result.output and "referee new" in result.output
    assert not missing.exists()

    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE notes (x)")
    before = foreign.read_bytes()
    for argv in (["status"], ["life", "A", "-1"], ["new", "culture-war", "--player", "A", "--player", "B"]):
        result = runner.invoke(cli, [*argv, "--db", str(foreign)])
        assert result.exit_code == 1 and "not a referee table" in result.output, argv
        assert "Traceback" not in result.output
    assert foreign.read_bytes() == before

    corrupt = tmp_path / "corrupt.db"
    corrupt.write_bytes(b"this is not a database at all" * 100)
    result = runner.invoke(cli, ["log", "--db", str(corrupt)])
    assert result.exit_code == 1 and str(corrupt) in result.output
    result = runner.invoke(cli, ["new", "culture-war", "--player", "A", "--player", "B", "--force", "--db", str(corrupt)])
    assert result.exit_code == 0
    assert json.loads(runner.invoke(cli, ["status", "--json", "--db", str(corrupt)]).output)["log_length"] == 1


def test_unknown_game_lists_the_five(table):
    result = table.fail("new chess --player A --player B")
    for slug in ("culture-war", "divide-and-conquer", "petri-dish", "debate", "cold-war"):
        assert slug in result.output


def test_roll_json_and_the_seeded_sequence(table, tmp_path):
    table.run("new culture-war --player A --player B --seed 42")
    first = json.loads(table.run("roll 4d6kh3+1 --json").output)
    assert set(first) >= {"expr", "dice", "total"}
    assert first["expr"] == "4d6kh3+1" and len(first["dice"]) == 4
    assert first["total"] == sum(sorted(first["dice"])[-3:]) + 1
    second = json.loads(table.run("roll 2d6 --json").output)
    assert tuple(first["dice"] + second["dice"]) == dice.draw(42, 0, (6,) * 6)
    entered = json.loads(table.run("roll 2d6 --dice 6,6 --json").output)
    assert entered["dice"] == [6, 6] and entered["total"] == 12
    third = json.loads(table.run("roll d6 --json").output)
    assert tuple(third["dice"]) == dice.draw(42, 6, (6,))  # entered dice do not use up the generator
    events = table.log()["events"]
    assert [e["dice"] for e in events if e["kind"] == "roll"] == [first["dice"], second["dice"], [6, 6], third["dice"]]


def test_log_marks_undone_actions_and_turns(table):
    table.run("new culture-war --player A --player B --house-rule first-player=seating")
    table.run("life B -5")
    table.run("end-turn")
    table.run("capital B +2")
    table.run("undo")
    data = table.log()
    undone = {e["seq"]: e["undone"] for e in data["events"]}
    assert undone == {1: False, 2: False, 3: False, 4: True, 5: False}
    assert [(b["turn"], b["active"]) for b in data["bookmarks"]] == [(1, "A"), (2, "B")]
    text = table.run("log").output
    assert "-- turn 2: B --" in text
    assert [line for line in text.splitlines() if "undone" in line] == [
        line for line in text.splitlines() if line.startswith("#4")
    ]
    assert len(table.run("log --last 2").output.splitlines()) < len(text.splitlines())


def test_an_internal_error_is_one_line_without_traceback(table, monkeypatch):
    table.run("new culture-war --player A --player B")
    import referee.table.operations

    def broken(*args, **kwargs):
        raise ValueError("synthetic fault")

    monkeypatch.setattr(referee.table.operations, "status", broken)
    result = table.run("status", ok=False)
    assert result.exit_code == 1
    assert "internal error" in result.output and "synthetic fault" in result.output
    assert "Traceback" not in result.output


def test_games_lists_house_rules(table):
    out = table.run("games").output
    assert "culture-war" in out and "starting-life" in out and "crowd-spread" in out


def test_a_name_with_a_direction_override_is_refused(tmp_path):
    from conftest import Table

    result = Table(tmp_path / "t.db").run("new culture-war --player Ann\u202eX --player Bo", ok=False)
    assert result.exit_code != 0
    assert "U+202E at character 4" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "t.db").exists()
    ok = Table(tmp_path / "u.db").run("new culture-war --player \u0633\u0627\u0631\u0629 --player Bo")
    assert ok.exit_code == 0
