"""The ink-saver look (how much ink it saves is measured by pnp.pipeline.inkcoverage).

An ink-saver face is the normal face with its colours rewritten, after the
templates have run and the text has been fitted (so nothing moves):
- everything is grey;
- a full-bleed background becomes white paper with a thin outline inside the trim;
- every other filled shape keeps a quarter of its darkness (a light tint),
  and a shape that was dark gets a thin outline so it still reads as a shape;
- text is black (or its own grey when that is already dark), so white text
  on a dark band stays readable once the band is a light tint;
- small icons stay dark, large decorative icons become light.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from pnp.faces.elements import Art, Circle, Face, Icon, Line, Paint, Polygon, Rect, Text
from pnp.faces.icons import IconSet
from pnp.model import Size
from pnp.render.canvas import RenderContext
from pnp.render.rulesheet import TINTS

DARK = 0.75            # luminance below which a filled area counts as dark
TINT_KEEP = 0.25       # a filled shape keeps this fraction of its darkness
OUTLINE = "#4d4d4d"
OUTLINE_WIDTH = 0.25   # mm
BACKGROUND_INSET = 1.5  # mm: the outline replacing a full-bleed background sits this far inside the trim
LARGE_ICON = 12.0      # mm: icons this size or larger are decoration
TEXT_DARK = 0.6        # text lighter than this turns black
EPS = 0.01
_HEX = re.compile(r"^#?[0-9a-fA-F]{6}$")
_FONT_COLOR = re.compile(r'color="(#[0-9a-fA-F]{6})"')


def luminance(color: str) -> float:
    """0 (black) .. 1 (white): Rec. 709 weights on the sRGB values."""
    value = color.lstrip("#")
    r, g, b = (int(value[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def grey(level: float) -> str:
    v = max(0, min(255, round(level * 255)))
    return f"#{v:02x}{v:02x}{v:02x}"


def _is_hex(color: str | None) -> bool:
    return bool(color) and bool(_HEX.match(color))


def tint(color: str) -> str:
    """A filled area's colour in the saver: grey, keeping TINT_KEEP of its darkness."""
    return grey(1 - (1 - luminance(color)) * TINT_KEEP) if _is_hex(color) else color


def line_color(color: str) -> str:
    """Lines stay visible: grey, and never lighter than mid grey."""
    return grey(min(luminance(color), 0.55)) if _is_hex(color) else color


def saver_text_color(color: str) -> str:
    if not _is_hex(color):
        return "#000000"
    level = luminance(color)
    return grey(level) if level < TEXT_DARK else "#000000"


def _is_dark(color: str | None) -> bool:
    return _is_hex(color) and luminance(color) < DARK


def _paint(paint: Paint, outline_if_dark: bool = True) -> Paint:
    stroke = line_color(paint.stroke) if paint.stroke else None
    width = paint.stroke_width
    if outline_if_dark and stroke is None and _is_dark(paint.fill):
        stroke, width = OUTLINE, OUTLINE_WIDTH
    return replace(paint, fill=tint(paint.fill) if paint.fill else None, stroke=stroke, stroke_width=width)


def _full_bleed(el: Rect, size: Size) -> bool:
    return (el.paint.fill is not None and el.r == 0 and el.x <= EPS and el.y <= EPS
            and el.x + el.w >= size.width - EPS and el.y + el.h >= size.height - EPS)


def _joined(a: Any, b: Any) -> bool:
    """Two filled rectangles of one colour that overlap: drawn as one area (a
    title band of a rounded and a square rectangle), so outlined as one."""
    if not (isinstance(a, Rect) and isinstance(b, Rect)) or a.paint.fill != b.paint.fill or a.paint.stroke or b.paint.stroke:
        return False
    return a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h


def _groups(elements: tuple[Any, ...]) -> list[list[Any]]:
    groups: list[list[Any]] = []
    for el in elements:
        if groups and any(_joined(other, el) for other in groups[-1]):
            groups[-1].append(el)
        else:
            groups.append([el])
    return groups


