"""Text in any script for the referee's PDF reports (the match report and
the balance report): players name themselves "سارة", "李雷" or "Zoë 🎲".

ReportLab sets text left to right, one glyph per character, in one font a
run. So before a text is set:
- Arabic letters take their joined forms (arabic-reshaper: the presentation
  forms Noto Sans Arabic has) and right-to-left runs are put in the order
  they are drawn (python-bidi, the Unicode bidirectional algorithm). A
  player's name is an isolate: a right-to-left name, or one with a
  direction override in it, moves nothing outside itself, and its spaces do
  not break across lines;
- each character is set in the first font that has it: Roboto Condensed,
  then pnp's fallbacks for symbols, Arabic, Hebrew, emoji and Chinese,
  Japanese and Korean (pnp/faces/glyphs.py's SCRIPT_FALLBACKS, shipped in
  pnp/assets/fonts/fallback/ with their licences);
- a character no font has (Thai, Devanagari, ... today) is printed as the
  replacement character U+FFFD, and `Ink.missing` lists it: the report
  says so in a note and the CLI warns. Never a blank, never a silent drop.
Controls that draw nothing (direction marks and isolates, joiners, variation
selectors, soft hyphens) are left out of the drawn text.

ReportLab (5.1.0) maps a character beyond U+FFFF (an emoji) to text with
five hex digits, which readers cut to four ("🎲" U+1F3B2 is read as U+1F3B);
`_to_unicode_cmap` writes it as PDF asks, in UTF-16 (a surrogate pair), so
an emoji name can be searched and copied from the report.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from xml.sax.saxutils import escape

from reportlab.graphics.shapes import Group, String
from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFont

from pnp.faces.glyphs import SCRIPT_FALLBACKS, MissingGlyph, font_for
from pnp.project import PACKAGE_FONTS

REGULAR, BOLD = "RobotoCondensed-Regular", "RobotoCondensed-Bold"
REPLACEMENT = "\ufffd"  # Roboto Condensed has it
FSI, PDI = "\u2068", "\u2069"  # first-strong isolate ... pop directional isolate
_RIGHT_TO_LEFT = frozenset({"R", "AL", "RLE", "RLO", "LRE", "LRO", "PDF", "RLI", "LRI", "FSI", "PDI"})
_DROPPED = frozenset("\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
                     "\u00ad\u200b\u200c\u200d\ufe0e\ufe0f")


_reportlab_cmap = ttfonts.makeToUnicodeCMap
_ASTRAL = re.compile(r"^(<[0-9A-F]{2}>) <([0-9A-F]{5,6})>$", re.M)


def _to_unicode_cmap(fontname: str, subset) -> str:
    """ReportLab's ToUnicode CMap, with each character beyond U+FFFF in UTF-16."""
    return _ASTRAL.sub(lambda m: f"{m[1]} <{chr(int(m[2], 16)).encode('utf-16-be').hex().upper()}>",
                       _reportlab_cmap(fontname, subset))


ttfonts.makeToUnicodeCMap = _to_unicode_cmap


def fonts() -> tuple[str, str]:
    """(regular, bold): Roboto Condensed from pnp's assets, registered once."""
    for name in (REGULAR, BOLD):
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, str(PACKAGE_FONTS / f"{name}.ttf")))
    return REGULAR, BOLD


def needs_bidi(text: str) -> bool:
    """Whether `text` has a right-to-left letter or a direction control."""
    return not text.isascii() and any(unicodedata.bidirectional(c) in _RIGHT_TO_LEFT for c in text)


@lru_cache(maxsize=1)
def _reshaper():
    import arabic_reshaper  # lazy: only a text with Arabic letters needs it

    # keep the harakat (vowel marks), each placed after its letter once the word is reversed
    return arabic_reshaper.ArabicReshaper(configuration={"delete_harakat": False, "shift_harakat_position": True})


