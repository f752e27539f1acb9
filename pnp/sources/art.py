"""Card illustrations: game-icons.net icons (CC BY 3.0), vendored as SVG files
in `templates/art/`, chosen per card in `card_sources/<game>/art.yaml`, and
drawn as vectors (svglib) in a composed art panel.

    # card_sources/<game>/art.yaml
    cards:
      anarchy-window-smasher: brick-wall      # templates/art/brick-wall.svg
      ...

Each card of the game gets the field `art`: the SVG's path from the project
root (`templates/art/brick-wall.svg`), which templates draw with
`<art src="{{ card.art }}" .../>` and `pnp list --json` shows. Checks, each
one line `file:line: card-id: message`: a card without art, an id that is no
card of the game, an icon whose file is missing, and two differently named
cards of one deck sharing an illustration.

The panel: a gradient from a light tint of the background colour at the
centre to the colour itself at the edge, a subtle pattern of fine diagonal
lines, and the icon, large and centred. One treatment for every game.
"""
from __future__ import annotations

import io
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from pnp.errors import Problems

ART_FILE = "art.yaml"
ART_DIR = "art"  # under templates/
_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def art_path(name: str) -> str:
    """The project-relative path of icon `name`."""
    return f"templates/{ART_DIR}/{name}.svg"


def load_art(folder: Path, project: Path, problems: Problems) -> dict[str, tuple[str, int]] | None:
    """card id -> (project-relative SVG path, line in art.yaml); None when the game has no art.yaml."""
    from pnp.sources.yamlio import YamlSyntaxError, load_marked

    path = folder / ART_FILE
    if not path.is_file():
        return None
    try:
        data, duplicates = load_marked(path)
    except YamlSyntaxError as exc:
        problems.add(path, exc.line, None, exc.message)
        return {}
    for line, key in duplicates:
        problems.add(path, line, str(key), f"card {key!r} is given art twice")
    if not isinstance(data, dict) or not isinstance(data.get("cards"), dict):
        problems.add(path, getattr(data, "line", 1), None, "art.yaml is a mapping with `cards:`, card id -> icon name")
        return {}
    cards = data["cards"]
    out = {}
    for card_id, name in cards.items():
        line = cards.line_of(card_id)
        if not isinstance(name, str) or not _NAME.match(name):
            problems.add(path, line, str(card_id), f"art {name!r} is not an icon name (e.g. brick-wall)")
            continue
        if not (project / art_path(name)).is_file():
            problems.add(path, line, str(card_id), f"no illustration {art_path(name)}; vendor it with "
                                                    "scripts/vendor_art.py")
            continue
        out[str(card_id)] = (art_path(name), line)
    return out


def check_art(game_folder: Path, art: dict[str, tuple[str, int]], decks, problems: Problems) -> None:
    """Every card has art, art.yaml names only cards of the game, and no two
    differently named cards of one deck share an illustration."""
    path = game_folder / ART_FILE
    known = {card.id for deck in decks for card in deck.cards}
    for card_id, (_, line) in art.items():
        if card_id not in known:
            problems.add(path, line, card_id, "no card with this id in the game")
    for deck in decks:
        users: dict[str, str] = {}
        for card in deck.cards:
            if card.id not in art:
                problems.add(card.path, card.line, card.id, f"no illustration: give it one in {path.name}")
                continue
            src = art[card.id][0]
            other = users.setdefault(src, card.name)
            if other != card.name:
                problems.add(path, art[card.id][1], card.id,
                             f"{card.name} shares its illustration {Path(src).stem} with {other} in deck {deck.id}")


# --------------------------------------------------------------------------- drawing

@lru_cache(maxsize=512)
def _drawing(path: str, color: str) -> tuple[float, float, str]:
    """The SVG (read by svglib), its `currentColor` painted `color`, as
    (width, height, PDF operators in its own space). Written as plain path
    operators rather than through ReportLab's renderPDF, which sets a default
    (unembedded, standard) font on the page even when nothing is lettered."""
    from svglib.svglib import svg2rlg

    text = Path(path).read_text(encoding="utf-8").replace("currentColor", color)
    drawing = svg2rlg(io.StringIO(text))
    if drawing is None:
        raise ValueError(f"{path}: not an SVG drawing")
    return drawing.width, drawing.height, " ".join(_ops(drawing))


_ARGS = (2, 2, 6, 0)          # moveTo, lineTo, curveTo, closePath
_OPS = ("m", "l", "c", "h")


def _ops(node) -> list[str]:
    """PDF operators for an svglib node: groups as `cm` transforms, paths filled."""
    from reportlab.graphics.shapes import Group, Path as RLPath
    from reportlab.lib.rl_accel import fp_str

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
    from reportlab.lib.rl_accel import fp_str

    from pnp.faces import pdfops

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
    from reportlab.lib.rl_accel import fp_str

    if background:
        canvas.addLiteral(f"q 1 0 0 1 {fp_str(x, y)} cm {_panel(round(w, 3), round(h, 3), tint or background, background)} Q")
    width, height, ops = _drawing(path, color)
    side = min(w, h) * 0.84
    scale = side / max(width, height)
    place = fp_str(scale, 0, 0, scale, x + (w - width * scale) / 2, y + (h - height * scale) / 2)
    canvas.addLiteral(f"q {place} cm {ops} Q")


def art_names(project: Path) -> dict[str, Any]:
    """Every icon named in any game's art.yaml: name -> the games using it (for vendoring)."""
    import yaml

    out: dict[str, list[str]] = {}
    for path in sorted((project / "card_sources").glob(f"*/{ART_FILE}")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for name in (data.get("cards") or {}).values():
            out.setdefault(str(name), [])
            if path.parent.name not in out[str(name)]:
                out[str(name)].append(path.parent.name)
    return out
