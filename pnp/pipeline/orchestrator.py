"""`build`: the PDF build, run through the one pipeline (pnp.pipeline.stages:
sources -> model -> layout -> render -> write, always in that order, with
everything read and checked before anything is written) for the PDF target
(pnp.pipeline.pdf).

A build compares each game's inputs with what its last build recorded
(pnp.pipeline.incremental) and stops there when nothing changed: such a build
never loads the source reader (YAML), the worker pool or ReportLab. An
ink-saver build then measures its ink against the normal build's
(pnp.pipeline.inkcoverage), drawing that one, where it is missing, through
the same stages into a temporary folder (not through `build` again)."""
from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Callable

from pnp.model import Ink
from pnp.pipeline.options import BuildOptions
from pnp.pipeline.pdf import PdfTarget
from pnp.pipeline.report import BuildReport
from pnp.pipeline.stages import check_games, run_stages

__all__ = ["build", "check_games"]


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
    report = run_stages(project, games, PdfTarget(project, out_dir, options, force, progress), progress)
    if options.ink is Ink.SAVER:
        from pnp.pipeline.inkcoverage import measure_coverage  # lazy: only an ink-saver build loads pypdfium2

        normal = replace(options, ink=Ink.NORMAL)
        report.ink = measure_coverage(
            project, check_games(project, games), out_dir, options,
            lambda missing, folder: run_stages(project, missing, PdfTarget(project, folder, normal, force=True)))
    report.seconds = time.perf_counter() - started
    return report
