"""The shapes of an SVG as svglib reads them (ReportLab's graphics shapes),
written as plain PDF operators for an art panel (pnp.faces.artpanel): paths,
and the basic shapes a designer's own SVG is often drawn with (rect, circle,
ellipse, polygon, polyline, line), filled and stroked as the SVG says. Text
in an SVG is refused with the fix (convert it to paths), never left out
without a word."""
from __future__ import annotations

from reportlab.lib.rl_accel import fp_str

from pnp.faces import pdfops

_ARGS = (2, 2, 6, 0)          # moveTo, lineTo, curveTo, closePath
_OPS = ("m", "l", "c", "h")


class SvgProblem(ValueError):
    """Something in an SVG that a card cannot show as drawn."""


def node_ops(node, shapes) -> list[str]:
    """PDF operators for an svglib node (`shapes`: reportlab.graphics.shapes):
    groups as `cm` transforms, every shape filled and stroked as it says."""
    if isinstance(node, shapes.Path):
        if node.fillColor is None and not _stroked(node):  # the vendored icons' paths: fill only, as before
            return []
        geometry = []
        points, i = node.points, 0
        for op in node.operators:
            n = _ARGS[op]
            geometry.append(f"{fp_str(*points[i:i + n])} {_OPS[op]}" if n else _OPS[op])
            i += n
        return [_painted(node, " ".join(geometry), even_odd=node.fillMode != 1)]
    if isinstance(node, shapes.String):
        raise SvgProblem(f"the SVG has text ({node.text!r}); pnp draws an SVG's shapes only: convert the text to "
                         "paths in your drawing program (Inkscape: Path > Object to Path)")
    if isinstance(node, (shapes.Group, shapes.Drawing)) or hasattr(node, "contents"):
        inner = [op for child in node.contents for op in node_ops(child, shapes)]
        transform = tuple(getattr(node, "transform", (1, 0, 0, 1, 0, 0)) or (1, 0, 0, 1, 0, 0))
        if inner and transform != (1, 0, 0, 1, 0, 0):
            return [f"q {fp_str(*transform)} cm {' '.join(inner)} Q"]
        return inner
    geometry = _geometry(node, shapes)
    if geometry is None:
        return []
    return [_painted(node, geometry, even_odd=False)]


def _geometry(node, shapes) -> str | None:
    """The construction operators of a basic shape (None: not one pnp knows)."""
    path = pdfops.path()
    if isinstance(node, shapes.Rect):
        rx, ry = node.rx or 0, node.ry or 0
        if rx or ry:
            path.roundRect(node.x, node.y, node.width, node.height, max(rx, ry))
        else:
            path.rect(node.x, node.y, node.width, node.height)
    elif isinstance(node, shapes.Circle):
        path.circle(node.cx, node.cy, node.r)
    elif isinstance(node, shapes.Ellipse):
        path.ellipse(node.cx - node.rx, node.cy - node.ry, 2 * node.rx, 2 * node.ry)
    elif isinstance(node, (shapes.Polygon, shapes.PolyLine)):
        pts = node.points
        if len(pts) < 4:
            return None
        path.moveTo(pts[0], pts[1])
        for k in range(2, len(pts) - 1, 2):
            path.lineTo(pts[k], pts[k + 1])
        if isinstance(node, shapes.Polygon):
            path.close()
    elif isinstance(node, shapes.Line):
        path.moveTo(node.x1, node.y1)
        path.lineTo(node.x2, node.y2)
    else:
        return None
    return path.getCode()


def _stroked(node) -> bool:
    return getattr(node, "strokeColor", None) is not None and (getattr(node, "strokeWidth", 0) or 0) > 0


def _painted(node, geometry: str, even_odd: bool) -> str:
    """The shape's geometry with its fill and stroke colours and the paint operator."""
    fill = getattr(node, "fillColor", None)
    stroke = _stroked(node)
    parts = []
    if fill is not None:
        parts.append(f"{fp_str(fill.red, fill.green, fill.blue)} rg")
    if stroke:
        c = node.strokeColor
        parts.append(f"{fp_str(c.red, c.green, c.blue)} RG {fp_str(node.strokeWidth)} w")
    if fill is None and not stroke:
        return ""
    op = ("B*" if even_odd else "B") if fill is not None and stroke else ("S" if stroke else ("f*" if even_odd else "f"))
    if stroke:
        return f"q {' '.join(parts)} {geometry} {op} Q"
    return f"{' '.join(parts)} {geometry} {op}"
