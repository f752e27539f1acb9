"""Preparing and rendering changed outputs, one task per deck or document,
spread over the machine's cores. Each task validates its own output and
renders it in memory; nothing is written until every task has succeeded."""
from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from pnp.errors import Problem, Problems
from pnp.model import Ink

_JOB: dict[str, Any] = {}        # what the tasks work on; set before workers fork
_TOOLS: dict[str, Any] = {}      # per process: game -> (templates, icons, render context)


@dataclass(frozen=True)
class Task:
    game: str
    kind: str    # "deck" or "doc"
    index: int   # position in the game's list of changed decks / documents
    label: str
    weight: int = 1  # a rough cost (cards to draw), so the biggest tasks start first


def _tools(slug: str):
    if slug not in _TOOLS:
        from pnp.build import SHEET_FONT
        from pnp.fonts import register_fonts
        from pnp.icons import IconSet
        from pnp.project import TEMPLATES_DIR
        from pnp.render import RenderContext
        from pnp.sources import icon_files
        from pnp.templates import TemplateSet

        project = _JOB["project"]
        register_fonts(project / TEMPLATES_DIR)
        icons = IconSet.load(*icon_files(project, slug))
        templates = TemplateSet.load(project, slug)
        _TOOLS[slug] = (templates, icons, RenderContext(templates.style, icons, SHEET_FONT))
    return _TOOLS[slug]


def run_task(task: Task) -> tuple[list[Problem], list[tuple[str, bytes, dict, dict]]]:
    """(problems, [(file name, PDF bytes, built info, state entry)]) for one output."""
    from pnp import build as b

    project, sources, options, out_dir = _JOB["project"], _JOB["sources"], _JOB["options"], _JOB["out_dir"]
    game = sources.games[task.game]
    templates, icons, ctx = _tools(task.game)
    problems = Problems(project)
    saver = options.ink is Ink.SAVER
    if saver:
        from pnp.inksaver import saver_context, saver_face

        ctx = saver_context(ctx)
    if task.kind == "deck":
        from pnp.layout import plan_deck
        from pnp.render import render_deck

        deck = _JOB["decks"][task.game][task.index]
        faces = b._prepare_decks(game, templates, icons, problems, [deck])
        if problems or not faces:
            return problems.items, []
        f = faces[0]
        size = b.deck_size(deck, game)
        if saver:
            f = b.DeckFaces(f.deck, {k: saver_face(v, size) for k, v in f.fronts.items()},
                            None if f.back is None else saver_face(f.back, size))
        copies = [card for card in deck.cards for _ in range(card.quantity)]
        plan = plan_deck(len(copies), size, options.paper, options.layout, options.flip, f.back is not None)
        shift = b.deck_back_shift(plan, options)
        data = render_deck(f"{game.name} — {deck.name}", plan, size, [f.fronts[c.id] for c in copies], f.back, ctx,
                           back_shift=shift)
        path = out_dir / task.game / b.deck_filename(deck)
        entry = {"key": _JOB["keys"][task.game, "deck", deck.id], "file": b._file_entry(path, deck, plan, options),
                 "cards": b._card_entries(path, copies, plan, game, shift)}
        return [], [(path.name, data, {"kind": "deck", "pages": plan.pages, "cards": len(copies)}, entry)]
    from pnp.documents import prepare_documents, render_documents

    doc = _JOB["docs"][task.game][task.index]
    prepared = prepare_documents(game, templates, options.paper,
                                 lambda face: b._fit_face(face, templates.style, icons), problems, [doc])
    if problems:
        return problems.items, []
    key = _JOB["keys"][task.game, "doc", doc.id]
    accent = game.decks[0].color if game.decks else "#333333"
    tints = None
    if saver:
        from pnp.inksaver import saver_docs, saver_rule_tints, saver_text_color

        prepared, accent, tints = saver_docs(prepared), saver_text_color(accent), saver_rule_tints()
    out = []
    for name, data, entry in render_documents(prepared, game, options.paper, ctx, accent, tints):
        out.append((name, data, {"kind": entry["kind"], "pages": entry.get("pages") or 0, "cards": 0},
                    {"key": key, "file": {"file": name, **entry}, "cards": []}))
    return [], out


def worker_count(tasks: int) -> int:
    wanted = os.environ.get("PNP_JOBS")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    n = int(wanted) if wanted and wanted.isdigit() else cores
    return max(1, min(n, tasks))


def run_tasks(job: dict[str, Any], tasks: list[Task], progress: Callable[[int, int, str], None] | None):
    """Every task's result, in task order. Runs in worker processes (forked,
    so they share what is already loaded) when there is more than one core."""
    _JOB.clear()
    _JOB.update(job)
    _TOOLS.clear()
    workers = worker_count(len(tasks))
    results = []
    if workers == 1 or "fork" not in multiprocessing.get_all_start_methods():
        for i, task in enumerate(tasks):
            if progress:
                progress(i, len(tasks), task.label)
            results.append(run_task(task))
        return results
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        # longest first, so no big deck is left running alone at the end
        order = sorted(range(len(tasks)), key=lambda i: -tasks[i].weight)
        submitted = {i: pool.submit(run_task, tasks[i]) for i in order}
        futures = [submitted[i] for i in range(len(tasks))]
        for i, (task, future) in enumerate(zip(tasks, futures)):
            if progress:
                progress(i, len(tasks), task.label)
            results.append(future.result())
    return results
