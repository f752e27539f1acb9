"""`pnp preflight` and the ink limit, checked as a print shop would: the
DriveThruCards file rendered into its CMYK separations by Ghostscript and its
ink summed per pixel, fonts read with poppler's pdffonts, and files spoiled on
purpose (with pikepdf and Pillow) getting the finding that names their file,
page, card and rule."""
from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
import yaml
from click.testing import CliRunner
from PIL import Image
from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

import pnp.extras.pdfx as pdfx
from pnp.cli import main

pytestmark = pytest.mark.pdf

ROOT = Path(__file__).resolve().parents[2]
FACE = """<card>
<rect x="0" y="0" w="{{ size.w }}" h="{{ size.h }}" fill="#1d1d1d"/>
<rect x="5" y="5" w="{{ size.w - 10 }}" h="{{ size.h - 10 }}" fill="white" bleed="false"/>
<text x="6" y="6" w="{{ size.w - 12 }}" h="6" style="rules" field="name">{{ card.name }}</text>
<qr x="{{ size.w / 2 - 7.5 }}" y="{{ size.h - 22 }}" size="15"/>
</card>
"""
EDGY = """<card>
<rect x="0" y="0" w="{{ size.w }}" h="{{ size.h }}" fill="#2a6f97"/>
<text x="1" y="1" w="{{ size.w - 2 }}" h="5" style="rules" field="name">{{ card.name }}</text>
</card>
"""
BLACK_BACK = """<card>
<rect x="0" y="0" w="{{ size.w }}" h="{{ size.h }}" fill="#000000"/>
<text x="8" y="{{ size.h / 2 - 4 }}" w="{{ size.w - 16 }}" h="8" style="backtitle" align="center">BACK</text>
</card>
"""
LINE = re.compile(r"^  (?P<file>\S+): (?P<page>page \d+|all pages): (?P<card>[^:]+): (?P<rule>[a-z-]+): (?P<message>.*)$")


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("preflight-project")
    (root / "templates" / "inks").mkdir(parents=True)
    for name in ("style.yaml", "icons.yaml"):
        shutil.copy(ROOT / "templates" / name, root / "templates" / name)
    for name, text in (("card", FACE), ("edgy", EDGY), ("back", BLACK_BACK)):
        (root / "templates" / "inks" / f"{name}.xml.j2").write_text(text)
    game = root / "card_sources" / "inks"
    game.mkdir(parents=True)
    (game / "dark.yaml").write_text(yaml.safe_dump({"cards": [
        {"id": "dark-one", "name": "One", "type": "plain", "quantity": 2},
        {"id": "dark-two", "name": "Two", "type": "plain"}]}))
    (game / "edge.yaml").write_text(yaml.safe_dump({"cards": [{"id": "edge-one", "name": "Edge", "type": "edgy"}]}))
    (game / "game.yaml").write_text(yaml.safe_dump({
        "name": "Inks", "players": {"min": 1, "max": 4}, "card_size": "poker",
        "card_types": {"plain": {"template": "card", "fields": {}}, "edgy": {"template": "edgy", "fields": {}}},
        "decks": [{"id": "dark", "name": "Dark", "file": "dark.yaml", "back": "back", "color": "#000000"},
                  {"id": "edge", "name": "Edge", "file": "edge.yaml", "back": "none", "color": "#2a6f97"}]},
        sort_keys=False))
    return root


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def findings(output: str) -> list[dict]:
    return [m.groupdict() for line in output.splitlines() if (m := LINE.match(line))]


@pytest.fixture(scope="module")
def exported(project, tmp_path_factory) -> Path:
    """The dark deck exported for every print shop (the export runs the preflight itself)."""
    out = tmp_path_factory.mktemp("preflight-out")
    for shop in ("drivethru", "pdf-single", "tgc"):
        result = run("--project", str(project), "export", "inks", "--shop", shop, "--deck", "dark", "--out", str(out))
        assert result.exit_code == 0, result.output
        assert "every rule passed" in result.output and not findings(result.output), result.output
    return out


def separations(path: Path, tmp: Path, dpi: int = 72) -> list[Image.Image]:
    """Every page of a PDF as Ghostscript's four 8-bit separations (no anti-aliasing)."""
    subprocess.run(["gs", "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=tiff32nc", f"-r{dpi}",
                    f"-sOutputFile={tmp}/sep%03d.tif", str(path)], check=True)
    return [Image.open(p) for p in sorted(tmp.glob("sep*.tif"))]


def most_ink(image: Image.Image) -> float:
    return max(sum(c) for _, c in image.getcolors(image.width * image.height)) / 255 * 100


# --------------------------------------------------------------------------- ink

