"""The DriveThruCards export as PDF/X-1a:2003, checked with tools other than
the ones that wrote it: poppler's pdfinfo and pdffonts, qpdf's checks and
object model (pikepdf), and Ghostscript rasterizing the RGB and CMYK files
through their colour profiles to bound how far each faction colour moves."""
from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
import yaml
from click.testing import CliRunner
from PIL import Image

from pnp.cli import main

pytestmark = pytest.mark.pdf

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("culture-war", "cold-war", "debate", "divide-and-conquer", "petri-dish")
RGB_OPERATORS = {"rg", "RG"}
BACK = """<card>
<rect x="0" y="0" w="{{ size.w }}" h="{{ size.h }}" fill="{{ deck.color }}"/>
<text x="5" y="{{ size.h / 2 - 4 }}" w="{{ size.w - 10 }}" h="8" style="backtitle" align="center">BACK</text>
</card>
"""
FACE = """<card>
<rect x="0" y="0" w="{{ size.w }}" h="{{ size.h }}" fill="{{ deck.color }}"/>
<rect x="4" y="4" w="{{ size.w - 8 }}" h="{{ size.h - 8 }}" fill="white" bleed="false"/>
<text x="5" y="5" w="{{ size.w - 10 }}" h="6" style="rules" field="name">{{ card.name }}</text>
<qr x="{{ size.w / 2 - 7.5 }}" y="{{ size.h - 21 }}" size="15"/>
</card>
"""


def faction_colours() -> dict[str, str]:
    """Every deck colour of our five games, read from their game.yaml."""
    out = {}
    for game in GAMES:
        data = yaml.safe_load((ROOT / "card_sources" / game / "game.yaml").read_text())
        for deck in data["decks"]:
            out[f"{game}-{deck['id']}"] = deck["color"]
    return out


@pytest.fixture(scope="module")
def colours_project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("pdfx-project")
    (root / "templates").mkdir()
    for name in ("style.yaml", "icons.yaml"):
        shutil.copy(ROOT / "templates" / name, root / "templates" / name)
    (root / "templates" / "colours").mkdir()
    (root / "templates" / "colours" / "card.xml.j2").write_text(FACE)
    (root / "templates" / "colours" / "back.xml.j2").write_text(BACK)
    game = root / "card_sources" / "colours"
    game.mkdir(parents=True)
    decks = []
    for deck, colour in faction_colours().items():
        decks.append({"id": deck, "name": deck, "file": f"{deck}.yaml", "back": "back", "color": colour})
        (game / f"{deck}.yaml").write_text(yaml.safe_dump({"cards": [
            {"id": f"{deck}-one", "name": "One", "type": "plain", "quantity": 2}]}))
    (game / "game.yaml").write_text(yaml.safe_dump({
        "name": "Colours", "players": {"min": 1, "max": 4}, "card_size": "poker",
        "card_types": {"plain": {"template": "card", "fields": {}}}, "decks": decks}, sort_keys=False))
    return root


@pytest.fixture(scope="module")
def exported(colours_project, tmp_path_factory):
    out = tmp_path_factory.mktemp("pdfx-out")
    for shop in ("drivethru", "pdf-single"):
        result = CliRunner().invoke(main, ["--project", str(colours_project), "export", "colours",
                                           "--shop", shop, "--out", str(out)])
        assert result.exit_code == 0, result.output
    return out / "colours"


def drivethru_files(folder: Path) -> list[Path]:
    files = sorted((folder / "shop-drivethru").glob("*/*.pdf"))
    assert len(files) == len(faction_colours())
    return files


def _tool(name: str) -> str:
    found = shutil.which(name)
    assert found, f"{name} is not installed: `make test` installs it (Debian: poppler-utils, ghostscript)"
    return found


def test_poppler_reads_pdfx_1a_with_boxes_and_embedded_fonts(exported):
    for path in drivethru_files(exported)[:4]:
        info = subprocess.run([_tool("pdfinfo"), "-box", str(path)], capture_output=True, text=True, check=True).stdout
        assert "PDF subtype:    PDF/X-1a:2003" in info, info
        fields = dict(line.split(":", 1) for line in info.splitlines() if ":" in line)
        trim = [float(v) for v in fields["TrimBox"].split()]
        bleed = [float(v) for v in fields["BleedBox"].split()]
        inch8 = 72 / 8
        assert bleed[:2] == [0.0, 0.0] and abs(trim[0] - inch8) < 0.01 and abs(trim[1] - inch8) < 0.01
        assert abs(bleed[2] - trim[2] - inch8) < 0.01 and abs(bleed[3] - trim[3] - inch8) < 0.01
        fonts = subprocess.run([_tool("pdffonts"), str(path)], capture_output=True, text=True, check=True).stdout
        rows = fonts.splitlines()[2:]
        assert rows, fonts
        for row in rows:   # name, type..., emb sub uni object id: "emb" is the 5th column from the end
            assert row.split()[-5] == "yes", row


