"""cProfile of a fully cold build of every game, in one process (PNP_JOBS=1),
so that all of the build's CPU time is in one profile: what benchmark figure
1 measures, minus the second core. See benchmarks/NOTES.md.

    python benchmarks/profile_cold.py [--top N] [--save FILE.prof]

Prints the top N functions by cumulative and by own time, and own time
summed by package (pnp's modules one by one, the libraries as a whole).
"""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = Path(os.environ.get("PNP_BENCH_PROJECT", ROOT))


def area(filename: str) -> str:
    """Where a function lives: pnp/<module>, a library's top package, or the interpreter."""
    path = Path(filename)
    if "site-packages" in path.parts:
        return path.parts[path.parts.index("site-packages") + 1].split(".")[0]
    if ROOT / "pnp" in path.parents:
        return str(path.relative_to(ROOT))
    if filename.startswith("<") or filename == "~":
        return "builtins (C functions, compile, ...)"
    return "python stdlib"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--save")
    args = parser.parse_args()
    os.environ["PNP_JOBS"] = "1"
    work = Path(tempfile.mkdtemp(prefix="pnp-profile-"))
    try:
        for name in ("card_sources", "templates"):
            shutil.copytree(SOURCE / name, work / name)
        profile = cProfile.Profile()
        start, cpu = time.perf_counter(), time.process_time()
        profile.enable()
        from pnp.cli import main as pnp  # the imports belong to the cold build too

        try:
            pnp(["--project", str(work), "build", "--out", str(work / "out")], standalone_mode=False)
        finally:
            profile.disable()
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"\ncold build in one process: {wall:.2f} s wall, {cpu:.2f} s CPU (profiled: cProfile adds its own cost)\n")
    stats = pstats.Stats(profile)
    if args.save:
        stats.dump_stats(args.save)
    for key in ("cumulative", "tottime"):
        print(f"--- top {args.top} by {key}")
        stats.sort_stats(key).print_stats(args.top)
    by_area: dict[str, float] = defaultdict(float)
    for (filename, _, _), (_, _, tottime, _, _) in stats.stats.items():
        by_area[area(filename)] += tottime
    total = sum(by_area.values())
    print("--- own time by package or pnp module")
    for name, seconds in sorted(by_area.items(), key=lambda kv: -kv[1])[:30]:
        print(f"{seconds:7.3f} s {seconds / total:6.1%}  {name}")


if __name__ == "__main__":
    sys.exit(main())
