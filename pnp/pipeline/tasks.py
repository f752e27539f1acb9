"""A run's tasks, one per output file (or sheet), as the pipeline and the pool
see them: the job they share (a typed, frozen value the parent hands to each
worker), what one process holds of a run (`Work`), how many workers to start,
and which task a free worker takes next. Running a build's task is
pnp.pipeline.jobs; an export's, its own module (neither is loaded here)."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.model import Deck, Document, Game


@dataclass(frozen=True)
class Task:
    game: str
    kind: str    # what the task makes: "deck" or "doc" for a build; an export's own kinds
    index: int   # position in its game's part of the job (GamePart.decks / .docs, or an export's units)
    label: str
    weight: int = 1  # a rough cost (faces to draw), so the biggest tasks start first


@dataclass(frozen=True)
class Job:
    """What every task of one run shares, sent once to each worker. A run
    subclasses it with its own fields: a build's tasks are run by
    pnp.pipeline.jobs, an export's by its job's own `run`."""

    project: Path

    def run(self, work: "Work", task: Task) -> Any:
        """One task's result: (problems, what it made)."""
        raise NotImplementedError


@dataclass(frozen=True)
class BuildJob(Job):
    """A PDF build: its options, where its files go, whether faces are remembered."""

    options: Any = None      # pnp.pipeline.options.BuildOptions
    out_dir: Path = Path("output")
    faces: bool = True       # the face cache is on (pnp.pipeline.facecache)
    # its tasks are run by pnp.pipeline.jobs (see pnp.pipeline.pool.run_task)


@dataclass(frozen=True)
class GamePart:
    """One changed game's part of a build's job: its decks and documents to
    draw (a task's index points into these) and each output's key."""

    game: Game
    decks: tuple[Deck, ...] = ()
    docs: tuple[Document, ...] = ()
    keys: dict = field(default_factory=dict)   # (slug, "deck"|"doc", id) -> key


class Work:
    """What one process holds of a run: its job, each game's part as the
    parent sent it, and the drawing tools loaded for each game (templates
    compiled by one worker are loaded from `compiled` by the others)."""

    def __init__(self, job: Job, compiled: str | None = None):
        self.job, self.compiled = job, compiled
        self.parts: dict[str, Any] = {}
        self.loaded: dict[str, Any] = {}

    def add(self, parts: dict[str, Any]) -> None:
        self.parts.update(parts)

    def tools(self, slug: str):
        """The game's drawing tools (pnp.render.tools.Tools), loaded once per process and run."""
        if slug not in self.loaded:
            from pnp.render.tools import load_tools  # lazy: ReportLab and Jinja, only where tasks run

            self.loaded[slug] = load_tools(self.job.project, slug, self.compiled)
        return self.loaded[slug]


def worker_count(tasks: int) -> int:
    wanted = os.environ.get("PNP_JOBS")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    n = int(wanted) if wanted and wanted.isdigit() else cores
    return max(1, min(n, tasks))


def can_fork() -> bool:
    import multiprocessing  # lazy: a build with nothing to draw never loads it

    return "fork" in multiprocessing.get_all_start_methods()


def next_task(pending: list[int], tasks: list[Task], mine: set[str], others: set[str]) -> int:
    """Which pending task (kept biggest first) a free worker takes: one of a
    game it has loaded already (its templates compiled, its fonts read), else
    one of a game no worker has loaded, else the biggest left."""
    for wanted in (lambda t: t.game in mine, lambda t: t.game not in others, lambda t: True):
        for i in pending:
            if wanted(tasks[i]):
                return i
    raise IndexError("no task pending")
