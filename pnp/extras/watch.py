"""Rebuild on save: watch the sources and templates, run the incremental
build for what changed, keep going after errors (the last good PDFs stay)."""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

import watchfiles

from pnp.pipeline.options import BuildOptions
from pnp.pipeline.orchestrator import build
from pnp.pipeline.report import BuildReport
from pnp.errors import PnpError
from pnp.project import SOURCES_DIR, TEMPLATES_DIR

Outcome = BuildReport | PnpError


def _ignored(path: str) -> bool:
    name = Path(path).name
    return name.startswith((".", "~$")) or name.endswith(("~", ".swp", ".tmp"))  # editors' and Excel's lock files


def watch(project: Path, games: list[str] | None, out_dir: Path, options: BuildOptions,
          on_outcome: Callable[[Outcome, list[str]], None], stop: threading.Event | None = None,
          debounce_ms: int = 300) -> None:
    """Build once, then after every batch of saved changes, until `stop` is set."""
    def run(changed: list[str]) -> None:
        try:
            on_outcome(build(project, games, out_dir, options), changed)
        except PnpError as exc:  # report and keep watching; nothing was written
            on_outcome(exc, changed)

    run([])
    paths = [project / SOURCES_DIR, project / TEMPLATES_DIR]
    for changes in watchfiles.watch(*paths, debounce=debounce_ms, stop_event=stop,
                                    watch_filter=lambda _change, path: not _ignored(path),
                                    raise_interrupt=False):
        changed = sorted({str(Path(p).relative_to(project)) for _, p in changes})
        run(changed)
