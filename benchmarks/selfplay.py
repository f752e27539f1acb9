"""Self-play speed (issue 27): games a second per core for each game the
simulator can play, and what legal-move generation costs.

    python benchmarks/selfplay.py [--quick]

For each game: N games with random agents in one process (one core), and
the "bare loop": the same games' recorded actions applied again through the
rules with their recorded dice, no generation and no agent. The ratio
simulated / bare says how much of self-play's time is choosing the move.
Then the same run over every core through the process pool, and Culture
War with the greedy agent where Culture War can be simulated.
"""
from __future__ import annotations

import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.errors import RefereeError  # noqa: E402
from referee.rules import rules_for  # noqa: E402
from referee.model import GameSlug  # noqa: E402
from referee.simulate.play import play_game, setup_of  # noqa: E402
from referee.simulate.runner import make_plan, run  # noqa: E402

QUICK = "--quick" in sys.argv
GAMES = {GameSlug.PETRI_DISH: 40, GameSlug.CULTURE_WAR: 60, GameSlug.DIVIDE_AND_CONQUER: 40,
         GameSlug.DEBATE: 60, GameSlug.COLD_WAR: 8}
PLAYERS = {GameSlug.CULTURE_WAR: 3, GameSlug.COLD_WAR: 2}  # Cold War's four-player round runs ~100 turns
GREEDY_TURNS = 4  # a greedy Culture War game scores every move it could make: its first turns only


def one_core(game: GameSlug, n: int, agent: str = "random", turn_cap: int = 200) -> tuple[float, int, list]:
    plan = make_plan(game.value, PLAYERS.get(game), (), (agent,), n, seed=1, turn_cap=turn_cap, keep=n)
    start = time.process_time()
    records = [play_game(plan.config(i)) for i in range(n)]
    return time.process_time() - start, sum(r.actions for r in records), [(plan.config(i), r) for i, r in enumerate(records)]


def bare(game: GameSlug, played: list) -> float:
    rules = rules_for(game)
    start = time.process_time()
    for config, record in played:
        state = rules.setup(setup_of(config), record.setup_dice)
        for step in record.steps:
            state = rules.apply(state, step.action, step.dice)
    return time.process_time() - start


def all_cores(game: GameSlug, n: int) -> float:
    jobs = os.cpu_count() or 1
    plan = make_plan(game.value, PLAYERS.get(game), (), ("random",), n, seed=1, turn_cap=200, jobs=jobs)
    start = time.perf_counter()
    done = sum(1 for _ in run(plan))
    return done / (time.perf_counter() - start)


def main() -> list[str]:
    rows = []
    for game, n in GAMES.items():
        n = max(4, n // 4) if QUICK else n
        try:
            cpu, actions, played = one_core(game, n)
        except RefereeError as exc:
            rows.append(f"| 8. self-play {game.value} | not measured: {exc} | | | | |")
            continue
        base = bare(game, played)
        rate = n / cpu
        ratio = cpu / base if base else float("inf")
        rows.append(f"| 8. self-play {game.value}, random agents, one core | {rate:.1f} games/s per core "
                    f"({actions / cpu:,.0f} actions/s) | bare loop of the same actions {actions / base:,.0f} actions/s "
                    f"| {ratio:.2f}x | none (what generation costs) | - |")
        per_sec = all_cores(game, n * 2)
        target = ">= 35 games/s (3-player Culture War)" if game is GameSlug.CULTURE_WAR else "none"
        ok = (per_sec >= 35) if game is GameSlug.CULTURE_WAR else None
        rows.append(f"| 8. self-play {game.value}, all {os.cpu_count()} cores | {per_sec:.1f} games/s | - | - | "
                    f"{target} | {'PASS' if ok else ('FAIL' if ok is False else '-')} |")
        if game is GameSlug.CULTURE_WAR:
            greedy = 1 if QUICK else 2
            cpu_g, acted, _ = one_core(game, greedy, "greedy", turn_cap=GREEDY_TURNS)
            rows.append(f"| 8. self-play culture-war, greedy agents, one core (first {GREEDY_TURNS} turns) | "
                        f"{acted / cpu_g:.1f} actions/s | random agents {actions / cpu:,.0f} actions/s | "
                        f"{(actions / cpu) / (acted / cpu_g):.0f}x slower | none | - |")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    rows.append(f"| 8. self-play peak memory (this process) | {peak} MB | | | flat | - |")
    return rows


if __name__ == "__main__":
    print("\n".join(main()))
