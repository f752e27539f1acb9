"""PDF content operators as strings, for shapes drawn many times.

ReportLab's canvas calls cost a Python call (and state bookkeeping) per
operator; a card face has dozens of shapes and a build thousands of faces.
These helpers build the same operators ReportLab would (its own path object
makes the geometry), and the caller adds them with `canvas.addLiteral`,
always inside `q ... Q` so the canvas's idea of the graphics state stays true.
"""
from __future__ import annotations

from functools import lru_cache

from reportlab.lib.colors import HexColor, toColor
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, PATH_OPS
from reportlab.pdfgen.pathobject import PDFPathObject


@lru_cache(maxsize=1024)
def color_op(color: str, stroke: bool = False) -> str:
    """`r g b rg` (fill) or `RG` (stroke) for '#rrggbb' or a ReportLab colour name."""
    c = HexColor(color) if color.startswith("#") else toColor(color)
    return f"{fp_str(c.red, c.green, c.blue)} {'RG' if stroke else 'rg'}"


def paint_op(stroke: bool, fill: bool) -> str:
    return PATH_OPS[1 if stroke else 0, 1 if fill else 0, FILL_EVEN_ODD]


def path() -> PDFPathObject:
    """A path that records operators; `.getCode()` gives them as one string."""
    return PDFPathObject()


def line_width(width: float) -> str:
    return f"{fp_str(width)} w"


def dash(array) -> str:
    return f"[{fp_str(list(array))}] 0 d" if array else "[] 0 d"
