"""No character is dropped from printed text: what the text's font lacks is
set in a shipped fallback font (Noto Sans Symbols 2, Noto Sans Symbols),
embedded where it is used; what no embedded font has is an error naming the
card, the character and the field."""
from __future__ import annotations

import shutil

from functools import lru_cache
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from reportlab.pdfbase.pdfmetrics import getFont

from pnp.pipeline.prepare import prepare_decks
from pnp.cli import main
from pnp.errors import Problems
from pnp.faces import richtext
from pnp.faces.elements import Text
from pnp.faces.glyphs import FALLBACK_FOLDER, FALLBACKS, MissingGlyph, fallback_markup, font_runs
from pnp.project import PACKAGE_FONTS
from pnp.render.tools import load_tools
from pnp.sources.loader import load_sources

ROOT = Path(__file__).resolve().parents[2]
DECK = "card_sources/culture-war/anarchy.yaml"
SYMBOLS = "→ ✓ ♠ ♥ ★ ⚀ 🏆"


def set_flavor(project: Path, flavor: str) -> None:
    path = project / DECK
    path.write_text(path.read_text().replace('flavor: "Loud."', f'flavor: "{flavor}"'))


@lru_cache(maxsize=None)
def cmap(font: str) -> frozenset[int]:
    """The characters `font` has a glyph for, read from the font itself."""
    return frozenset(getFont(font).face.charToGlyph)


def test_the_fallback_fonts_ship_with_their_licence():
    for name in FALLBACKS:
        assert (FALLBACK_FOLDER / f"{name}.ttf").is_file()
    assert "SIL OPEN FONT LICENSE Version 1.1" in (FALLBACK_FOLDER / "LICENSE-Noto-OFL.txt").read_text()
    assert FALLBACK_FOLDER.parent == PACKAGE_FONTS
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"assets/fonts/fallback/*"' in pyproject  # package data: the wheel carries them


def test_each_character_is_set_in_a_font_that_has_it(mini_project):
    load_tools(mini_project, "culture-war")
    runs = font_runs("Go → now ✓", "RobotoCondensed-Regular")
    assert "".join(piece for piece, _ in runs) == "Go → now ✓"
    for piece, font in runs:
        assert all(ord(c) in cmap(font) for c in piece), (piece, font)
    assert {font for _, font in runs} == {"RobotoCondensed-Regular", "NotoSansSymbols-Regular", "NotoSansSymbols2-Regular"}
    with pytest.raises(MissingGlyph, match=r"U\+1F600"):
        font_runs("smile 😀", "RobotoCondensed-Regular")
    markup = fallback_markup("<b>x</b> &amp; ✓", "RobotoCondensed-Regular")
    assert markup == '<b>x</b> &amp; <font face="NotoSansSymbols2-Regular">✓</font>'


@pytest.mark.pdf
def test_a_card_with_arrows_and_symbols_prints_them(mini_project):
    set_flavor(mini_project, f"Go {SYMBOLS}")
    result = CliRunner().invoke(main, ["--project", str(mini_project), "build", "culture-war"])
    assert result.exit_code == 0, result.output
    pdf_path = mini_project / "output/culture-war/deck-anarchy.pdf"
    fonts = set()
    with pikepdf.open(pdf_path) as pdf:
        for page in pdf.pages:
            for xobject in page.Resources.get("/XObject", {}).values():
                for font in xobject.get("/Resources", {}).get("/Font", {}).values():
                    fonts.add(str(font.BaseFont).split("+")[-1])
    assert {"NotoSansSymbols2-Regular", "NotoSansSymbols-Regular"} <= fonts, fonts
    doc = pdfium.PdfDocument(str(pdf_path))
    text = doc[0].get_textpage().get_text_range()
    assert "Go → ✓ ♠ ♥ ★ ⚀" in text, text  # the astral 🏆 is drawn; its text mapping is ReportLab's
    drawn = doc[0].render(scale=2).to_pil().convert("L")
    doc.close()
    set_flavor(mini_project, "Go")  # the same card without the symbols draws less ink
    (mini_project / DECK).write_text((mini_project / DECK).read_text().replace(f"Go {SYMBOLS}", "Go"))
    assert CliRunner().invoke(main, ["--project", str(mini_project), "build", "culture-war"]).exit_code == 0
    doc = pdfium.PdfDocument(str(pdf_path))
    plain = doc[0].render(scale=2).to_pil().convert("L")
    doc.close()
    ink = lambda image: sum(255 - v for v in image.tobytes())  # noqa: E731
    assert ink(drawn) > ink(plain) + 2000


def test_a_character_no_font_has_is_an_error_naming_card_character_and_field(mini_project):
    set_flavor(mini_project, "Smile 😀")
    result = CliRunner().invoke(main, ["--project", str(mini_project), "validate", "culture-war"])
    assert result.exit_code != 0 and "Traceback" not in result.output
    line = next(i for i, l in enumerate((mini_project / DECK).read_text().splitlines(), 1) if "Smile" in l)
    assert f"{DECK}:{line}: test-brawler: flavor: character U+1F600 '😀' is in no embedded font" in result.output


def test_a_rule_sheet_character_no_font_has_is_named_at_its_line(tmp_path):
    for name in ("card_sources", "templates"):
        shutil.copytree(ROOT / name, tmp_path / name)
    rules = tmp_path / "card_sources/petri-dish/rules.md"
    lines = rules.read_text().splitlines()
    rules.write_text("\n".join(lines[:3] + ["Smile 😀"] + lines[3:]) + "\n")
    result = CliRunner().invoke(main, ["--project", str(tmp_path), "validate", "petri-dish"])
    assert result.exit_code != 0
    assert "card_sources/petri-dish/rules.md:4: rules: character U+1F600" in result.output, result.output


@pytest.mark.slow
def test_every_character_of_every_card_source_is_drawn():
    """Every text of every card face of the five games, as it will be drawn:
    each piece is set in a font that has every one of its glyphs."""
    sources = load_sources(ROOT)
    seen = 0
    for slug, game in sources.games.items():
        tools = load_tools(ROOT, slug)
        problems = Problems(ROOT)
        for faces in prepare_decks(game, tools, problems):
            for face in [*faces.fronts.values(), faces.back]:
                for el in (face.elements if face else ()):
                    if not isinstance(el, Text) or not el.markup:
                        continue
                    spec = tools.style["paragraph_styles"][el.style]
                    parsed = richtext.parse(el.markup, spec["font"], "#000000")
                    assert parsed is not None or el.align == "justify" or "<" in el.markup, el.markup
                    for line in parsed or ():
                        for word in line:
                            for run in word.runs:
                                missing = [c for c in run.text if ord(c) not in cmap(run.font)]
                                assert not missing, (slug, el.field, run.text, run.font)
                                seen += len(run.text)
        assert not problems, problems.items
    assert seen > 50_000
