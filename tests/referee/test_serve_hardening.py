"""`referee serve` starting, stopping and under abuse: a port in use, --port
0, Ctrl-C with pages open, a foreign Host header, paths in errors, a phone
reconnecting with Last-Event-ID, a client that stops reading."""
from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import urllib.request
import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from helpers.serve_tables import culture_war

from referee.cli.main import cli
from referee.serve import server
from referee.serve.app import EventStream, Hub, create_app
from referee.serve.tokens import TokenStore
from referee.serve.watch import TableWatch

ROOT = Path(__file__).resolve().parents[2]


def app_for(db, **kw):
    watch = TableWatch(db)
    watch.poll()
    return create_app(watch, TokenStore(db, watch.players()), poll_s=0.05, keepalive_s=0.3, **kw), watch


def test_a_port_in_use_is_one_error_before_any_link_is_printed(tmp_path):
    db = culture_war(tmp_path)
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    port = busy.getsockname()[1]
    try:
        result = CliRunner().invoke(cli, ["--db", str(db), "serve", "--port", str(port), "--no-qr"])
    finally:
        busy.close()
    assert result.exit_code != 0
    assert f"cannot listen on 127.0.0.1:{port}: the port is in use" in result.output
    assert "http://" not in result.output and "Traceback" not in result.output


def test_port_0_prints_the_port_the_system_chose(tmp_path, monkeypatch):
    db = culture_war(tmp_path)
    chosen = []
    monkeypatch.setattr(server, "run", lambda app, sock, closing: chosen.append(sock.getsockname()[1]))
    result = CliRunner().invoke(cli, ["--db", str(db), "serve", "--port", "0", "--no-qr"])
    assert result.exit_code == 0, result.output
    assert chosen[0] != 0
    assert f"http://127.0.0.1:{chosen[0]}/" in result.output and ":0/" not in result.output


@pytest.mark.slow
def test_ctrl_c_with_pages_open_stops_cleanly(tmp_path):
    db = culture_war(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "referee", "--db", str(db), "serve", "--port", "0", "--no-qr"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        first = proc.stdout.readline()
        port = int(first.split("http://127.0.0.1:")[1].split("/")[0])
        got = []

        def listen():
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/events", timeout=20) as r:
                    for line in r:
                        got.append(line.decode())
            except (OSError, ValueError):
                pass

        deadline = time.time() + 20
        while time.time() < deadline:  # wait until the server answers
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        readers = [threading.Thread(target=listen, daemon=True) for _ in range(3)]
        for t in readers:
            t.start()
        while sum(1 for line in got if line.startswith("data: ")) < 3 and time.time() < deadline:
            time.sleep(0.05)
        started = time.time()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=15)
        assert time.time() - started < 5
    finally:
        proc.kill()
    assert proc.returncode == 0
    assert "Traceback" not in err and "ERROR" not in err, err


def test_a_foreign_host_header_is_refused(tmp_path):
    db = culture_war(tmp_path)
    app, _ = app_for(db, hosts=["127.0.0.1", "localhost"])
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        assert client.get("/api/state").status_code == 200
        assert client.get("/api/state", headers={"host": "localhost:8000"}).status_code == 200
        for host in ("evil.example", "evil.example:8000", "127.0.0.1.evil.example"):
            refused = client.get("/api/state", headers={"host": host})
            assert refused.status_code == 400, host
            assert "game" not in refused.text


def test_errors_on_the_page_name_no_absolute_path(tmp_path):
    db = culture_war(tmp_path)
    app, watch = app_for(db)
    with TestClient(app) as client:
        db.write_bytes(b"not a table at all")
        os.utime(db, (time.time() + 5, time.time() + 5))
        deadline = time.time() + 5
        data = client.get("/api/state").json()
        while "error" not in data and time.time() < deadline:
            time.sleep(0.05)
            data = client.get("/api/state").json()
        assert "error" in data
    assert str(tmp_path) not in json.dumps(data)
    missing = TableWatch(tmp_path / "sub" / "gone.db")
    missing.poll()
    assert missing.error and str(tmp_path) not in missing.error and "gone.db" in missing.error


def _lines(client, headers=None, until=3):
    seen = []
    with client.stream("GET", "/api/events", headers=headers or {}) as response:
        for line in response.iter_lines():
            if line:
                seen.append(line)
            if sum(1 for s in seen if s.startswith("data: ") or s.startswith(": still")) >= until:
                break
    return seen


def test_a_phone_reconnecting_with_its_last_event_id_is_not_sent_it_again(tmp_path):
    db = culture_war(tmp_path)
    app, _ = app_for(db)
    with TestClient(app) as client:
        first = _lines(client, until=1)
        last_id = next(line[4:] for line in first if line.startswith("id: "))
        resumed = _lines(client, {"Last-Event-ID": last_id}, until=1)
        assert resumed[-1].startswith(": still here")  # no snapshot: the phone has it
        assert not any(line.startswith("data: ") for line in resumed)
        stale = _lines(client, {"Last-Event-ID": "0000-1"}, until=1)
        assert stale[-1].startswith("data: ")  # an id of another run: the snapshot at once


def test_a_client_that_stops_reading_is_dropped(tmp_path):
    db = culture_war(tmp_path)
    watch = TableWatch(db)
    watch.poll()

    async def scenario() -> float:
        hub = Hub(watch, 0.05)
        stream = EventStream(hub, watch.public_json, keepalive_s=0.1, last_id=None, send_timeout_s=0.3)
        never = asyncio.Event()

        async def receive():
            await never.wait()  # the client never says it left

        async def send(message):
            if message["type"] == "http.response.body" and message.get("more_body"):
                await never.wait()  # ... and never reads

        started = time.monotonic()
        await asyncio.wait_for(stream({"type": "http"}, receive, send), 5)
        return time.monotonic() - started

    assert asyncio.run(scenario()) < 2
