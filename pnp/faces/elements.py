"""What a card is drawn from: small shapes that know their box and draw
themselves in the card's own coordinates (millimetres, y downward from the
card's top-left corner, like the templates).

Each keeps the protocol of pnp.faces.drawable (`measure`, `draw`).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import ClassVar

from reportlab.lib.colors import HexColor

from pnp.faces import pdfops, richtext
from pnp.faces.artpanel import draw_art
from pnp.faces.drawable import Element, Surface, extent
from pnp.faces.qr import draw_qr
from pnp.faces.textset import setting, wrapped
from pnp.model import Point, Size
from pnp.units import mm, pt


@dataclass(frozen=True)
class Paint:
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.3  # mm
    opacity: float = 1.0
    dash: tuple[float, ...] = ()

    def ops(self) -> tuple[str, str] | None:
        """(the state operators, the painting operator) for literal drawing,
        or None when the paint needs ReportLab (transparency)."""
        if self.opacity < 1:
            return None
        state = []
        if self.fill:
            state.append(pdfops.color_op(self.fill))
        if self.stroke:
            state += [pdfops.color_op(self.stroke, stroke=True), pdfops.line_width(pt(self.stroke_width))]
            if self.dash:
                state.append(pdfops.dash([pt(d) for d in self.dash]))
        return " ".join(state), pdfops.paint_op(bool(self.stroke), bool(self.fill))

    def apply(self, canvas) -> tuple[int, int]:
        if self.fill:
            canvas.setFillColor(HexColor(self.fill))
        if self.stroke:
            canvas.setStrokeColor(HexColor(self.stroke))
            canvas.setLineWidth(pt(self.stroke_width))
            if self.dash:
                canvas.setDash([pt(d) for d in self.dash])
        if self.opacity < 1:
            canvas.setFillAlpha(self.opacity)
            canvas.setStrokeAlpha(self.opacity)
        return (1 if self.fill else 0), (1 if self.stroke else 0)


def _paint_path(canvas, path, paint: Paint) -> None:
    """Fill and/or stroke `path` with `paint`, leaving the canvas's state as it was."""
    ops = paint.ops()
    if ops is None:
        canvas.saveState()
        fill, stroke = paint.apply(canvas)
        canvas.drawPath(path, fill=fill, stroke=stroke)
        canvas.restoreState()
        return
    state, op = ops
    canvas.addLiteral(f"q {state} {path.getCode()} {op} Q")


@dataclass(frozen=True)
class Rect(Element):
    x: float
    y: float
    w: float
    h: float
    paint: Paint
    r: float = 0.0
    bleed: bool = True  # edges touching the card edge run on into the bleed

    def measure(self, avail: Size, surface: Surface) -> Size:
        return Size(self.w, self.h)

    def draw(self, canvas, origin: Point, surface: Surface) -> None:
        x0, y0, x1, y1 = self.x, self.y, self.x + self.w, self.y + self.h
        bleed, card = surface.bleed, surface.card
        if self.bleed and bleed:
            eps = 0.01
            x0 = x0 - bleed if x0 <= eps else x0
            y0 = y0 - bleed if y0 <= eps else y0
            x1 = x1 + bleed if x1 >= card.width - eps else x1
            y1 = y1 + bleed if y1 >= card.height - eps else y1
        args = (pt(origin.x + x0), pt(origin.y - y1), pt(x1 - x0), pt(y1 - y0))
        path = pdfops.path()
        if self.r:
            path.roundRect(*args, pt(self.r))
        else:
            path.rect(*args)
        _paint_path(canvas, path, self.paint)


@dataclass(frozen=True)
class Circle(Element):
    cx: float
    cy: float
    r: float
    paint: Paint

    def measure(self, avail: Size, surface: Surface) -> Size:
        return Size(2 * self.r, 2 * self.r)

    def draw(self, canvas, origin: Point, surface: Surface) -> None:
        path = pdfops.path()
        path.circle(pt(origin.x + self.cx), pt(origin.y - self.cy), pt(self.r))
        _paint_path(canvas, path, self.paint)


@dataclass(frozen=True)
class Polygon(Element):
    points: tuple[tuple[float, float], ...]
    paint: Paint

    def measure(self, avail: Size, surface: Surface) -> Size:
        return extent(self.points)

    def draw(self, canvas, origin: Point, surface: Surface) -> None:
        path = pdfops.path()
        (x, y), rest = self.points[0], self.points[1:]
        path.moveTo(pt(origin.x + x), pt(origin.y - y))
        for x, y in rest:
            path.lineTo(pt(origin.x + x), pt(origin.y - y))
        path.close()
        _paint_path(canvas, path, self.paint)


