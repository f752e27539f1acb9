"""`pnp export GAME --shop ...`: shop-ready files, measured as a print shop
would: image sizes in pixels, bleed pixels, page order by the QR codes
printed on the pages, PDF boxes read with pikepdf."""
from __future__ import annotations

import csv
import io
import shutil
import zipfile
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
import yaml
import zxingcpp
from click.testing import CliRunner
from PIL import Image

from helpers import pdfcheck as pc

from pnp.cli import main
from pnp.sources.qrpayload import parse_payload

pytestmark = pytest.mark.pdf

ROOT = Path(__file__).resolve().parents[2]
INCH = 25.4
BLEED_IN = 1 / 8
# Card sizes in mm (the presets' definitions, written out) and what the shops publish for them
PRESETS = {
    "poker": (63.5, 88.9), "bridge": (57.15, 88.9), "tarot": (69.85, 120.65), "square": (63.5, 63.5),
    "mini-euro": (44.0, 68.0), "mini-american": (41.0, 63.0), "mtg": (63.0, 88.0),
}
TGC_PUBLISHED = {"poker": (825, 1125), "bridge": (750, 1125), "tarot": (900, 1500), "square": (825, 825)}
MPC_PUBLISHED = {"poker": (822, 1122)}
COLOR = "#2a6f97"


def tgc_px(mm: float) -> int:
    """TGC: 300 dpi and 1/8 inch (37.5 px) bleed on each side, to the nearest pixel (halves up)."""
    return int(mm / INCH * 300 + 75 + 0.5)


def mpc_px(mm: float) -> int:
    """MPC: 300 dpi and 36 px bleed on each side."""
    return int(mm / INCH * 300 + 72 + 0.5)


FACE = """<card>
<rect x="0" y="0" w="{{ size.w }}" h="{{ size.h }}" fill="{{ deck.color }}"/>
<rect x="4" y="4" w="{{ size.w - 8 }}" h="{{ size.h - 8 }}" fill="white" bleed="false"/>
<text x="5" y="5" w="{{ size.w - 10 }}" h="6" style="rules" field="name">{{ card.name }}</text>
{% if size.w > 30 %}<qr x="{{ size.w / 2 - 7.5 }}" y="{{ size.h - 21 }}" size="15"/>{% endif %}
</card>
"""
EDGY = """<card>
<rect x="0" y="0" w="{{ size.w }}" h="{{ size.h }}" fill="{{ deck.color }}"/>
<text x="1" y="1" w="{{ size.w - 2 }}" h="5" style="rules" field="name">{{ card.name }}</text>
<qr x="{{ size.w - 16 }}" y="{{ size.h - 16 }}" size="15"/>
</card>
"""
BACK = """<card>
<rect x="0" y="0" w="{{ size.w }}" h="{{ size.h }}" fill="{{ deck.color }}"/>
<text x="5" y="{{ size.h / 2 - 4 }}" w="{{ size.w - 10 }}" h="8" style="backtitle" align="center" valign="middle">BACK</text>
</card>
"""


@pytest.fixture(scope="module")
def shop_project(tmp_path_factory) -> Path:
    """A game with one deck per card-size preset, plus a 22 mm token deck and a deck
    whose text and QR code sit too close to the edge."""
    root = tmp_path_factory.mktemp("shop-project")
    (root / "templates").mkdir(parents=True)  # fonts: pnp's own
    for name in ("style.yaml", "icons.yaml"):
        shutil.copy(ROOT / "templates" / name, root / "templates" / name)
    t = root / "templates" / "sizes"
    t.mkdir()
    (t / "card.xml.j2").write_text(FACE)
    (t / "edgy.xml.j2").write_text(EDGY)
    (t / "back.xml.j2").write_text(BACK)
    g = root / "card_sources" / "sizes"
    g.mkdir(parents=True)
    decks = []
    sizes = {**{k: k for k in PRESETS}, "token": {"width": 22, "height": 22}}
    for deck, size in sizes.items():
        decks.append({"id": deck, "name": deck.title(), "file": f"{deck}.yaml", "back": "back",
                      "color": COLOR, "card_size": size})
        cards = [{"id": f"{deck}-one", "name": "One", "type": "plain", "quantity": 2},
                 {"id": f"{deck}-two", "name": "Two", "type": "plain"}]
        (g / f"{deck}.yaml").write_text(yaml.safe_dump({"cards": cards}))
    decks.append({"id": "edge", "name": "Edge", "file": "edge.yaml", "back": "none", "color": COLOR})
    (g / "edge.yaml").write_text(yaml.safe_dump({"cards": [{"id": "edge-one", "name": "Edge", "type": "edgy"}]}))
    game = {"name": "Sizes", "players": {"min": 1, "max": 4}, "card_size": "poker",
            "card_types": {"plain": {"template": "card", "fields": {}}, "edgy": {"template": "edgy", "fields": {}}},
            "decks": decks}
    (g / "game.yaml").write_text(yaml.safe_dump(game, sort_keys=False))
    return root


