"""`referee serve --play` under abuse (issue 36 item 7), on loopback only: a
rotated link's open stream ends at once, deep JSON is one 400, half-sent
requests and bodies time out, connections are capped, the moves list is
rate-limited."""
from __future__ import annotations

import http.client
import json
import socket
import threading
import time

import pytest
from starlette.testclient import TestClient

from conftest import Table

from referee.serve import limits, play_http, server
from referee.serve.app import create_app
from referee.serve.links import private_links
from referee.serve.play import BURST, RATE_PER_S, READ_BURST, READ_RATE_PER_S, Play, RateLimit
from referee.serve.tokens import TokenStore
from referee.serve.watch import TableWatch


def petri(folder) -> Table:
    table = Table(folder / "t.db")
    table.run("new petri-dish --player Ana --player Ben --seed 7")
    return table


class Running:
    """A real uvicorn server on loopback in this process (the settings `serve` uses)."""

    def __init__(self, db, head_timeout_s: float = 0.5, **overrides):
        watch = TableWatch(db)
        watch.poll()
        self.tokens = TokenStore(db, watch.players())
        self.app = create_app(watch, self.tokens, poll_s=0.05, keepalive_s=0.3, play=Play(db))
        self.sock = server.listen("127.0.0.1", 0)
        self.port = self.sock.getsockname()[1]
        import uvicorn

        self.server = uvicorn.Server(server.config(self.app, head_timeout_s=head_timeout_s, **overrides))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> "Running":
        self.thread.start()
        end = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < end, "the server did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc) -> None:
        self.app.state.close()
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()

    def link(self, player: str) -> str:
        return f"/p/{self.tokens.tokens[player]}"


def test_rotating_a_link_ends_its_open_stream_at_once(tmp_path):
    table = petri(tmp_path)
    with Running(table.db) as running:
        old = running.link("Ana")
        conn = http.client.HTTPConnection("127.0.0.1", running.port, timeout=10)
        conn.request("GET", f"/api{old}/events")
        stream = conn.getresponse()
        assert stream.status == 200
        while not stream.readline().startswith(b"data: "):
            pass  # the first snapshot
        private_links(table.db, rotate="Ana")  # `referee links --rotate Ana`, as another process does it
        rotated = time.monotonic()
        table.run("place c1")  # a change the old stream must not hear of
        rest = b""
        while True:
            line = stream.readline()
            if not line:
                break
            rest += line
        assert time.monotonic() - rotated < 3.0  # ended within a poll or two, not at the next keep-alive
        assert b"data: " not in rest  # not one more snapshot after the rotation
        conn.close()
        again = http.client.HTTPConnection("127.0.0.1", running.port, timeout=10)
        again.request("GET", f"/api{old}/events")
        assert again.getresponse().status == 404


def test_json_nested_2000_deep_is_one_400(tmp_path):
    table = petri(tmp_path)
    watch = TableWatch(table.db)
    watch.poll()
    tokens = TokenStore(table.db, watch.players())
    before = table.log()
    with TestClient(create_app(watch, tokens, play=Play(table.db)), raise_server_exceptions=False) as client:
        for body in ("[" * 2000 + "]" * 2000, '{"action": ' + "[" * 2000 + "]" * 2000 + "}",
                     '{"action": {"name": "place", "args": {"at": ' + "[" * 9 + "]" * 9 + "}}}"):
            got = client.post(f"/p/{tokens.tokens['Ana']}/act", content=body.encode())
            assert got.status_code == 400, got.text
            assert "nests deeper" in got.json()["error"]
        ok = client.post(f"/p/{tokens.tokens['Ana']}/act", json={"command": "place c1"})  # still serving
        assert ok.status_code == 200
    assert limits.depth(b'{"a": "[[[[[[[[[[[["}') == 1  # brackets inside strings do not count
    assert len(table.log()["events"]) == len(before["events"]) + 1


