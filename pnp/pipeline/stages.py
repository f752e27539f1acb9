"""The one pipeline, stage by stage, shared by builds and exports:

    1. sources  the games asked for, and which of them need drawing (a build:
                those whose inputs changed since their last build; an export: all)
    2. model    each of those games read and checked into typed values
                (pnp.sources.loader), one game at a time
    3. layout   each game, as soon as it is read, planned as tasks: one per
                output file (a build's deck or document, an export's sheet or
                deck) and handed to the workers at once
    4. render   the tasks run on every core (pnp.pipeline.pool): faces made,
                laid out, drawn and encoded, each problem collected
    5. write    once every task has succeeded, the target's files replace
                the old ones (each atomically; nothing is written after a
                problem, and a failed run leaves the last good files)

A `Target` is what differs: a PDF build (pnp.pipeline.pdf) or an export
(pnp.extras.export, pnp.extras.tts). `run_stages` is the only place the
stages are called, in that order.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Protocol

from pnp.errors import PnpError, did_you_mean
from pnp.model import Game
from pnp.pipeline.incremental import forget_files
from pnp.pipeline.tasks import Job, Task
from pnp.project import available_games

Progress = Callable[[int, int, str], None]


class Target(Protocol):
    """What a run makes and where it goes: a build's PDFs, an export's files."""

    job: Job

    def changed(self, wanted: list[str]) -> list[str]:
        """Stage 1: which of the games asked for must be drawn (in order)."""

    def known_ids(self, wanted: list[str], todo: list[str]) -> dict[str, Any] | None:
        """The card ids of games asked for but not read, to check ids against."""

    def plan(self, game: Game) -> tuple[dict[str, Any], list[Task]]:
        """Stage 3: a read game's part of the job ({slug: part}) and its tasks."""

    def write(self, sources: Any, tasks: list[Task], results: list) -> Any:
        """Stage 5: the files written (every task has run; a problem is raised
        before anything is written). Returns what the run reports."""

    def nothing(self) -> Any:
        """The report of a run that had nothing to draw."""


def run_stages(project: Path, games: list[str] | None, target: Target, progress: Progress | None = None) -> Any:
    """Run every stage, in order, for `target`; its report."""
    forget_files()
    # 1. sources
    wanted = check_games(project, games)
    todo = target.changed(wanted)
    if not todo:
        return target.nothing()
    from pnp.pipeline.pool import Run, early_pool  # lazy: a run with nothing to draw never loads the pool
    from pnp.sources.loader import load_sources  # lazy: nor YAML

    pool = early_pool(project, todo)
    try:
        run = Run(target.job, pool, progress)
        planned: set[str] = set()

        def read(slug: str, game: Game) -> None:
            """3. layout: a game just read (2. model) is planned and its tasks
            handed to the workers, while the next game is read."""
            planned.add(slug)
            run.add(*target.plan(game))

        # 2. model, and 3. layout game by game as each is read
        with paused_collector():  # reading makes many objects and little garbage: collect once, after
            sources = load_sources(project, todo, known_ids=target.known_ids(wanted, todo), on_game=read)
        for slug in todo:
            if slug not in planned:  # read again after an id clash: already checked, now planned
                read(slug, sources.games[slug])
        # 4. render
        results = run.results()
    except BaseException:
        if pool is not None:
            pool.close(abort=True)
        raise
    if pool is not None:
        pool.close()
    try:
        # 5. write
        return target.write(sources, run.tasks, results)
    finally:
        if pool is not None:
            pool.reap()  # the workers left while the files were written


def check_games(project: Path, games: list[str] | None) -> list[str]:
    """The games asked for (every game of the project when none are named); an unknown one is refused."""
    available = available_games(project)
    unknown = [g for g in games or [] if g not in available]
    if unknown:
        raise PnpError(f"unknown game {', '.join(unknown)}; this project has: {', '.join(available) or 'none'}"
                       + did_you_mean(unknown[0], available))
    return list(games) if games else available


@contextmanager
def paused_collector():
    """No garbage collection inside (it runs again after)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
