"""Startup stays light: no heavy imports (speed itself is for the benchmark)."""
from __future__ import annotations

import json
import os
import subprocess

from conftest import PYTHON, ROOT

HEAVY = ("reportlab", "jinja2", "PIL", "qrcode", "pypdfium2", "yaml", "pnp.sources.loader", "dask", "distributed")

PROBE = """
import json, sys
from referee.cli.main import cli
try:
    cli.main(sys.argv[1:], prog_name="referee", standalone_mode=False)
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in {h.split(".")[0] for h in %r})))
""" % (HEAVY,)


def loaded(args, cwd, db):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REFEREE_DB": str(db)}
    proc = subprocess.run([PYTHON, "-c", PROBE, *args], cwd=cwd, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return set(json.loads(proc.stdout.strip().splitlines()[-1]))


def test_table_commands_import_nothing_heavy(tmp_path):
    db = tmp_path / "t.db"
    loaded(["new", "culture-war", "--player", "A", "--player", "B"], tmp_path, db)
    for args in (["status"], ["life", "A", "-1"], ["roll", "2d6"], ["undo"], ["log"], ["--help"]):
        heavy = loaded(args, tmp_path, db)
        assert not heavy & set(HEAVY), (args, heavy)


def test_a_card_lookup_with_a_warm_index_does_not_parse_yaml(card_project, tmp_path):
    for path in (card_project / "card_sources").rglob("*.yaml"):  # as if edited long ago
        stat = path.stat()
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns - 60_000_000_000))
    db = tmp_path / "t.db"
    cold = loaded(["card", "alpha-wall"], card_project, db)
    assert "yaml" in cold  # the first lookup builds the index
    warm = loaded(["card", "alpha-wall"], card_project, db)
    assert not warm & {"yaml", "reportlab", "jinja2", "pnp.sources.loader"}, warm


GAME_PROBE = """
import json, sys
from referee.cli.main import cli
try:
    cli.main(sys.argv[1:], prog_name="referee", standalone_mode=False)
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m.startswith("referee.games."))))
"""


def test_only_the_game_being_played_is_imported(tmp_path):
    db = tmp_path / "t.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REFEREE_DB": str(db)}

    def games_loaded(args):
        proc = subprocess.run([PYTHON, "-c", GAME_PROBE, *args], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        return set(json.loads(proc.stdout.strip().splitlines()[-1]))

    games_loaded(["new", "petri-dish", "--player", "A", "--player", "B"])
    for args in (["status"], ["place", "d4"], ["undo"], ["log"], ["--help"]):
        packages = {m.split(".")[2] for m in games_loaded(args) if m.count(".") >= 2}
        assert packages <= {"petri_dish", "generic", "shared"}, (args, packages)
    status = games_loaded(["status"])
    assert not {"referee.games.petri_dish.cli", "referee.games.petri_dish.report"} & status, status


def test_status_plays_nothing_so_it_loads_no_action_code(tmp_path):
    """The newest node keeps a snapshot, so `status` reads the table without
    applying an action, and Culture War's action code and card handlers stay
    unloaded; an action loads them."""
    db = tmp_path / "t.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REFEREE_DB": str(db)}

    def loaded(args):
        proc = subprocess.run([PYTHON, "-c", GAME_PROBE, *args], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        return set(json.loads(proc.stdout.strip().splitlines()[-1]))

    action_code = {f"referee.games.culture_war.{m}" for m in ("actions", "battle.attacks", "turns", "effects.handlers",
                                                              "battle.fight", "action_table")}
    loaded(["new", "culture-war", "--player", "ann:anarchy", "--player", "bo:technocracy"])
    for _ in range(40):  # past a periodic snapshot, and 8 beyond it
        assert action_code & loaded(["capital", "ann", "+1"])
    assert not action_code & loaded(["status"])
    loaded(["undo"])
    assert not action_code & loaded(["status"])
