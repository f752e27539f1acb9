"""Stage 4: drawing a deck's planned sheets with ReportLab into PDF bytes.

Each distinct card face and each deck back is drawn once, as a PDF form
XObject, and placed by reference wherever a copy sits on a sheet.
"""
from __future__ import annotations

import io
from typing import Any, Callable, Hashable, Sequence

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnp.faces.elements import Face
from pnp.layout.marks import BAR_ROOM, cut_marks, place_labels
from pnp.layout.sheets import DeckLayout, Placement, Sheet
from pnp.model import Layout, Size
from pnp.render.canvas import NOTE_FONT_SIZE, RenderContext, draw_copy_elements, draw_face, end_form, new_canvas, scale_bar
from pnp.units import mm, pt

MARK_WIDTH = 0.25  # mm


def render_deck(
    title: str,
    plan: DeckLayout,
    card: Size,
    fronts: Sequence[Hashable],    # one per printed copy: a Face, or a key that face_of turns into one
    back: Face | None,
    ctx: RenderContext,
    back_shift: Any = None,        # pnp.layout.printers.BackShift: drawn around everything on a backs page
    face_of: Callable[[Any], Face] | None = None,
    qr_payloads: Sequence[str] | None = None,  # one per printed copy: its own QR code
    furniture: Callable[[Canvas, Sheet, str], None] | None = None,  # draws a sheet's marks and notes instead
    back_of: Callable[[int], Hashable] | None = None,  # per-card backs: a copy's back, a Face or a key for face_of
) -> bytes:
    """The deck's sheets as PDF bytes. Each distinct front (by key) becomes one
    form, drawn when first placed; `face_of(key)` is asked for it then, once.
    With `qr_payloads`, the forms leave out their QR codes and each copy's
    code is drawn over its form with that copy's payload. With `back_of`,
    each copy has its own back (a back template that reads the card: a
    double-faced card), drawn like the fronts, one form per distinct back,
    which keeps its own QR code."""
    buffer = io.BytesIO()
    two_sided = back is not None or back_of is not None
    flip = plan.flip if plan.layout is Layout.DUPLEX and two_sided else None
    canvas = new_canvas(buffer, plan.paper, ctx, title, flip)
    forms: dict[Any, str] = {}
    codes: dict[Any, Face | None] = {}  # the face whose per-copy elements (QR codes) a form left out
    back_key = object()
    own_codes = qr_payloads is not None
    backs: set[Any] = set()  # the keys of per-card backs

    def form_for(key) -> str:
        if key not in forms:
            name = f"face{len(forms)}"
            is_back = key is back_key or key in backs
            face = back if key is back_key else (face_of(key) if face_of else key)
            b = pt(ctx.bleed)
            canvas.beginForm(name, -b, -b, pt(card.width) + b, pt(card.height) + b)
            draw_face(canvas, face, card, ctx, qr=not own_codes or is_back)
            end_form(canvas)
            forms[key] = name
            codes[key] = face if own_codes and not is_back and any(el.per_copy for el in face.elements) else None
        return forms[key]

    def copy_form(key, placement: Placement) -> str:
        """The form one printed copy is drawn with: its face's shared form,
        then, when the copy carries its own QR code, that code over it."""
        face_form = form_for(key)
        if not own_codes or key is back_key or key in backs or codes[key] is None:
            return face_form
        name = f"copy{placement.copy}"
        b = pt(ctx.bleed)
        canvas.beginForm(name, -b, -b, pt(card.width) + b, pt(card.height) + b)
        canvas.doForm(face_form)
        draw_copy_elements(canvas, codes[key], card, ctx, qr_payloads[placement.copy])
        end_form(canvas)
        return name

    by_page: dict[int, list[tuple[Placement, Face]]] = {}
    for p in plan.fronts:
        by_page.setdefault(p.page, []).append((p, fronts[p.copy]))
    for p in plan.backs:
        key = back_key if back_of is None else back_of(p.copy)
        if back_of is not None:
            backs.add(key)
        by_page.setdefault(p.page, []).append((p, key))
    total = plan.pages
    for sheet in plan.sheets:
        placed = by_page.get(sheet.page, [])
        shift = back_shift if sheet.kind == "backs" and back_shift is not None else None
        if shift is not None:  # the printer's correction moves cards and cut marks together
            canvas.saveState()
            a, b, c, d, e, f = shift.matrix()
            canvas.transform(a, b, c, d, pt(e), pt(f))
        for placement, face in placed:
            _place(canvas, copy_form(face, placement), placement)
        caption = f"{title} · {_kind(sheet)} · page {sheet.page} of {total}"
        if furniture is not None:
            furniture(canvas, sheet, caption)
        else:
            _draw_furniture(canvas, sheet, plan.paper, ctx, caption)
        if shift is not None:
            canvas.restoreState()
        trims = [p.slot.trim if shift is None else shift.box(p.slot.trim) for p, _ in placed] or [sheet.art_box]
        canvas.setTrimBox(tuple(pt(v) for v in (min(t[0] for t in trims), min(t[1] for t in trims),
                                                 max(t[2] for t in trims), max(t[3] for t in trims))))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _kind(sheet: Sheet) -> str:
    return {"fronts": "fronts", "backs": "backs", "gutterfold": "fold on the dashed line",
            "sheet": "one-sided"}[sheet.kind]


def _place(canvas: Canvas, form: str, placement: Placement) -> None:
    x0, y0, x1, y1 = placement.slot.clip
    tx0, ty0, tx1, ty1 = placement.slot.trim
    canvas.saveState()
    path = canvas.beginPath()
    path.rect(pt(x0), pt(y0), pt(x1 - x0), pt(y1 - y0))
    canvas.clipPath(path, stroke=0, fill=0)
    if placement.slot.rotate == 180:
        canvas.translate(pt(tx1), pt(ty1))
        canvas.rotate(180)
    else:
        canvas.translate(pt(tx0), pt(ty0))
    canvas.doForm(form)
    canvas.restoreState()


def _draw_furniture(canvas: Canvas, sheet: Sheet, paper: Size, ctx: RenderContext, caption: str) -> None:
    canvas.saveState()
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(pt(MARK_WIDTH))
    for x0, y0, x1, y1 in cut_marks(sheet, paper):
        canvas.line(pt(x0), pt(y0), pt(x1), pt(y1))
    if sheet.fold_y is not None:
        ax0, _, ax1, _ = sheet.art_box
        canvas.setDash([pt(2), pt(1.5)])
        canvas.setStrokeColorRGB(0.35, 0.35, 0.35)
        canvas.line(pt(ax0), pt(sheet.fold_y), pt(ax1), pt(sheet.fold_y))
        canvas.setDash([])
    texts = {"note": "If the bar is not 50 mm long, turn off 'fit to page' and print again.", "caption": caption}
    items = [("bar", BAR_ROOM)] + [(k, mm(stringWidth(t, ctx.font, NOTE_FONT_SIZE)) + 1) for k, t in texts.items()]
    for label in place_labels(sheet, paper, items):
        canvas.saveState()
        canvas.translate(pt(label.x), pt(label.y))
        canvas.rotate(label.angle)
        canvas.setFillColorRGB(0, 0, 0)
        if label.kind == "bar":
            scale_bar(canvas, ctx.font)
        else:
            canvas.setFont(ctx.font, NOTE_FONT_SIZE)
            canvas.drawString(0, pt(0.8), texts[label.kind])
        canvas.restoreState()
    canvas.restoreState()
