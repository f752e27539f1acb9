"""Vector icons defined as data in templates/icons.yaml, drawn at any size."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from reportlab.lib.rl_accel import fp_str

from pnp.errors import PnpError, Problems
from pnp.faces import pdfops
from pnp.sources.yamlio import YamlSyntaxError, load_marked

_PATH_TOKEN = re.compile(r"[MLCQZ]|-?\d*\.?\d+")


class IconSet:
    def __init__(self, shapes: dict[str, list[dict[str, Any]]]):
        self.shapes = shapes
        self._ops: dict[tuple[str, str], str] = {}

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
            check_icons(path, data)
            shapes.update({str(k): list(v or []) for k, v in (data or {}).items()})
        return cls(shapes)

    def __contains__(self, name: str) -> bool:
        return name in self.shapes

    def draw(self, canvas, name: str, x: float, y: float, size: float, color: str = "#1d1d1d") -> None:
        """Draw icon `name` in a size x size box whose bottom-left corner is (x, y), in points."""
        ops = self.ops(name, color)
        # icon space: 1 x 1, y downward
        canvas.addLiteral(f"q {fp_str(size, 0, 0, -size, x, y + size)} cm {ops} Q")

    def ops(self, name: str, color: str) -> str:
        """The icon's operators in its own 1 x 1 space, made once per colour."""
        key = (name, color)
        if key not in self._ops:
            shapes = self.shapes.get(name)
            if shapes is None:
                raise PnpError(f"unknown icon {name!r}")
            self._ops[key] = " ".join(_shape(shape, color) for shape in shapes)
        return self._ops[key]


GEOMETRY = {"circle": 3, "rect": 4, "line": 4, "polygon": None, "path": None}
SHAPE_KEYS = set(GEOMETRY) | {"fill", "stroke", "width"}
_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3}){1,2}$")
_PATH_ALL = re.compile(r"^(?:\s*(?:[MLCQZ]|-?\d*\.?\d+)\s*,?)*$")


def check_icons(path: Path, data: Any) -> None:
    """Every problem in an icon file, each as `file:line: icon NAME: message`,
    so a designer opens the right line (nothing is drawn from a bad file)."""
    problems = Problems(next((p for p in path.resolve().parents if (p / "card_sources").is_dir()), None))
    if data is None:
        return
    if not isinstance(data, dict):
        raise PnpError(f"{path}:1: -: an icon file is a mapping of icon names to lists of shapes")
    for name, shapes in data.items():
        line = data.line_of(name) if hasattr(data, "line_of") else 0
        if not isinstance(shapes, list):
            problems.add(path, line, f"icon {name}", "an icon is a list of shapes")
            continue
        lines = getattr(shapes, "item_lines", [])
        for i, shape in enumerate(shapes):
            at = lines[i] if i < len(lines) else line
            for message in _shape_problems(shape):
                problems.add(path, at, f"icon {name}", f"shape {i + 1}: {message}")
    problems.raise_if_any()


def _numbers(value: Any, count: int | None) -> bool:
    return (isinstance(value, list) and (count is None or len(value) == count)
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value))


def _shape_problems(shape: Any) -> list[str]:
    if not isinstance(shape, dict):
        return ["a shape is a mapping such as {circle: [cx, cy, r], fill: color}"]
    out = [f"unknown key {k!r} (known: {', '.join(sorted(SHAPE_KEYS))})" for k in shape if k not in SHAPE_KEYS]
    kinds = [k for k in GEOMETRY if k in shape]
    if len(kinds) != 1:
        out.append(f"needs exactly one of {', '.join(GEOMETRY)}; has {', '.join(kinds) or 'none'}")
    for kind in kinds:
        value, count = shape[kind], GEOMETRY[kind]
        if kind == "polygon":
            if not (isinstance(value, list) and len(value) >= 3 and all(_numbers(p, 2) for p in value)):
                out.append("polygon needs three or more [x, y] points")
        elif kind == "path":
            if not isinstance(value, str) or not _PATH_ALL.match(value):
                out.append("path takes M, L, C, Q and Z with numbers, e.g. \"M 0 0 L 1 1 Z\"")
            else:
                try:
                    _svg_path(pdfops.path(), value)
                except (KeyError, ValueError, TypeError, IndexError):
                    out.append(f"path {value!r} has a command with the wrong number of values")
        elif not _numbers(value, count):
            out.append(f"{kind} needs {count} numbers")
    for key in ("fill", "stroke"):
        value = shape.get(key)
        if value is not None and value not in ("none", "color", "paper") and not (isinstance(value, str) and _HEX.match(value)):
            out.append(f"{key} {value!r} is not a colour: none, color, paper or #rrggbb")
    if "width" in shape and not (isinstance(shape["width"], (int, float)) and shape["width"] > 0):
        out.append("width must be a positive number (a fraction of the icon size)")
    return out


def _shape(shape: dict[str, Any], color: str) -> str:
    fill = _paint(shape.get("fill", "color"), color)
    stroke = _paint(shape.get("stroke", "none"), color)
    state = []
    if fill is not None:
        state.append(pdfops.color_op(fill))
    if stroke is not None:
        state += [pdfops.color_op(stroke, stroke=True), pdfops.line_width(float(shape.get("width", 0.06)))]
    path = pdfops.path()
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
    return " ".join(state + [path.getCode(), pdfops.paint_op(stroke is not None, fill is not None)])


def _paint(value: str, color: str) -> str | None:
    if value in (None, "none"):
        return None
    if value == "color":
        return color
    if value == "paper":
        return "#ffffff"
    return value


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
