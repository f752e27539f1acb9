"""Drawing a card's illustration panel (the art element of a face): a
gradient from a light tint of the background colour at the centre to the
colour itself at the edge, a subtle pattern of fine diagonal lines, and the
icon (a game-icons.net SVG), large and centred. One treatment for every game.
Which card gets which icon: pnp.sources.art.

An icon becomes plain PDF path operators. svglib reads the SVG, but not at
build time for the vendored icons: `scripts/vendor_art.py` writes the
operators of each (`derived_file`, here) into `templates/art/paths.json`
(pnp.faces.artpaths), which a build uses for an icon while the SVG's bytes
still have the SHA-256 recorded there. An icon with no entry (a designer's
own) or a changed SVG is read by svglib, as before, and draws the same.
tests/pnp/test_art_paths.py keeps the file true."""
from __future__ import annotations

import hashlib
import io
import json
import re
from functools import lru_cache
from pathlib import Path

from reportlab.lib.rl_accel import fp_str

from pnp.faces import artpaths, pdfops
from pnp.faces.artpaths import FILL, FORMAT
from pnp.faces.svgshapes import node_ops

_HEX = re.compile(r"#[0-9a-fA-F]{6}")
_PROBES = ("#010203", "#fdfcfb")  # stand-ins for currentColor while deriving (two: a clash with a real colour shows)


@lru_cache(maxsize=512)
def svg_ops(path: str, data: bytes, color: str) -> tuple[float, float, str]:
    """The SVG `path`, whose bytes are `data`, its `currentColor` painted
    `color`, as (width, height, PDF operators in its own space): from the
    derived file when it holds this very SVG, else read by svglib."""
    entry = artpaths.entry_for(Path(path), data)
    if entry is not None and _HEX.fullmatch(color):
        return entry["width"], entry["height"], entry["ops"].replace(FILL, pdfops.color_op(color))
    return svg_drawing(_text(data), color, path)


def _text(data: bytes) -> str:
    """The SVG's text as a text-mode read gives it (newlines made \\n)."""
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def svg_drawing(text: str, color: str, name: str = "SVG") -> tuple[float, float, str]:
    """An SVG's text read by svglib, its `currentColor` painted `color`, as
    (width, height, PDF operators in its own space). Written as plain path
    operators rather than through ReportLab's renderPDF, which sets a default
    (unembedded, standard) font on the page even when nothing is lettered."""
    from reportlab.graphics import shapes  # lazy: svglib's shapes, loaded with it
    from svglib.svglib import svg2rlg  # lazy: only for an icon the derived file does not hold

    drawing = svg2rlg(io.StringIO(text.replace("currentColor", color)))
    if drawing is None:
        raise ValueError(f"{name}: not an SVG drawing")
    return drawing.width, drawing.height, " ".join(op for op in node_ops(drawing, shapes) if op)


_VIEWBOX = re.compile(r"""<svg\b[^>]*?\bviewBox\s*=\s*["']([^"']*)["']""", re.S)


def derive(data: bytes) -> dict | None:
    """An SVG's entry in the derived file: its SHA-256, viewBox, size and
    operators with FILL for its currentColor; None when that cannot be told
    apart from a colour of its own (then builds read it with svglib)."""
    text = _text(data)
    drawn = [svg_drawing(text, probe) for probe in _PROBES]
    ops = [d[2].replace(pdfops.color_op(probe), FILL) for d, probe in zip(drawn, _PROBES)]
    if ops[0] != ops[1] or drawn[0][:2] != drawn[1][:2]:
        return None
    box = _VIEWBOX.search(text)
    return {"sha256": hashlib.sha256(data).hexdigest(),
            "viewBox": [float(v) for v in re.split(r"[\s,]+", box.group(1).strip())] if box else None,
            "width": drawn[0][0], "height": drawn[0][1], "ops": ops[0]}


def derived_file(folder: Path) -> bytes:
    """The derived file for every SVG in `folder`, as `scripts/vendor_art.py`
    writes it: one icon a line, sorted, so that a change shows as a small diff."""
    icons = {}
    for svg in sorted(folder.glob("*.svg")):
        entry = derive(svg.read_bytes())
        if entry is not None:
            icons[svg.stem] = entry
    lines = ",\n".join(f"{json.dumps(name)}: {json.dumps(entry, separators=(',', ':'))}" for name, entry in icons.items())
    return (f'{{"format": "{FORMAT}",\n"note": "derived from the SVGs beside it by scripts/vendor_art.py; '
            f'regenerate it with: python scripts/vendor_art.py --derived-only",\n"icons": {{\n{lines}\n}}}}\n').encode()


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


RASTER_SUFFIXES = (".png", ".jpg", ".jpeg")   # a picture of the designer's own, beside the SVG icons
MIN_DPI = 300


def is_raster(path: str) -> bool:
    return path.lower().endswith(RASTER_SUFFIXES)


@lru_cache(maxsize=512)
def raster_pixels(path: str) -> tuple[int, int]:
    """A PNG or JPEG's size in pixels (its header only is read)."""
    from PIL import Image  # lazy: only a game with raster art needs it

    with Image.open(path) as image:
        return image.size


def raster_dpi(path: str, w_mm: float, h_mm: float) -> float:
    """The resolution a picture prints at, fitted whole into a w x h mm box."""
    px_w, px_h = raster_pixels(path)
    mm_per_px = min(w_mm / px_w, h_mm / px_h)
    return 25.4 / mm_per_px


def draw_art(canvas, path: str, x: float, y: float, w: float, h: float, color: str, background: str | None,
             tint: str | None) -> None:
    """The art panel in the box (x, y) bottom-left, w x h, in points: its
    background (when it has one), then the icon, large and centred, or a
    PNG or JPEG picture fitted whole into the box, centred."""
    if background:
        canvas.addLiteral(f"q 1 0 0 1 {fp_str(x, y)} cm {_panel(round(w, 3), round(h, 3), tint or background, background)} Q")
    if is_raster(path):
        canvas.drawImage(path, x, y, w, h, preserveAspectRatio=True, anchor="c", mask="auto")
        return
    width, height, ops = svg_ops(path, Path(path).read_bytes(), color)
    side = min(w, h) * 0.84
    scale = side / max(width, height)
    place = fp_str(scale, 0, 0, scale, x + (w - width * scale) / 2, y + (h - height * scale) / 2)
    canvas.addLiteral(f"q {place} cm {ops} Q")
