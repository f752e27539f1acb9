"""`referee tune` on a planted imbalance (issue 39): Window Smasher's ATK
raised from 2 to 6 in a copy of the card sources; does the search bring it
back, how many games and how long on this machine's cores?

    python benchmarks/tune_planted.py [--quick] [--auto]

Culture War, anarchy against community (two players, both seat orders), the
default agent. A focused knob (`--vary anarchy-window-smasher.atk=1..6`),
or with --auto every card's numbers one step either way. Reported as it
is: whether the proposal puts the card back (or another change that the
verification shows fair), the games played and the wall time, and the
wall time as a ratio to the same number of games played by `referee
simulate` alone in the same run (what the search adds to its games).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFEREE = str(Path(sys.executable).parent / "referee")
QUICK = "--quick" in sys.argv
AUTO = "--auto" in sys.argv
GAMES, VERIFY, ROUNDS = (120, 200, 3) if QUICK else (400, 800, 5)
BASELINE_GAMES = 100 if QUICK else 400


def planted(dest: Path) -> Path:
    for name in ("card_sources", "templates"):
        shutil.copytree(ROOT / name, dest / name)
    deck = dest / "card_sources" / "culture-war" / "anarchy.yaml"
    text = deck.read_text()
    at = text.index("id: anarchy-window-smasher")
    deck.write_text(text[:at] + text[at:].replace("atk: 2", "atk: 6", 1))
    return dest


def main() -> list[str]:
    jobs = min(2, os.cpu_count() or 1)
    with tempfile.TemporaryDirectory(prefix="bench-tune-") as tmp:
        project = planted(Path(tmp) / "project")
        out = Path(tmp) / "tune.json"
        vary = "auto" if AUTO else "anarchy-window-smasher.atk=1..6"
        cmd = [REFEREE, "tune", "culture-war", "--players", "2", "--faction", "anarchy", "--faction", "community",
               "--vary", vary, "--games", str(GAMES), "--verify-games", str(VERIFY), "--rounds", str(ROUNDS),
               "--jobs", str(jobs), "--json", str(out)]
        env = {**os.environ, "REFEREE_PROJECT": str(project)}
        started = time.perf_counter()
        proc = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - started
        if proc.returncode != 0:
            return [f"| 13. tune, Window Smasher ATK 2 -> 6 planted | failed: {proc.stderr.strip()[-200:]} | | | | |"]
        report = json.loads(out.read_text())
        # the baseline, in the same run: the same games played by `referee simulate` alone
        base_games = BASELINE_GAMES
        started = time.perf_counter()
        base = subprocess.run([REFEREE, "simulate", "culture-war", "--players", "2", "--faction", "anarchy",
                               "--faction", "community", "--games", str(base_games), "--jobs", str(jobs),
                               "--json", str(Path(tmp) / "base.json")], cwd=tmp, env=env, capture_output=True, text=True)
        base_wall = time.perf_counter() - started
        if base.returncode != 0:
            return [f"| 13. tune baseline simulate | failed: {base.stderr.strip()[-200:]} | | | | |"]
    change = report["proposal"]["change"]
    ver = report["verification"]
    back = change.get("anarchy-window-smasher.atk")
    found = back is not None and back <= 3
    per_game = base_wall / base_games
    ratio = wall / (report["games_played"] * per_game)
    rates = "; ".join(f"{k} {_r(v['before'])}" + (f" -> {_r(v['after'])}" if ver["pairs"] else "") + (
        f", within {v['paired']['pairs']} pairs {v['paired']['delta']:+.1%} [{v['paired']['delta_low']:+.1%}, "
        f"{v['paired']['delta_high']:+.1%}] McNemar p={v['paired']['p_value']:.2g}" if v.get("paired") else "")
        for k, v in ver["rates"].items())
    return [f"| 13. tune culture-war --vary {vary}, Window Smasher ATK 2 -> 6 planted, {report['agents_in_words']}, "
            f"{jobs} cores | proposal {change or 'none'}; verified gap {ver['gap_points_before']:.1f} -> "
            f"{ver['gap_points_after']:.1f} points ({ver['met']}) | {report['games_played']} games in {wall:.0f} s; "
            f"simulate alone, same run: {base_games} games in {base_wall:.0f} s ({per_game * 1000:.0f} ms a game) | "
            f"{ratio:.2f}x the games' own time | proposes ATK 2 (or a change verified fair) | "
            f"{'PASS' if found or ver['passed'] else 'FAIL'} |",
            "| 13. ... verification on fresh seeds, " + (f"{ver['pairs']} pairs" if ver["pairs"] else
                                                         f"{ver['games']} games of the unchanged cards (nothing to pair)")
            + f": {rates} | | | | | - |",
            "| 13. ... every candidate on the search seeds: " + "; ".join(
                f"{_c(e['change'])} {e['gap'] * 100:.1f} ± {e['se'] * 100:.1f} pts over {e['count']['games']} games"
                + (" (pruned)" if e.get("pruned") else "") for e in report["evaluations"]
                if e["seed"] == report["seed"] and "gap" in e) + " | | | | | - |",
            "| 13. ... search path: " + "; ".join(f"{_c(s['change'])} {s['gap_points']:.1f} pts"
                                               for s in report["path"]) + " | | | | | - |"]


def _r(rate: dict | None) -> str:
    return f"{rate['rate']:.1%} [{rate['low']:.1%}, {rate['high']:.1%}]" if rate else "-"


def _c(change: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in change.items()) or "unchanged"


if __name__ == "__main__":
    print("\n".join(main()))
