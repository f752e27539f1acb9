"""Phone to page (issue 26): the time from a phone's POST to the change
arriving on another open page's event stream, on loopback.

    python benchmarks/play_latency.py [--quick]

A real `referee serve --play` runs in a subprocess (uvicorn, as players get
it) on a Petri Dish table. Both players' private pages hold their event
stream open; each phone in turn asks for its moves (as its page does),
picks one (seeded) and POSTs it. A move's latency is from just before its
POST is sent until the other player's stream delivers a snapshot of that
version or later. 100 moves (20 with --quick); median and 95th percentile
against the goal: median <= 150 ms, p95 <= 400 ms.

Then the same during a flood (issue 36 item 7): Ben's phone sends 50 refused
moves a second (a move out of turn, by name) for the whole run, while Ana's
phone plays her moves; Ben's turns are typed at the scorekeeper's terminal
(his own link is flooded). Ana's move latency, to Ben's open page, must
meet the same goal: one phone's flood cannot starve another's move.
"""
from __future__ import annotations

import http.client
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

QUICK = "--quick" in sys.argv
MOVES = 20 if QUICK else 100
BIN = Path(sys.executable).parent
REFEREE = str(BIN / "referee")
GOAL_MEDIAN_MS, GOAL_P95_MS = 150.0, 400.0
PACE_S = 0.25  # at most 4 moves a second from one phone, within its rate limit (5 a second after a burst of 8)


class Stream(threading.Thread):
    """One page's event stream: when each version of the table arrived."""

    def __init__(self, port: int, path: str):
        super().__init__(daemon=True)
        self.port, self.path = port, path
        self.arrived: dict[int, float] = {}
        self.changed = threading.Condition()
        self.ready = threading.Event()

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        conn.request("GET", self.path, headers={"Accept": "text/event-stream"})
        response = conn.getresponse()
        self.ready.set()
        while True:
            line = response.fp.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                now = time.perf_counter()
                seq = json.loads(line[6:]).get("seq")
                if isinstance(seq, int):
                    with self.changed:
                        self.arrived.setdefault(seq, now)
                        self.changed.notify_all()

    def wait_for(self, version: int, timeout: float = 10.0) -> float:
        """When a snapshot of `version` or later arrived."""
        end = time.perf_counter() + timeout
        with self.changed:
            while True:
                got = [t for seq, t in self.arrived.items() if seq >= version]
                if got:
                    return min(got)
                left = end - time.perf_counter()
                if left <= 0:
                    raise TimeoutError(f"version {version} never reached {self.path}")
                self.changed.wait(left)


def _moves(port: int, link: str) -> dict:
    """A phone's moves, as its page asks for them: a 429 (the moves list is
    rate-limited per link) is asked again a moment later, outside any timing."""
    while True:
        status, found = _json(port, "GET", f"{link}/moves")
        if status != 429:
            return found
        time.sleep(0.1)


