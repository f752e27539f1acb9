"""Figure 10, what a table that can be trusted costs (issue 38).

    python benchmarks/table_trust.py [--quick]      (alone, from the project root)

10a. A command with hashing against the same command without it, in CPU
     time: `capital ann +1` through the core on a 50-event table, the chain's digest
     stubbed out for the baseline (every row and snapshot then carries an
     empty checksum, which the stubbed check accepts); batches taken in
     turns. Target: at most 5% more.
10b. Start-up: `referee status` of a 50-event table, a whole process,
     against `python -c "import click, sqlite3"`. Target: at most 1.5x.
     Also the modules the trust work put on status's path, by
     `-X importtime`.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUICK = "--quick" in sys.argv
BATCHES = 5 if QUICK else 11
PER_BATCH = 20
STARTS = 7 if QUICK else 15
NEW_ON_STATUS = ("referee.table.store.chain", "_blake2", "referee.table.store.failures", "referee.cli.trust")


def row(name, value, baseline, ratio, target, ok) -> str:
    verdict = "-" if ok is None else ("PASS" if ok else "FAIL")
    return f"| {name} | {value} | {baseline} | {ratio:.2f}x | {target} | {verdict} |"


def hashing_cost(work: Path) -> tuple[float, float]:
    sys.path.insert(0, str(ROOT))
    from referee.table import operations as table
    from referee.table.store import chain

    real = chain.digest

    def stubbed(on: bool) -> None:
        chain.digest = real if on else (lambda text: "")

    def build(path: Path, on: bool) -> None:
        stubbed(on)
        table.new_table(path, "culture-war", ["ann:anarchy", "bo:technocracy"], seed=1)
        for _ in range(49):
            table.act(path, "capital", {"player": "ann", "by": 1})

    with_hash, without = work / "hashed.db", work / "plain.db"
    build(with_hash, True)
    build(without, False)
    sides: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(BATCHES):
        for on, path in ((True, with_hash), (False, without)):
            stubbed(on)
            start = time.process_time()  # CPU time: hashing is CPU work, and fsync's waits on a shared disk blur wall time
            for _ in range(PER_BATCH):
                table.act(path, "capital", {"player": "ann", "by": 1})
            sides[on].append((time.process_time() - start) / PER_BATCH)
    stubbed(True)
    return statistics.median(sides[True]), statistics.median(sides[False])


def wall(cmd: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start


def start_up(work: Path) -> tuple[float, float, dict[str, int]]:
    path = work / "hashed.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    status = [sys.executable, "-m", "referee", "status", "--db", str(path)]
    bare = [sys.executable, "-c", "import click, sqlite3"]
    ours, base = [], []
    for _ in range(STARTS):
        ours.append(wall(status, env))
        base.append(wall(bare, env))
    costs: dict[str, int] = {}
    for _ in range(5):  # the least of five: an import's cost, without the machine's stalls
        proc = subprocess.run([sys.executable, "-X", "importtime", *status[1:]], env=env, capture_output=True,
                              text=True)
        for line in proc.stderr.splitlines():
            parts = [p.strip() for p in line.split("|")]
            if len(parts) == 3 and parts[2] in NEW_ON_STATUS:
                us = int(parts[0].split(":")[-1])
                costs[parts[2]] = min(us, costs.get(parts[2], us))
    return statistics.median(ours), statistics.median(base), costs


def main() -> list[str]:
    with tempfile.TemporaryDirectory(prefix="trust-bench-") as tmp:
        work = Path(tmp)
        hashed, plain = hashing_cost(work)
        ours, base, costs = start_up(work)
    cost = hashed / plain
    started = ours / base
    new_us = sum(costs.values())
    return [
        row("10a. capital +1 on a 50-event table, with the hash chain (CPU)", f"{hashed * 1000:.2f} ms",
            f"digest stubbed {plain * 1000:.2f} ms", cost, "<= 1.05x", cost <= 1.05),
        row("10b. referee status start-up, 50 events", f"{ours * 1000:.0f} ms",
            f"python -c 'import click, sqlite3' {base * 1000:.0f} ms", started, "<= 1.5x", started <= 1.5),
        row("10c. modules the trust work adds to status (-X importtime, self, least of 5)",
            ", ".join(f"{m.split('.')[-1]} {us} us" for m, us in costs.items()), "-",
            new_us / 1000 / (base * 1000), "none (share of the baseline)", None),
    ]


if __name__ == "__main__":
    print(f"load average {os.getloadavg()[0]:.2f}")
    print("\n".join(main()))
