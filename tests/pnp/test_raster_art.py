"""PNG and JPEG pictures beside the SVG icons: named in art.yaml by file
name, drawn in the <art> panel, their resolution at the printed size
checked (a warning under 300 dpi), and in a designer's own game one picture
may serve several cards."""
from __future__ import annotations

import os
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.cli import main

MAGENTA, TEAL = (230, 0, 200), (0, 160, 150)
ART = ('{% if "art" in card %}<art src="{{ card.art }}" x="{{ f + 1.5 }}" y="{{ f + style.title_h + 1.5 }}" '
       'w="{{ W - 2*f - 3 }}" h="{{ style.art_h }}" color="ink"/>{% endif %}\n</card>')


@pytest.fixture
def pictured(tmp_path) -> Path:
    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        assert CliRunner().invoke(main, ["new-game", "dragon-market"]).exit_code == 0
    finally:
        os.chdir(old)
    art = tmp_path / "templates" / "art"
    art.mkdir()
    Image.new("RGB", (1400, 800), MAGENTA).save(art / "sharp.png")
    Image.new("RGB", (160, 90), TEAL).save(art / "soft.jpg", quality=95)
    template = tmp_path / "templates" / "dragon-market" / "card.xml.j2"
    template.write_text(template.read_text().replace("</card>", ART))
    (tmp_path / "card_sources" / "dragon-market" / "art.yaml").write_text(
        "cards:\n"
        "  dragon-market-scout: sharp.png\n"
        "  dragon-market-builder: soft.jpg\n"
        "  dragon-market-messenger: sharp.png   # one picture, two cards: allowed in a designer's game\n"
        "  dragon-market-wildcard: sharp.png\n")
    return tmp_path


def test_validate_warns_of_a_picture_under_300_dpi_only(pictured):
    result = CliRunner().invoke(main, ["--project", str(pictured), "validate"])
    assert result.exit_code == 0, result.output
    warnings = [l for l in result.output.splitlines() if l.startswith("warning:")]
    assert len(warnings) == 1, result.output
    (line,) = warnings
    assert "templates/art/soft.jpg" in line and "160 x 90 px" in line and "under 300" in line
    dpi = int(line.split(" dpi")[0].rsplit(" ", 1)[1])
    assert 50 <= dpi <= 120, line   # 160 px across a panel about 55 mm wide: about 74 dpi


def test_a_missing_picture_is_named_where_it_is_given(pictured):
    (pictured / "templates" / "art" / "soft.jpg").unlink()
    result = CliRunner().invoke(main, ["--project", str(pictured), "validate"])
    assert result.exit_code != 0 and "art.yaml:3: dragon-market-builder: no illustration templates/art/soft.jpg" \
        in result.output, result.output


@pytest.mark.pdf
def test_png_and_jpeg_pictures_are_printed(pictured):
    result = CliRunner().invoke(main, ["--project", str(pictured), "build", "dragon-market"])
    assert result.exit_code == 0, result.output
    doc = pdfium.PdfDocument(pictured / "output" / "dragon-market" / "deck-starter.pdf")
    image = doc[0].render(scale=50 / 72).to_pil().convert("RGB")
    doc.close()
    colours = image.getcolors(maxcolors=1 << 20)
    count = {c: n for n, c in colours}

    def near(target):
        return sum(n for c, n in count.items() if all(abs(a - b) <= 12 for a, b in zip(c, target)))
    assert near(MAGENTA) > 4 * 200 and near(TEAL) > 200   # three cards show the PNG, one the JPEG
