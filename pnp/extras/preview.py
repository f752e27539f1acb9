"""One card's face and back side by side as a PNG, without building its deck."""
from __future__ import annotations

import io
from pathlib import Path

from pnp.build.orchestrator import BuildOptions, _fit_face, back_context, card_context, deck_size
from pnp.errors import PnpError, Problems
from pnp.layout.sheets import plan_deck
from pnp.model import Card, Deck, Game, Size
from pnp.project import TEMPLATES_DIR
from pnp.sources.qrpayload import parse_payload
from pnp.sources.loader import icon_files, load_sources

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
    raise PnpError(f"no card {card_id!r} in this project; `pnp list` shows every card id")


def _rasterize(pdf: bytes, dpi: int, page: int = 0):
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        return doc[page].render(scale=dpi / 72).to_pil()
    finally:
        doc.close()


def preview_card(project: Path, code: str, dpi: int = 150):
    """A PIL image: the card's face, then its back (when it has one)."""
    from pnp.render.fonts import register_fonts
    from pnp.faces.icons import IconSet
    from pnp.render.canvas import RenderContext, draw_face, new_canvas
    from pnp.faces.templates import TemplateProblem, TemplateSet
    from pnp.faces.textfit import FitError
    from pnp.units import pt

    sources = load_sources(project)
    game, deck, card = _find(sources, code)
    register_fonts(project / TEMPLATES_DIR)
    icons = IconSet.load(*icon_files(project, game.slug))
    templates = TemplateSet.load(project, game.slug)
    problems = Problems(project)
    faces = []
    try:
        faces.append(_fit_face(templates.render(game.card_types[card.type].template, card_context(card, deck, game)),
                               templates.style, icons))
        if deck.back:
            faces.append(_fit_face(templates.render(deck.back, back_context(deck, game)), templates.style, icons))
    except TemplateProblem as exc:
        problems.add(exc.path, exc.line, card.id, exc.message)
    except FitError as exc:
        problems.add(card.path, card.line, card.id, str(exc))
    problems.raise_if_any()
    size = deck_size(deck, game)
    page = Size(2 * MARGIN + len(faces) * size.width + (len(faces) - 1) * GAP, 2 * MARGIN + size.height, "preview")
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, page, RenderContext(templates.style, icons, "RobotoCondensed-Regular"), card.name, None)
    for i, face in enumerate(faces):
        canvas.saveState()
        canvas.translate(pt(MARGIN + i * (size.width + GAP)), pt(MARGIN))
        path = canvas.beginPath()
        path.rect(0, 0, pt(size.width), pt(size.height))
        canvas.clipPath(path, stroke=0, fill=0)
        draw_face(canvas, face, size, RenderContext(templates.style, icons, "RobotoCondensed-Regular", bleed=0))
        canvas.restoreState()
    canvas.showPage()
    canvas.save()
    return _rasterize(buffer.getvalue(), dpi), card


def preview_sheet(project: Path, game_slug: str, dpi: int = 150, options: BuildOptions = BuildOptions()):
    """A PIL image of the first fronts sheet of the game's first deck."""
    from pnp.build.orchestrator import _prepare_decks
    from pnp.render.fonts import register_fonts
    from pnp.faces.icons import IconSet
    from pnp.render.canvas import RenderContext, render_deck
    from pnp.faces.templates import TemplateSet

    sources = load_sources(project, [game_slug])
    game = sources.games[game_slug]
    deck = game.decks[0]
    size = deck_size(deck, game)
    per_page = plan_deck(1, size, options.paper, options.layout, options.flip, deck.back is not None).per_page
    copies = [c for c in deck.cards for _ in range(c.quantity)][:per_page]
    register_fonts(project / TEMPLATES_DIR)
    icons = IconSet.load(*icon_files(project, game_slug))
    templates = TemplateSet.load(project, game_slug)
    problems = Problems(project)
    wanted = {c.id for c in copies}
    trimmed = Deck(deck.id, deck.name, deck.back, deck.color, deck.icon,
                   tuple(c for c in deck.cards if c.id in wanted), deck.path, deck.line, deck.size)
    (faces,) = _prepare_decks(game, templates, icons, problems, [trimmed]) or [None]
    problems.raise_if_any()
    plan = plan_deck(len(copies), size, options.paper, options.layout, options.flip, faces.back is not None)
    from pnp.build.orchestrator import copy_payloads

    pdf = render_deck(f"{game.name} — {deck.name}", plan, size, [faces.fronts[c.id] for c in copies], faces.back,
                      RenderContext(templates.style, icons, "RobotoCondensed-Regular"), qr_payloads=copy_payloads(copies))
    return _rasterize(pdf, dpi)
