"""The answer window's clock (`referee serve --play --answer-timeout`, issue 36 item 1).

A real uvicorn server on loopback with a short timeout: an attack opens a
window, nobody answers, and the server records the timeout by itself, under
the target's name, through the same rules as `referee answer --timeout`
(the log says so, an export replays to the same table, and undo reopens the
window with a fresh clock). A window answered in time is not also timed out,
on the real server and, with the snapshot the timer read gone stale, at the
timer itself. Nothing waits on a wall-clock assertion: each wait polls with a
generous deadline, and every time compared is one the log recorded.
"""
from __future__ import annotations

import http.client
import json
import re
import threading
import time
from datetime import datetime, timedelta, timezone

from click.testing import CliRunner

from conftest import Table
from test_rules_cold_war_hidden import ANN_SETUP, BO_SETUP

from referee.cli.main import cli
from referee.serve import server
from referee.serve.app import create_app
from referee.serve.play import Play
from referee.serve.timer import AnswerTimer, parse_time, waiting
from referee.serve.tokens import TokenStore
from referee.serve.watch import TableWatch
from referee.table import operations as core

COLD = "new cold-war --player Ann:westmark --player Bo:vostokia --seed 3"
ATTACK = "attack Bo S1 cold-wm-airborne --by Ann"  # aimed at Bo, who could answer it: the window opens
PATIENCE_S = 60.0  # how long a test waits for something the server does by itself (a loaded machine is slow)


def cold(folder) -> Table:
    table = Table(folder / "t.db")
    for line in (COLD, ANN_SETUP, BO_SETUP, "start --first Ann"):
        table.run(line)
    return table


class Running:
    """`referee serve --play --answer-timeout SECONDS` on loopback, in this process."""

    def __init__(self, db, seconds: float):
        watch = TableWatch(db)
        watch.poll()
        self.tokens = TokenStore(db, watch.players())
        self.echoes: list = []
        self.play = Play(db, on_act=self.echoes.append)
        self.app = create_app(watch, self.tokens, poll_s=0.05, keepalive_s=0.3, play=self.play,
                              answer_timeout_s=seconds)
        self.sock = server.listen("127.0.0.1", 0)
        self.port = self.sock.getsockname()[1]
        import uvicorn

        self.server = uvicorn.Server(server.config(self.app))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> "Running":
        self.thread.start()
        until(lambda: self.server.started, "the server did not start")
        return self

    def __exit__(self, *exc) -> None:
        self.app.state.close()
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, str]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            data = json.dumps(body).encode() if body is not None else None
            conn.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
            response = conn.getresponse()
            return response.status, response.read().decode("utf-8")
        finally:
            conn.close()

    def state(self, player: str | None = None) -> dict:
        path = f"/api/p/{self.tokens.tokens[player]}/state" if player else "/api/state"
        status, text = self.request("GET", path)
        assert status == 200, text
        return json.loads(text)


def until(ready, what: str, patience: float = PATIENCE_S):
    end = time.monotonic() + patience
    while True:
        got = ready()
        if got:
            return got
        assert time.monotonic() < end, what
        time.sleep(0.05)


def events(table: Table) -> list[dict]:
    return table.log()["events"]


def answers(table: Table) -> list[dict]:
    return [e for e in events(table) if e["action"] == "answer"]


def seconds_between(a: dict, b: dict) -> float:
    return (parse_time(b["time"]) - parse_time(a["time"])).total_seconds()


