"""Drawing a card's illustration panel (the art element of a face): a
gradient from a light tint of the background colour at the centre to the
colour itself at the edge, a subtle pattern of fine diagonal lines, and the
icon (a game-icons.net SVG, read by svglib), large and centred. One treatment
for every game. Which card gets which icon: pnp.sources.art."""
from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from reportlab.graphics.shapes import Group
from reportlab.graphics.shapes import Path as RLPath
from reportlab.lib.rl_accel import fp_str
from svglib.svglib import svg2rlg

from pnp.faces import pdfops


@lru_cache(maxsize=512)
def _drawing(path: str, color: str) -> tuple[float, float, str]:
    """The SVG (read by svglib), its `currentColor` painted `color`, as
    (width, height, PDF operators in its own space). Written as plain path
    operators rather than through ReportLab's renderPDF, which sets a default
    (unembedded, standard) font on the page even when nothing is lettered."""
    text = Path(path).read_text(encoding="utf-8").replace("currentColor", color)
    drawing = svg2rlg(io.StringIO(text))
    if drawing is None:
        raise ValueError(f"{path}: not an SVG drawing")
    return drawing.width, drawing.height, " ".join(_ops(drawing))


_ARGS = (2, 2, 6, 0)          # moveTo, lineTo, curveTo, closePath
_OPS = ("m", "l", "c", "h")


def _ops(node) -> list[str]:
    """PDF operators for an svglib node: groups as `cm` transforms, paths filled."""
    out: list[str] = []
    if isinstance(node, RLPath):
        if node.fillColor is None:
            return out
        r, g, b = node.fillColor.red, node.fillColor.green, node.fillColor.blue
        parts = [f"{fp_str(r, g, b)} rg"]
        points, i = node.points, 0
        for op in node.operators:
            n = _ARGS[op]
            parts.append(f"{fp_str(*points[i:i + n])} {_OPS[op]}" if n else _OPS[op])
            i += n
        parts.append("f" if node.fillMode == 1 else "f*")
        return [" ".join(parts)]
    if isinstance(node, Group) or hasattr(node, "contents"):
        inner = [op for child in node.contents for op in _ops(child)]
        transform = tuple(getattr(node, "transform", (1, 0, 0, 1, 0, 0)) or (1, 0, 0, 1, 0, 0))
        if inner and transform != (1, 0, 0, 1, 0, 0):
            return [f"q {fp_str(*transform)} cm {' '.join(inner)} Q"]
        return inner
    return out


GRADIENT_STEPS = 28
WEAVE_STEP = 3.2     # points between the weave's diagonal lines
WEAVE_WIDTH = 0.35


def _mix(a: str, b: str, t: float) -> str:
    ca, cb = (tuple(int(c.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4)) for c in (a, b))
    return "#" + "".join(f"{round(p + (q - p) * t):02x}" for p, q in zip(ca, cb))


@lru_cache(maxsize=256)
def _panel(w: float, h: float, centre: str, edge: str) -> str:
    """The panel's background as PDF operators, its bottom-left corner at the
    origin: a radial gradient as concentric discs (vector, and unlike a PDF
    shading it works inside the form each card face is drawn in) and a fine
    diagonal weave in the edge colour. Made once per size and colours."""
    radius = ((w / 2) ** 2 + (h / 2) ** 2) ** 0.5
    ops = [f"0 0 {fp_str(w, h)} re W n"]
    for i in range(GRADIENT_STEPS):
        t = i / (GRADIENT_STEPS - 1)
        disc = pdfops.path()
        disc.circle(w / 2, h / 2, radius * (1 - t * 0.92))
        ops.append(f"{pdfops.color_op(_mix(edge, centre, t))} {disc.getCode()} f")
    weave = [f"{fp_str(offset, 0)} m {fp_str(offset + h, h)} l"
             for offset in (-h + k * WEAVE_STEP for k in range(int((w + h) / WEAVE_STEP) + 1))]
    ops.append(f"{pdfops.color_op(edge, stroke=True)} {fp_str(WEAVE_WIDTH)} w {' '.join(weave)} S")
    return " ".join(ops)


def draw_art(canvas, path: str, x: float, y: float, w: float, h: float, color: str, background: str | None,
             tint: str | None) -> None:
    """The art panel in the box (x, y) bottom-left, w x h, in points: its
    background (when it has one), then the icon, large and centred."""
    if background:
        canvas.addLiteral(f"q 1 0 0 1 {fp_str(x, y)} cm {_panel(round(w, 3), round(h, 3), tint or background, background)} Q")
    width, height, ops = _drawing(path, color)
    side = min(w, h) * 0.84
    scale = side / max(width, height)
    place = fp_str(scale, 0, 0, scale, x + (w - width * scale) / 2, y + (h - height * scale) / 2)
    canvas.addLiteral(f"q {place} cm {ops} Q")
