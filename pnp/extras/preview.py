"""One card's face and back side by side as a PNG, without building its deck."""
from __future__ import annotations

import io
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium

from pnp.extras.guides import BLEED_MM, LEGEND_MM, draw_guides, draw_legend
from pnp.faces.facecheck import face_notes
from pnp.pipeline.facewarnings import KindNotes, warning_lines
from pnp.pipeline.manifest import copy_payloads
from pnp.pipeline.options import BuildOptions
from pnp.pipeline.prepare import back_context, back_reads_card, card_context, deck_size, prepare_decks
from pnp.errors import PnpError, Problems, did_you_mean
from pnp.faces.templates import TemplateProblem
from pnp.faces.textset import FitError
from pnp.layout.sheets import plan_deck
from pnp.model import Card, Deck, Game, Size
from pnp.render.canvas import draw_face, new_canvas
from pnp.render.decks import render_deck
from pnp.render.tools import load_tools
from pnp.sources.loader import load_sources
from pnp.sources.qrpayload import parse_payload
from pnp.units import pt

GAP = 6.0      # mm between face and back
MARGIN = 3.0   # mm around them


def _find(sources, code: str) -> tuple[Game, Deck, Card]:
    payload = parse_payload(code)
    card_id = payload.card_id if payload else code.strip().lower()
    for game in sources.games.values():
        for deck in game.decks:
            for card in deck.cards:
                if card.id == card_id:
                    return game, deck, card
    known = [card.id for game in sources.games.values() for card in game.cards]
    raise PnpError(f"no card {card_id!r} in this project{did_you_mean(card_id, known)} "
                   "(`pnp list` shows every card id)")


def _rasterize(pdf: bytes, dpi: int, page: int = 0):
    doc = pdfium.PdfDocument(pdf)
    try:
        return doc[page].render(scale=dpi / 72).to_pil()
    finally:
        doc.close()


def preview_card(project: Path, code: str, dpi: int = 150):
    """A PIL image: the card's face, then its back (when it has one); and the card."""
    shown = preview(project, code, dpi)
    return shown.image, shown.card


@dataclass(frozen=True)
class Preview:
    image: Any
    card: Card
    warnings: tuple[str, ...]   # the faces' notes (pnp.faces.facecheck), as a build says them


def preview(project: Path, code: str, dpi: int = 150, guides: bool = False) -> Preview:
    """The card's face and back side by side (with `guides`: each with its
    bleed, and the bleed, trim and safe zone drawn over it), and its warnings."""
    sources = load_sources(project)
    game, deck, card = _find(sources, code)
    tools = load_tools(project, game.slug)
    problems = Problems(project)
    faces = []
    try:
        faces.append(tools.fit(tools.templates.render(game.card_types[card.type].template,
                                                      card_context(card, deck, game))))
        if deck.back:
            own = back_reads_card(project, game, deck)  # a per-card back: this card's own
            faces.append(tools.fit(tools.templates.render(deck.back, back_context(deck, game, card=card if own else None))))
    except TemplateProblem as exc:
        problems.add(exc.path, exc.line, card.id, exc.message)
    except FitError as exc:
        problems.add(card.path, card.line, card.id, str(exc))
    problems.raise_if_any()
    size = deck_size(deck, game)
    notes = KindNotes()
    for face, kind, label in zip(faces, (card.type, f"{deck.id} back"), (card.id, f"{deck.id} back")):
        notes.add(kind, label, face_notes(face, size, tools.style))
    margin = MARGIN + (BLEED_MM if guides else 0.0)
    gap = GAP + (2 * BLEED_MM if guides else 0.0)
    legend = LEGEND_MM if guides else 0.0
    page = Size(2 * margin + len(faces) * size.width + (len(faces) - 1) * gap,
                2 * margin + size.height + legend, "preview")
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, page, tools.context, card.name, None)
    bleed = BLEED_MM if guides else 0.0
    for i, face in enumerate(faces):
        canvas.saveState()
        canvas.translate(pt(margin + i * (size.width + gap)), pt(margin + legend))
        path = canvas.beginPath()
        path.rect(pt(-bleed), pt(-bleed), pt(size.width + 2 * bleed), pt(size.height + 2 * bleed))
        canvas.clipPath(path, stroke=0, fill=0)
        draw_face(canvas, face, size, replace(tools.context, bleed=bleed + 0.5 if guides else 0))
        canvas.restoreState()
        if guides:
            canvas.saveState()
            canvas.translate(pt(margin + i * (size.width + gap)), pt(margin + legend))
            draw_guides(canvas, size)
            canvas.restoreState()
    if guides:
        draw_legend(canvas, MARGIN, MARGIN * 0.6)
    canvas.showPage()
    canvas.save()
    return Preview(_rasterize(buffer.getvalue(), dpi), card, tuple(warning_lines(game.slug, notes.entries())))


def preview_sheet(project: Path, game_slug: str, dpi: int = 150, options: BuildOptions = BuildOptions(),
                  warnings: list[str] | None = None):
    """A PIL image of the first fronts sheet of the game's first deck; its
    faces' warnings are added to `warnings` when it is given."""
    sources = load_sources(project, [game_slug])
    game = sources.games[game_slug]
    deck = game.decks[0]
    size = deck_size(deck, game)
    per_page = plan_deck(1, size, options.paper, options.layout, options.flip, deck.back is not None).per_page
    copies = [c for c in deck.cards for _ in range(c.quantity)][:per_page]
    tools = load_tools(project, game_slug)
    problems = Problems(project)
    wanted = {c.id for c in copies}
    trimmed = Deck(deck.id, deck.name, deck.back, deck.color, deck.icon,
                   tuple(c for c in deck.cards if c.id in wanted), deck.path, deck.line, deck.size)
    (faces,) = prepare_decks(game, tools, problems, [trimmed]) or [None]
    problems.raise_if_any()
    if warnings is not None:
        notes = KindNotes()
        for card in trimmed.cards:
            notes.add(card.type, card.id, face_notes(faces.fronts[card.id], size, tools.style))
        if faces.back is not None:
            notes.add(f"{deck.id} back", f"{deck.id} back", face_notes(faces.back, size, tools.style))
        warnings += warning_lines(game.slug, notes.entries())
    plan = plan_deck(len(copies), size, options.paper, options.layout, options.flip, faces.back is not None)
    pdf = render_deck(f"{game.name} — {deck.name}", plan, size, [faces.fronts[c.id] for c in copies], faces.back,
                      tools.context, qr_payloads=copy_payloads(copies),
                      back_of=(lambda i: faces.backs[copies[i].id]) if faces.backs else None)
    return _rasterize(pdf, dpi)
