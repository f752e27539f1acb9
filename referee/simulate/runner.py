"""Many self-played games: configurations in, records streamed out.

`run` yields each GameRecord as it finishes, from a process pool over the
given number of workers (`jobs=1` plays in this process, in seed order,
exactly reproducible), or from a Dask cluster's workers with a scheduler
(cluster.py: records in seed order). Records arrive in completion order with several
workers; each record carries its seed, so the figures do not depend on the
order. Ctrl-C stops the workers and ends the stream: what finished counts.
"""
from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from referee.errors import RefereeError
from referee.model import GameSlug
from referee.simulate.agents import AgentKind
from referee.simulate.play import GameConfig, GameRecord, Seat, play_game

CHUNK = 8  # games a worker plays per task: fewer round trips, still a smooth progress bar


@dataclass(frozen=True)
class Plan:
    """What `referee simulate` was asked for.

    Seat j (its place in the turn order) is played by agents[j]. The
    factions (countries, POTUS, colours) rotate through `factions` game by
    game, so with fewer players than factions every faction meets every
    other, and every faction sits in every seat equally often.
    """

    game: GameSlug
    players: int
    factions: tuple[str, ...]  # () for a game without factions
    agents: tuple[AgentKind, ...]  # one per seat
    games: int
    seed: int = 1
    jobs: int = 1
    turn_cap: int = 200
    budget: int = 24
    check: bool = False
    keep: int = 0
    house_rules: tuple[tuple[str, str], ...] = ()
    project: str | None = None  # A/B's side B: its project folder, played in fresh processes
    start: int = 0  # the first game's index: a batch of a sequential run plays games start .. start+games-1
    scheduler: str | None = None  # a Dask scheduler's address: the games are played on its workers (cluster.py)

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats of the first game (for the report's header)."""
        return self.config(0).seats

    def config(self, index: int) -> GameConfig:
        """Game `index`'s seats. Where the seats' agents differ (a ladder:
        `--agent search --agent heuristic`), the agents also rotate through
        the seats, once every full turn of the factions, so every agent plays
        every seat order and meets every faction in each."""
        seats = []
        shift = index // max(1, len(self.factions)) if len(set(self.agents)) > 1 else 0
        for j in range(self.players):
            faction = self.factions[(index + j) % len(self.factions)] if self.factions else None
            seats.append(Seat(f"P{j + 1}", faction, self.agents[(j + shift) % len(self.agents)]))
        return GameConfig(self.game, tuple(seats), self.seed + index, self.turn_cap, dict(self.house_rules),
                          self.budget, self.check, index < self.keep, self.project)


def check_plan(plan: Plan) -> None:
    """Refuse what cannot be run, before anything starts."""
    if plan.games <= 0:
        raise RefereeError(f"--games must be 1 or more, not {plan.games}")
    cores = os.cpu_count() or 1
    if not 1 <= plan.jobs <= cores:
        raise RefereeError(f"--jobs must be 1 to {cores} (the cores of this machine), not {plan.jobs}")
    if plan.turn_cap <= 0:
        raise RefereeError(f"--turn-cap must be 1 or more, not {plan.turn_cap}")
    if plan.budget <= 0:
        raise RefereeError(f"--budget must be 1 or more, not {plan.budget}")
    if len(plan.agents) != plan.players:
        raise RefereeError(f"name one --agent for every seat ({plan.players}), or one for all, "
                           f"not {len(plan.agents)}")
    if plan.factions and len(set(plan.factions)) < plan.players:
        raise RefereeError(f"{plan.players} players need {plan.players} different factions; "
                           f"{len(set(plan.factions))} given")


def _play_chunk(configs: Sequence[GameConfig]) -> list[GameRecord]:
    return [play_game(c) for c in configs]


def run(plan: Plan, stop: Callable[[], bool] = lambda: False) -> Iterator[GameRecord]:
    """Every game of the plan, each record as soon as it is played."""
    check_plan(plan)
    if plan.scheduler is not None:
        from referee.simulate import cluster  # lazy: Dask only with --scheduler
        configs = [plan.config(i) for i in range(plan.games)]
        yield from cluster.run_configs(plan.scheduler, configs, cluster.project_packet(plan.project), stop)
        return
    if plan.jobs == 1 and plan.project is None:
        for i in range(plan.start, plan.start + plan.games):
            if stop():
                return
            yield play_game(plan.config(i))
        return
    end = plan.start + plan.games
    chunks = [[plan.config(i) for i in range(start, min(end, start + CHUNK))]
              for start in range(plan.start, end, CHUNK)]
    # another project's games run in fresh processes (spawned, not forked), so
    # nothing this process has read of the usual project's cards reaches them
    context = multiprocessing.get_context("spawn") if plan.project is not None else None
    pool = ProcessPoolExecutor(max_workers=plan.jobs, mp_context=context)
    pending: set[Future] = set()
    queue = iter(chunks)
    try:
        for chunk in queue:
            pending.add(pool.submit(_play_chunk, chunk))
            if len(pending) >= plan.jobs * 2:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield from future.result()
            if stop():
                return
            for chunk in queue:
                pending.add(pool.submit(_play_chunk, chunk))
                if len(pending) >= plan.jobs * 2:
                    break
    finally:
        for future in pending:
            future.cancel()
        pool.shutdown(wait=False, cancel_futures=True)


def default_turn_cap(slug: GameSlug, house_rules: Sequence[tuple[str, str]] = ()) -> int:
    """The turn cap when none is given: 200 turns, and for Cold War 100 a
    round (a four-player round, Fallen Leaders flipping, runs 30 to 120 turns)."""
    if slug is GameSlug.COLD_WAR:
        rounds = dict(house_rules).get("rounds", "3")
        return 150 * (int(rounds) if str(rounds).isdigit() else 3)
    return 200


def make_plan(game: str, players: int | None, factions: Sequence[str], agents: Sequence[str], games: int,
              seed: int = 1, jobs: int = 1, turn_cap: int | None = None, budget: int = 24, check: bool = False,
              keep: int = 0, house_rules: Sequence[str] = (), scheduler: str | None = None) -> Plan:
    """A Plan from what a person typed, every part checked against the game."""
    from referee.rules import rules_for  # lazy: only the simulated game's rules
    slug = GameSlug.parse(game)
    rules = rules_for(slug)
    chosen = tuple(_faction(rules, f) for f in factions) if factions else rules.faction_choices()
    if players is None:
        players = len(factions) if factions else (min(len(chosen), rules.max_players) if chosen else rules.min_players)
    if not rules.min_players <= players <= rules.max_players:
        span = f"{rules.min_players} to {rules.max_players}" if rules.min_players != rules.max_players \
            else f"exactly {rules.min_players}"
        raise RefereeError(f"{slug.value} is played by {span} players, not {players}")
    kinds = tuple(AgentKind.parse(a) for a in agents) or (AgentKind.HEURISTIC,)
    if len(kinds) == 1:
        kinds = kinds * players
    rules_given: list[tuple[str, str]] = []
    for text in house_rules:
        key, sep, value = text.partition("=")
        if not sep:
            raise RefereeError(f"a house rule is KEY=VALUE, not {text!r}")
        rules_given.append((key.strip(), value.strip()))
    if turn_cap is None:
        turn_cap = default_turn_cap(slug, rules_given)
    plan = Plan(slug, players, chosen, kinds, games, seed, jobs, turn_cap, budget, check, keep, tuple(rules_given),
                scheduler=scheduler)
    check_plan(plan)
    rules._house_rules(_setup(plan))  # refuse an unknown house rule or value now
    return plan


def _faction(rules, text: str) -> str:
    """A faction as typed, refused naming the choices when the game has no such one."""
    choices = rules.faction_choices()
    if rules.factions:
        return rules._faction(text)
    if choices and text not in choices:
        raise RefereeError(f"{text!r} is not a {rules.faction_word} in {rules.slug.value}; choose one of: "
                           + ", ".join(choices))
    return text


def _setup(plan: Plan):
    from referee.simulate.play import setup_of  # lazy: as above
    return setup_of(plan.config(0))
