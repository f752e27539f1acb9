"""Our own setter for the inline markup cards use: <b>, <i>, <font color>,
<br/> and <icon name/>. It breaks lines greedily on spaces, as ReportLab's
Paragraph does, but parses a text once and measures each word once, so
trying many sizes while fitting costs little, and it draws straight into a
text object. Any other markup (and justified text) returns None from
`parse`, and the caller falls back to a ReportLab Paragraph.

A character the font lacks is set in a fallback font (pnp.faces.glyphs), as a
run of its own; one that no embedded font has raises MissingGlyph.

Widths here are in points per point of font size until `layout` scales them.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from reportlab.lib.colors import toColor
from reportlab.lib.fonts import ps2tt, tt2ps
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth

from pnp.faces.glyphs import MissingGlyph, font_runs
from pnp.faces.pdfops import color_op

SPACE_SHRINK = 0.05  # like ReportLab's spaceShrinkage: each space may give 5% to let one more word on
ICON_ADVANCE = 1.08  # an icon's width in the line, as a fraction of its size (it is drawn at 1.0)
_TOKEN = re.compile(r'<(/?)([a-zA-Z]+)((?:\s+[a-zA-Z_-]+\s*=\s*"[^"]*")*)\s*(/?)>|([^<]+)')
_ATTR = re.compile(r'([a-zA-Z_-]+)\s*=\s*"([^"]*)"')
_SPACE = re.compile(r"[ \t\n\r\f\v]+")  # not \xa0: a non-breaking space holds words together


class Run(NamedTuple):  # a named tuple, not a dataclass: there are thousands per build, made cheaply
    """A stretch of one word in one font and colour, or an icon (`icon` set, `text` empty)."""

    text: str
    font: str
    color: str
    width: float  # at size 1
    icon: str = ""


class Word(NamedTuple):
    runs: tuple[Run, ...]
    width: float  # at size 1
    space: float  # the width of the space before it, at size 1


Parsed = tuple[tuple[Word, ...], ...]  # hard lines (split at <br/>), each a row of words


@dataclass(frozen=True)
class Setting:
    """A text set at one size: its lines (each the words on it and its width in points)."""

    size: float
    leading: float
    lines: tuple[tuple[tuple[Word, ...], float], ...]
    widest_word: float

    @property
    def height(self) -> float:
        return self.leading * len(self.lines)

    @property
    def width(self) -> float:
        return max((w for _, w in self.lines), default=0.0)


@lru_cache(maxsize=16384)
def _width(text: str, font: str) -> float:
    return stringWidth(text, font, 1.0)


@lru_cache(maxsize=256)
def _hex(color: str) -> str:
    return "#" + toColor(color).hexval()[2:]


@lru_cache(maxsize=256)
def _font(base: str, bold: bool, italic: bool) -> str:
    """The font for bold/italic text in `base`'s family. Only embedded
    TrueType fonts are set here (ValueError otherwise): pnp embeds its fonts."""
    name = base
    if bold or italic:
        family, b, i = ps2tt(base)  # ValueError when the font has no bold/italic family
        name = tt2ps(family, b | bold, i | italic)
    if not getattr(getFont(name), "_dynamicFont", False):  # KeyError for an unknown font
        raise ValueError(f"{name} is not an embedded TrueType font")
    return name


@lru_cache(maxsize=512)
def parse(markup: str, font: str, color: str) -> Parsed | None:
    """The words of `markup` set in `font` and `color`, or None if it uses
    markup this setter does not handle. Raises MissingGlyph for a character
    no embedded font has."""
    try:
        return _parse(markup, font, color)
    except MissingGlyph:
        raise
    except (ValueError, KeyError):
        return None


def _parse(markup: str, font: str, color: str) -> Parsed | None:
    lines: list[list[Word]] = [[]]
    runs: list[Run] = []
    space = [0.0]  # the space before the word being collected
    stack = [(False, False, color)]

    def flush(next_space: float) -> None:
        if runs:
            lines[-1].append(Word(tuple(runs), sum(r.width for r in runs), space[0] if lines[-1] else 0.0))
            runs.clear()
        space[0] = next_space

    pos = 0
    for m in _TOKEN.finditer(markup):
        if m.start() != pos:
            return None  # a stray '<'
        pos = m.end()
        closing, tag, attrs, empty, text = m.groups()
        bold, italic, ink = stack[-1]
        if text is not None:
            current = _font(font, bold, italic)
            for k, part in enumerate(_SPACE.split(html.unescape(text))):
                if k:
                    flush(_width(" ", current))
                if part:
                    for piece, face in font_runs(part, current):
                        runs.append(Run(piece, face, ink, _width(piece, face)))
            continue
        tag = tag.lower()
        if tag == "br" and not closing:
            flush(0.0)
            lines.append([])
        elif tag == "icon" and not closing:
            name = dict(_ATTR.findall(attrs)).get("name")
            if not name:
                return None
            runs.append(Run("", font, ink, ICON_ADVANCE, icon=name))
        elif closing:
            if len(stack) == 1:
                return None
            stack.pop()
        elif tag in ("b", "i", "font"):
            found = dict(_ATTR.findall(attrs))
            if tag == "font":
                if set(found) - {"color"}:
                    return None
                ink = _hex(found["color"]) if "color" in found else ink
            stack.append((bold or tag == "b", italic or tag == "i", ink))
            if empty:
                stack.pop()
        else:
            return None
    if pos != len(markup):
        return None
    flush(0.0)
    return tuple(tuple(line) for line in lines)


def layout(parsed: Parsed, size: float, leading: float, width: float) -> Setting:
    """Break the words into lines no wider than `width` points (a word wider
    than that keeps a line of its own; `widest_word` tells the caller)."""
    out = []
    widest = 0.0
    for words in parsed:
        line: list[Word] = []
        used = 0.0
        for word in words:
            w = word.width * size
            widest = max(widest, w)
            gap = word.space * size if line else 0.0
            if line and used + gap + w > width + SPACE_SHRINK * gap * len(line) + 1e-9:
                out.append((tuple(line), used))
                line, used, gap = [], 0.0, 0.0
            line.append(word)
            used += gap + w
        out.append((tuple(line), used))
    return Setting(size, size * leading, tuple(out), widest)


def draw(canvas, setting: Setting, x: float, top: float, width: float, align: str, icons) -> None:
    """Draw the set text, its first line's top at `top` (points): the baseline
    sits one font size below, as in a ReportLab Paragraph. Words in the same
    font and colour go out as one string with their spaces, written as text
    operators directly (what ReportLab's text object would write, without its
    per-call bookkeeping); the TrueType subsets come from ReportLab."""
    size = setting.size
    doc = canvas._doc
    ops: list[str] = []
    state: dict[str, Any] = {"tf": None, "color": None}

    def put(piece: list[str], font_name: str, color: str, at: float, y: float) -> None:
        font = getFont(font_name)
        if color != state["color"]:
            state["color"] = color
            ops.append(color_op(color))
        ops.append(f"1 0 0 1 {fp_str(at, y)} Tm")
        for subset, chunk in font.splitString("".join(piece), doc):
            if (font_name, subset) != state["tf"]:
                state["tf"] = (font_name, subset)
                ops.append(f"{font.getSubsetInternalName(subset, doc)} {fp_str(size)} Tf")
            ops.append(f"({canvas._escape(chunk)}) Tj")

    for i, (words, used) in enumerate(setting.lines):
        cx = x + {"center": (width - used) / 2, "right": width - used}.get(align, 0.0)
        y = top - size - i * setting.leading
        piece: list[str] = []
        start = 0.0
        last: Run | None = None
        for k, word in enumerate(words):
            for j, run in enumerate(word.runs):
                gap = word.space * size if k and j == 0 else 0.0
                joins = (last is not None and not run.icon and not last.icon
                         and run.font == last.font and run.color == last.color
                         and (gap == 0.0 or word.space == _width(" ", run.font)))
                if joins:
                    piece.append(" " if gap else "")
                elif piece:
                    put(piece, last.font, last.color, start, y)
                    piece = []
                cx += gap
                if run.icon:
                    icons.draw(canvas, run.icon, cx, y, size, run.color)
                else:
                    if not piece:
                        start = cx
                    piece.append(run.text)
                cx += run.width * size
                last = run
        if piece:
            put(piece, last.font, last.color, start, y)
    if ops:
        canvas.addLiteral("q BT " + " ".join(ops) + " ET Q")
