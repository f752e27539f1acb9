"""A build's tasks, one per output file, as the orchestrator and the pool see
them: what each is, the job they share in a process, how many workers to
start, and which task a free worker takes next. Running a task is
pnp.pipeline.jobs (which loads the drawing modules; this module does not)."""
from __future__ import annotations

import multiprocessing
import os
from dataclasses import dataclass
from typing import Any

JOB: dict[str, Any] = {}        # what the tasks work on (in a worker: as the parent sent it)
TOOLS: dict[str, Any] = {}      # per process: game -> its drawing tools (pnp.render.tools.Tools)
SHARED: dict[str, Any] = {}     # in a pool's workers: "compiled" -> folder of templates compiled this build


@dataclass(frozen=True)
class Task:
    game: str
    kind: str    # "deck" or "doc"
    index: int   # position in the game's list of changed decks / documents
    label: str
    weight: int = 1  # a rough cost (faces to draw), so the biggest tasks start first


def worker_count(tasks: int) -> int:
    wanted = os.environ.get("PNP_JOBS")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    n = int(wanted) if wanted and wanted.isdigit() else cores
    return max(1, min(n, tasks))


def can_fork() -> bool:
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


def set_job(job: dict[str, Any]) -> None:
    """A new build's job in this process: what all its tasks share."""
    JOB.clear()
    JOB.update(job)
    TOOLS.clear()


def extend_job(part: dict[str, dict]) -> None:
    """One more game's part of the job (its game, decks, documents and keys)."""
    for name, values in part.items():
        JOB.setdefault(name, {}).update(values)


def share_compiled(folder: str) -> None:
    """Templates are compiled into (and loaded from) `folder`, shared by the workers of one build."""
    SHARED["compiled"] = folder
