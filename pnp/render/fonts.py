"""Registering the project's TrueType fonts (embedded, subset) with ReportLab."""
from __future__ import annotations

from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError

from pnp.errors import PnpError
from pnp.project import font_folder
from pnp.faces.subsettags import TaggedTTFont

_registered: dict[Path, tuple[str, ...]] = {}
_VARIANTS = {"Regular": (0, 0), "Bold": (1, 0), "Italic": (0, 1), "BoldItalic": (1, 1)}


def register_fonts(templates: Path) -> tuple[str, ...]:
    """Register every .ttf of the project's fonts (see `font_folder`) under its
    file stem; families named `Family-Regular/-Bold/-Italic/-BoldItalic` get
    bold and italic mappings so `<b>` and `<i>` work in paragraphs. Returns the
    registered names."""
    folder = font_folder(templates).resolve()
    if folder in _registered:
        return _registered[folder]
    names = []
    for path in sorted(folder.glob("*.ttf")):
        name = path.stem
        if name not in pdfmetrics.getRegisteredFontNames():
            try:
                pdfmetrics.registerFont(TaggedTTFont(name, str(path)))
            except TTFError as exc:
                raise PnpError(f"{path}: not a usable TrueType font ({exc})") from None
        names.append(name)
    families: dict[str, dict[str, str]] = {}
    for name in names:
        family, _, variant = name.rpartition("-")
        if family and variant in _VARIANTS:
            families.setdefault(family, {})[variant] = name
    for family, variants in families.items():
        regular = variants.get("Regular")
        if not regular:
            continue
        for variant, (bold, italic) in _VARIANTS.items():
            addMapping(regular, bold, italic, variants.get(variant, regular))
    if not names:
        raise PnpError(f"{folder}: no .ttf fonts; pnp embeds its fonts and needs at least one")
    _registered[folder] = tuple(names)
    return _registered[folder]

