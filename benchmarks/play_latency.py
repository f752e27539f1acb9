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


def _json(port: int, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json", "Origin": f"http://127.0.0.1:{port}"} if body is not None else {}
    conn.request(method, path, body=data, headers=headers)
    response = conn.getresponse()
    out = json.loads(response.read())
    conn.close()
    return response.status, out


def measure(work: Path) -> tuple[list[float], int]:
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
        for _ in range(MOVES):
            player = next(p for p in ("Ana", "Ben") if _json(port, "GET", f"{links[p]}/moves")[1]["moves"])
            offered = _json(port, "GET", f"{links[player]}/moves")[1]
            move = rng.choice(offered["moves"])
            other = streams["Ben" if player == "Ana" else "Ana"]
            start = time.perf_counter()
            status, answer = _json(port, "POST", f"{links[player]}/act",
                                   {"command": move["command"], "version": offered["version"]})
            if status != 200:
                refused += 1
                continue
            times.append(other.wait_for(answer["version"]) - start)
            if _json(port, "GET", "/api/state")[1].get("winner"):
                break
        return times, refused
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


def main() -> list[str]:
    with tempfile.TemporaryDirectory(prefix="play-bench-") as folder:
        times, refused = measure(Path(folder))
    ms = sorted(t * 1000 for t in times)
    median = statistics.median(ms)
    p95 = ms[min(len(ms) - 1, max(0, round(0.95 * len(ms)) - 1))]
    ok = median <= GOAL_MEDIAN_MS and p95 <= GOAL_P95_MS
    note = f"; {refused} refused" if refused else ""
    return [f"| 9. serve --play: phone POST to the other page's event stream, loopback, {len(ms)} moves{note} "
            f"| median {median:.0f} ms, p95 {p95:.0f} ms (max {ms[-1]:.0f} ms) | - | - "
            f"| median <= {GOAL_MEDIAN_MS:.0f} ms, p95 <= {GOAL_P95_MS:.0f} ms | {'PASS' if ok else 'FAIL'} |"]


if __name__ == "__main__":
    print("\n".join(main()))
