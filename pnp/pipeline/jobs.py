"""A build's render stage: preparing and rendering changed outputs, one task
per deck or document (where the tasks run, in this process or in workers:
pnp.pipeline.pool; what they share: the frozen pnp.pipeline.tasks.BuildJob and
each game's GamePart, in a `Work`). Each task validates its own output and
renders it in memory; nothing is written until every task has succeeded."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pnp.pipeline import manifest
from pnp.pipeline.incremental import picture_record
from pnp.pipeline.facecache import MAX_CARDS, FaceCache
from pnp.pipeline.facewarnings import KindNotes
from pnp.pipeline.prepare import BAD_BACK, back_reads_card, deck_size, prepare_back, prepare_card
from pnp.pipeline.tasks import BuildJob, Task, Work
from pnp.errors import Problem, Problems
from pnp.faces.elements import Art
from pnp.faces.facecheck import face_notes
from pnp.layout.cutters import GAP, OUTER_BLEED, plan_cutter_deck
from pnp.layout.sheets import plan_deck
from pnp.model import Backs, Ink
from pnp.project import TEMPLATES_DIR
from pnp.pipeline.cutfiles import cutter_entry, cutter_files
from pnp.render.cutsheet import cutter_furniture
from pnp.render.decks import render_deck
from pnp.render.documents import prepare_documents, render_documents
from pnp.render.fonts import register_fonts
from pnp.sources.cardsnap import snapshot
from pnp.render.inksaver import saver_context, saver_docs, saver_face, saver_rule_tints, saver_text_color


BACK = "back"  # a per-card back's key is (BACK, card id)


class _Invalid(Exception):
    """A card has a problem: stop drawing, keep checking."""


def run_task(job: BuildJob, work: Work, task: Task) -> tuple[list[Problem], list[tuple[str, bytes, dict, dict]]]:
    """(problems, [(file name, PDF bytes, built info, state entry)]) for one output."""
    if task.kind == "deck":
        return _deck_task(job, work, task)
    return _doc_task(job, work, task)


def _deck_task(job: BuildJob, work: Work, task: Task) -> tuple[list[Problem], list[tuple[str, bytes, dict, dict]]]:
    project, options, out_dir = job.project, job.options, job.out_dir
    part = work.parts[task.game]
    game = part.game
    tools = work.tools(task.game)
    problems = Problems(project)
    saver = options.ink is Ink.SAVER
    ctx = saver_context(tools.context) if saver else tools.context
    deck = part.decks[task.index]
    size = deck_size(deck, game)
    cache = FaceCache(project, task.game, deck.id, enabled=len(deck.cards) <= MAX_CARDS and job.faces)
    common = options.backs is Backs.COMMON
    per_card = back_reads_card(project, game, deck)  # each card its own back (a double-faced card)
    back = None if per_card else prepare_back(deck, game, tools, problems, cache, common=common)
    notes = KindNotes()
    if back not in (None, BAD_BACK):
        notes.add(f"{deck.id} back", f"{deck.id} back", face_notes(back, size, tools.style))
    if saver and back not in (None, BAD_BACK):
        back = saver_face(back, size)
    copies = [card for card in deck.cards for _ in range(card.quantity)]
    cards = {card.id: card for card in deck.cards}
    done: set[str] = set()
    pictures = set(pictures_of(back))

    def face_of(card_id):
        """Each distinct front made when the renderer first needs it, then
        dropped once drawn: a huge deck never holds all its faces. A per-card
        back is asked for as (BACK, card id)."""
        if isinstance(card_id, tuple):
            face = prepare_back(deck, game, tools, problems, cache, common=common, card=cards[card_id[1]])
            if face is BAD_BACK:
                raise _Invalid
            pictures.update(pictures_of(face))
            notes.add(f"{deck.id} back", f"{card_id[1]} back", face_notes(face, size, tools.style))
            return saver_face(face, size) if saver else face
        done.add(card_id)
        face = prepare_card(cards[card_id], deck, game, tools, problems, cache)
        if face is None:
            raise _Invalid
        pictures.update(pictures_of(face))
        notes.add(cards[card_id].type, card_id, face_notes(face, size, tools.style))
        return saver_face(face, size) if saver else face

    cutter = None
    has_back = back is not None or (per_card and deck.back is not None)
    if options.cutter is not None:
        cutter = plan_cutter_deck(len(copies), size, options.paper, options.cutter, options.flip, has_back)
        plan = cutter.deck
        ctx = replace(ctx, bleed=max(ctx.bleed, GAP / 2, OUTER_BLEED))
    else:
        plan = plan_deck(len(copies), size, options.paper, options.layout, options.flip, has_back)
    back_of = (lambda copy: (BACK, copies[copy].id)) if per_card else None
    shift = manifest.deck_back_shift(plan, options)
    data = None
    title = f"{game.name} — {deck.name}"
    if not problems:
        try:
            data = render_deck(title, plan, size, [c.id for c in copies], back, ctx,
                               back_shift=shift, face_of=face_of, qr_payloads=manifest.copy_payloads(copies),
                               furniture=cutter_furniture(cutter, ctx) if cutter is not None else None,
                               back_of=back_of)
        except _Invalid:
            pass
    if data is None:  # still check every card, so all problems are reported at once
        for card in deck.cards:
            if card.id not in done:
                prepare_card(card, deck, game, tools, problems, cache)
            if per_card:
                prepare_back(deck, game, tools, problems, cache, common=common, card=card)
        return problems.items, []
    cache.save()
    path = out_dir / task.game / manifest.deck_filename(deck)
    key = part.keys[task.game, "deck", deck.id]
    entry = {"key": key, "file": manifest.file_entry(path, deck, plan, options),
             "cards": manifest.card_entries(path, copies, plan, game, shift),
             "snapshot": {card.id: snapshot(card, project) for card in deck.cards},  # for `pnp diff`
             "pictures": picture_record(pictures),
             "notes": notes.entries()}   # the faces' warnings (pnp.pipeline.facewarnings)
    out = [(path.name, data, {"kind": "deck", "pages": plan.pages, "cards": len(copies)}, entry)]
    if cutter is not None:
        entry["file"]["cutter"] = cutter_entry(cutter)
        out += cutter_files(path, data, cutter, title, key)
    return [], out


def _doc_task(job: BuildJob, work: Work, task: Task) -> tuple[list[Problem], list[tuple[str, bytes, dict, dict]]]:
    project, options = job.project, job.options
    part = work.parts[task.game]
    game = part.game
    tools = work.tools(task.game)
    problems = Problems(project)
    doc = part.docs[task.index]
    prepared = prepare_documents(game, tools.templates, options.paper, tools.fit, problems, [doc])
    if problems:
        return problems.items, []
    key = part.keys[task.game, "doc", doc.id]
    accent = game.decks[0].color if game.decks else "#333333"
    ctx, tints = tools.context, None
    if options.ink is Ink.SAVER:
        prepared, accent, tints = saver_docs(prepared), saver_text_color(accent), saver_rule_tints()
        ctx = saver_context(ctx)
    out = []
    pictures = picture_record(src for p in prepared for face in [p.face, *(p.diagrams or {}).values()]
                              for src in pictures_of(face))
    for name, data, entry in render_documents(prepared, game, options.paper, ctx, accent, tints):
        out.append((name, data, {"kind": entry["kind"], "pages": entry.get("pages") or 0, "cards": 0},
                    {"key": key, "file": {"file": name, **entry}, "cards": [], "pictures": pictures}))
    return [], out


def pictures_of(face) -> list[str]:
    """The picture files a face draws (its <art> elements' resolved paths)."""
    return [el.src for el in getattr(face, "elements", ()) if isinstance(el, Art)]


def warm(project: Path) -> None:
    """What every task needs, loaded ahead: the drawing modules (imported with
    this module) and the project's fonts."""
    register_fonts(project / TEMPLATES_DIR)
