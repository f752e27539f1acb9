"""Setting rich text in a box: by our own setter (pnp.faces.richtext) where it
can, else by a ReportLab Paragraph, at a given size. `text` is a face's text
element (pnp.faces.elements.Text: its markup, style name, alignment and box);
fitting it to its box is pnp.faces.textfit's.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph

from pnp.faces import richtext
from pnp.faces.glyphs import MissingGlyph, fallback_markup
from pnp.units import pt

ICON_CALLBACK = "pnpicon"
BLANK = str(Path(__file__).parent.parent / "assets" / "blank.png")
_ICON_TAG = re.compile(r'<icon name="([a-z0-9-]+)"\s*/>')
_ALIGN = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT, "justify": TA_JUSTIFY}
ICON_SCALE = 1.0


class FitError(Exception):
    """Text that cannot be set; `char` is a character no embedded font has, if that is why."""

    def __init__(self, message: str, char: str | None = None):
        super().__init__(message)
        self.char = char
        self.element: Any = None  # the element that failed, set by fit_face

    def needle(self) -> str:
        """Text that finds the failing element in its template (see TemplateSet.locate)."""
        find = getattr(self.element, "needle", None)
        return find() if find is not None else ""


def paragraph_style(style: dict[str, Any], name: str, size: float, align: str) -> ParagraphStyle:
    spec = style.get("paragraph_styles", {}).get(name)
    if spec is None:
        raise FitError(f"unknown paragraph style {name!r}")
    return _pstyle(spec["font"], size, float(spec.get("leading", 1.2)), _color(style, spec), align)


@lru_cache(maxsize=4096)
def _pstyle(font: str, size: float, leading: float, color: str, align: str) -> ParagraphStyle:
    return ParagraphStyle(
        f"{font}-{size}", fontName=font, fontSize=size, leading=size * leading,
        textColor=HexColor(color), alignment=_ALIGN.get(align, TA_LEFT),
        splitLongWords=False, allowWidows=1, allowOrphans=1,
    )


def icon_markup(markup: str, size: float, color: str) -> str:
    """Replace `<icon name=x/>` by a callback that draws the vector glyph on the
    baseline plus a transparent spacer that reserves its width."""
    glyph = size * ICON_SCALE

    def repl(m: re.Match) -> str:
        return (f'<onDraw name="{ICON_CALLBACK}" label="{m.group(1)}|{glyph:.3f}|{color}"/>'
                f'<img src="{BLANK}" width="{glyph * 1.08:.3f}" height="{glyph:.3f}" valign="baseline"/>')

    return _ICON_TAG.sub(repl, markup)


_wrapped: dict[tuple, tuple[Any, float]] = {}  # (Paragraph, height)
WRAPPED_LIMIT = 4096  # set paragraphs kept between fitting and drawing (enough for a deck of ~1,000 cards)


def make_paragraph(text, style: dict[str, Any], size: float):
    """A ReportLab Paragraph, for markup our own setter leaves alone."""
    pstyle = paragraph_style(style, text.style, size, text.align)
    color = pstyle.textColor.hexval().replace("0x", "#")
    return Paragraph(icon_markup(fallback_markup(text.markup, pstyle.fontName), size, color), pstyle)


def wrapped(text, style: dict[str, Any], size: float) -> tuple[Any, float]:
    """The paragraph set at `size` in the text's box, and its height in points.
    Fitting and drawing ask for the same paragraph, so it is made once."""
    spec = style.get("paragraph_styles", {}).get(text.style, {})
    key = (text.markup, text.style, repr(sorted(spec.items())), text.align, size, text.w, text.h)
    hit = _wrapped.get(key)
    if hit is None:
        para = make_paragraph(text, style, size)
        _, h = para.wrap(pt(text.w), pt(text.h))
        hit = _wrapped[key] = (para, h)
        if len(_wrapped) > WRAPPED_LIMIT:  # oldest first: a huge deck recomputes rather than hoards
            del _wrapped[next(iter(_wrapped))]
    return hit


def _color(style: dict[str, Any], spec: dict[str, Any]) -> str:
    color = spec.get("color", "#000000")
    return style.get("colors", {}).get(color, color)


def setting(text, style: dict[str, Any], size: float):
    """The text set by our own setter (pnp.faces.richtext) at `size`, or None when
    its markup or alignment needs a ReportLab Paragraph."""
    spec = style.get("paragraph_styles", {}).get(text.style)
    if spec is None or text.align == "justify":
        return None
    try:
        parsed = richtext.parse(text.markup, spec["font"], _color(style, spec))
    except MissingGlyph as exc:
        raise FitError(str(exc), exc.char) from None
    if parsed is None:
        return None
    return richtext.layout(parsed, size, float(spec.get("leading", 1.2)), pt(text.w))
