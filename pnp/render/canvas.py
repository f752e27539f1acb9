"""Drawing with ReportLab: a canvas set up the pnp way, a face drawn at the
origin (its elements, fitted text and QR codes), forms ended compressed, and
the 50 mm scale bar every printed sheet carries."""
from __future__ import annotations

import io
import zlib
from dataclasses import dataclass
from typing import Any

from reportlab.pdfbase.pdfdoc import PDFArray, PDFFormXObject, PDFName, PDFStream
from reportlab.pdfgen.canvas import Canvas

from pnp.faces import richtext
from pnp.faces.elements import QR, Face, Icon, Text
from pnp.faces.icons import IconSet
from pnp.faces.textfit import ICON_CALLBACK, setting, wrapped
from pnp.layout.marks import SCALE_BAR
from pnp.model import Flip, Size
from pnp.faces.qr import draw_qr
from pnp.units import pt

NOTE_FONT_SIZE = 6.0


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


def end_form(canvas: Canvas) -> None:
    """`canvas.endForm()`, but with the content compressed at once and, when it
    is ASCII (ours always is: text arrives escaped), encoded as such rather
    than through ReportLab's PDFDocEncoding codec, which costs a third of a
    millisecond per card face. A deck of thousands of faces then also holds
    a third of the memory. Anything else goes through ReportLab itself."""
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


def scale_bar(canvas: Canvas, font: str) -> None:
    """A 50 mm bar, 0.9 mm tall, ticks every 10 mm, and above it what it is for,
    so the print-at-100% instruction is on every sheet even in a cramped margin."""
    canvas.rect(0, pt(0.3), pt(SCALE_BAR), pt(0.9), stroke=0, fill=1)
    canvas.setLineWidth(pt(0.2))
    for i in range(0, int(SCALE_BAR) + 1, 10):
        canvas.line(pt(i), pt(0.0), pt(i), pt(1.4))
    canvas.setFont(font, NOTE_FONT_SIZE)
    canvas.drawString(pt(0.6), pt(2.0), "50 mm · print at 100% / actual size")
