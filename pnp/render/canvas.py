"""Stage 4: drawing planned sheets with ReportLab into PDF bytes.

Each distinct card face and each deck back is drawn once, as a PDF form
XObject, and placed by reference wherever a copy sits on a sheet.
"""
from __future__ import annotations

import io
import zlib
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Sequence

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnp.faces import richtext
from pnp.faces.elements import QR, Face, Icon, Text
from pnp.faces.icons import IconSet
from pnp.layout.sheets import DeckLayout, Placement, Sheet
from pnp.layout.marks import BAR_ROOM, SCALE_BAR, cut_marks, place_labels
from pnp.model import Flip, Layout, Size
from pnp.render.qr import draw_qr
from pnp.faces.textfit import ICON_CALLBACK, setting, wrapped
from pnp.units import mm, pt

NOTE_FONT_SIZE = 6.0
MARK_WIDTH = 0.25  # mm


@dataclass(frozen=True)
class RenderContext:
    style: dict[str, Any]
    icons: IconSet
    font: str          # the sheet furniture's font
    bleed: float = 3.0  # how far faces are drawn beyond the trim


def draw_face(canvas: Canvas, face: Face, size: Size, ctx: RenderContext, qr: bool = True) -> None:
    """Draw a face with its bottom-left trim corner at the origin (without its
    QR codes when `qr` is False: each printed copy then draws its own)."""
    for el in face.elements:
        if isinstance(el, Text):
            _draw_text(canvas, el, size, ctx)
        elif isinstance(el, QR):
            if qr:
                draw_qr_element(canvas, el, size)
        elif isinstance(el, Icon):
            el.draw(canvas, size.width, size.height, ctx.bleed, icons=ctx.icons)
        else:
            el.draw(canvas, size.width, size.height, ctx.bleed)


def draw_qr_element(canvas: Canvas, el: QR, size: Size, payload: str | None = None) -> None:
    draw_qr(canvas, payload or el.payload, pt(el.x), pt(size.height - el.y - el.size), pt(el.size))


def _draw_text(canvas: Canvas, el: Text, size: Size, ctx: RenderContext) -> None:
    if not el.markup:
        return
    own = setting(el, ctx.style, el.size)
    para, h = (None, own.height) if own is not None else wrapped(el, ctx.style, el.size)
    box = pt(el.h)
    top = pt(size.height - el.y) - {"top": 0.0, "middle": (box - h) / 2, "bottom": box - h}.get(el.valign, 0.0)
    if el.rotate:
        canvas.saveState()
        cx, cy = pt(el.x + el.w / 2), pt(size.height - el.y - el.h / 2)
        canvas.translate(cx, cy)
        canvas.rotate(el.rotate)
        canvas.translate(-cx, -cy)
    if own is not None:
        richtext.draw(canvas, own, pt(el.x), top, pt(el.w), el.align, ctx.icons)
    else:
        para.drawOn(canvas, pt(el.x), top - h)
    if el.rotate:
        canvas.restoreState()


def icon_callback(icons: IconSet):
    def draw(canvas, kind, label):
        name, size, color = label.split("|")
        info = canvas._curr_tx_info
        icons.draw(canvas, name, info["cur_x"], info["cur_y"], float(size), color)
    return draw


