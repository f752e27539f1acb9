"""The match report prints every player's name, in any script: Arabic
joined and right to left, Chinese, an emoji, a long name. Read back from the
PDF as a reader would: the text holds each name, the name's area on the
page has ink, and each character is drawn in a font that has its glyph (no
.notdef box). A character no font carries prints as U+FFFD and is named in
the report and in a warning, never dropped in silence."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from reportlab.pdfbase.ttfonts import TTFontFile

from conftest import Table
from helpers.pdfcheck import iter_fonts
from pnp.faces.glyphs import FALLBACK_FOLDER, SCRIPT_FALLBACKS
from pnp.project import PACKAGE_FONTS
from referee.report.pdf_text import visual

pytestmark = pytest.mark.pdf

SARA, LI_LEI, ZOE = "سارة", "李雷", "Zoë 🎲"
LONG = "Bartholomew-Maximilian-Fitzgerald-Worthington-the-Third"
# سارة's letters as they join (the Unicode joining rules): seen initial, alef
# final, reh isolated (alef joins nothing after it), teh marbuta isolated
# (reh joins nothing after it); drawn left to right, so last letter first
SARA_DRAWN = "\ufe93\ufead\ufe8e\ufeb3"


def test_a_left_to_right_text_is_left_as_it_is_and_arabic_is_joined_and_reversed():
    assert visual(f"{ZOE}: 3") == f"{ZOE}: 3"
    assert visual(SARA) == SARA_DRAWN
    assert visual(f"Winner: {SARA} (anarchy)", (SARA,)).replace("\u2068", "").replace("\u2069", "") == \
        f"Winner: {SARA_DRAWN} (anarchy)"


@lru_cache(maxsize=None)
def font_cmap(base_font: str) -> frozenset[int]:
    """The characters the font file behind an embedded subset has glyphs for."""
    name = base_font.split("+")[-1]
    path = next(p for p in (PACKAGE_FONTS / f"{name}.ttf", PACKAGE_FONTS / "fallback" / f"{name}.ttf") if p.is_file())
    return frozenset(TTFontFile(str(path)).charToGlyph)


def drawn_characters(path: Path) -> dict[str, set[str]]:
    """Each embedded font's characters beyond ASCII, as its ToUnicode map says
    they were drawn (ReportLab maps all of ASCII in every font, drawn or not;
    the text's ASCII is Roboto's)."""
    out: dict[str, set[str]] = {}
    with pikepdf.open(path) as pdf:
        for _, font in iter_fonts(pdf):
            cmap = font.get("/ToUnicode")
            if cmap is None:
                continue
            text = cmap.read_bytes().decode("ascii").split("beginbfchar", 1)[1].split("endbfchar")[0]
            chars = {bytes.fromhex(h).decode("utf-16-be") for h in re.findall(r"^<[0-9A-F]{2}> <([0-9A-F]+)>$", text, re.M)}
            out.setdefault(str(font.BaseFont).lstrip("/"), set()).update(c for c in chars if not c.isascii())
    return out


def ink_where(path: Path, chars: str) -> list[int]:
    """For each character of `chars` found on page one, the dark pixels in its box."""
    doc = pdfium.PdfDocument(str(path))
    try:
        page = doc[0]
        textpage = page.get_textpage()
        scale = 4
        image = page.render(scale=scale).to_pil().convert("L")
        height = page.get_height()
        found = []
        for i in range(textpage.count_chars()):
            char = chr(pdfium_c.FPDFText_GetUnicode(textpage.raw, i))
            if char in chars and not char.isspace():
                left, bottom, right, top = textpage.get_charbox(i)
                box = (int(left * scale), int((height - top) * scale), int(right * scale) + 1,
                       int((height - bottom) * scale) + 1)
                found.append(sum(image.crop(box).histogram()[:128]))
        return found
    finally:
        doc.close()


def test_every_name_prints_in_its_own_script(table: Table):
    table.run(["new", "culture-war", "--player", f"{SARA}:anarchy", "--player", f"{LI_LEI}:technocracy",
               "--player", f"{ZOE}:community", "--player", LONG, "--seed", "4"])
    table.run(["life", SARA, "-3"])
    table.run(["life", LI_LEI, "-5"])
    result = table.run("report")
    assert "warning" not in result.output
    out = Path(result.output.strip())
    out = out if out.is_absolute() else Path.cwd() / out

    doc = pdfium.PdfDocument(str(out))
    text = doc[0].get_textpage().get_text_range()
    doc.close()
    # the reader gives Arabic back in reading order and joined forms as letters
    for name in (SARA, LI_LEI, ZOE, LONG[:30]):
        assert name in unicodedata.normalize("NFKC", text), (name, text)

    drawn = drawn_characters(out)
    for font, chars in drawn.items():  # no character falls to a .notdef box
        missing = [f"U+{ord(c):04X}" for c in chars if ord(c) not in font_cmap(font)]
        assert not missing, (font, missing)
    by_font = {c: font.split("+")[-1] for font, chars in drawn.items() for c in chars}
    assert {by_font[c] for c in SARA_DRAWN} == {"NotoSansArabic-Regular"}  # the joined forms are drawn
    assert {by_font[c] for c in LI_LEI} == {"DroidSansFallback"}
    assert by_font["🎲"] == "NotoEmoji-Regular" and by_font["ë"] == "RobotoCondensed-Regular"

    # and each is ink on the page, not a blank (the reader counts an emoji as two UTF-16 halves)
    for chars in (SARA + SARA_DRAWN, LI_LEI, "\ud83c"):  # 🎲's first half
        dark = ink_where(out, chars)
        assert dark and min(dark) > 20, (chars, dark)


def test_a_character_no_font_has_is_a_visible_replacement_and_a_warning(table: Table):
    table.run(["new", "debate", "--player", "สมชาย:Lincoln", "--player", "Ben:Truman", "--seed", "1"])
    result = table.run("report")
    assert result.exit_code == 0
    assert "warning: the report prints 5 character(s) as \ufffd" in result.output
    assert "U+0E2A" in result.output and "'สมชาย'" in result.output
    out = Path(result.output.splitlines()[0].strip())
    out = out if out.is_absolute() else Path.cwd() / out
    doc = pdfium.PdfDocument(str(out))
    text = " ".join(doc[0].get_textpage().get_text_range().split())
    doc.close()
    assert "Players: \ufffd\ufffd\ufffd\ufffd\ufffd (POTUS Lincoln); Ben (POTUS Truman)" in text
    assert "Printed as \ufffd: U+0E2A THAI CHARACTER SO SUA;" in text


def test_the_script_fonts_ship_with_their_licences():
    for name in SCRIPT_FALLBACKS:
        assert (FALLBACK_FOLDER / f"{name}.ttf").is_file(), name
    ofl = (FALLBACK_FOLDER / "LICENSE-Noto-OFL.txt").read_text()
    assert all(f"{name}.ttf" in ofl for name in SCRIPT_FALLBACKS if name.startswith("Noto"))
    assert "Apache License" in (FALLBACK_FOLDER / "LICENSE-Droid-Apache-2.0.txt").read_text()
