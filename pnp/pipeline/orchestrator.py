"""The orchestrator: sources -> model -> faces (templates + fitting) -> layout
-> render -> write, always in that order. Everything is read and checked
before anything is written.

`build` compares each game's inputs with what its last build recorded
(pnp.pipeline.incremental) and stops there when nothing changed: such a build
never loads the source reader (YAML), the worker pool or ReportLab. The games
that changed are rebuilt by pnp.pipeline.rebuild; an ink-saver build then
measures its ink against the normal build's (pnp.pipeline.inkcoverage)."""
from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Callable

from pnp.pipeline.incremental import BuildState, forget_files, game_digest
from pnp.pipeline.options import BuildOptions, game_dir
from pnp.pipeline.report import BuildReport
from pnp.errors import PnpError, did_you_mean
from pnp.model import Ink
from pnp.project import available_games


def build(
    project: Path,
    games: list[str] | None,
    out_dir: Path,
    options: BuildOptions,
    progress: Callable[[int, int, str], None] | None = None,
    force: bool = False,
) -> BuildReport:
    """Build what changed since the last build (everything with `force`)."""
    started = time.perf_counter()
    forget_files()
    report = BuildReport()
    wanted = check_games(project, games)
    dirs = {slug: game_dir(out_dir, slug, options) for slug in wanted}
    states = {slug: BuildState.load(dirs[slug]) for slug in wanted}
    digests = {slug: game_digest(project, slug, options) for slug in wanted}
    todo = [slug for slug in wanted if force or not states[slug].up_to_date(digests[slug], dirs[slug])]
    report.up_to_date = [f"{slug}/{name}" for slug in wanted if slug not in todo for name in states[slug].outputs]
    if todo:
        from pnp.pipeline.rebuild import rebuild  # lazy: an up-to-date build never loads the pool, YAML or ReportLab

        written, names = rebuild(project, wanted, todo, states, digests, out_dir, options, progress, force)
        report.files += written
        report.up_to_date += names
    _measure_ink(project, wanted, out_dir, options, report)
    report.seconds = time.perf_counter() - started
    return report


def check_games(project: Path, games: list[str] | None) -> list[str]:
    """The games asked for (every game of the project when none are named); an unknown one is refused."""
    available = available_games(project)
    unknown = [g for g in games or [] if g not in available]
    if unknown:
        raise PnpError(f"unknown game {', '.join(unknown)}; this project has: {', '.join(available) or 'none'}"
                       + did_you_mean(unknown[0], available))
    return list(games) if games else available


def _measure_ink(project: Path, games: list[str], out_dir: Path, options: BuildOptions, report: BuildReport) -> None:
    """After an ink-saver build: its ink coverage beside the normal build's,
    which is built here, into a temporary folder, when it is not up to date."""
    if options.ink is not Ink.SAVER:
        return
    from pnp.pipeline.inkcoverage import measure_coverage  # lazy: only an ink-saver build loads pypdfium2

    normal = replace(options, ink=Ink.NORMAL)
    report.ink = measure_coverage(project, games, out_dir, options,
                                  lambda missing, folder: build(project, missing, folder, normal, force=True))