def test_a_window_nobody_answers_is_timed_out_by_the_server_and_undo_reopens_it(tmp_path):
    table = cold(tmp_path)
    with Running(table.db, seconds=1) as running:
        table.run(ATTACK)
        attack = events(table)[-1]
        assert attack["action"] == "attack" and core.status(table.db).state.fields["pending"]["target"] == "Bo"
        # the pages show the clock while the window waits: who answers, from the recorded time, how long
        clock = until(lambda: answers(table) or running.state().get("answer_clock"), "no clock on the page")
        if isinstance(clock, dict):  # (on a very slow machine the timeout may already have landed)
            assert clock["player"] == "Bo" and clock["seconds"] == 1
            assert parse_time(clock["opened"]) == parse_time(attack["time"])
            assert parse_time(clock["deadline"]) - parse_time(clock["opened"]) == timedelta(seconds=1)
        timed = until(lambda: answers(table), "the window was never timed out")[0]
        assert timed["actor"] == "Bo" and timed["args"]["timeout"] is True and timed["args"]["_via"] == "timer"
        assert seconds_between(attack, timed) >= 1.0  # not before its time, by the log's own clock
        assert core.status(table.db).state.fields["pending"] is None
        log = table.run("log").output
        assert "Bo (timer)" in log and "the clock runs out: no answer from Bo in time" in log
        assert any(e.player == "Bo" and e.via == "timer" and "no answer" in e.public_echo for e in running.echoes)
        until(lambda: "answer_clock" not in running.state(), "the page still shows the clock")
        # undo: the window is back, with a fresh clock from the undo's recorded time
        table.run("undo")
        undo = events(table)[-1]
        assert undo["kind"] == "undo" and undo["target"] == timed["seq"]
        again = until(lambda: [a for a in answers(table) if a["seq"] > undo["seq"]], "the reopened window waits")[0]
        assert again["actor"] == "Bo" and again["args"]["timeout"] is True
        assert seconds_between(undo, again) >= 1.0
    # the log replays to the same table (the timer's lines are ordinary answers)
    export = tmp_path / "game.json"
    table.run(["export", str(export), "--full"])
    copy = tmp_path / "copy.db"
    replayed = CliRunner().invoke(cli, ["replay", str(export), "--db", str(copy)])
    assert replayed.exit_code == 0, replayed.output
    assert core.status(copy).state == core.status(table.db).state


def test_a_window_answered_in_time_is_not_also_timed_out(tmp_path):
    table = cold(tmp_path)
    with Running(table.db, seconds=6) as running:
        table.run(ATTACK)
        attack = events(table)[-1]
        status, text = running.request("POST", f"/p/{running.tokens.tokens['Bo']}/act", {"command": "answer none"})
        assert status == 200, text  # Bo answers from his phone, well within 6 s
        deadline = parse_time(attack["time"]) + timedelta(seconds=6)
        # wait until the window's time would have been up, and some more, by the clock the log is written with
        until(lambda: datetime.now(timezone.utc) > deadline + timedelta(seconds=1.5), "time stands still")
        time.sleep(0.5)  # (a few of the timer's ticks)
        (answer,) = answers(table)
        assert answer["actor"] == "Bo" and answer["args"].get("_via") == "phone" and not answer["args"].get("timeout")
        assert events(table)[-1]["seq"] == answer["seq"]  # nothing after it
        assert "answer_clock" not in running.state()


def test_the_timer_never_records_over_an_answer_it_has_not_read_yet(tmp_path):
    """The race, made certain: the timer's snapshot still shows the window (it was read
    before the answer, and before an undo that reopened it), and its clock is past that
    window's deadline; the guarded write sees the log moved on and records nothing."""
    table = cold(tmp_path)
    table.run(ATTACK)
    watch = TableWatch(table.db)
    watch.poll()  # the window, as the timer reads it
    found = waiting(watch.table, 1)
    assert found is not None and found.player == "Bo"
    late = found.deadline + timedelta(milliseconds=1)
    warned: list[str] = []
    timer = AnswerTimer(watch, Play(table.db), 1, clock=lambda: late, warn=warned.append)
    assert timer.due() is not None
    table.run("answer none --by Bo")  # in time, and the timer has not read it
    assert timer.fire() is None and warned == []
    table.run("undo")  # the window again, its clock started afresh at the undo
    assert core.status(table.db).state.fields["pending"]["target"] == "Bo"
    assert timer.fire() is None  # the old window's time is up, not the reopened one's
    assert [a["actor"] for a in answers(table)] == ["Bo"] and not answers(table)[0]["args"].get("timeout")
    assert events(table)[-1]["kind"] == "undo" and warned == []
    watch.poll()
    reopened = waiting(watch.table, 1)
    assert reopened.opened == parse_time(events(table)[-1]["time"]) > found.opened
    early = AnswerTimer(watch, Play(table.db), 1, clock=lambda: reopened.deadline - timedelta(milliseconds=1))
    assert early.due() is None and early.fire() is None  # before the deadline nothing is due at all
    on_time = AnswerTimer(watch, Play(table.db), 1, clock=lambda: reopened.deadline)
    assert on_time.fire().player == "Bo" and answers(table)[-1]["args"]["timeout"] is True


