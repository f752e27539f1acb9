"""Which font prints each character: the text's own font where it has the
glyph, else the first fallback font that has it (Noto Sans Symbols 2, then
Noto Sans Symbols: arrows, check marks, card suits, dice, common symbols and
pictographs; shipped in pnp/assets/fonts/fallback/, SIL OFL 1.1). The
fallbacks are registered only when a text needs one, so a build that never
does pays nothing. A character no embedded font has is an error
(`MissingGlyph`), never a blank on the printed card.
"""
from __future__ import annotations

import html
import re
from functools import lru_cache

from reportlab.pdfbase import pdfmetrics

from pnp.faces.subsettags import TaggedTTFont
from pnp.project import PACKAGE_FONTS

FALLBACK_FOLDER = PACKAGE_FONTS / "fallback"
FALLBACKS = ("NotoSansSymbols2-Regular", "NotoSansSymbols-Regular")  # tried in this order
# The match reports print players' names in any script: the symbols, then
# Arabic (shaped by referee/pdf_text.py before it comes here), Hebrew, emoji
# (Noto Emoji, monochrome outlines) and Chinese, Japanese and Korean (Droid
# Sans Fallback, Apache 2.0). Cards keep FALLBACKS: their text is not shaped.
SCRIPT_FALLBACKS = FALLBACKS + ("NotoSansArabic-Regular", "NotoSansHebrew-Regular", "NotoEmoji-Regular",
                                "DroidSansFallback")
_IGNORED = frozenset("\n\r\t\u00ad\u200b\u200c\u200d\ufe0e\ufe0f")  # line breaks, soft hyphen, joiners, variation selectors


class MissingGlyph(ValueError):
    """A character that neither the text's font nor any fallback font can print."""

    def __init__(self, char: str, font: str, fallbacks: tuple[str, ...] = FALLBACKS):
        self.char, self.font = char, font
        super().__init__(f"character {describe(char)} is in no embedded font ({font}, nor the fallbacks "
                         f"{' and '.join(fallbacks)}); write it another way, or bring a font that has it "
                         "in templates/fonts/")


def describe(char: str) -> str:
    """`U+2192 '→'`: a character as the messages name it."""
    return f"U+{ord(char):04X} {char!r}"


@lru_cache(maxsize=None)
def _fallback(name: str):
    """The fallback font `name`, registered on first use."""
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TaggedTTFont(name, str(FALLBACK_FOLDER / f"{name}.ttf")))
    return pdfmetrics.getFont(name)


@lru_cache(maxsize=64)
def _cmap(font: str) -> frozenset[int] | None:
    """The characters `font` has glyphs for; None for a font that is not an
    embedded TrueType font (its coverage is not ours to check)."""
    face = getattr(pdfmetrics.getFont(font), "face", None)
    cmap = getattr(face, "charToGlyph", None)
    return None if cmap is None else frozenset(cmap)


@lru_cache(maxsize=64)
def _covers_ascii(font: str) -> bool:
    cmap = _cmap(font)
    return cmap is None or all(c in cmap for c in range(32, 127))


def font_for(char: str, font: str, fallbacks: tuple[str, ...] = FALLBACKS) -> str:
    """The font that prints `char`: `font` itself, else the first of
    `fallbacks` that has it. Raises MissingGlyph when none has it."""
    cmap = _cmap(font)
    if cmap is None or ord(char) in cmap or char in _IGNORED:
        return font
    for name in fallbacks:
        _fallback(name)
        if ord(char) in _cmap(name):
            return name
    raise MissingGlyph(char, font, fallbacks)


@lru_cache(maxsize=16384)
def font_runs(text: str, font: str) -> tuple[tuple[str, str], ...]:
    """`text` cut into (piece, font) runs, each piece in a font that has all
    its glyphs: `font` wherever it can, a fallback where it cannot. Raises
    MissingGlyph for a character no embedded font has."""
    if text.isascii() and _covers_ascii(font):
        return ((text, font),)
    runs: list[list[str]] = []
    for char in text:
        name = font_for(char, font)
        if runs and runs[-1][1] == name:
            runs[-1][0] += char
        else:
            runs.append([char, name])
    return tuple((piece, name) for piece, name in runs)


_SEGMENT = re.compile(r"(<[^>]*>)|([^<]+)")


def fallback_markup(markup: str, font: str) -> str:
    """Paragraph markup with every character `font` lacks wrapped in a
    `<font face=...>` of the fallback that has it (for text ReportLab's
    Paragraph sets). Raises MissingGlyph as `font_runs` does."""
    if markup.isascii() and _covers_ascii(font):
        return markup
    out = []
    for tag, text in _SEGMENT.findall(markup):
        if tag:
            out.append(tag)
            continue
        for piece, name in font_runs(html.unescape(text), font):
            piece = html.escape(piece, quote=False)
            out.append(piece if name == font else f'<font face="{name}">{piece}</font>')
    return "".join(out)
