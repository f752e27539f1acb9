"""`referee serve` without a browser: the JSON routes, private links and
their tokens, hidden cards, malformed requests, and the command itself."""
from __future__ import annotations

import json
import sqlite3
import stat
import time

import pytest
from starlette.testclient import TestClient

from conftest import Table
from helpers.serve_tables import HIDDEN, card_name, cold_war, culture_war, leaks

from referee.cli.main import cli
from referee.serve import snapshot
from referee.serve.app import create_app
from referee.serve.tokens import TokenStore, token_file
from referee.serve.watch import TableWatch


def client_for(db, poll_s=0.05, keepalive_s=0.3):
    watch = TableWatch(db)
    watch.poll()
    tokens = TokenStore(db, watch.players())
    return TestClient(create_app(watch, tokens, poll_s=poll_s, keepalive_s=keepalive_s)), tokens


@pytest.fixture
def cold(tmp_path):
    db = cold_war(tmp_path)
    client, tokens = client_for(db)
    with client:
        yield db, client, tokens


def first_event(client, url: str) -> dict:
    with client.stream("GET", url) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            if line.startswith("data: "):
                return json.loads(line[6:])
    raise AssertionError("no event")


def test_public_state_shows_the_players_turn_and_log(tmp_path):
    db = culture_war(tmp_path)
    Table(db).run("life Ana -3 --reason courier")
    client, _ = client_for(db)
    with client:
        data = client.get("/api/state").json()
    assert [p["name"] for p in data["players"]] == ["Ana", "Ben"]
    assert data["players"][0]["life"] == 97 and data["active"] == "Ana" and data["game"] == "culture-war"
    assert data["log"][-1]["text"].startswith("life Ana -3") and data["seq"] == 2
    assert "you" not in data


def test_the_page_and_its_files_are_served_read_only(tmp_path):
    db = culture_war(tmp_path)
    client, _ = client_for(db)
    before = db.read_bytes()
    with client:
        page = client.get("/")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert "/static/app.js" in page.text
        assert page.headers["referrer-policy"] == "no-referrer" and page.headers["cache-control"] == "no-store"
        assert client.get("/static/app.js").status_code == 200
        assert client.get("/static/app.css").headers["content-type"].startswith("text/css")
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            for url in ("/", "/api/state", "/api/events"):
                assert client.request(method, url).status_code == 405
    assert db.read_bytes() == before


@pytest.mark.parametrize("url", [
    "/nope", "/static/index.html", "/static/../cli.py", "/static/%2e%2e%2fcli.py", "/static/app.js%00",
    "/p/", "/p/short", "/p/" + "x" * 40, "/p/" + "x" * 500, "/api/p/" + "y" * 32 + "/state",
    "/api/p/" + "y" * 32 + "/events", "/api/p//state", "/api/state/extra", "/%ff%fe",
])
def test_malformed_or_unknown_requests_are_404s(tmp_path, url):
    client, _ = client_for(culture_war(tmp_path))
    with client:
        assert client.get(url).status_code == 404
        assert client.get("/api/state").status_code == 200  # still serving


def test_a_private_link_shows_its_players_hidden_cards_only(cold):
    db, client, tokens = cold
    ann = client.get(f"/api/p/{tokens.tokens['Ann']}/state")
    assert ann.status_code == 200
    data = ann.json()
    assert data["you"]["player"] == "Ann"
    text = ann.text
    for cid in HIDDEN["Ann"]:
        assert cid in text and card_name(cid) in text
    assert leaks(text, "Bo") == []
    bo = client.get(f"/api/p/{tokens.tokens['Bo']}/state").text
    assert leaks(bo, "Ann") == [] and all(cid in bo for cid in HIDDEN["Bo"])
    assert client.get(f"/p/{tokens.tokens['Ann']}").status_code == 200
    assert first_event(client, f"/api/p/{tokens.tokens['Ann']}/events")["you"]["player"] == "Ann"


def test_the_public_page_json_and_stream_hold_no_hidden_card(cold):
    db, client, tokens = cold
    for text in (client.get("/").text, client.get("/api/state").text, json.dumps(first_event(client, "/api/events"))):
        for player in HIDDEN:
            assert leaks(text, player) == []
    assert "you" not in client.get("/api/state").json()


