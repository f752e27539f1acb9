"""Self-play speed (issue 27) and the agent ladder (issue 35): games a second
per core for each game the simulator can play, what legal-move generation
costs, the heuristic agent's speed, the search agent's decisions a second,
and the ladder in every game (heuristic against random, search against
heuristic, cheat against search, both seat orders) with the capped share
at each game's default table.

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
LADDER = {GameSlug.PETRI_DISH: 2, GameSlug.CULTURE_WAR: 2, GameSlug.DIVIDE_AND_CONQUER: 4,
          GameSlug.DEBATE: 2, GameSlug.COLD_WAR: 2}  # players at the ladder's table
SEARCH_BUDGET = 16


def one_core(game: GameSlug, n: int, agent: str = "random", turn_cap: int = 200,
             players: int | None = None) -> tuple[float, int, list]:
    plan = make_plan(game.value, players or PLAYERS.get(game), (), (agent,), n, seed=1, turn_cap=turn_cap, keep=n)
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


def all_cores(game: GameSlug, n: int, agent: str = "random") -> float:
    jobs = os.cpu_count() or 1
    plan = make_plan(game.value, PLAYERS.get(game), (), (agent,), n, seed=1, turn_cap=200, jobs=jobs)
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
            rows += heuristic_rows(n)
    rows += ladder_rows()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    rows.append(f"| 8. self-play peak memory (this process) | {peak} MB | | | flat | - |")
    return rows


def heuristic_rows(n: int) -> list[str]:
    """Three-player Culture War with the heuristic (the default agent): one
    core against the bare loop of the same actions, then every core."""
    game = GameSlug.CULTURE_WAR
    n = max(4, n // 6)
    cpu, actions, played = one_core(game, n, "heuristic")
    base = bare(game, played)
    per_sec = all_cores(game, 2 * n, "heuristic")
    return [f"| 8. self-play culture-war, 3 players, heuristic, one core | {n / cpu:.1f} games/s per core "
            f"({actions / n:.0f} actions a game) | bare loop of the same actions {n / base:.1f} games/s | "
            f"{cpu / base:.1f}x | none | - |",
            f"| 8. self-play culture-war, 3 players, heuristic, all {os.cpu_count()} cores | {per_sec:.1f} games/s | "
            f"- | - | >= 35 games/s | {'PASS' if per_sec >= 35 else 'FAIL'} |"]


def _head_to_head(game: GameSlug, a: str, b: str, n: int) -> tuple[int, int, int, int, float, int]:
    """(a's wins, b's wins, draws, capped, CPU seconds, decisions) of n games, the agents swapping seats."""
    players = LADDER[game]
    plan = make_plan(game.value, players, _factions(game, players), (a, b) * (players // 2), n,
                     seed=101, budget=SEARCH_BUDGET, house_rules=("rounds=1",) if game is GameSlug.COLD_WAR else ())
    wins = {a: 0, b: 0}
    draws = capped = decisions = 0
    start = time.process_time()
    for i in range(n):
        record = play_game(plan.config(i))
        decisions += record.actions
        if record.outcome.value == "win":
            wins[record.seats[record.winner].agent.value] += 1
        elif record.outcome.value == "draw":
            draws += 1
        else:
            capped += 1
    return wins[a], wins[b], draws, capped, time.process_time() - start, decisions


def _factions(game: GameSlug, players: int) -> tuple[str, ...]:
    """A fixed pair of factions (one faction turn is then one game), so the seat orders alternate each game."""
    choices = rules_for(game).faction_choices()
    return tuple(choices[:players]) if choices and len(choices) >= players else ()


def ladder_rows() -> list[str]:
    from referee.simulate.stats import wilson  # the report's own intervals

    rows = []
    steps = (("heuristic", "random", 12 if QUICK else 40, 0.9), ("search", "heuristic", 2 if QUICK else 8, 0.6),
             ("cheat", "search", 2 if QUICK else 4, 0.5))
    for game in LADDER:
        for a, b, n, goal in steps:
            won, lost, draws, capped, cpu, acted = _head_to_head(game, a, b, n)
            rate = wilson(won, won + lost)
            verdict = "PASS" if (won + lost and rate.value >= goal and (goal <= 0.5 or rate.low > 0.5)) else "FAIL"
            rows.append(f"| 8. ladder {game.value}, {a} vs {b}, {n} games both seat orders | {a} wins "
                        f"{rate.value:.0%} of decided (95% {rate.low:.0%}-{rate.high:.0%}; {won}-{lost}, {draws} drawn, "
                        f"{capped} capped) | {acted / cpu:.1f} actions/s | - | >= {goal:.0%} | {verdict} |")
        cap_n = 4 if QUICK else 12
        plan = make_plan(game.value, None, (), ("heuristic",), cap_n, seed=1)
        capped = sum(1 for i in range(cap_n) if play_game(plan.config(i)).outcome.value in ("capped", "jam"))
        rows.append(f"| 8. capped share {game.value}, heuristic, default table ({plan.players} players) | "
                    f"{capped}/{cap_n} | - | - | < 1% | {'PASS' if capped == 0 else 'FAIL'} |")
    return rows


if __name__ == "__main__":
    print("\n".join(main()))
