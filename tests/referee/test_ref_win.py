"""`win PLAYER` is refused while the rules can still decide the game; with
--force it is declared by hand and the log shows the override."""
from __future__ import annotations

import json

from click.testing import CliRunner

from referee.cli.main import cli


def _run(db, *args):
    return CliRunner().invoke(cli, ["--db", str(db), *args])


def test_win_needs_force_while_the_rules_can_decide_and_is_logged_as_an_override(tmp_path):
    db = tmp_path / "t.db"
    assert _run(db, "new", "culture-war", "--player", "Ann:anarchy", "--player", "Bo:community", "--seed", "2").exit_code == 0
    before = _run(db, "status", "--json").output
    refused = _run(db, "win", "Bo")
    assert refused.exit_code != 0 and "Traceback" not in refused.output
    assert "the rules decide the winner" in refused.output and "--force" in refused.output
    assert _run(db, "status", "--json").output == before, "a refused win changed the table"
    forced = _run(db, "win", "Bo", "--force")
    assert forced.exit_code == 0 and "override" in forced.output and "Bo wins the game" in forced.output
    assert "override" in _run(db, "log").output
    events = json.loads(_run(db, "log", "--json").output)["events"]
    assert events[-1]["action"] == "win" and events[-1]["args"].get("force") is True
    assert json.loads(_run(db, "status", "--json").output)["winner"] == "Bo"


def test_undo_takes_an_override_back(tmp_path):
    db = tmp_path / "t.db"
    _run(db, "new", "culture-war", "--player", "Ann:anarchy", "--player", "Bo:community", "--seed", "2")
    _run(db, "win", "Ann", "--force")
    assert _run(db, "undo").exit_code == 0
    assert json.loads(_run(db, "status", "--json").output)["winner"] is None