def saver_face(face: Face, size: Size) -> Face:
    """The face in the ink-saver look (same layout, same text, other colours)."""
    out: list[Any] = []
    for group in _groups(face.elements):
        if len(group) > 1 and _is_dark(group[0].paint.fill):
            # outlines first, at twice the width, then the fills over them: the
            # seams inside the area disappear and half of each outer edge stays
            tinted = [replace(el, paint=_paint(el.paint)) for el in group]
            out += [replace(el, paint=replace(el.paint, stroke_width=2 * OUTLINE_WIDTH)) for el in tinted]
            out += [replace(el, paint=replace(el.paint, stroke=None)) for el in tinted]
            continue
        for el in group:
            out.extend(_saver_element(el, size))
    return replace(face, elements=tuple(out))


def _saver_element(el: Any, size: Size) -> list[Any]:
    """One element in the saver look (a full-bleed background becomes two)."""
    if isinstance(el, Rect) and _full_bleed(el, size):
        i = BACKGROUND_INSET
        return [replace(el, paint=Paint(fill="#ffffff")),
                Rect(i, i, size.width - 2 * i, size.height - 2 * i,
                     Paint(stroke=OUTLINE, stroke_width=OUTLINE_WIDTH), r=1.5, bleed=False)]
    if isinstance(el, (Rect, Circle, Polygon)):
        return [replace(el, paint=_paint(el.paint))]
    if isinstance(el, Line):
        return [replace(el, paint=_paint(el.paint, outline_if_dark=False))]
    if isinstance(el, Icon):
        level = luminance(el.color) if _is_hex(el.color) else 0.0
        color = grey(max(level, 0.72)) if el.size >= LARGE_ICON else grey(min(level, 0.4))
        return [replace(el, color=color)]
    if isinstance(el, Art):  # a light grey illustration on white: no tinted panel
        level = luminance(el.color) if _is_hex(el.color) else 0.0
        return [replace(el, color=grey(max(level, 0.6)), background=None, tint=None)]
    if isinstance(el, Text):
        markup = _FONT_COLOR.sub(lambda m: f'color="{saver_text_color(m.group(1))}"', el.markup)
        return [replace(el, markup=markup)]
    return [el]  # QR codes are black on white already


def saver_style(style: dict[str, Any]) -> dict[str, Any]:
    """The style with every paragraph colour made readable on white."""
    colors = style.get("colors", {})
    out = dict(style)
    out["colors"] = {k: grey(luminance(v)) if _is_hex(v) else v for k, v in colors.items()}
    paragraphs = {}
    for name, spec in style.get("paragraph_styles", {}).items():
        color = spec.get("color", "#000000")
        paragraphs[name] = {**spec, "color": saver_text_color(colors.get(color, color))}
    out["paragraph_styles"] = paragraphs
    return out


def saver_icons(icons: IconSet) -> IconSet:
    """The icon set with its fixed colours in grey ("color" and "paper" stay as they are)."""
    def shape(s: dict) -> dict:
        s = dict(s)
        for key in ("fill", "stroke"):
            if _is_hex(s.get(key)):
                s[key] = grey(luminance(s[key]))
        return s

    return IconSet({name: [shape(s) for s in shapes] for name, shapes in icons.shapes.items()})


def saver_context(ctx: RenderContext) -> RenderContext:
    return replace(ctx, style=saver_style(ctx.style), icons=saver_icons(ctx.icons))


def saver_rule_tints() -> tuple[str, str]:
    """The rule sheets' note/row tint and table grid, in grey."""
    return grey(luminance(TINTS[0])), line_color(TINTS[1])


def saver_docs(prepared: list) -> list:
    """Boards, sheets and rule-sheet diagrams in the ink-saver look."""
    out = []
    for p in prepared:
        face = saver_face(p.face, p.size) if p.face is not None else None
        diagrams = None if p.diagrams is None else {
            key: saver_face(f, Size(key[1], key[2], "diagram")) for key, f in p.diagrams.items()}
        out.append(replace(p, face=face, diagrams=diagrams))
    return out