def test_a_half_sent_request_head_is_dropped_and_others_are_served(tmp_path):
    table = petri(tmp_path)
    with Running(table.db, head_timeout_s=0.5) as running:
        slow = socket.create_connection(("127.0.0.1", running.port), timeout=5)
        slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # never finished
        silent = socket.create_connection(("127.0.0.1", running.port), timeout=5)  # sends nothing at all
        conn = http.client.HTTPConnection("127.0.0.1", running.port, timeout=5)
        conn.request("GET", "/healthz")
        assert conn.getresponse().read() == b"ok"  # served meanwhile
        started = time.monotonic()
        assert slow.recv(1024) == b""  # closed by the server
        assert silent.recv(1024) == b""
        assert time.monotonic() - started < 3.0
        slow.close()
        silent.close()


def test_a_body_that_never_arrives_is_a_408(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "BODY_TIMEOUT_S", 0.5)
    table = petri(tmp_path)
    before = table.log()
    with Running(table.db, head_timeout_s=5) as running:
        sock = socket.create_connection(("127.0.0.1", running.port), timeout=5)
        sock.sendall(f"POST {running.link('Ana')}/act HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"comm".encode())
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
        sock.close()
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        assert b"did not arrive" in answer
    assert table.log() == before
    assert play_http.read_limited  # the route's reader, which the setting bounds


def test_connections_beyond_the_cap_are_turned_away(tmp_path):
    table = petri(tmp_path)
    with Running(table.db, limit_concurrency=4) as running:
        held, statuses = [], []
        for _ in range(6):  # open event streams, each holding its connection
            conn = http.client.HTTPConnection("127.0.0.1", running.port, timeout=5)
            conn.request("GET", "/api/events")
            statuses.append(conn.getresponse().status)
            held.append(conn)
        assert statuses[:3] == [200] * 3 and statuses[-2:] == [503, 503]  # the cap counts the asking one too
        for conn in held:
            conn.close()
    assert limits.SERVER["limit_concurrency"] >= 16  # the served default leaves room for a full table


def test_the_moves_list_is_rate_limited_per_link(tmp_path):
    table = petri(tmp_path)
    watch = TableWatch(table.db)
    watch.poll()
    tokens = TokenStore(table.db, watch.players())
    still = RateLimit(READ_BURST, READ_RATE_PER_S, clock=lambda: 0.0)  # the clock stands still: no refill
    with TestClient(create_app(watch, tokens, play=Play(table.db, reads=still))) as client:
        ana, ben = f"/p/{tokens.tokens['Ana']}/moves", f"/p/{tokens.tokens['Ben']}/moves"
        codes = [client.get(ana).status_code for _ in range(30)]
        assert codes == [200] * READ_BURST + [429] * (30 - READ_BURST)
        assert set(client.get(ana).json()) == {"error"}
        assert client.get(ben).status_code == 200  # each link its own bucket


@pytest.mark.parametrize("body", [b'{"action": {"name": "place", "args": {"at": "c1"}}}'])
def test_a_flood_of_refused_moves_is_turned_away_before_the_table_is_read(tmp_path, body, monkeypatch):
    """Ben floods (not his turn): past his burst every move is a 429 that
    never reads the table; Ana's move still plays."""
    table = petri(tmp_path)
    watch = TableWatch(table.db)
    watch.poll()
    tokens = TokenStore(table.db, watch.players())
    play = Play(table.db, limit=RateLimit(BURST, RATE_PER_S, clock=lambda: 0.0))  # no refill: a flood's instant
    reads = []
    real = play._status
    monkeypatch.setattr(play, "_status", lambda: (reads.append(1), real())[1])
    with TestClient(create_app(watch, tokens, play=play)) as client:
        codes = [client.post(f"/p/{tokens.tokens['Ben']}/act", content=body).status_code for _ in range(50)]
        assert codes == [422] * BURST + [429] * (50 - BURST)
        assert len(reads) == codes.count(422)  # a 429 never touched the table
        assert client.post(f"/p/{tokens.tokens['Ana']}/act", content=body).status_code == 200
    assert json.loads(table.run("log --json").output)["events"][-1]["actor"] == "Ana"
