"""Dice nobody can predict (issue 36 item 5): a live table's dice come from
the OS's randomness as they are rolled, are recorded, and replay exactly;
`--seed` stays for self-play and tests, and says what it gives away."""
from __future__ import annotations

import json
import shutil

from conftest import Table


def test_a_copy_of_the_table_file_cannot_predict_the_next_roll(tmp_path):
    live = Table(tmp_path / "live.db")
    made = live.run("new petri-dish --player Ana --player Ben")
    assert "warning" not in made.output and "dice unpredictable" in made.output
    assert live.status()["seed"] is None
    copy = Table(tmp_path / "copy.db")
    shutil.copy(live.db, copy.db)
    live.run("roll 20d1000")
    copy.run("roll 20d1000")  # the player with the file, rolling ahead
    rolled, foreseen = live.log()["events"][-1]["dice"], copy.log()["events"][-1]["dice"]
    assert len(rolled) == 20 and rolled != foreseen  # equal with probability 1000**-20
    again = Table(tmp_path / "again.db")
    shutil.copy(copy.db, again.db)
    again.run("roll 20d1000")
    assert again.log()["events"][-1]["dice"] not in (rolled, foreseen)


def test_fresh_dice_are_recorded_and_replay_exactly(tmp_path):
    table = Table(tmp_path / "t.db")
    table.run("new culture-war --player Ana:anarchy --player Ben:technocracy")
    table.run("roll 3d6 --reason test")
    table.run("rolloff")  # a roll-off rolls until it is decided: dice drawn as the rules ask
    out = tmp_path / "export.json"
    table.run(["export", str(out), "--full"])
    exported = json.loads(out.read_text(encoding="utf-8"))
    assert exported["seed"] is None
    copy = Table(tmp_path / "copy.db")
    copy.run(["replay", str(out)])  # every event checked as it replays: the recorded dice, not new ones
    events = lambda t: [{k: e[k] for k in ("seq", "action", "args", "dice")} for e in t.log()["events"]]  # noqa: E731
    assert events(copy) == events(table) and len(table.log()["events"][-1]["dice"]) >= 2
    assert copy.status()["players"] == table.status()["players"] and copy.status()["seed"] is None


def test_seed_says_it_makes_every_roll_foreseeable(tmp_path):
    a, b = Table(tmp_path / "a.db"), Table(tmp_path / "b.db")
    made = a.run("new petri-dish --player Ana --player Ben --seed 5")
    assert "warning: --seed 5" in made.output and "self-play and tests" in made.output
    b.run("new petri-dish --player Ana --player Ben --seed 5")
    a.run("roll 10d1000")
    b.run("roll 10d1000")
    assert a.log()["events"][-1]["dice"] == b.log()["events"][-1]["dice"]  # what the seed is for
    assert a.status()["seed"] == 5
