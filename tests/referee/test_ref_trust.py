"""A table file that can be trusted: damage is found and named, never played
on; `check` and `--repair`; old tables upgraded; newer tables named; backups."""
from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

from conftest import Table

from referee.table.store import chain
from referee.table.store import events as log


MOVES = ("capital ann +1", "end-turn", "life bo -3", "end-turn", "capital bo +2", "end-turn")


def petri(tmp_path: Path, name: str = "t.db", moves: int = 1) -> Table:
    """A Battle for the Petri Dish table, its first germ placed."""
    table = Table(tmp_path / name)
    table.run("new petri-dish --player ann --player bo --seed 3")
    if moves:
        table.run("place c1")
    return table


def culture(tmp_path: Path, name: str = "t.db", moves: int = 3) -> Table:
    """A Culture War table with a few actions logged."""
    table = Table(tmp_path / name)
    table.run("new culture-war --player ann:anarchy --player bo:technocracy --seed 3 --house-rule first-player=seating")
    for line in MOVES[:moves]:
        table.run(line)
    return table


def sql(db: Path, *statements: str, args=()) -> list:
    with closing(sqlite3.connect(db)) as conn:
        out = []
        for statement in statements:
            out = conn.execute(statement, args).fetchall()
        conn.commit()
        return out


def test_an_edited_head_snapshot_is_caught_rebuilt_from_the_log_and_said_once(tmp_path):
    """The issue's repro: reserve 15 changed to 9 in the newest snapshot."""
    table = petri(tmp_path, moves=1)
    sql(table.db, "UPDATE snapshots SET state = replace(state, '\"reserve\":15', '\"reserve\":9') WHERE node = 2")
    first = table.run("status --json")
    assert "its saved state at event 2 failed its check" in first.stderr
    assert [p["state"]["reserve"] for p in json.loads(first.stdout)["players"]] == [15, 16]
    again = table.run("status --json")  # rebuilt: said once, not on every command
    assert again.stderr == "" and json.loads(again.stdout) == json.loads(first.stdout)
    assert "reserve\":15" in sql(table.db, "SELECT state FROM snapshots WHERE node = 2")[0][0]


def test_an_edited_event_is_damage_at_that_event_for_reading_and_writing(tmp_path):
    table = culture(tmp_path)
    sql(table.db, "DROP TRIGGER events_append_only_update",
        "UPDATE events SET time = replace(time, '2', '3') WHERE seq = 3")
    for line in ("log", "export x.json", "check"):  # what reads the whole log
        result = table.run(line, ok=False)
        assert result.exit_code == 1 and "Traceback" not in result.output and "internal error" not in result.output
        assert "event 3" in result.output and "checksum" in result.output, (line, result.output)
    assert "damaged at event 3" in table.run("log", ok=False).output
    # the newest state is sealed to event 4, which is sound: status reads only that; undoing event 4
    # goes back to the state at event 3, which must be read from it
    assert table.status()["log_length"] == 4
    assert "damaged at event 3" in table.run("undo", ok=False).output
    sql(table.db, "UPDATE events SET turn = 7 WHERE seq = 4")  # the newest row itself
    for line in ("status", "capital ann +1"):
        assert "damaged at event 4" in table.run(line, ok=False).output


def test_an_unreadable_row_or_an_unknown_kind_is_damage_not_an_internal_error(tmp_path):
    for n, (column, value) in enumerate(((3, "teleport"), (5, "{not json"))):
        table = culture(tmp_path, f"t{n}.db")
        last = sql(table.db, f"SELECT {log.STORED} FROM events ORDER BY seq DESC LIMIT 1")[0]
        forged = list(last)
        forged[0], forged[column] = last[0] + 1, value
        with closing(sqlite3.connect(table.db)) as conn:  # sealed as a writer would, so only its content is odd
            log.insert_stored(conn, tuple(forged))
            conn.commit()
        for line in ("log", "capital ann +1"):
            result = table.run(line, ok=False)
            assert f"damaged at event {last[0] + 1}" in result.output and "internal error" not in result.output


def test_a_row_lost_from_the_end_is_found(tmp_path):
    table = culture(tmp_path)
    sql(table.db, "DROP TRIGGER events_append_only_delete", "DELETE FROM events WHERE seq = 4")
    result = table.run("status", ok=False)
    assert "damaged at event 4" in result.output and "runs to 4" in result.output


def test_check_goes_event_by_event_and_repair_keeps_the_sound_part_beside_it(tmp_path):
    table = culture(tmp_path, moves=5)
    sound = table.run("check")
    assert "sound (6 events" in sound.output
    events = [line.split(":")[0] for line in sound.output.splitlines() if line.startswith("ok  event")]
    assert sorted(set(events)) == [f"ok  event {n}" for n in range(1, 7)] and events == sorted(events)
    assert "nothing to repair" in table.run("check --repair").output
    sql(table.db, "DROP TRIGGER events_append_only_update", "UPDATE events SET dice = '[9]' WHERE seq = 5")
    before = table.db.read_bytes()
    found = table.run("check", ok=False)
    assert found.exit_code == 1 and "DAMAGED  event 5: its contents do not match its checksum" in found.output
    assert "not checked: it comes after damage" in found.output  # event 6
    assert "sound up to event 4 of 6" in found.output
    repaired = table.run("check --repair")
    assert "events 1-4 written to" in repaired.output and "(sound)" in repaired.output
    assert table.db.read_bytes() == before  # the damaged table is left as it was
    copy = Table(tmp_path / "t.repaired.db")
    assert copy.status()["log_length"] == 4 and "sound (4 events" in copy.run("check").output
    copy.run("capital ann +1")