def new_canvas(buffer: io.BytesIO, paper: Size, ctx: RenderContext, title: str, flip: Flip | None) -> Canvas:
    canvas = Canvas(buffer, pagesize=(pt(paper.width), pt(paper.height)), invariant=1,
                    initialFontName=ctx.font, pageCompression=1)
    canvas.setTitle(title)
    canvas.setAuthor("pnp")
    canvas.setCreator("pnp print-and-play pipeline")
    canvas.setViewerPreference("PrintScaling", "None")
    if flip is not None:
        canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge" if flip is Flip.LONG else "DuplexFlipShortEdge")
    canvas.setNamedCB(ICON_CALLBACK, icon_callback(ctx.icons))
    return canvas


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
) -> bytes:
    """The deck's sheets as PDF bytes. Each distinct front (by key) becomes one
    form, drawn when first placed; `face_of(key)` is asked for it then, once.
    With `qr_payloads`, the forms leave out their QR codes and each copy's
    code is drawn over its form with that copy's payload."""
    buffer = io.BytesIO()
    flip = plan.flip if plan.layout is Layout.DUPLEX and back is not None else None
    canvas = new_canvas(buffer, plan.paper, ctx, title, flip)
    forms: dict[Any, str] = {}
    codes: dict[Any, list[QR]] = {}  # the QR elements each form left out
    back_key = object()
    own_codes = qr_payloads is not None

    def form_for(key) -> str:
        if key not in forms:
            name = f"face{len(forms)}"
            face = back if key is back_key else (face_of(key) if face_of else key)
            b = pt(ctx.bleed)
            canvas.beginForm(name, -b, -b, pt(card.width) + b, pt(card.height) + b)
            draw_face(canvas, face, card, ctx, qr=not own_codes or key is back_key)
            end_form(canvas)
            forms[key] = name
            codes[key] = [el for el in face.elements if isinstance(el, QR)] if own_codes and key is not back_key else []
        return forms[key]

    def copy_form(key, placement: Placement) -> str:
        """The form one printed copy is drawn with: its face's shared form,
        then, when the copy carries its own QR code, that code over it."""
        face_form = form_for(key)
        if not own_codes or key is back_key or not codes[key]:
            return face_form
        name = f"copy{placement.copy}"
        b = pt(ctx.bleed)
        canvas.beginForm(name, -b, -b, pt(card.width) + b, pt(card.height) + b)
        canvas.doForm(face_form)
        for el in codes[key]:
            draw_qr_element(canvas, el, card, qr_payloads[placement.copy])
        end_form(canvas)
        return name

    by_page: dict[int, list[tuple[Placement, Face]]] = {}
    for p in plan.fronts:
        by_page.setdefault(p.page, []).append((p, fronts[p.copy]))
    for p in plan.backs:
        by_page.setdefault(p.page, []).append((p, back_key))
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
        _draw_furniture(canvas, sheet, plan.paper, ctx, f"{title} · {_kind(sheet)} · page {sheet.page} of {total}")
        if shift is not None:
            canvas.restoreState()
        trims = [p.slot.trim if shift is None else shift.box(p.slot.trim) for p, _ in placed] or [sheet.art_box]
        canvas.setTrimBox(tuple(pt(v) for v in (min(t[0] for t in trims), min(t[1] for t in trims),
                                                 max(t[2] for t in trims), max(t[3] for t in trims))))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def end_form(canvas: Canvas) -> None:
    """`canvas.endForm()`, but with the content compressed at once and, when it
    is ASCII (ours always is: text arrives escaped), encoded as such rather
    than through ReportLab's PDFDocEncoding codec, which costs a third of a
    millisecond per card face. A deck of thousands of faces then also holds
    a third of the memory. Anything else goes through ReportLab itself."""
    from reportlab.pdfbase.pdfdoc import PDFArray, PDFFormXObject, PDFName, PDFStream

    code = "\n".join([canvas._preamble] + canvas._code)
    if not code.isascii():
        canvas.endForm()
        return
    name, lowerx, lowery, upperx, uppery = canvas._formData
    form = PDFFormXObject(lowerx=lowerx, lowery=lowery, upperx=upperx, uppery=uppery)
    data = code.encode("ascii")
    if canvas._pageCompression:
        form.Contents = PDFStream(content=zlib.compress(data))
        form.Contents.dictionary["Filter"] = PDFArray([PDFName("FlateDecode")])
    else:
        form.Contents = PDFStream(content=data)
    form.Contents.__Comment__ = "xobject form stream"
    # the rest as ReportLab's own endForm does it (reportlab 5.1, pinned)
    canvas._setColorSpace(form)
    canvas._setExtGState(form)
    canvas._setXObjects(form)
    canvas._setAnnotations(form)
    canvas._doc.addForm(name, form)
    canvas._restartAccumulators()
    canvas.pop_state_stack()


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
            _scale_bar(canvas, ctx.font)
        else:
            canvas.setFont(ctx.font, NOTE_FONT_SIZE)
            canvas.drawString(0, pt(0.8), texts[label.kind])
        canvas.restoreState()
    canvas.restoreState()


def _scale_bar(canvas: Canvas, font: str) -> None:
    """A 50 mm bar, 0.9 mm tall, ticks every 10 mm, and above it what it is for,
    so the print-at-100% instruction is on every sheet even in a cramped margin."""
    canvas.rect(0, pt(0.3), pt(SCALE_BAR), pt(0.9), stroke=0, fill=1)
    canvas.setLineWidth(pt(0.2))
    for i in range(0, int(SCALE_BAR) + 1, 10):
        canvas.line(pt(i), pt(0.0), pt(i), pt(1.4))
    canvas.setFont(font, NOTE_FONT_SIZE)
    canvas.drawString(pt(0.6), pt(2.0), "50 mm · print at 100% / actual size")