@dataclass(frozen=True)
class Line(Element):
    x1: float
    y1: float
    x2: float
    y2: float
    paint: Paint

    def measure(self, avail: Size, surface: Surface) -> Size:
        return extent(((self.x1, self.y1), (self.x2, self.y2)))

    def draw(self, canvas, origin: Point, surface: Surface) -> None:
        path = pdfops.path()
        path.moveTo(pt(origin.x + self.x1), pt(origin.y - self.y1))
        path.lineTo(pt(origin.x + self.x2), pt(origin.y - self.y2))
        _paint_path(canvas, path, replace(self.paint, fill=None, stroke=self.paint.stroke or "#000000"))


@dataclass(frozen=True)
class Icon(Element):
    name: str
    x: float
    y: float
    size: float
    color: str

    def measure(self, avail: Size, surface: Surface) -> Size:
        return Size(self.size, self.size)

    def draw(self, canvas, origin: Point, surface: Surface) -> None:
        surface.icons.draw(canvas, self.name, pt(origin.x + self.x), pt(origin.y - self.y - self.size),
                           pt(self.size), self.color)

    def needle(self) -> str:
        """Text that finds it in its template (see TemplateSet.locate)."""
        return f'name="{self.name}"'


@dataclass(frozen=True)
class Art(Element):
    """An illustration panel (see pnp.faces.artpanel): `src` is the SVG's absolute path."""

    src: str
    x: float
    y: float
    w: float
    h: float
    color: str
    background: str | None = None
    tint: str | None = None

    def measure(self, avail: Size, surface: Surface) -> Size:
        return Size(self.w, self.h)

    def draw(self, canvas, origin: Point, surface: Surface) -> None:
        draw_art(canvas, self.src, pt(origin.x + self.x), pt(origin.y - self.y - self.h), pt(self.w), pt(self.h),
                 self.color, self.background, self.tint)


@dataclass(frozen=True)
class QR(Element):
    """A QR code with its quiet zone in a size x size square (mm)."""

    x: float
    y: float
    size: float
    payload: str

    per_copy: ClassVar[bool] = True

    def for_copy(self, payload: str | None) -> QR:
        """The code a printed copy carries: its own payload (when it has one)."""
        return replace(self, payload=payload) if payload else self

    def measure(self, avail: Size, surface: Surface) -> Size:
        return Size(self.size, self.size)

    def draw(self, canvas, origin: Point, surface: Surface) -> None:
        draw_qr(canvas, self.payload, pt(origin.x + self.x), pt(origin.y - self.y - self.size), pt(self.size))


@dataclass(frozen=True)
class Text(Element):
    """A box of rich text. `size` is the font size after fitting (points)."""

    x: float
    y: float
    w: float
    h: float
    style: str
    markup: str
    field: str = ""
    align: str = "left"
    valign: str = "top"
    size: float = 0.0
    line: int = 0
    rotate: int = 0  # 180: turned to face the far side of the table, about the box's centre

    def _set(self, style: dict):
        """(our own setting or None, a ReportLab Paragraph or None, the height in points)."""
        own = setting(self, style, self.size)
        if own is not None:
            return own, None, own.height
        para, h = wrapped(self, style, self.size)
        return None, para, h

    def measure(self, avail: Size, surface: Surface) -> Size:
        """Where its lines really are, at its fitted size, wrapped to `avail`'s
        width: the widest line and the lines' height."""
        if not self.markup:
            return Size(0.0, 0.0)
        text = self if (avail.width, avail.height) == (self.w, self.h) else replace(self, w=avail.width, h=avail.height)
        own, para, h = text._set(surface.style)
        if own is not None:
            return Size(mm(own.width), mm(h))
        widths = getattr(para, "getActualLineWidths0", lambda: [])() or [text.w]
        return Size(min(text.w, mm(max(widths))), mm(h))

    def draw(self, canvas, origin: Point, surface: Surface) -> None:
        if not self.markup:
            return
        own, para, h = self._set(surface.style)
        box = pt(self.h)
        top = pt(origin.y - self.y) - {"top": 0.0, "middle": (box - h) / 2, "bottom": box - h}.get(self.valign, 0.0)
        if self.rotate:
            canvas.saveState()
            cx, cy = pt(origin.x + self.x + self.w / 2), pt(origin.y - self.y - self.h / 2)
            canvas.translate(cx, cy)
            canvas.rotate(self.rotate)
            canvas.translate(-cx, -cy)
        if own is not None:
            richtext.draw(canvas, own, pt(origin.x + self.x), top, pt(self.w), self.align, surface.icons)
        else:
            para.drawOn(canvas, pt(origin.x + self.x), top - h)
        if self.rotate:
            canvas.restoreState()

    def needle(self) -> str:
        """Text that finds it in its template (see TemplateSet.locate)."""
        if self.field:
            return f'field="{self.field}"'
        plain = self.markup and "<" not in self.markup and "&" not in self.markup
        return self.markup[:30] if plain else f'style="{self.style}"'


@dataclass(frozen=True)
class Face:
    """One side of a card, ready to draw: its elements in drawing order."""

    elements: tuple[Element, ...] = field(default=())
    key: str = ""  # identifies identical faces (shared PDF forms)