def _json(port: int, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json", "Origin": f"http://127.0.0.1:{port}"} if body is not None else {}
    conn.request(method, path, body=data, headers=headers)
    response = conn.getresponse()
    out = json.loads(response.read())
    conn.close()
    return response.status, out


class Flood(threading.Thread):
    """One phone sending refused moves at `rate` a second until stopped."""

    def __init__(self, port: int, link: str, rate: float = 50.0):
        super().__init__(daemon=True)
        self.port, self.link, self.rate = port, link, rate
        self.stop = threading.Event()
        self.statuses: dict[int, int] = {}

    def run(self) -> None:
        body = {"action": {"name": "place", "args": {"at": "a1"}}}
        step = 1.0 / self.rate
        due = time.perf_counter()
        while not self.stop.is_set():
            try:
                status, _ = _json(self.port, "POST", f"{self.link}/act", body)
            except OSError:
                status = 0
            self.statuses[status] = self.statuses.get(status, 0) + 1
            due += step
            time.sleep(max(0.0, due - time.perf_counter()))


def _typed(db: Path, player: str) -> None:
    """`player`'s move typed at the terminal (the first one `referee moves` lists)."""
    listed = json.loads(subprocess.run([REFEREE, "moves", player, "--json", "--db", str(db)], check=True,
                                       capture_output=True, text=True).stdout)["moves"]
    subprocess.run([REFEREE, *listed[0]["command"].split(), "--db", str(db)], check=True, capture_output=True)


def measure(work: Path, flood: bool = False) -> tuple[list[float], int, dict[int, int]]:
    db = work / "bench.db"
    subprocess.run([REFEREE, "new", "petri-dish", "--player", "Ana", "--player", "Ben", "--seed", "7", "--db", str(db)],
                   check=True, capture_output=True)
    links = json.loads(subprocess.run([REFEREE, "links", "--json", "--db", str(db)], check=True,
                                      capture_output=True, text=True).stdout)["players"]
    server = subprocess.Popen([REFEREE, "serve", "--play", "--port", "0", "--no-qr", "--db", str(db)],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        port = None
        for line in server.stdout:  # type: ignore[union-attr]
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if found:
                port = int(found[1])
                break
        assert port is not None, "the server printed no address"
        threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()  # keep its pipe drained
        for _ in range(100):
            try:
                _json(port, "GET", f"{links['Ana']}/moves")
                break
            except OSError:
                time.sleep(0.05)
        streams = {name: Stream(port, f"/api{link}/events") for name, link in links.items()}
        for stream in streams.values():
            stream.start()
            stream.ready.wait(10)
        rng = random.Random(1)
        times: list[float] = []
        refused = 0
        last: dict[str, float] = {}
        flooder = Flood(port, links["Ben"]) if flood else None
        if flooder is not None:
            flooder.start()
            time.sleep(1.0)  # the flood is on before the first move
        try:
            while len(times) + refused < MOVES:
                offered = _moves(port, links["Ana"])
                if not offered.get("moves"):
                    if flood:
                        _typed(db, "Ben")
                        continue
                    offered = _moves(port, links["Ben"])
                    player = "Ben"
                else:
                    player = "Ana"
                if not offered.get("moves"):
                    break  # the game is over
                move = rng.choice(offered["moves"])
                other = streams["Ben" if player == "Ana" else "Ana"]
                time.sleep(max(0.0, last.get(player, 0.0) + PACE_S - time.perf_counter()))  # a phone's pace
                start = last[player] = time.perf_counter()
                status, answer = _json(port, "POST", f"{links[player]}/act",
                                       {"action": move["action"], "version": offered["version"]})
                if status != 200:
                    refused += 1
                    if os.environ.get("BENCH_DEBUG"):
                        print(status, answer, move, file=sys.stderr)
                    continue
                times.append(other.wait_for(answer["version"]) - start)
                if _json(port, "GET", "/api/state")[1].get("winner"):
                    break
        finally:
            if flooder is not None:
                flooder.stop.set()
                flooder.join(5)
        return times, refused, (flooder.statuses if flooder is not None else {})
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


def _row(label: str, times: list[float], refused: int, extra: str = "") -> str:
    ms = sorted(t * 1000 for t in times)
    median = statistics.median(ms)
    p95 = ms[min(len(ms) - 1, max(0, round(0.95 * len(ms)) - 1))]
    ok = median <= GOAL_MEDIAN_MS and p95 <= GOAL_P95_MS
    note = f"; {refused} refused" if refused else ""
    return (f"| {label}, {len(ms)} moves{note}{extra} "
            f"| median {median:.0f} ms, p95 {p95:.0f} ms (max {ms[-1]:.0f} ms) | - | - "
            f"| median <= {GOAL_MEDIAN_MS:.0f} ms, p95 <= {GOAL_P95_MS:.0f} ms | {'PASS' if ok else 'FAIL'} |")


def main() -> list[str]:
    with tempfile.TemporaryDirectory(prefix="play-bench-") as folder:
        times, refused, _ = measure(Path(folder))
    with tempfile.TemporaryDirectory(prefix="play-bench-") as folder:
        flood_times, flood_refused, statuses = measure(Path(folder), flood=True)
    sent = sum(statuses.values())
    answered = ", ".join(f"{n} x {s}" for s, n in sorted(statuses.items()))
    return [_row("9. serve --play: phone POST to the other page's event stream, loopback", times, refused),
            _row("9b. the same for Ana's phone while Ben's phone floods 50 refused moves/s", flood_times, flood_refused,
                 f" (flood: {sent} sent, answered {answered})")]


if __name__ == "__main__":
    print("\n".join(main()))