@lru_cache(maxsize=4096)
def visual(text: str, names: tuple[str, ...] = ()) -> str:
    """`text` as it is drawn left to right: Arabic joined, right-to-left runs
    reversed, each of `names` that needs it isolated. A left-to-right text
    comes back as it is."""
    if not needs_bidi(text):
        return text
    from bidi import get_display  # lazy: only a right-to-left text needs it

    for name in sorted({n for n in names if needs_bidi(n)}, key=len, reverse=True):
        text = text.replace(name, FSI + name.replace(" ", "\u00a0") + PDI)
    return get_display(_reshaper().reshape(text), base_dir="L")


def describe(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed character')}"


@dataclass
class Ink:
    """Sets one report's text: each character in a font that has it. Player
    `names` are isolated (see `visual`). `missing` gathers what no font has,
    each character with the first word it was in."""
    font: str
    names: tuple[str, ...] = ()
    missing: dict[str, str] = field(default_factory=dict)

    def runs(self, text: str, font: str | None = None) -> list[tuple[str, str]]:
        """`text` in drawing order, cut into (piece, font) runs."""
        font = font or self.font
        out: list[list[str]] = []
        for char in visual(text, self.names):
            if char in _DROPPED:
                continue
            try:
                name = font_for(char, font, SCRIPT_FALLBACKS)
            except MissingGlyph:
                self.missing.setdefault(char, next((w for w in text.split() if char in w), text))
                char, name = REPLACEMENT, font
            if out and out[-1][1] == name:
                out[-1][0] += char
            else:
                out.append([char, name])
        return [(piece, name) for piece, name in out]

    def markup(self, text: str, font: str | None = None) -> str:
        """Paragraph markup of the plain `text` (a paragraph in `font`)."""
        font = font or self.font
        return "".join(escape(piece) if name == font else f'<font face="{name}">{escape(piece)}</font>'
                       for piece, name in self.runs(text, font))

    def width(self, text: str, size: float) -> float:
        return sum(pdfmetrics.stringWidth(piece, name, size) for piece, name in self.runs(text))

    def string(self, x: float, y: float, text: str, size: float, anchor: str = "start") -> Group:
        """`text` as drawing Strings, one a font run, anchored at x like a String."""
        runs = self.runs(text)
        widths = [pdfmetrics.stringWidth(piece, name, size) for piece, name in runs]
        x -= {"start": 0, "middle": sum(widths) / 2, "end": sum(widths)}[anchor]
        group = Group()
        for (piece, name), w in zip(runs, widths):
            group.add(String(x, y, piece, fontName=name, fontSize=size))
            x += w
        return group

    def fit(self, text: str, size: float, room: float) -> str:
        """`text` shortened with an ellipsis in its middle until it fits `room`
        points (a long name keeps its start and its number after ": ")."""
        if self.width(text, size) <= room:
            return text
        name, sep, number = text.rpartition(": ")
        while name and self.width(f"{name}\u2026{sep}{number}", size) > room:
            name = name[:-1]
        return f"{name}\u2026{sep}{number}"

    def note(self) -> str | None:
        """What the report says of the characters no font has, if any."""
        if not self.missing:
            return None
        chars = "; ".join(describe(c) for c in self.missing)
        return (f"Printed as {REPLACEMENT}: {chars} (no font this report carries has "
                f"{'it' if len(self.missing) == 1 else 'them'}).")

    def warnings(self) -> tuple[str, ...]:
        """One warning naming every character no font has, and a text it is in."""
        if not self.missing:
            return ()
        texts = sorted(set(self.missing.values()), key=list(self.missing.values()).index)
        return (f"the report prints {len(self.missing)} character(s) as {REPLACEMENT}, as no font it carries "
                f"has them: {', '.join(f'U+{ord(c):04X}' for c in self.missing)} (in {texts[0]!r}"
                + (f" and {len(texts) - 1} more)" if len(texts) > 1 else ")"),)
