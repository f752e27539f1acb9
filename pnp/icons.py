"""Vector icons defined as data in templates/icons.yaml, drawn at any size."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from reportlab.lib.colors import HexColor, white

from pnp.errors import PnpError
from pnp.yamlio import YamlSyntaxError, load_marked

_PATH_TOKEN = re.compile(r"[MLCQZ]|-?\d*\.?\d+")


class IconSet:
    def __init__(self, shapes: dict[str, list[dict[str, Any]]]):
        self.shapes = shapes

    @classmethod
    def load(cls, *paths: Path) -> "IconSet":
        """Icons from each file in turn; a later file adds to (or overrides) earlier ones."""
        shapes: dict[str, list] = {}
        for path in paths:
            if not path.exists():
                continue
            try:
                data, _ = load_marked(path)
            except YamlSyntaxError as exc:
                raise PnpError(f"{path}:{exc.line}: -: {exc.message}") from None
            shapes.update({str(k): list(v or []) for k, v in (data or {}).items()})
        return cls(shapes)

    def __contains__(self, name: str) -> bool:
        return name in self.shapes

    def draw(self, canvas, name: str, x: float, y: float, size: float, color: str = "#1d1d1d") -> None:
        """Draw icon `name` in a size x size box whose bottom-left corner is (x, y), in points."""
        shapes = self.shapes.get(name)
        if shapes is None:
            raise PnpError(f"unknown icon {name!r}")
        canvas.saveState()
        canvas.translate(x, y + size)
        canvas.scale(size, -size)  # icon space: 1 x 1, y downward
        for shape in shapes:
            self._shape(canvas, shape, color)
        canvas.restoreState()

    def _shape(self, canvas, shape: dict[str, Any], color: str) -> None:
        fill = _paint(shape.get("fill", "color"), color)
        stroke = _paint(shape.get("stroke", "none"), color)
        if fill is not None:
            canvas.setFillColor(fill)
        if stroke is not None:
            canvas.setStrokeColor(stroke)
            canvas.setLineWidth(float(shape.get("width", 0.06)))
        path = canvas.beginPath()
        if "circle" in shape:
            cx, cy, r = shape["circle"]
            path.circle(cx, cy, r)
        elif "rect" in shape:
            path.rect(*shape["rect"])
        elif "polygon" in shape:
            points = shape["polygon"]
            path.moveTo(*points[0])
            for p in points[1:]:
                path.lineTo(*p)
            path.close()
        elif "line" in shape:
            x1, y1, x2, y2 = shape["line"]
            path.moveTo(x1, y1)
            path.lineTo(x2, y2)
            fill = None
        elif "path" in shape:
            _svg_path(path, shape["path"])
        canvas.drawPath(path, fill=1 if fill is not None else 0, stroke=1 if stroke is not None else 0)


def _paint(value: str, color: str):
    if value in (None, "none"):
        return None
    if value == "color":
        return HexColor(color)
    if value == "paper":
        return white
    return HexColor(value)


def _svg_path(path, text: str) -> None:
    tokens = _PATH_TOKEN.findall(text)
    i = 0
    arity = {"M": 2, "L": 2, "C": 6, "Q": 4, "Z": 0}
    last = (0.0, 0.0)
    while i < len(tokens):
        cmd = tokens[i]
        n = arity[cmd]
        args = [float(t) for t in tokens[i + 1 : i + 1 + n]]
        i += 1 + n
        if cmd == "M":
            path.moveTo(*args)
        elif cmd == "L":
            path.lineTo(*args)
        elif cmd == "C":
            path.curveTo(*args)
        elif cmd == "Q":  # quadratic as cubic
            (x0, y0), (qx, qy, x, y) = last, args
            path.curveTo(x0 + 2 / 3 * (qx - x0), y0 + 2 / 3 * (qy - y0),
                         x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y), x, y)
        elif cmd == "Z":
            path.close()
        if n:
            last = (args[-2], args[-1])