def export(project: Path, out: Path, shop: str, *decks: str) -> str:
    args = ["--project", str(project), "export", "sizes" if project != ROOT else "culture-war",
            "--shop", shop, "--out", str(out)]
    for d in decks:
        args += ["--deck", d]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def exports(shop_project, tmp_path_factory):
    out = tmp_path_factory.mktemp("exports")
    outputs = {shop: export(shop_project, out, shop) for shop in ("tgc", "mpc", "drivethru", "pdf-single")}
    return out / "sizes", outputs


def rgb(hexcolor: str) -> tuple[int, int, int]:
    h = hexcolor.lstrip("#")
    return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))


def edge_pixels(image: Image.Image) -> list[tuple[int, int, int]]:
    image = image.convert("RGB")
    w, h = image.size
    return ([image.getpixel((x, 0)) for x in range(w)] + [image.getpixel((x, h - 1)) for x in range(w)]
            + [image.getpixel((0, y)) for y in range(h)] + [image.getpixel((w - 1, y)) for y in range(h)])


def is_color(pixel, target, tol=6) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(pixel, target))


# --------------------------------------------------------------------------- image shops

@pytest.mark.parametrize("shop,px,published", [("tgc", tgc_px, TGC_PUBLISHED), ("mpc", mpc_px, MPC_PUBLISHED)])
def test_exact_pixel_sizes_per_preset(exports, shop, px, published):
    folder, _ = exports
    for preset, (w, h) in {**PRESETS, "token": (22.0, 22.0)}.items():
        want = (px(w), px(h))
        if preset in published:
            assert want == published[preset]   # the formula gives what the shop publishes
        for name in (f"{preset}-one-front.png", f"{preset}-two-front.png", f"{preset}-back.png"):
            image = Image.open(folder / f"shop-{shop}" / preset / name)
            assert image.size == want, (shop, preset, name, image.size)
            assert abs(image.info["dpi"][0] - 300) < 0.01 and abs(image.info["dpi"][1] - 300) < 0.01


@pytest.mark.parametrize("shop", ["tgc", "mpc"])
def test_bleed_is_present_in_images(exports, shop):
    """Every edge pixel of a face and of a back is the background colour, not paper white."""
    folder, _ = exports
    for preset in PRESETS:
        for name in (f"{preset}-one-front.png", f"{preset}-back.png"):
            pixels = edge_pixels(Image.open(folder / f"shop-{shop}" / preset / name))
            assert all(is_color(p, rgb(COLOR)) for p in pixels), (shop, preset, name)


