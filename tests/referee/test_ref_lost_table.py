"""No table is ever lost: `new` and `replay` refuse a file that holds a table,
finished or not, unless --force; forced, the old table is kept beside the new
one and can still be read with `referee --db ARCHIVE log`."""
from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from referee.cli.main import cli


def _run(db: Path, *args: str):
    return CliRunner().invoke(cli, ["--db", str(db), *args])


def _finished_game(db: Path) -> None:
    assert _run(db, "new", "culture-war", "--player", "Ann:anarchy", "--player", "Bo:community", "--seed", "4").exit_code == 0
    assert _run(db, "life", "Bo", "=0", "--reason", "conceded").exit_code == 0
    assert "won by Ann" in _run(db, "status").output


def test_new_refuses_a_finished_table_then_keeps_it_as_an_archive(tmp_path):
    db = tmp_path / "table.db"
    _finished_game(db)
    before = db.read_bytes()
    refused = _run(db, "new", "petri-dish", "--player", "X", "--player", "Y")
    assert refused.exit_code != 0 and "Traceback" not in refused.output
    assert "finished culture-war" in refused.output and "--force" in refused.output
    assert db.read_bytes() == before, "a refused `new` changed the table file"

    forced = _run(db, "new", "petri-dish", "--player", "X", "--player", "Y", "--force")
    assert forced.exit_code == 0, forced.output
    kept = re.search(r"is kept as (\S+)", forced.output)
    assert kept, forced.output
    archive = Path(kept.group(1))
    assert archive.exists() and archive.parent == tmp_path and archive != db
    assert re.fullmatch(r"table\.\d{4}-\d\d-\d\dT\d\d-\d\d(-\d+)?\.db", archive.name), archive.name
    old_log = _run(archive, "log")
    assert old_log.exit_code == 0 and "conceded" in old_log.output and "Bo" in old_log.output
    assert "won by Ann" in _run(archive, "status").output
    assert "Petri" in _run(db, "status").output


def test_a_second_forced_new_in_the_same_minute_keeps_both_archives(tmp_path):
    db = tmp_path / "table.db"
    _finished_game(db)
    first = _run(db, "new", "petri-dish", "--player", "X", "--player", "Y", "--force")
    second = _run(db, "new", "petri-dish", "--player", "P", "--player", "Q", "--force")
    archives = {re.search(r"is kept as (\S+)", r.output).group(1) for r in (first, second)}
    assert len(archives) == 2 and all(Path(a).exists() for a in archives)
    assert len(list(tmp_path.glob("table.*.db"))) == 2


def test_replay_over_a_table_is_refused_without_force_and_archives_with_it(tmp_path):
    source, db = tmp_path / "source.db", tmp_path / "table.db"
    _finished_game(source)
    export = tmp_path / "game.json"
    assert _run(source, "export", str(export)).exit_code == 0
    assert _run(db, "new", "petri-dish", "--player", "X", "--player", "Y").exit_code == 0
    before = db.read_bytes()
    refused = _run(db, "replay", str(export))
    assert refused.exit_code != 0 and "unfinished petri-dish" in refused.output and db.read_bytes() == before
    forced = _run(db, "replay", str(export), "--force")
    assert forced.exit_code == 0, forced.output
    archive = Path(re.search(r"is kept as (\S+)", forced.output).group(1))
    assert "Petri" in _run(archive, "status").output
    assert "won by Ann" in _run(db, "status").output


def test_a_file_that_is_not_a_table_is_kept_too(tmp_path):
    db = tmp_path / "table.db"
    db.write_text("my shopping list\n")
    refused = _run(db, "new", "petri-dish", "--player", "X", "--player", "Y")
    assert refused.exit_code != 0 and "--force" in refused.output
    forced = _run(db, "new", "petri-dish", "--player", "X", "--player", "Y", "--force")
    assert forced.exit_code == 0, forced.output
    archive = Path(re.search(r"is kept as (\S+)", forced.output).group(1))
    assert archive.read_text() == "my shopping list\n"
