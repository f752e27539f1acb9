"""A hand kept on the player's own phone (issue 36 item 2, the API part):
`GET`/`POST /p/TOKEN/hand`. The player's moves become concrete, a played
card leaves the kept hand, and the hand shows nowhere else: twin tables
whose only difference is the rest of Ana's kept hand give byte-identical
output to everyone but Ana."""
from __future__ import annotations

import json

from starlette.testclient import TestClient

from conftest import Table

from referee.serve.app import create_app
from referee.serve.hands import hand_file
from referee.serve.play import Play
from referee.serve.tokens import TokenStore
from referee.serve.watch import TableWatch

NEW = "new debate --player Ana:Lincoln --player Ben:Truman --seed 12"
PLAYED = "deb-common-ground-1"
REST = {"a": ["deb-measured-rebuttal-1", "deb-socratic-questioning-1"],
        "b": ["deb-steelman-2", "deb-slippery-slope-1"]}


def _index_types(deck: list[dict]) -> list[dict]:
    from referee.cards.index import load_index, project_root

    index = load_index(project_root()).cards
    return [{"type": index[c["id"]].type} for c in deck]


def _table(folder, rest: list[str]) -> dict[str, str]:
    folder.mkdir()
    table = Table(folder / "t.db")
    table.run(NEW)
    watch = TableWatch(table.db)
    watch.poll()
    tokens = TokenStore(table.db, watch.players())
    tokens.tokens.update({"Ana": "a" * 32, "Ben": "b" * 32})  # the same links on both twins
    with TestClient(create_app(watch, tokens, poll_s=0.05, play=Play(table.db))) as client:
        ana, ben = "/p/" + "a" * 32, "/p/" + "b" * 32
        empty = client.get(f"{ana}/hand").json()
        assert {k: empty[k] for k in ("player", "kept", "count", "cards", "table_count", "warnings")} == \
            {"player": "Ana", "kept": False, "count": 0, "cards": [], "table_count": 5, "warnings": []}
        assert empty["deck"] and {c["type"] for c in _index_types(empty["deck"])} <= {"argument", "rhetorical-device"}
        kept = client.post(f"{ana}/hand", json={"drew": [PLAYED, *rest]}).json()
        assert kept["count"] == 3 and [c["id"] for c in kept["cards"]] == [PLAYED, *rest]
        listed = client.get(f"{ana}/moves").json()
        assert listed["hand_kept"] and not any("<CARD>" in m["command"] for m in listed["moves"])
        argue = [m for m in listed["moves"] if m["kind"] == "argue"]
        assert argue and {m["action"]["args"]["card"] for m in argue} <= {PLAYED, *rest}  # the hand's own cards
        move = next(m for m in argue if m["action"]["args"]["card"] == PLAYED and m["action"]["args"]["thread"] == 1)
        got = client.post(f"{ana}/act", json={"action": move["action"]})
        assert got.status_code == 200, got.text
        after = client.get(f"{ana}/hand").json()
        assert [c["id"] for c in after["cards"]] == rest  # the played card left the kept hand
        assert client.post(f"{ben}/hand", json={"played": [PLAYED]}).status_code == 422  # not in Ben's hand
        assert client.post(f"{ana}/hand", json={"drew": ["cold-wm-kitchen"]}).status_code == 422  # another game's
        assert client.get("/p/" + "x" * 32 + "/hand").status_code == 404
        out = table.db.parent / "export.json"
        table.run(["export", str(out)])
        seen = {
            "public page": client.get("/api/state").text,
            "Ben's page": client.get(f"/api/p/{'b' * 32}/state").text,
            "Ben's moves": client.get(f"{ben}/moves").text,
            "Ben's hand": client.get(f"{ben}/hand").text,
            "log": table.run("log").output,
            "log --json": table.run("log --json").output,
            "status": table.run("status").output.replace(str(table.db), "TABLE"),
            "export": out.read_text(encoding="utf-8").replace(str(table.db), "TABLE"),
        }
    assert json.loads(hand_file(table.db).read_text())["Ana"] == rest  # beside the table, not in it
    assert oct(hand_file(table.db).stat().st_mode & 0o777) == "0o600"
    return seen


def test_a_hand_kept_on_the_phone_makes_moves_concrete_and_shows_nowhere_else(tmp_path, monkeypatch):
    import referee.table.ledger

    monkeypatch.setattr(referee.table.ledger, "now", lambda: "2026-12-04T04:30:00.000Z")
    a, b = _table(tmp_path / "a", REST["a"]), _table(tmp_path / "b", REST["b"])
    for what in a:
        assert a[what] == b[what], f"{what} tells the twins' kept hands apart"


def test_the_cli_keeps_a_hand_for_scripts_and_a_games_own_hand_command_stays(tmp_path):
    table = Table(tmp_path / "t.db")
    table.run(NEW)
    assert table.run(["hand", "Ana", "--drew", PLAYED, "--drew", REST["a"][0]]).output.strip() == \
        "Ana's hand (kept on the phone): 2 cards; the table counts 5"  # the count only: the cards stay off a shared screen
    shown = table.run(["hand", "ana", "--played", PLAYED, "--show"]).output
    assert shown.strip() == f"Ana's hand (kept on the phone): {REST['a'][0]}; the table counts 5"
    refused = table.run(["hand", "Ana", "--played", PLAYED], ok=False)
    assert refused.exit_code != 0 and "not in the hand Ana keeps" in refused.output
    assert table.log()["events"][-1]["kind"] == "setup"  # nothing of it in the log
    watch = TableWatch(table.db)
    watch.poll()
    tokens = TokenStore(table.db, watch.players())
    with TestClient(create_app(watch, tokens, play=Play(table.db))) as client:
        kept = client.get(f"/p/{tokens.tokens['Ana']}/hand").json()
        assert [c["id"] for c in kept["cards"]] == [REST["a"][0]]
    dc = Table(tmp_path / "dc.db")
    dc.run("new divide-and-conquer --player Ana --player Ben --player Cy --player Di --seed 7")
    assert "Ana: hand 7 -> 8" in dc.run("hand Ana +1").output  # Divide and Conquer's correction of the count
