"""Self-play through a Dask cluster (issue 39): what going through the
scheduler costs a game.

    python benchmarks/cluster.py [--quick]

The same Culture War games (three players, the default agent) played with
`--jobs 1` and `--jobs 2` (the process pool), and on a LocalCluster of 1 and
of 2 worker processes on loopback (`--scheduler`), in turns. Each cluster is
started and warmed first (its workers unpack the card sources and build
their card index once: the cold cost, given apart); the ratio is cluster /
pool on a warm cluster, and the overhead per game is the difference in
wall time over the games played.
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.simulate.runner import make_plan, run  # noqa: E402

QUICK = "--quick" in sys.argv
GAMES = 40 if QUICK else 160
TURNS = 2 if QUICK else 3


def timed(plan) -> float:
    start = time.perf_counter()
    done = sum(1 for _ in run(plan))
    assert done == plan.games
    return time.perf_counter() - start


def main() -> list[str]:
    try:
        import distributed
    except ImportError:
        return ["| 12. self-play on a Dask cluster | not measured: the cluster extra is not installed | | | | |"]
    plan = make_plan("culture-war", 3, (), (), GAMES, seed=1)
    rows = []
    for workers in (1, 2):
        if workers > (os.cpu_count() or 1):
            continue
        started = time.perf_counter()
        with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                      dashboard_address=":0") as cluster:
            up = time.perf_counter() - started
            on_cluster = replace(plan, scheduler=cluster.scheduler_address)
            warm = timed(replace(on_cluster, games=8 * workers))
            local, remote = [], []
            for _ in range(TURNS):
                local.append(timed(replace(plan, jobs=workers)))
                remote.append(timed(on_cluster))
        lw, rw = statistics.median(local), statistics.median(remote)
        per_game = (rw - lw) / GAMES * 1000
        rows.append(f"| 12. self-play culture-war (3 players) on a local Dask cluster of {workers} worker"
                    f"{'s' if workers > 1 else ''} | {GAMES / rw:.1f} games/s ({per_game:+.1f} ms a game) | "
                    f"--jobs {workers}: {GAMES / lw:.1f} games/s | {rw / lw:.2f}x | none (what the scheduler costs) | - |")
        rows.append(f"| 12. ... cluster of {workers}: start {up:.1f} s, first {8 * workers} games (unpack, card index) "
                    f"{warm:.1f} s | | | | | - |")
    return rows


if __name__ == "__main__":
    print("\n".join(main()))
