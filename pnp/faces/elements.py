"""What a card is drawn from: small shapes that know their box and draw
themselves in the card's own coordinates (millimetres, y downward from the
card's top-left corner, like the templates)."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from reportlab.lib.colors import HexColor

from pnp.faces import pdfops
from pnp.faces.artpanel import draw_art
from pnp.units import pt


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
class Rect:
    x: float
    y: float
    w: float
    h: float
    paint: Paint
    r: float = 0.0
    bleed: bool = True  # edges touching the card edge run on into the bleed

    def draw(self, canvas, card_w: float, card_h: float, bleed: float) -> None:
        x0, y0, x1, y1 = self.x, self.y, self.x + self.w, self.y + self.h
        if self.bleed and bleed:
            eps = 0.01
            x0 = x0 - bleed if x0 <= eps else x0
            y0 = y0 - bleed if y0 <= eps else y0
            x1 = x1 + bleed if x1 >= card_w - eps else x1
            y1 = y1 + bleed if y1 >= card_h - eps else y1
        args = (pt(x0), pt(card_h - y1), pt(x1 - x0), pt(y1 - y0))
        path = pdfops.path()
        if self.r:
            path.roundRect(*args, pt(self.r))
        else:
            path.rect(*args)
        _paint_path(canvas, path, self.paint)


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    paint: Paint

    def draw(self, canvas, card_w, card_h, bleed) -> None:
        path = pdfops.path()
        path.circle(pt(self.cx), pt(card_h - self.cy), pt(self.r))
        _paint_path(canvas, path, self.paint)


@dataclass(frozen=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    paint: Paint

    def draw(self, canvas, card_w, card_h, bleed) -> None:
        path = pdfops.path()
        (x, y), rest = self.points[0], self.points[1:]
        path.moveTo(pt(x), pt(card_h - y))
        for x, y in rest:
            path.lineTo(pt(x), pt(card_h - y))
        path.close()
        _paint_path(canvas, path, self.paint)


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    paint: Paint

    def draw(self, canvas, card_w, card_h, bleed) -> None:
        path = pdfops.path()
        path.moveTo(pt(self.x1), pt(card_h - self.y1))
        path.lineTo(pt(self.x2), pt(card_h - self.y2))
        _paint_path(canvas, path, replace(self.paint, fill=None, stroke=self.paint.stroke or "#000000"))


@dataclass(frozen=True)
class Icon:
    name: str
    x: float
    y: float
    size: float
    color: str

    def draw(self, canvas, card_w, card_h, bleed, icons=None) -> None:
        icons.draw(canvas, self.name, pt(self.x), pt(card_h - self.y - self.size), pt(self.size), self.color)


@dataclass(frozen=True)
class Art:
    """An illustration panel (see pnp.faces.artpanel): `src` is the SVG's absolute path."""

    src: str
    x: float
    y: float
    w: float
    h: float
    color: str
    background: str | None = None
    tint: str | None = None

    def draw(self, canvas, card_w, card_h, bleed) -> None:
        draw_art(canvas, self.src, pt(self.x), pt(card_h - self.y - self.h), pt(self.w), pt(self.h),
                 self.color, self.background, self.tint)


@dataclass(frozen=True)
class QR:
    x: float
    y: float
    size: float
    payload: str


@dataclass(frozen=True)
class Text:
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


@dataclass(frozen=True)
class Face:
    """One side of a card, ready to draw: its elements in drawing order."""

    elements: tuple[Any, ...] = field(default=())
    key: str = ""  # identifies identical faces (shared PDF forms)
