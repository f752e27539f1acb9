"""Drawing with ReportLab: a canvas set up the pnp way, a face drawn at the
origin (each of its elements draws itself: pnp.faces.drawable), forms ended
compressed, and the 50 mm scale bar every printed sheet carries."""
from __future__ import annotations

import io
import zlib
from dataclasses import dataclass
from typing import Any

from reportlab.pdfbase.pdfdoc import PDFArray, PDFFormXObject, PDFName, PDFStream
from reportlab.pdfgen.canvas import Canvas

from pnp.faces.drawable import Surface
from pnp.faces.elements import Face
from pnp.faces.icons import IconSet
from pnp.faces.textset import ICON_CALLBACK
from pnp.layout.marks import SCALE_BAR
from pnp.model import Flip, Point, Size
from pnp.units import pt

NOTE_FONT_SIZE = 6.0


@dataclass(frozen=True)
class RenderContext:
    style: dict[str, Any]
    icons: IconSet
    font: str          # the sheet furniture's font
    bleed: float = 3.0  # how far faces are drawn beyond the trim

    def surface(self, card: Size) -> Surface:
        """What a face of `card`'s size is drawn on and with."""
        return Surface(card, self.bleed, self.style, self.icons)


def draw_face(canvas: Canvas, face: Face, size: Size, ctx: RenderContext, qr: bool = True) -> None:
    """Draw a face with its bottom-left trim corner at the origin (without the
    elements each printed copy draws itself, its QR codes, when `qr` is False)."""
    surface, origin = ctx.surface(size), Point(0.0, size.height)
    for el in face.elements:
        if qr or not el.per_copy:
            el.draw(canvas, origin, surface)


def draw_copy_elements(canvas: Canvas, face: Face, size: Size, ctx: RenderContext, payload: str | None) -> None:
    """Over a face drawn without them, the elements a printed copy draws itself,
    carrying that copy's `payload`."""
    surface, origin = ctx.surface(size), Point(0.0, size.height)
    for el in face.elements:
        if el.per_copy:
            el.for_copy(payload).draw(canvas, origin, surface)


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