def test_tgc_poker_face_has_its_trim_where_the_bleed_says(exports):
    """The white panel 4 mm inside the trim starts 37.5 + 4 mm * 300/25.4 = 84.7 px in."""
    folder, _ = exports
    image = Image.open(folder / "shop-tgc" / "poker" / "poker-one-front.png").convert("RGB")
    row = [image.getpixel((x, image.height // 2)) for x in range(image.width)]
    first_white = next(x for x, p in enumerate(row) if is_color(p, (255, 255, 255)))
    assert abs(first_white - (37.5 + 4 / INCH * 300)) <= 1.0


def test_one_image_per_card_face_and_one_back_zipped_per_deck(exports):
    """A shop takes one image per face and a quantity: 2 copies of poker-one are one file, not two."""
    folder, _ = exports
    shop = folder / "shop-tgc"
    assert sorted(p.name for p in (shop / "poker").iterdir()) == ["poker-back.png", "poker-one-front.png",
                                                                   "poker-two-front.png"]
    with zipfile.ZipFile(shop / "poker.zip") as z:
        assert sorted(z.namelist()) == sorted(p.name for p in (shop / "poker").iterdir())
        for name in z.namelist():
            assert z.read(name) == (shop / "poker" / name).read_bytes()
    assert not any((shop / "edge").glob("*-back.png"))   # a one-sided deck has no backs


def test_order_csv_lists_quantities(exports):
    folder, _ = exports
    for shop in ("tgc", "mpc", "drivethru", "pdf-single"):
        rows = list(csv.DictReader(io.StringIO((folder / f"shop-{shop}" / "order.csv").read_text())))
        by_id = {r["card_id"]: r for r in rows}
        assert by_id["poker-one"]["quantity"] == "2" and by_id["poker-two"]["quantity"] == "1"
        assert by_id["poker-one"]["deck"] == "poker"
        for r in rows:   # every file the row names exists: image shops one per card, PDF shops one page per copy
            fronts = r["front_files"].split()
            assert len(fronts) == (1 if shop in ("tgc", "mpc") else int(r["quantity"])), (shop, r)
            for ref in fronts + r["back_files"].split():
                assert (folder / f"shop-{shop}" / ref.split("#")[0]).is_file(), ref
            assert r["upload"], r
        if shop in ("tgc", "mpc"):
            assert by_id["poker-one"]["upload"] == ("upload poker/poker-one-front.png once, back poker/poker-back.png; "
                                                     "order 2 copies")
            assert by_id["edge-one"]["upload"].endswith("(no back); order 1 copy")
            # as many copies ordered as the deck has, and no file counted twice
            assert sum(int(r["quantity"]) for r in rows if r["deck"] == "poker") == 3
            files = [f for r in rows for f in r["front_files"].split()]
            assert len(files) == len(set(files))


def test_one_image_per_card_carries_the_cards_code_without_a_copy_number(exports):
    folder, _ = exports
    codes = zxingcpp.read_barcodes(Image.open(folder / "shop-tgc" / "poker" / "poker-one-front.png"))
    assert len(codes) == 1
    payload = parse_payload(codes[0].text)
    assert payload.card_id == "poker-one" and payload.copy is None


def test_copies_gives_each_copy_its_own_numbered_qr_code(shop_project, tmp_path):
    export_args = ["--project", str(shop_project), "export", "sizes", "--shop", "mpc", "--deck", "poker",
                   "--out", str(tmp_path), "--copies"]
    result = CliRunner().invoke(main, export_args)
    assert result.exit_code == 0, result.output
    folder = tmp_path / "sizes" / "shop-mpc"
    assert sorted(p.name for p in (folder / "poker").iterdir()) == [
        "poker-back.png", "poker-one-1-front.png", "poker-one-2-front.png", "poker-two-1-front.png"]
    for name, copy in (("poker-one-1-front.png", 1), ("poker-one-2-front.png", 2), ("poker-two-1-front.png", 1)):
        codes = zxingcpp.read_barcodes(Image.open(folder / "poker" / name))
        assert len(codes) == 1 and parse_payload(codes[0].text).copy == copy, name
    rows = list(csv.DictReader(io.StringIO((folder / "order.csv").read_text())))
    one = next(r for r in rows if r["card_id"] == "poker-one")
    assert one["front_files"].split() == ["poker/poker-one-1-front.png", "poker/poker-one-2-front.png"]
    assert "each of the 2 fronts once" in one["upload"]
    refused = CliRunner().invoke(main, export_args[:5] + ["drivethru", "--out", str(tmp_path), "--copies"])
    assert refused.exit_code != 0 and "--copies is for the image shops" in refused.output


# --------------------------------------------------------------------------- PDF shops

def test_drivethru_pages_alternate_back_then_front(shop_project, tmp_path):
    """Decode the QR code of every page: backs carry none, fronts name the
    cards in deck order, one page per copy."""
    export(ROOT, tmp_path, "drivethru", "anarchy")
    folder = tmp_path / "culture-war" / "shop-drivethru"
    pdf = folder / "anarchy" / "culture-war-anarchy.pdf"
    deck = yaml.safe_load((ROOT / "card_sources" / "culture-war" / "anarchy.yaml").read_text())["cards"]
    copies = [c["id"] for c in deck for _ in range(c.get("quantity", 1))]
    doc = pdfium.PdfDocument(str(pdf))
    assert len(doc) == 2 * len(copies)
    seen = []
    for i in range(len(doc)):
        image = doc[i].render(scale=200 / 72).to_pil()
        codes = zxingcpp.read_barcodes(image)
        text = doc[i].get_textpage().get_text_range()
        if i % 2 == 0:
            assert codes == [] and "CULTURE WAR" in text, f"page {i + 1} should be a back"
        else:
            assert len(codes) == 1, f"page {i + 1} should be a front"
            seen.append(parse_payload(codes[0].text).card_id)
    doc.close()
    assert seen == copies
    with pikepdf.open(pdf) as p:
        fonts = list(pc.iter_fonts(p))
        assert fonts and all(pc.font_embedded(f) for _, f in fonts if "/DescendantFonts" not in f)
        for page in p.pages:
            w, h = pc.page_size_mm(page)
            assert abs(w - (63.5 + 2 * INCH * BLEED_IN)) < 0.01 and abs(h - (88.9 + 2 * INCH * BLEED_IN)) < 0.01


def _boxes(page) -> tuple:
    return (pc.box_mm(page.obj["/MediaBox"]), pc.box_mm(page.obj["/BleedBox"]), pc.box_mm(page.obj["/TrimBox"]))


@pytest.mark.parametrize("shop", ["pdf-single", "drivethru"])
def test_trim_and_bleed_boxes(exports, shop):
    folder, _ = exports
    b = INCH * BLEED_IN
    for preset, (w, h) in PRESETS.items():
        files = sorted((folder / f"shop-{shop}" / preset).glob("*.pdf"))
        assert files
        if shop == "pdf-single":
            assert sorted(p.name for p in files) == [f"{preset}-one-1.pdf", f"{preset}-one-2.pdf", f"{preset}-two-1.pdf"]
        for path in files:
            with pikepdf.open(path) as pdf:
                assert len(pdf.pages) == (2 if shop == "pdf-single" else 6)
                for page in pdf.pages:
                    media, bleed, trim = _boxes(page)
                    assert pc.close(media, (0, 0, w + 2 * b, h + 2 * b), 0.01)
                    assert pc.close(bleed, media, 0.01)
                    assert pc.close(trim, (b, b, b + w, b + h), 0.01)


def test_pdf_bleed_is_coloured_to_the_page_edge(exports):
    folder, _ = exports
    for name in ("poker-one-1.pdf", "poker-two-1.pdf"):
        path = folder / "shop-pdf-single" / "poker" / name
        for page in (1, 2):
            image = pc.render(str(path), page, 150)
            assert all(is_color(p, rgb(COLOR), 8) for p in edge_pixels(image)), (name, page)


def test_single_pdfs_are_front_then_back(exports):
    folder, _ = exports
    path = folder / "shop-pdf-single" / "poker" / "poker-two-1.pdf"
    assert [parse_payload(c.text).card_id for c in zxingcpp.read_barcodes(pc.render(str(path), 1, 200))] == ["poker-two"]
    assert zxingcpp.read_barcodes(pc.render(str(path), 2, 200)) == []
    assert "BACK" in pc.page_text(str(path), 2)


# --------------------------------------------------------------------------- the safe zone and the report

def test_safe_zone_findings_name_what_is_too_close(exports):
    """The export's preflight names the file, page, card and rule of each face too near the trim."""
    _, outputs = exports
    for shop, output in outputs.items():
        lines = [l for l in output.splitlines() if ": safe-zone: " in l and l.startswith("  ")]
        assert any(f"sizes/shop-{shop}/edge/" in l and ": edge-one front: " in l and "text 'name'" in l
                   for l in lines), output
        assert any("/edge/" in l and "QR code" in l and "1.0 mm" in l for l in lines), output
        assert all("/edge/" in l for l in lines), output
        assert "page " in lines[0]


def test_summary_names_the_folder_sizes_and_zips(exports):
    folder, outputs = exports
    assert str(folder / "shop-tgc") in outputs["tgc"]
    assert "poker: 2 cards, 3 copies, 825 x 1125 px -> poker.zip" in outputs["tgc"]
    assert "822 x 1122 px" in outputs["mpc"]
    assert "69.850 x 95.250 mm" in outputs["drivethru"]


def test_reexport_removes_what_is_gone(shop_project, tmp_path):
    project = tmp_path / "p"
    shutil.copytree(shop_project, project)
    export(project, tmp_path / "o", "tgc", "poker")
    shop = tmp_path / "o" / "sizes" / "shop-tgc"
    assert (shop / "poker" / "poker-two-front.png").is_file()
    source = project / "card_sources" / "sizes" / "poker.yaml"
    cards = yaml.safe_load(source.read_text())["cards"]
    source.write_text(yaml.safe_dump({"cards": [c for c in cards if c["id"] != "poker-two"]}))
    (shop / "mine.txt").write_text("a file the user put here")
    export(project, tmp_path / "o", "tgc", "poker")
    assert not (shop / "poker" / "poker-two-front.png").exists()
    assert (shop / "poker" / "poker-one-front.png").is_file() and (shop / "mine.txt").is_file()


def test_unknown_deck_and_game_are_clear_errors(shop_project, tmp_path):
    bad = CliRunner().invoke(main, ["--project", str(shop_project), "export", "sizes", "--shop", "tgc",
                                    "--deck", "nope", "--out", str(tmp_path)])
    assert bad.exit_code != 0 and "no deck nope" in bad.output and "Traceback" not in bad.output
    bad = CliRunner().invoke(main, ["--project", str(shop_project), "export", "nogame", "--shop", "tgc"])
    assert bad.exit_code != 0 and "unknown game" in bad.output
