"""`build`, `watch` and `preview` say when a face is not as the designer
meant it, once per kind of card: text inside the safe zone, a picture under
300 dpi, text shrunk below its style's size. And `preview --guides` draws
the bleed, the trim and the safe zone where they are, measured in the PNG."""
from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.cli import main
from pnp.extras.watch import watch
from pnp.pipeline.options import BuildOptions

pytestmark = pytest.mark.pdf

GAME = "dragon-market"
LONG = "Take three cards from the market, keep the one you like best and put the others back in any order. " * 5


@pytest.fixture
def designer(tmp_path) -> Path:
    """A new game whose id line is pushed to 1 mm from the card's left edge, one
    card with a 160 x 90 px picture and one with far too much rules text."""
    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        assert CliRunner().invoke(main, ["new-game", GAME]).exit_code == 0
    finally:
        os.chdir(old)
    template = tmp_path / "templates" / GAME / "card.xml.j2"
    text = template.read_text()
    assert 'x="{{ f + 1.8 }}" y="{{ H - f - 7.3 }}"' in text
    template.write_text(text.replace('x="{{ f + 1.8 }}" y="{{ H - f - 7.3 }}"', 'x="1" y="{{ H - f - 7.3 }}"').replace(
        "</card>", '{% if "art" in card %}<art src="{{ card.art }}" x="{{ f + 1.5 }}" y="{{ f + style.title_h + 1.5 }}" '
                   'w="{{ W - 2*f - 3 }}" h="{{ style.art_h }}" color="ink"/>{% endif %}\n</card>'))
    art = tmp_path / "templates" / "art"
    art.mkdir()
    Image.new("RGB", (160, 90), (0, 160, 150)).save(art / "soft.jpg", quality=95)
    (tmp_path / "card_sources" / GAME / "art.yaml").write_text(
        "cards:\n  dragon-market-builder: soft.jpg\n  dragon-market-scout: soft.jpg\n"
        "  dragon-market-messenger: soft.jpg\n  dragon-market-wildcard: soft.jpg\n")
    deck = tmp_path / "card_sources" / GAME / "starter.yaml"
    source = deck.read_text()
    first = 'text: "When you play this, look at the top card of the deck."'
    assert first in source
    deck.write_text(source.replace(first, f'text: "{LONG}"'))
    return tmp_path


def warnings(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("warning:")]


def test_build_warns_once_per_card_kind_and_again_while_the_cause_stays(designer, tmp_path):
    out = tmp_path / "out"
    first = CliRunner().invoke(main, ["--project", str(designer), "build", "--out", str(out)])
    assert first.exit_code == 0, first.output
    lines = warnings(first.output)
    assert len(lines) == 3, first.output
    safe, = [l for l in lines if "safe zone" in l]
    assert safe.startswith(f"warning: {GAME} card: ") and "text 'id' is 1.0 mm from the trim" in safe
    assert "(4 cards, e.g. dragon-market-scout)" in safe
    picture, = [l for l in lines if "dpi" in l]
    assert "picture soft.jpg (160 x 90 px" in picture and "under 300" in picture and "(4 cards" in picture
    shrunk, = [l for l in lines if "shrunk" in l]
    assert "text 'text' shrunk from 8.5 pt to" in shrunk and "(dragon-market-scout)" in shrunk
    again = CliRunner().invoke(main, ["--project", str(designer), "build", "--out", str(out)])
    assert "up to date" in again.output and warnings(again.output) == lines