def test_a_snapshot_that_disagrees_with_the_log_is_found_by_check(tmp_path):
    table = culture(tmp_path)
    text, event_hash, key = sql(table.db, "SELECT state, event_hash, version FROM snapshots WHERE node = 4")[0]
    forged = text.replace('"life":97', '"life":90')
    assert forged != text
    sql(table.db, "UPDATE snapshots SET state = ?, sum = ? WHERE node = 4",
        args=(forged, chain.snapshot_sum(4, key, forged, event_hash)))  # resealed: only the fold can tell
    found = table.run("check", ok=False)
    assert "event 4: its saved state differs from the fold of the log" in found.output


def test_events_record_the_referee_and_rules_versions_that_wrote_them(tmp_path):
    table = petri(tmp_path, moves=1)
    rows = sql(table.db, "SELECT referee, rules FROM events")
    assert rows == [("0.1.0", "petri-dish-1")] * 2
    assert "by referee 0.1.0, rules petri-dish-1" in table.run("check").output


def as_schema_1(db: Path) -> None:
    """Turn a table back into what the referee wrote before checksums."""
    sql(db, "DROP TRIGGER events_append_only_update", "DROP TRIGGER events_append_only_delete",
        *(f"ALTER TABLE events DROP COLUMN {c}" for c in ("referee", "rules", "hash")),
        *(f"ALTER TABLE snapshots DROP COLUMN {c}" for c in ("event_hash", "sum")),
        "DELETE FROM meta WHERE key IN ('sum', 'head', 'referee')", "UPDATE meta SET value = '1' WHERE key = 'schema'")
    sql(db, "CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events "
            "BEGIN SELECT RAISE(ABORT, 'the referee log is append-only'); END")
    sql(db, "PRAGMA wal_checkpoint(TRUNCATE)")


def test_an_old_table_is_upgraded_in_place_keeping_a_copy(tmp_path):
    table = culture(tmp_path)
    want = table.status()
    as_schema_1(table.db)
    sql(table.db, "UPDATE snapshots SET state = replace(state, '\"life\":97', '\"life\":3')")  # never checked
    old = sql(table.db, "SELECT * FROM events")
    first = table.run("status --json")
    assert "upgraded to table schema 2" in first.stderr and "t.schema-1.db" in first.stderr
    assert json.loads(first.stdout) == want  # the log wins: old snapshots were dropped, not sealed
    assert sql(tmp_path / "t.schema-1.db", "SELECT * FROM events") == old
    assert sql(tmp_path / "t.schema-1.db", "SELECT value FROM meta WHERE key = 'schema'") == [("1",)]
    assert "sound (4 events" in table.run("check").output
    assert table.run("status").stderr == ""
    table.run("capital ann +1")


def test_a_newer_referees_table_is_named_and_read_up_to_the_last_known_event(tmp_path):
    table = culture(tmp_path)
    want = table.status()
    with closing(sqlite3.connect(table.db)) as conn:
        last = conn.execute(f"SELECT {log.STORED} FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        future = list(last)
        future[0], future[4], future[8], future[9], future[13] = last[0] + 1, "teleport", last[0], last[0] + 1, 9
        future[17], future[18] = "9.2.0", "petri-dish-7"
        log.insert_stored(conn, tuple(future))
        meta = {**dict(conn.execute("SELECT key, value FROM meta")), "referee": "9.2.0"}
        conn.execute("UPDATE meta SET value = ? WHERE key = 'referee'", ("9.2.0",))
        conn.execute("UPDATE meta SET value = ? WHERE key = 'sum'", (chain.meta_sum(meta),))
        conn.commit()
    status = table.run("status --json")
    assert "written by referee 9.2.0" in status.stderr and "up to event 4" in status.stderr
    assert "written by referee 9.2.0" in table.run("log").stderr
    assert {k: v for k, v in json.loads(status.stdout).items() if k != "log_length"} == \
        {k: v for k, v in want.items() if k != "log_length"}
    refused = table.run("capital ann +1", ok=False)
    assert refused.exit_code == 1
    assert "written by referee 9.2.0, this is referee 0.1.0: upgrade to play on" in refused.output
    assert "teleport" in table.run("log").output
    table.run(f"export {tmp_path / 'x.json'}")
    checked = table.run("check").output  # a newer table is not damage: what cannot be applied is said so
    assert "written by referee 9.2.0" in checked and "event 5: not understood by this referee" in checked


def test_backups_are_taken_listed_and_restored_as_a_new_file(tmp_path):
    table = culture(tmp_path, moves=2)
    table.run("undo")  # back into the previous turn
    listing = table.run("backups").output
    assert "event 1" in listing and "a new table" in listing and "an undo past a turn" in listing
    before = table.db.read_bytes()
    restored = table.run("restore 1").output
    assert "t.restored-1.db" in restored and table.db.read_bytes() == before
    copy = Table(tmp_path / "t.restored-1.db")
    assert copy.status()["log_length"] == 1 and "sound (1 events" in copy.run("check").output
    again = table.run("restore 1")
    assert "t.restored-1-2.db" in again.output
    refused = table.run(f"restore 1 --to {copy.db}", ok=False)
    assert refused.exit_code == 1 and "never overwrites" in refused.output
