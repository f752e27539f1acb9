"""Phones post moves by name (issue 34 item 5): a listed move's action as
data, judged through the same `check` and `perform` as the CLI, with no
click and no game's CLI module anywhere on the server's path."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from starlette.testclient import TestClient

from conftest import Table

from referee.serve.app import create_app
from referee.serve.play import Play
from referee.serve.tokens import TokenStore
from referee.serve.watch import TableWatch

ROOT = Path(__file__).resolve().parents[2]


def served(db: Path) -> tuple[TestClient, TokenStore]:
    watch = TableWatch(db)
    watch.poll()
    tokens = TokenStore(db, watch.players())
    return TestClient(create_app(watch, tokens, poll_s=0.05, keepalive_s=0.3, play=Play(db))), tokens


def test_the_phone_path_never_imports_click_or_a_games_cli(tmp_path):
    """A fresh process serves a table and plays a phone's move; click and the
    games' CLI modules are never loaded."""
    table = Table(tmp_path / "t.db")
    table.run("new petri-dish --player Ana --player Ben --seed 7")
    script = f"""
import sys
from pathlib import Path
from starlette.testclient import TestClient
from referee.serve.app import create_app
from referee.serve.play import Play
from referee.serve.tokens import TokenStore
from referee.serve.watch import TableWatch
db = Path({str(table.db)!r})
watch = TableWatch(db); watch.poll()
tokens = TokenStore(db, watch.players())
with TestClient(create_app(watch, tokens, play=Play(db))) as client:
    link = "/p/" + tokens.tokens["Ana"]
    move = client.get(link + "/moves").json()["moves"][0]
    got = client.post(link + "/act", json={{"action": move["action"]}})
    assert got.status_code == 200, got.text
loaded = sorted(m for m in sys.modules if m == "click" or m.startswith("click.") or m.startswith("referee.cli")
                or (m.startswith("referee.games.") and m.endswith(".cli")))
print(",".join(loaded) or "none")
"""
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "none"


def test_a_listed_action_posted_as_data_plays_and_is_logged_as_the_cli_logs_it(tmp_path):
    phone, typed = Table(tmp_path / "phone.db"), Table(tmp_path / "typed.db")
    for t in (phone, typed):
        t.run("new debate --player Ana:Lincoln --player Ben:Truman --seed 12")
    client, tokens = served(phone.db)
    with client:
        link = f"/p/{tokens.tokens['Ana']}"
        listed = client.get(f"{link}/moves").json()["moves"]
        potus = next(m for m in listed if m["command"].startswith("potus Ana "))
        assert potus["action"]["name"] == "potus" and "_card" not in potus["action"]["args"]  # rules' data stays home
        got = client.post(f"{link}/act", json={"action": potus["action"], "version": 1})
        assert got.status_code == 200, got.text
    typed.run(potus["command"])
    by_phone, by_cli = phone.log()["events"][-1], typed.log()["events"][-1]
    assert by_phone["args"].pop("_via") == "phone"
    assert by_phone["args"] == by_cli["args"] and by_phone["action"] == by_cli["action"]
    assert phone.status()["players"] == typed.status()["players"]


def test_forged_rules_data_in_a_posted_action_is_never_played(tmp_path):
    """The phone names a move; the Action played is the generator's own: a
    `_card` with made-up stats is not what reaches the rules."""
    table = Table(tmp_path / "t.db")
    table.run("new debate --player Ana:Lincoln --player Ben:Truman --seed 12")
    client, tokens = served(table.db)
    with client:
        link = f"/p/{tokens.tokens['Ana']}"
        potus = next(m for m in client.get(f"{link}/moves").json()["moves"] if m["command"].startswith("potus Ana "))
        forged = {"name": "potus", "args": {**potus["action"]["args"], "_card": {"id": "x", "fortitude": 999}}}
        assert client.post(f"{link}/act", json={"action": forged}).status_code == 200
    card = table.log()["events"][-1]["args"]["_card"]
    assert card["id"] == potus["action"]["args"]["card"] and card.get("fortitude") != 999


def test_an_unlisted_action_is_refused_cheaply_and_changes_nothing(tmp_path):
    table = Table(tmp_path / "t.db")
    table.run("new petri-dish --player Ana --player Ben --seed 7")
    client, tokens = served(table.db)
    before = table.log()
    with client:
        ana, ben = f"/p/{tokens.tokens['Ana']}", f"/p/{tokens.tokens['Ben']}"
        for body, status in [
            ({"action": {"name": "place", "args": {"at": "z9"}}}, 422),  # no such point
            ({"action": {"name": "life", "args": {"player": "Ana", "by": 5}}}, 422),  # a correction: never listed
            ({"action": {"name": "place", "args": {"at": "c1"}, "actor": "Ben"}}, 403),  # another's move
            ({"action": "place c1"}, 400),
            ({"action": {"name": "place", "args": ["c1"]}}, 400),
        ]:
            got = client.post(f"{ana}/act", json=body)
            assert got.status_code == status and set(got.json()) == {"error"}, (body, got.text)
        assert client.post(f"{ben}/act", json={"action": {"name": "place", "args": {"at": "c1"}}}).status_code == 422
    assert table.log() == before


def test_a_card_move_names_its_cards_in_the_listed_command(tmp_path):
    """A `<CARD>` move's command with the card in its place is read without
    any parser: the generator lists the moves with that card in hand and the
    one with those words is played, as `referee` would play the line."""
    phone, typed = Table(tmp_path / "phone.db"), Table(tmp_path / "typed.db")
    for t in (phone, typed):
        t.run("new debate --player Ana:Lincoln --player Ben:Truman --seed 12")
    deck = json.loads(phone.run("moves Ana --json").output)["moves"]
    own = next(m for m in deck if m["command"].count("<CARD>") == 15)
    assert own["kind"] == "setup" and own["action"] is None
    cards = ["deb-appeal-to-reason", "deb-cheap-laugh", "deb-cite-the-source-1", "deb-common-ground-2",
             "deb-measured-rebuttal-1", "deb-measured-rebuttal-2", "deb-point-of-order", "deb-revisit-the-record",
             "deb-shouting-match-2", "deb-slippery-slope-1", "deb-socratic-questioning-1",
             "deb-socratic-questioning-3", "deb-soothing-tone", "deb-steelman-2", "deb-talking-over-you-3"]
    line = own["command"]
    for c in cards:
        line = line.replace("<CARD>", c, 1)
    client, tokens = served(phone.db)
    with client:
        got = client.post(f"/p/{tokens.tokens['Ana']}/act", json={"command": line})
        assert got.status_code == 200, got.text
        wrong = client.post(f"/p/{tokens.tokens['Ben']}/act", json={"command": line.replace(" Ana ", " Ben ", 1)
                                                                      .replace("deb-cheap-laugh", "cold-wm-kitchen")})
        assert wrong.status_code == 422, wrong.text
    typed.run(line)
    by_phone, by_cli = phone.log()["events"][-1], typed.log()["events"][-1]
    by_phone["args"].pop("_via")
    assert by_phone["args"] == by_cli["args"]