def test_no_clock_without_a_window_or_with_timeout_zero(tmp_path):
    table = cold(tmp_path)
    watch = TableWatch(table.db)
    watch.answer_timeout_s = 60
    watch.poll()
    assert "answer_clock" not in json.loads(watch.public_json())  # nothing waits for an answer
    table.run(ATTACK)
    watch.poll()
    assert json.loads(watch.public_json())["answer_clock"]["player"] == "Bo"
    assert json.loads(watch.private_json("Ann"))["answer_clock"]["seconds"] == 60
    watch.answer_timeout_s = 0  # --answer-timeout 0: the window waits for ever, and no clock is shown
    table.run("status")
    assert waiting(watch.table, 0) is None


def test_serve_answer_timeout_goes_with_play_and_says_so_in_help(tmp_path):
    table = cold(tmp_path)
    result = CliRunner().invoke(cli, ["serve", "--answer-timeout", "5", "--db", str(table.db)])
    assert result.exit_code != 0 and "--answer-timeout goes with --play" in result.output
    assert "Traceback" not in result.output
    bad = CliRunner().invoke(cli, ["serve", "--play", "--answer-timeout", "-1", "--db", str(table.db)])
    assert bad.exit_code != 0 and "-1" in bad.output
    shown = CliRunner().invoke(cli, ["serve", "--help"]).output
    assert "--answer-timeout SECONDS" in shown and "0 waits for ever" in shown and "[default: 60" in shown


def test_the_timer_records_what_answer_timeout_records(tmp_path):
    """The same rules path: the CLI's `referee answer --timeout` on one table and the
    server's timer on its copy give the same log line (but how it came) and the same table."""
    (tmp_path / "typed").mkdir()
    (tmp_path / "timed").mkdir()
    typed, timed = cold(tmp_path / "typed"), cold(tmp_path / "timed")
    for table in (typed, timed):
        table.run(ATTACK)
    typed.run("answer --timeout")  # typed by the scorekeeper, without --by
    watch = TableWatch(timed.db)
    watch.poll()
    found = waiting(watch.table, 1)
    assert AnswerTimer(watch, Play(timed.db), 1, clock=lambda: found.deadline).fire() is not None
    a, b = answers(typed)[-1], answers(timed)[-1]
    assert a["actor"] == b["actor"] == "Bo"  # under the target's name, both ways
    assert b["args"].pop("_via") == "timer" and a["args"] == b["args"] == {**a["args"], "timeout": True}
    assert typed.status() == timed.status()
    said = [re.sub(r"\d\d:\d\d:\d\d", "TIME", t.run("log").output.splitlines()[-1]) for t in (typed, timed)]
    assert said[1] == said[0].replace("Bo         ", "Bo (timer) ", 1) and "the clock runs out: no answer from Bo in time" in said[0], said


def test_a_timeout_past_a_day_is_refused_as_one_error(tmp_path):
    table = cold(tmp_path)
    for bad in ("inf", "86401", "nan"):
        result = CliRunner().invoke(cli, ["serve", "--play", "--answer-timeout", bad, "--db", str(table.db)])
        assert result.exit_code == 2 and "--answer-timeout" in result.output and "Traceback" not in result.output