def test_a_token_is_checked_exactly(cold):
    db, client, tokens = cold
    good = tokens.tokens["Ann"]
    for bad in (good[:-1], good + "x", good.upper() if good.upper() != good else good.lower(), good[1:] + good[0]):
        assert client.get(f"/api/p/{bad}/state").status_code == 404
        assert client.get(f"/p/{bad}").status_code == 404
    assert TokenStore(db, ["Ann", "Bo"]).player_of(good) == "Ann"


def test_tokens_live_beside_the_table_never_in_its_log(cold):
    db, client, tokens = cold
    path = token_file(db)
    assert path == db.with_name("cold.db.serve-tokens.json") and path.is_file()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert json.loads(path.read_text()) == tokens.tokens
    assert len({*tokens.tokens.values()}) == 2 and all(len(t) >= 32 for t in tokens.tokens.values())
    beside = [p for p in db.parent.iterdir() if p.name.startswith("cold.db") and p != path]
    files = [f for p in beside for f in ([p] if p.is_file() else sorted(p.rglob("*")))]  # the backups folder too
    raw = b"".join(f.read_bytes() for f in files if f.is_file())
    assert not any(t.encode() in raw for t in tokens.tokens.values())
    assert TokenStore(db, ["Ann", "Bo"]).tokens == tokens.tokens  # the same links next time


def test_the_stream_sends_a_new_snapshot_after_a_change(tmp_path):
    db = culture_war(tmp_path)
    client, _ = client_for(db)
    with client, client.stream("GET", "/api/events") as response:
        seen = []
        lines = response.iter_lines()
        started = None
        for line in lines:
            if line.startswith("data: "):
                seen.append(json.loads(line[6:]))
                if len(seen) == 1:
                    Table(db).run("life Ben -4")
                    started = time.monotonic()
                else:
                    break
        assert seen[0]["players"][1]["life"] == 100 and seen[1]["players"][1]["life"] == 96
        assert time.monotonic() - started < 1.0


def test_the_watcher_reads_through_a_read_only_connection(tmp_path):
    db = culture_war(tmp_path)
    conn = snapshot.connect_read_only(db)
    try:
        with pytest.raises(sqlite3.OperationalError):
            conn.execute("INSERT INTO meta (key, value) VALUES ('x', 'y')")
    finally:
        conn.close()
    watch = TableWatch(db)
    assert watch.poll() is True and watch.poll() is False
    Table(db).run("capital Ana +2")
    assert watch.poll() is True
    assert json.loads(watch.public_json())["players"][0]["capital"] == 3


def test_a_table_that_cannot_be_read_is_reported_not_crashed(tmp_path):
    db = culture_war(tmp_path)
    client, _ = client_for(db)
    with client:
        db.write_bytes(b"not a table at all")
        time.sleep(0.3)
        data = client.get("/api/state").json()
        assert "error" in data


def test_the_command_prints_links_and_qr_codes_and_listens_locally(tmp_path, monkeypatch):
    from referee.serve import server

    db = cold_war(tmp_path)
    calls = []
    monkeypatch.setattr(server, "run", lambda app, sock, closing: calls.append(sock.getsockname()))
    result = Table(db).run("serve --port 8123")
    assert calls[0] == ("127.0.0.1", 8123)
    tokens = json.loads(token_file(db).read_text())
    for name, token in tokens.items():
        assert f"http://127.0.0.1:8123/p/{token}" in result.output
    assert "http://127.0.0.1:8123/" in result.output
    assert result.output.count("\u2588") > 100  # the QR codes, in block characters
    assert "warning" not in result.output


def test_lan_binds_every_interface_and_warns(tmp_path, monkeypatch):
    from referee.serve import server

    db = culture_war(tmp_path)
    calls = []
    monkeypatch.setattr(server, "run", lambda app, sock, closing: calls.append(sock.getsockname()))
    from click.testing import CliRunner

    result = CliRunner().invoke(cli, ["--db", str(db), "serve", "--lan", "--no-qr", "--port", "0"])
    assert result.exit_code == 0, result.output
    assert calls[0][0] == "0.0.0.0"
    assert "warning: --lan" in result.output
    assert "\u2588" not in result.output


def test_serve_without_a_table_is_refused(tmp_path):
    result = Table(tmp_path / "none.db").run("serve", ok=False)
    assert result.exit_code != 0 and "no table file" in result.output
