"""Preparing and rendering changed outputs, one task per deck or document
(where the tasks run, in this process or in workers: pnp.build.pool). Each task
validates its own output and renders it in memory; nothing is written until
every task has succeeded."""
from __future__ import annotations

import multiprocessing
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.errors import Problem, Problems
from pnp.model import Backs, Ink

_JOB: dict[str, Any] = {}        # what the tasks work on (in a worker: as the parent sent it)
_TOOLS: dict[str, Any] = {}      # per process: game -> (templates, icons, render context)
_SHARED: dict[str, Any] = {}     # in a pool's workers: "compiled" -> folder of templates compiled this build


class _Invalid(Exception):
    """A card has a problem: stop drawing, keep checking."""


@dataclass(frozen=True)
class Task:
    game: str
    kind: str    # "deck" or "doc"
    index: int   # position in the game's list of changed decks / documents
    label: str
    weight: int = 1  # a rough cost (faces to draw), so the biggest tasks start first


def _tools(slug: str):
    if slug not in _TOOLS:
        from pnp.build.orchestrator import SHEET_FONT
        from pnp.render.fonts import register_fonts
        from pnp.faces.icons import IconSet
        from pnp.project import TEMPLATES_DIR
        from pnp.render.canvas import RenderContext
        from pnp.sources.loader import icon_files
        from pnp.faces.templates import TemplateSet

        project = _JOB["project"]
        register_fonts(project / TEMPLATES_DIR)
        icons = IconSet.load(*icon_files(project, slug))
        templates = TemplateSet.load(project, slug)
        if "compiled" in _SHARED:  # a template one worker compiled, the others load instead of compiling
            from jinja2 import FileSystemBytecodeCache

            templates.env.bytecode_cache = FileSystemBytecodeCache(_SHARED["compiled"])
        _TOOLS[slug] = (templates, icons, RenderContext(templates.style, icons, SHEET_FONT))
    return _TOOLS[slug]


def run_task(task: Task) -> tuple[list[Problem], list[tuple[str, bytes, dict, dict]]]:
    """(problems, [(file name, PDF bytes, built info, state entry)]) for one output."""
    from pnp.build import orchestrator as b

    project, options, out_dir = _JOB["project"], _JOB["options"], _JOB["out_dir"]
    game = _JOB["games"][task.game]
    templates, icons, ctx = _tools(task.game)
    problems = Problems(project)
    saver = options.ink is Ink.SAVER
    if saver:
        from pnp.render.inksaver import saver_context, saver_face

        ctx = saver_context(ctx)
    if task.kind == "deck":
        from pnp.build.facecache import MAX_CARDS, FaceCache
        from pnp.layout.sheets import plan_deck
        from pnp.render.canvas import render_deck

        deck = _JOB["decks"][task.game][task.index]
        size = b.deck_size(deck, game)
        cache = FaceCache(project, task.game, deck.id, enabled=len(deck.cards) <= MAX_CARDS)
        back = b.prepare_back(deck, game, templates, icons, problems, cache, common=options.backs is Backs.COMMON)
        if saver and back not in (None, b.BAD_BACK):
            back = saver_face(back, size)
        copies = [card for card in deck.cards for _ in range(card.quantity)]
        cards = {card.id: card for card in deck.cards}
        done: set[str] = set()

        def face_of(card_id: str):
            """Each distinct front made when the renderer first needs it, then
            dropped once drawn: a huge deck never holds all its faces."""
            done.add(card_id)
            face = b.prepare_card(cards[card_id], deck, game, templates, icons, problems, cache)
            if face is None:
                raise _Invalid
            return saver_face(face, size) if saver else face

        plan = plan_deck(len(copies), size, options.paper, options.layout, options.flip, back is not None)
        shift = b.deck_back_shift(plan, options)
        data = None
        if not problems:
            try:
                data = render_deck(f"{game.name} — {deck.name}", plan, size, [c.id for c in copies], back, ctx,
                                   back_shift=shift, face_of=face_of, qr_payloads=b.copy_payloads(copies))
            except _Invalid:
                pass
        if data is None:  # still check every card, so all problems are reported at once
            for card in deck.cards:
                if card.id not in done:
                    b.prepare_card(card, deck, game, templates, icons, problems, cache)
            return problems.items, []
        cache.save()
        path = out_dir / task.game / b.deck_filename(deck)
        entry = {"key": _JOB["keys"][task.game, "deck", deck.id], "file": b._file_entry(path, deck, plan, options),
                 "cards": b._card_entries(path, copies, plan, game, shift)}
        return [], [(path.name, data, {"kind": "deck", "pages": plan.pages, "cards": len(copies)}, entry)]
    from pnp.render.documents import prepare_documents, render_documents

    doc = _JOB["docs"][task.game][task.index]
    prepared = prepare_documents(game, templates, options.paper,
                                 lambda face: b._fit_face(face, templates.style, icons), problems, [doc])
    if problems:
        return problems.items, []
    key = _JOB["keys"][task.game, "doc", doc.id]
    accent = game.decks[0].color if game.decks else "#333333"
    tints = None
    if saver:
        from pnp.render.inksaver import saver_docs, saver_rule_tints, saver_text_color

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


def warm(project: Path) -> None:
    """What every task needs, loaded ahead: the drawing modules and the project's fonts."""
    import pnp.render.documents  # noqa: F401
    import pnp.layout.sheets  # noqa: F401
    import pnp.render.canvas  # noqa: F401
    import pnp.render.rulesheet  # noqa: F401
    from pnp.render.fonts import register_fonts
    from pnp.project import TEMPLATES_DIR

    register_fonts(project / TEMPLATES_DIR)


def set_job(job: dict[str, Any]) -> None:
    """A new build's job in this process: what all its tasks share."""
    _JOB.clear()
    _JOB.update(job)
    _TOOLS.clear()


def extend_job(part: dict[str, dict]) -> None:
    """One more game's part of the job (its game, decks, documents and keys)."""
    for name, values in part.items():
        _JOB.setdefault(name, {}).update(values)


def share_compiled(folder: str) -> None:
    """Templates are compiled into (and loaded from) `folder`, shared by the workers of one build."""
    _SHARED["compiled"] = folder