def test_a_style_may_say_how_far_its_text_shrinks_without_a_word(designer, tmp_path):
    style = designer / "templates" / GAME / "style.yaml"
    style.write_text(style.read_text() + "paragraph_styles:\n  rules: {shrink_to: 6}\n")
    result = CliRunner().invoke(main, ["--project", str(designer), "build", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0 and len(warnings(result.output)) == 2, result.output
    assert not any("shrunk" in line for line in warnings(result.output))


def test_watch_reports_the_warnings_of_each_build(designer, tmp_path):
    outcomes = []
    stop = threading.Event()
    stop.set()   # one build, then stop
    watch(designer, None, tmp_path / "out", BuildOptions(), lambda o, changed: outcomes.append(o), stop, 50)
    (report,) = outcomes
    assert len(report.warnings) == 3 and all(w.startswith(f"warning: {GAME} card: ") for w in report.warnings)


def test_preview_says_its_cards_warnings(designer, tmp_path):
    result = CliRunner().invoke(main, ["--project", str(designer), "preview", "dragon-market-scout",
                                       "--out", str(tmp_path / "p.png")])
    assert result.exit_code == 0, result.output
    lines = warnings(result.output)
    assert len(lines) == 3 and any("shrunk" in l for l in lines) and any("safe zone" in l for l in lines), lines
    calm = CliRunner().invoke(main, ["--project", str(designer), "preview", "--sheet", GAME,
                                     "--out", str(tmp_path / "s.png")])
    assert calm.exit_code == 0 and len(warnings(calm.output)) == 3, calm.output


GUIDES = {"bleed": (0x1f, 0x6f, 0xeb), "trim": (0xd1, 0x24, 0x2f), "safe zone": (0x1a, 0x7f, 0x37)}


def test_preview_guides_sit_at_the_bleed_trim_and_safe_zone(designer, tmp_path):
    dpi = 254   # 10 pixels a millimetre
    png = tmp_path / "guides.png"
    result = CliRunner().invoke(main, ["--project", str(designer), "preview", "dragon-market-builder", "--guides",
                                       "--dpi", str(dpi), "--out", str(png)])
    assert result.exit_code == 0, result.output
    image = Image.open(png).convert("RGB")
    px = dpi / 25.4
    band = range(int(20 * px), int(60 * px))     # rows across the middle of the card

    def first_column(colour) -> float:
        """mm from the left edge of the first column where the guide's colour shows."""
        for x in range(image.width):
            if any(all(abs(a - b) < 40 for a, b in zip(image.getpixel((x, y)), colour)) for y in band[::3]):
                return x / px
        raise AssertionError(f"no {colour} in the picture")

    margin, bleed, safe = 3.0, 25.4 / 8, 25.4 / 8   # pnp.extras.preview.MARGIN; the shops' 1/8 in
    found = {name: first_column(colour) for name, colour in GUIDES.items()}
    assert abs(found["bleed"] - margin) < 0.3, found
    assert abs(found["trim"] - (margin + bleed)) < 0.3, found
    assert abs(found["safe zone"] - (margin + bleed + safe)) < 0.3, found
    assert image.getpixel((int(1.5 * px), int(40 * px)))[0] > 240       # outside the bleed: paper
    plain = CliRunner().invoke(main, ["--project", str(designer), "preview", "dragon-market-builder",
                                      "--dpi", str(dpi), "--out", str(tmp_path / "plain.png")])
    assert plain.exit_code == 0
    assert Image.open(tmp_path / "plain.png").width < image.width     # the guides make room for the bleed


def test_the_preflight_finds_the_soft_picture_in_the_file_and_as_laid_out(designer, tmp_path):
    result = CliRunner().invoke(main, ["--project", str(designer), "export", GAME, "--shop", "pdf-single",
                                       "--deck", "starter", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    ppi = [l for l in result.output.splitlines() if ": picture-ppi: " in l]
    scout = [l for l in ppi if l.startswith(f"  {GAME}/shop-pdf-single/starter/dragon-market-scout-1.pdf: page 1: "
                                            "dragon-market-scout front: ")]
    in_file = [l for l in scout if "(as laid out)" not in l]
    assert len(in_file) == 1 and "a 160 x 90 px picture placed at" in in_file[0], result.output
    placed = int(in_file[0].split(" prints at ")[1].split(" ppi")[0])
    assert 80 <= placed <= 110, in_file    # 160 px over about 41 mm (the picture keeps its shape in the panel)
    assert any("(as laid out)" in l and "95 dpi" in l for l in scout), scout
