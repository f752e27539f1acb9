"""A designer's PNG pictures in the DriveThruCards export (issue 37): they
keep their colours in the PDF/X-1a file (made CMYK within the ink limit by
pnp.extras.presspictures, or by Ghostscript for a picture with transparency),
and Ghostscript runs once to convert every deck of an export and once to
measure the ink of every file, not once per deck."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageStat

from helpers.designer import CARDS, GAME, new_game, pnp, sources

TEAL, ORANGE = (40, 160, 150), (220, 120, 50)
BLEED_MM = 25.4 / 8
ART_CENTRE_MM = (63.5 / 2, 2.5 + 9 + 1.5 + 24 / 2)   # the template's art panel: frame, title bar, its half height


@pytest.fixture
def project(tmp_path) -> Path:
    """dragon-market with two pictures: an opaque PNG and one with transparent edges."""
    folder = new_game(tmp_path, art_panel=True)
    art = folder / "templates" / "art"
    art.mkdir()
    _grainy(TEAL, (900, 600)).save(art / "opaque.png")
    clear = Image.new("RGBA", (900, 600), (0, 0, 0, 0))
    clear.paste(_grainy(ORANGE, (800, 500)).convert("RGBA"), (50, 50))
    clear.save(art / "clear-edges.png")
    (sources(folder) / "art.yaml").write_text(f"cards:\n  {CARDS[0]}: opaque.png\n  {CARDS[1]}: clear-edges.png\n")
    return folder


def _grainy(colour: tuple[int, int, int], size: tuple[int, int]) -> Image.Image:
    """A flat colour with a photograph's grain (about +-30 per channel): Ghostscript JPEG-encodes
    such a picture, where it keeps a flat one lossless (main darkened these to near black)."""
    noise = Image.effect_noise(size, 30)
    return Image.merge("RGB", [ImageChops.add(Image.new("L", size, c), noise, 1.0, -128) for c in colour])


def _centre_colour(pdf: Path, page: int) -> tuple[int, ...]:
    """The mean colour of a 4 x 4 mm square at the centre of the card's art panel on a DriveThru page."""
    doc = pdfium.PdfDocument(str(pdf))
    try:
        image = doc[page].render(scale=200 / 72).to_pil().convert("RGB")
    finally:
        doc.close()
    px = 200 / 25.4
    x, y = ((BLEED_MM + c) * px for c in ART_CENTRE_MM)
    box = image.crop((round(x - 2 * px), round(y - 2 * px), round(x + 2 * px), round(y + 2 * px)))
    return tuple(round(v) for v in ImageStat.Stat(box).mean)


@pytest.mark.pdf
def test_pictures_keep_their_colours_in_cmyk(project):
    result = pnp(project, "export", GAME, "--shop", "drivethru")
    assert result.exit_code == 0 and "every rule passed" in result.output, result.output
    pdf = project / "output" / GAME / "shop-drivethru" / "starter" / f"{GAME}-starter.pdf"
    # Scout's 3 copies: pages 1-6; Builder's first front is page 8
    for page, colour in ((1, TEAL), (7, ORANGE)):
        shown = _centre_colour(pdf, page)
        assert all(abs(a - b) <= 30 for a, b in zip(shown, colour)), (page, shown, colour)
    with pikepdf.open(pdf) as doc:
        images = {o.objgen: o for page in doc.pages for o in page.get_images().values()}
        assert images and all(o.ColorSpace == "/DeviceCMYK" for o in images.values())
        # the opaque picture is our own JPEG, drawn once for its three copies
        assert sum(1 for o in images.values() if o.get("/Filter") == "/DCTDecode") >= 1


MARKET = """  - id: market
    name: Market deck
    file: market.yaml
    back: back
    color: "#e0b040"
    icon: dragon-market-mark
"""


def _two_decks(project: Path) -> None:
    game = sources(project) / "game.yaml"
    game.write_text(game.read_text().replace("\ndocuments:", "\n" + MARKET + "\ndocuments:", 1))
    (sources(project) / "market.yaml").write_text(
        "cards:\n  - id: dm-market-stall\n    name: Stall\n    type: card\n    cost: 2\n")
    (sources(project) / "art.yaml").write_text(sources(project).joinpath("art.yaml").read_text()
                                               + "  dm-market-stall: opaque.png\n")


@pytest.mark.pdf
def test_ghostscript_runs_once_to_convert_and_once_to_measure_ink(project, tmp_path):
    """A `gs` on PATH that logs each run and hands it to the real Ghostscript."""
    _two_decks(project)
    real, log, wrapper = shutil.which("gs"), tmp_path / "gs.log", tmp_path / "bin"
    assert real is not None
    wrapper.mkdir()
    (wrapper / "gs").write_text(f'#!/bin/sh\necho "$*" >> {log}\nexec {real} "$@"\n')
    (wrapper / "gs").chmod(0o755)
    env = {**os.environ, "PATH": f"{wrapper}{os.pathsep}{os.environ['PATH']}"}
    pnp_command = str(Path(sys.executable).parent / "pnp")
    done = subprocess.run([pnp_command, "--project", str(project), "export", GAME, "--shop", "drivethru"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    folder = project / "output" / GAME / "shop-drivethru"
    assert (folder / "starter" / f"{GAME}-starter.pdf").is_file() and (folder / "market" / f"{GAME}-market.pdf").is_file()
    runs = log.read_text().splitlines()
    assert sum("pdfwrite" in r for r in runs) == 1, runs
    assert sum("tiff32nc" in r for r in runs) == 1, runs
    assert len(runs) == 2, runs
    for deck, pages in (("starter", 14), ("market", 2)):   # each file its own pages, title and output intent
        with pikepdf.open(folder / deck / f"{GAME}-{deck}.pdf") as pdf:
            assert len(pdf.pages) == pages
            assert str(pdf.docinfo["/Title"]) == f"Dragon Market — {deck.title()} deck"
            assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-1a:2003" and len(pdf.Root.OutputIntents) == 1


@pytest.mark.pdf
@pytest.mark.parametrize("mode", ["RGB", "CMYK"])
def test_a_press_ready_picture_is_within_the_ink_limit(tmp_path, mode):
    """A dark picture (a CMYK one at 340% total ink, or a near-black RGB one, 295% in SWOP) comes back
    as a CMYK JPEG whose every pixel, read back, is within 240% (to the 1/255 of each ink)."""
    from pnp.extras.pdfx import cmyk_profile
    from pnp.extras.presspictures import press_picture

    source = tmp_path / ("dark.jpg" if mode == "CMYK" else "dark.png")
    if mode == "CMYK":
        Image.new("CMYK", (300, 200), (230, 204, 204, 230)).save(source, quality=95)
    else:
        Image.merge("RGB", [ImageChops.add(Image.new("L", (300, 200), 12), Image.effect_noise((300, 200), 8), 1, -128)
                            for _ in range(3)]).save(source)
    made = Path(press_picture(str(source), tmp_path / "press", cmyk_profile(), 2.4))
    assert made.suffix == ".jpg" and made.parent == tmp_path / "press"
    with Image.open(made) as image:
        assert image.mode == "CMYK" and image.size == (300, 200)
        raw = image.tobytes()
        most = max(sum(raw[i:i + 4]) for i in range(0, len(raw), 4))
    assert most <= 2.4 * 255 + 2, most / 255
    assert most >= 2.0 * 255   # still dark: limited, not washed out