def _streams(page):
    """The page's content and every form it draws, with each one's resources."""
    yield page, page.obj.get("/Resources", pikepdf.Dictionary())
    stack = [page.obj.get("/Resources", pikepdf.Dictionary())]
    while stack:
        resources = stack.pop()
        for xobject in (resources.get("/XObject") or {}).values():
            if xobject.get("/Subtype") == "/Form":
                inner = xobject.get("/Resources", pikepdf.Dictionary())
                yield xobject, inner
                stack.append(inner)


def test_qpdf_finds_the_output_intent_cmyk_only_and_no_transparency(exported):
    for path in drivethru_files(exported):
        with pikepdf.open(path) as pdf:
            assert pdf.check_pdf_syntax() == [], path
            assert str(pdf.pdf_version) <= "1.4"
            assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-1a:2003"
            assert str(pdf.docinfo["/Trapped"]) == "/False"
            assert "/CreationDate" in pdf.docinfo and "/ModDate" in pdf.docinfo and "/ID" in pdf.trailer
            (intent,) = pdf.Root.OutputIntents
            assert intent.S == "/GTS_PDFX" and str(intent.OutputConditionIdentifier)
            profile = intent.DestOutputProfile
            header = profile.read_bytes()[:20]
            assert profile.N == 4 and header[12:16] == b"prtr" and header[16:20] == b"CMYK"
            for obj in pdf.objects:
                if not isinstance(obj, pikepdf.Dictionary):
                    continue
                assert "/SMask" not in obj or str(obj.SMask) == "/None", path
                for key in ("/CA", "/ca"):
                    assert float(obj.get(key, 1)) == 1.0
                group = obj.get("/Group")
                assert group is None or group.get("/S") != "/Transparency"
                if obj.get("/Subtype") == "/Image":
                    assert obj.get("/ColorSpace") in (pikepdf.Name.DeviceCMYK, pikepdf.Name.DeviceGray), obj.ColorSpace
            for page in pdf.pages:
                for stream, resources in _streams(page):
                    spaces = resources.get("/ColorSpace") or {}
                    for space in spaces.values():
                        family = space[0] if isinstance(space, pikepdf.Array) else space
                        assert family in (pikepdf.Name.DeviceCMYK, pikepdf.Name.DeviceGray, pikepdf.Name.Separation,
                                          pikepdf.Name.DeviceN, pikepdf.Name.Pattern), space
                    ops = {str(op) for _, op in pikepdf.parse_content_stream(stream)}
                    assert not ops & RGB_OPERATORS, (path, ops & RGB_OPERATORS)
                    assert "k" in ops or "g" in ops or "Do" in ops


def _srgb_to_lab(rgb) -> tuple[float, float, float]:
    def linear(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = map(linear, rgb)
    x, y, z = 0.4124 * r + 0.3576 * g + 0.1805 * b, 0.2126 * r + 0.7152 * g + 0.0722 * b, 0.0193 * r + 0.1192 * g + 0.9505 * b

    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
    fx, fy, fz = f(x / 0.95047), f(y), f(z / 1.08883)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _gs_page(path: Path, page: int, out: Path) -> Image.Image:
    """Ghostscript's colour-managed picture of one page (sRGB from the RGB file,
    through the SWOP profile from the CMYK one)."""
    subprocess.run([_tool("gs"), "-q", "-dBATCH", "-dNOPAUSE", "-sDEVICE=png16m", "-r36",
                    f"-dFirstPage={page}", f"-dLastPage={page}", f"-sOutputFile={out}", str(path)], check=True)
    return Image.open(out).convert("RGB")


MAX_DELTA_E = 10.0      # CIE76; docs/printing.md, "Colours at DriveThruCards"
MAX_MEDIAN_DELTA_E = 2.0


def test_each_faction_colour_moves_a_bounded_amount_from_the_rgb_build(exported, tmp_path):
    deltas = {}
    for deck, colour in faction_colours().items():
        cmyk = exported / "shop-drivethru" / deck / f"colours-{deck}.pdf"
        rgb = exported / "shop-pdf-single" / deck / f"{deck}-one-1.pdf"
        # the back: page 1 of the deck PDF (back, front, ...), page 2 of the single card's (front, back)
        a = _gs_page(rgb, 2, tmp_path / "rgb.png")
        b = _gs_page(cmyk, 1, tmp_path / "cmyk.png")
        assert a.size == b.size
        spot = (a.width // 2, a.height // 8)   # the flat faction colour above the BACK title
        wanted = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
        assert math.dist(_srgb_to_lab(a.getpixel(spot)), _srgb_to_lab(wanted)) < 1.5   # the RGB build is the colour
        deltas[deck] = math.dist(_srgb_to_lab(a.getpixel(spot)), _srgb_to_lab(b.getpixel(spot)))
    assert max(deltas.values()) <= MAX_DELTA_E, deltas
    ordered = sorted(deltas.values())
    assert ordered[len(ordered) // 2] <= MAX_MEDIAN_DELTA_E, deltas
    assert max(deltas.values()) > 0.3, "the CMYK file should not be the RGB one"