def test_ghostscript_alone_lays_too_much_ink_and_the_limit_holds_it_to_240(monkeypatch, tmp_path):
    """The same RGB page through the DriveThru conversion with and without the limit,
    measured on the separations: black is 295% from the SWOP profile, 240% limited."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(144, 72))
    for i, colour in enumerate(("#000000", "#1d1d1d", "#1b2a4a", "#d4a017")):
        canvas.setFillColor(HexColor(colour))
        canvas.rect(i * 36, 0, 36, 72, fill=1, stroke=0)
    canvas.showPage()
    canvas.save()
    limited = tmp_path / "limited.pdf"
    limited.write_bytes(pdfx.to_pdfx(buffer.getvalue(), "ink"))
    monkeypatch.setattr(pdfx, "limit_ink", lambda pdf, profile, limit: pdf)
    plain = tmp_path / "plain.pdf"
    plain.write_bytes(pdfx.to_pdfx(buffer.getvalue(), "ink"))
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (before,), (after,) = separations(plain, tmp_path / "a"), separations(limited, tmp_path / "b")
    assert most_ink(before) > 290
    assert most_ink(after) <= 240.5
    black = after.getpixel((after.width // 8, after.height // 2))
    assert [round(v / 2.55) for v in black] == [60, 40, 40, 100]        # rich black C60 M40 Y40 K100
    gold_before = before.getpixel((before.width * 7 // 8, before.height // 2))
    gold_after = after.getpixel((after.width * 7 // 8, after.height // 2))
    assert gold_before == gold_after        # a colour already within the limit is left alone


def test_a_dark_picture_is_held_to_240_pixel_by_pixel(tmp_path):
    """A photo-like RGB picture (dark and light pixels) goes through the same conversion:
    Ghostscript makes it a CMYK image, the limit rewrites its pixels."""
    from reportlab.lib.utils import ImageReader

    picture = Image.new("RGB", (64, 64), (0, 0, 0))
    for x in range(32, 64):
        for y in range(64):
            picture.putpixel((x, y), (4 * y, 120, 200))
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(72, 72))
    canvas.drawImage(ImageReader(picture), 0, 0, 72, 72)
    canvas.showPage()
    canvas.save()
    path = tmp_path / "picture.pdf"
    path.write_bytes(pdfx.to_pdfx(buffer.getvalue(), "picture"))
    with pikepdf.open(path) as pdf:
        (image,) = list(pdf.pages[0].get_images().values())
        assert image.ColorSpace == pikepdf.Name.DeviceCMYK
    (page,) = separations(path, tmp_path, dpi=144)
    assert most_ink(page) <= 240.5
    assert sum(page.getpixel((page.width // 4, page.height // 2))) > 0.9 * 240 / 100 * 255    # still dark


def test_exported_deck_stays_within_240_on_every_page(exported, tmp_path):
    path = exported / "inks" / "shop-drivethru" / "dark" / "inks-dark.pdf"
    pages = separations(path, tmp_path)
    assert len(pages) == 6     # back, front, back, front, back, front
    assert max(most_ink(p) for p in pages) <= 240.5
    back = pages[0]
    assert [round(v / 2.55) for v in back.getpixel((back.width // 2, back.height // 10))] == [60, 40, 40, 100]


# --------------------------------------------------------------------------- findings on spoiled files

def spoiled_copy(exported: Path, tmp_path: Path, shop: str) -> Path:
    out = tmp_path / "out"
    shutil.copytree(exported / "inks" / f"shop-{shop}", out / "inks" / f"shop-{shop}")
    return out


def test_a_spoiled_drivethru_file_gets_each_finding_at_its_page_and_card(project, exported, tmp_path):
    out = spoiled_copy(exported, tmp_path, "drivethru")
    path = out / "inks" / "shop-drivethru" / "dark" / "inks-dark.pdf"
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        del pdf.docinfo["/GTS_PDFXVersion"]
        front = pdf.pages[1]            # page 2: dark-one's front
        front.contents_add(pdf.make_stream(b"1 0 0 rg 0 0 20 20 re f 1 1 1 1 k 30 30 40 40 re f"), prepend=False)
        del pdf.pages[2].obj["/TrimBox"]  # page 3: the deck's back
        gs = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, ca=0.5))
        pdf.pages[5].obj.Resources.ExtGState = pikepdf.Dictionary(GSx=gs)   # page 6: dark-two's front
        pdf.save(path)
    result = run("--project", str(project), "preflight", "inks", "--shop", "drivethru", "--out", str(out))
    assert result.exit_code == 1, result.output
    found = {(f["page"], f["card"], f["rule"]) for f in findings(result.output)}
    assert found == {("all pages", "-", "pdfx-version"), ("page 2", "dark-one front", "rgb"),
                     ("page 2", "dark-one front", "ink-limit"), ("page 3", "dark back", "trim-bleed-box"),
                     ("page 6", "dark-two front", "transparency")}, result.output
    assert all(f["file"] == "inks/shop-drivethru/dark/inks-dark.pdf" for f in findings(result.output))
    ink = next(f for f in findings(result.output) if f["rule"] == "ink-limit")
    assert "400%" in ink["message"], ink
    assert "5 findings" in result.output.splitlines()[-1]


def test_fonts_are_embedded_with_a_subset_tag_each(exported, tmp_path, project):
    path = exported / "inks" / "shop-pdf-single" / "dark" / "dark-one-1.pdf"
    rows = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    names = [row.split()[0] for row in rows]
    assert len(names) >= 2 and all(row.split()[-5] == "yes" for row in rows), rows
    tags = [n.split("+")[0] for n in names]
    assert len(set(tags)) == len(tags) and "AAAAAA" not in tags, names
    # the same file with ReportLab's old names: one tag shared by every font
    out = spoiled_copy(exported, tmp_path, "pdf-single")
    spoiled = out / "inks" / "shop-pdf-single" / "dark" / "dark-one-1.pdf"
    with pikepdf.open(spoiled, allow_overwriting_input=True) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") in ("/Font", "/FontDescriptor"):
                key = "/BaseFont" if obj.get("/Type") == "/Font" else "/FontName"
                if key in obj and "+" in str(obj[key]):
                    obj[key] = pikepdf.Name("/AAAAAA+" + str(obj[key]).split("+", 1)[1])
        pdf.save(spoiled)
    result = run("--project", str(project), "preflight", "inks", "--shop", "pdf-single", "--out", str(out))
    assert result.exit_code == 1
    (finding,) = findings(result.output)
    assert finding["file"] == "inks/shop-pdf-single/dark/dark-one-1.pdf" and finding["rule"] == "font-subset-tag"
    assert "share the subset tag AAAAAA+" in finding["message"]


def test_a_png_of_the_wrong_size_or_with_alpha_is_named(exported, tmp_path, project):
    out = spoiled_copy(exported, tmp_path, "tgc")
    folder = out / "inks" / "shop-tgc" / "dark"
    Image.open(folder / "dark-two-front.png").resize((800, 1100)).save(folder / "dark-two-front.png", dpi=(300, 300))
    Image.open(folder / "dark-back.png").convert("RGBA").save(folder / "dark-back.png", dpi=(300, 300))
    result = run("--project", str(project), "preflight", "inks", "--shop", "tgc", "--out", str(out))
    assert result.exit_code == 1
    found = {(f["file"].rsplit("/", 1)[1], f["page"], f["card"], f["rule"]) for f in findings(result.output)}
    assert found == {("dark-two-front.png", "page 1", "dark-two front", "pixel-size"),
                     ("dark-back.png", "page 1", "dark back", "transparency")}, result.output
    assert "800 x 1100 px, not 825 x 1125 px" in result.output


def test_text_too_near_the_trim_is_found_in_the_file_and_as_laid_out(project, tmp_path):
    result = run("--project", str(project), "export", "inks", "--shop", "pdf-single", "--deck", "edge",
                 "--out", str(tmp_path))
    assert result.exit_code == 0, result.output     # an export warns; the preflight command fails
    found = findings(result.output)
    assert {(f["file"], f["page"], f["card"], f["rule"]) for f in found} == {
        ("inks/shop-pdf-single/edge/edge-one-1.pdf", "page 1", "edge-one front", "safe-zone")}
    assert any("'Edge'" in f["message"] and "(as laid out)" not in f["message"] for f in found)   # pdfium's glyphs
    assert any("text 'name' is 1.0 mm" in f["message"] and "(as laid out)" in f["message"] for f in found)
    again = run("--project", str(project), "preflight", "inks", "--shop", "pdf-single", "--out", str(tmp_path))
    assert again.exit_code == 1 and findings(again.output) == found


def test_preflight_before_any_export_is_one_clear_error(project, tmp_path):
    result = run("--project", str(project), "preflight", "inks", "--shop", "mpc", "--out", str(tmp_path))
    assert result.exit_code == 1
    assert "no export in" in result.output and "run `pnp export`" in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


# --------------------------------------------------------------------------- the shipped games

SHIPPED = ("culture-war", "cold-war", "debate", "divide-and-conquer", "petri-dish")


@pytest.mark.slow
def test_every_shipped_card_keeps_out_of_the_safe_zone_as_laid_out():
    """Every face of the five games, as the preflight lays it out: no text or QR code
    within 1/8 in of the trim, no picture under 300 dpi (the quick-reference cards too)."""
    from pnp.errors import Problems
    from pnp.extras.facenotes import layout_notes
    from pnp.render.tools import load_tools
    from pnp.sources.loader import load_sources

    sources = load_sources(ROOT, list(SHIPPED))
    for slug in SHIPPED:
        game = sources.games[slug]
        problems = Problems(ROOT)
        notes = layout_notes(game, list(game.decks), load_tools(ROOT, slug), problems)
        assert not problems and notes == [], (slug, notes[:5])
        assert any(d.id == "reference" for d in game.decks)


@pytest.mark.slow
@pytest.mark.parametrize("shop", ["drivethru", "pdf-single", "tgc", "mpc"])
def test_a_shipped_game_passes_every_shops_preflight(shop, tmp_path):
    export = run("--project", str(ROOT), "export", "petri-dish", "--shop", shop, "--out", str(tmp_path))
    assert export.exit_code == 0 and "every rule passed" in export.output, export.output
    check = run("--project", str(ROOT), "preflight", "petri-dish", "--shop", shop, "--out", str(tmp_path))
    assert check.exit_code == 0 and "every rule passed" in check.output, check.output
