"""Print-and-cut sheets (`pnp build --cutter`): the registration marks found
in the rasterized sheet where docs/printing.md says each maker's software
looks for them (to 0.2 mm), nothing printed in a mark's box, marks on fronts
only, and the SVG cutting file's paths on the printed cards.

The documented numbers are written out here, not read from pnp: Silhouette
Studio's Type 1 marks 10 mm in from the edges, a 5 mm square at the top
left, L marks of 0.3 mm lines; ScanNCut's four L marks, 0.5 mm lines and
arms of at most 10 mm; Cricut Design Space's 6.75 x 9.25 in Print Then Cut area."""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.cli import main
from pnp.errors import PnpError
from pnp.layout.cutters import Cutter, cutter_spec, plan_cutter_deck
from pnp.model import CARD_PRESETS, PAPERS, Flip

PX_PER_MM = 10          # rasterized at 254 dpi: 0.1 mm a pixel
TOLERANCE = 0.2         # mm
INSET, SQUARE = 10.0, 5.0
SILHOUETTE_LINE, SCANNCUT_LINE, SCANNCUT_ARM = 0.3, 0.5, 10.0   # ScanNCut: the longest arm
CRICUT_AREA = (6.75 * 25.4, 9.25 * 25.4)


def _build(project: Path, out: Path, *args: str) -> Path:
    result = CliRunner().invoke(main, ["--project", str(project), "build", "culture-war", "--out", str(out), *args])
    assert result.exit_code == 0, result.output
    return out / "culture-war"


def _page(pdf: Path, index: int) -> Image.Image:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return doc[index].render(scale=PX_PER_MM * 25.4 / 72).to_pil().convert("L")
    finally:
        doc.close()


def _dark(image: Image.Image, box_mm, page_h: float):
    """The bounding box (mm, page coordinates, y up) of dark pixels inside box_mm, or None."""
    x0, y0, x1, y1 = box_mm
    crop = image.crop((round(x0 * PX_PER_MM), round((page_h - y1) * PX_PER_MM),
                       round(x1 * PX_PER_MM), round((page_h - y0) * PX_PER_MM)))
    found = crop.point(lambda v: 255 if v < 100 else 0).getbbox()
    if found is None:
        return None
    l, t, r, b = found
    return (x0 + l / PX_PER_MM, y1 - b / PX_PER_MM, x0 + r / PX_PER_MM, y1 - t / PX_PER_MM)


def _line_width(image: Image.Image, x_mm: float, y0_mm: float, y1_mm: float, page_h: float) -> float:
    """How many mm of dark pixels a vertical run at x crosses between y0 and y1."""
    col = round(x_mm * PX_PER_MM)
    rows = range(round((page_h - y1_mm) * PX_PER_MM), round((page_h - y0_mm) * PX_PER_MM))
    return sum(1 for r in rows if image.getpixel((col, r)) < 128) / PX_PER_MM


def _close(found, wanted) -> bool:
    return found is not None and all(abs(a - b) <= TOLERANCE for a, b in zip(found, wanted))


def _file_entry(folder: Path, name: str) -> dict:
    manifest = json.loads((folder / "manifest.json").read_text())
    return next(f for f in manifest["files"] if f["file"] == name)


CLEAR = 1.0   # mm: the docs keep every card this far from a mark's box


def _corner_windows(w: float, h: float, arm: float) -> dict[str, tuple]:
    """The squares from each paper corner to 1 mm beyond a mark's box (less 0.2 mm, where a card's art
    may begin, blurred by a pixel): only the mark may be printed there."""
    s = INSET + max(arm, SQUARE) + CLEAR - TOLERANCE
    return {"top-left": (0, h - s, s, h), "top-right": (w - s, h - s, w, h),
            "bottom-left": (0, 0, s, s), "bottom-right": (w - s, 0, w, s)}


def _expected_l(corner: str, w: float, h: float, arm: float) -> tuple:
    x = INSET if "left" in corner else w - INSET
    y = INSET if "bottom" in corner else h - INSET
    return (min(x, x + (arm if "left" in corner else -arm)), min(y, y + (arm if "bottom" in corner else -arm)),
            max(x, x + (arm if "left" in corner else -arm)), max(y, y + (arm if "bottom" in corner else -arm)))


@pytest.mark.pdf
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_silhouette_marks_are_printed_where_studio_looks_for_them(mini_project, tmp_path, paper):
    folder = _build(mini_project, tmp_path / "out", "--cutter", "silhouette", "--paper", paper) / "cutter-silhouette"
    pdf = folder / "deck-anarchy.pdf"
    entry = _file_entry(folder, "deck-anarchy.pdf")
    w, h = entry["paper_mm"]
    arm = entry["cutter"]["arm_mm"]
    assert 5 <= arm <= 20
    front = _page(pdf, 0)
    windows = _corner_windows(w, h, arm)
    # the square: 5 x 5 mm, its outer corner 10 mm from the left and top edges
    square = _dark(front, (0, h - INSET - SQUARE - CLEAR, INSET + SQUARE + CLEAR, h), h)
    assert _close(square, (INSET, h - INSET - SQUARE, INSET + SQUARE, h - INSET)), square
    for corner in ("top-right", "bottom-left"):
        found = _dark(front, windows[corner], h)
        assert _close(found, _expected_l(corner, w, h, arm)), (corner, found)
    # the lines are 0.3 mm: the top-right L's horizontal arm, crossed half way along
    width = _line_width(front, w - INSET - arm / 2, h - INSET - 2, h - INSET + 1, h)
    assert abs(width - SILHOUETTE_LINE) <= TOLERANCE, width
    # the square is filled, an L is not: its box's middle is paper
    pixel = lambda x, y: front.getpixel((round(x * PX_PER_MM), round((h - y) * PX_PER_MM)))  # noqa: E731
    assert pixel(INSET + SQUARE / 2, h - INSET - SQUARE / 2) < 100
    assert pixel(w - INSET - arm / 2, h - INSET - arm / 2) > 200
    # no fourth mark, and the back page carries none at all
    assert _dark(front, windows["bottom-right"], h) is None
    back = _page(pdf, 1)
    assert all(_dark(back, windows[c], h) is None for c in windows)
    # the settings to type into Studio are on the sheet's manifest entry and name the same length
    assert f"length {arm:g} mm" in entry["cutter"]["settings"]


@pytest.mark.pdf
def test_silhouette_four_marks_and_scanncut_marks(mini_project, tmp_path):
    for args, line, longest in ((["--cutter", "silhouette", "--marks", "4"], SILHOUETTE_LINE, 20.0),
                                (["--cutter", "scanncut"], SCANNCUT_LINE, SCANNCUT_ARM)):
        out = tmp_path / args[1] / "x"
        folder = _build(mini_project, out, *args) / f"cutter-{args[1]}"
        entry = _file_entry(folder, "deck-anarchy.pdf")
        w, h = entry["paper_mm"]
        arm = entry["cutter"]["arm_mm"]
        assert 5.0 <= arm <= longest, (args, arm)
        front = _page(folder / "deck-anarchy.pdf", 0)
        for corner, window in _corner_windows(w, h, arm).items():
            found = _dark(front, window, h)
            assert _close(found, _expected_l(corner, w, h, arm)), (args, corner, found)
        width = _line_width(front, INSET + arm / 2, INSET - 1, INSET + 2, h)   # bottom-left L, horizontal arm
        assert abs(width - line) <= TOLERANCE, (args, width)


def _paths(svg: Path) -> list[tuple[float, float, float, float]]:
    """Each cut path's bounding box (mm, y down as in the SVG), from its numbers."""
    root = ET.parse(svg).getroot()
    boxes = []
    for path in root.iter("{http://www.w3.org/2000/svg}path"):
        pts = []
        for op, args in re.findall(r"([MLAZ])([^MLAZ]*)", path.get("d")):
            nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", args)]
            if op in "ML":
                pts.append((nums[0], nums[1]))
            elif op == "A":   # rx, ry, rotation, large arc, sweep, then the end point
                pts.append((nums[5], nums[6]))
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    return boxes


@pytest.mark.pdf
def test_the_cutting_file_cuts_every_printed_card_at_its_trim(mini_project, tmp_path):
    folder = _build(mini_project, tmp_path / "out", "--cutter", "silhouette") / "cutter-silhouette"
    manifest = json.loads((folder / "manifest.json").read_text())
    entry = _file_entry(folder, "deck-anarchy.pdf")
    w, h = entry["paper_mm"]
    cards = [c for c in manifest["cards"] if c["file"] == "deck-anarchy.pdf"]
    assert len(cards) == 5  # MINI_DECK: 2 + 1 + 1 + 1 copies
    svgs = sorted(folder.glob("deck-anarchy-cut-*.svg"))
    fronts_pages = sorted({c["front"]["page"] for c in cards})
    assert len(svgs) == len(fronts_pages)
    root = ET.parse(svgs[0]).getroot()
    assert root.get("width") == f"{w:g}mm" and root.get("height") == f"{h:g}mm"
    assert " A3,3 " in (next(root.iter("{http://www.w3.org/2000/svg}path")).get("d"))  # 3 mm corners
    boxes = _paths(svgs[0])
    on_page = [c for c in cards if c["front"]["page"] == fronts_pages[0]]
    assert len(boxes) == len(on_page)
    front = _page(folder / "deck-anarchy.pdf", 0)
    for card in on_page:
        x0, y0, x1, y1 = card["front"]["trim_mm"]
        svg_box = (x0, h - y1, x1, h - y0)
        assert any(all(abs(a - b) < 0.01 for a, b in zip(svg_box, box)) for box in boxes), (card["id"], svg_box)
        # the printed art runs on past the cut on every side (the blade may stray): 0.5 mm out is still card
        for x, y in ((x0 - .5, (y0 + y1) / 2), (x1 + .5, (y0 + y1) / 2), ((x0 + x1) / 2, y0 - .5), ((x0 + x1) / 2, y1 + .5)):
            assert front.getpixel((round(x * PX_PER_MM), round((h - y) * PX_PER_MM))) < 250, (card["id"], x, y)


@pytest.mark.pdf
def test_cricut_sheets_keep_to_print_then_cut_area_and_draw_no_marks(mini_project, tmp_path):
    folder = _build(mini_project, tmp_path / "out", "--cutter", "cricut", "--paper", "letter") / "cutter-cricut"
    entry = _file_entry(folder, "deck-anarchy.pdf")
    w, h = entry["paper_mm"]
    ax0, ay0, ax1, ay1 = entry["cutter"]["area_mm"]
    assert abs((ax1 - ax0) - CRICUT_AREA[0]) < 0.01 and abs((ay1 - ay0) - CRICUT_AREA[1]) < 0.01
    manifest = json.loads((folder / "manifest.json").read_text())
    for card in manifest["cards"]:
        x0, y0, x1, y1 = card["front"]["trim_mm"]
        assert ax0 <= x0 and x1 <= ax1 and ay0 <= y0 and y1 <= ay1, card["id"]
    front = _page(folder / "deck-anarchy.pdf", 0)
    # outside the print area there is only the sheet's note and bar (bottom) and caption (top): no marks
    for window in (_corner_windows(w, h, 20)[c] for c in ("top-right", "bottom-right")):
        assert _dark(front, (window[0], max(window[1], 15), window[2], min(window[3], h - 15)), h) is None
    image = Image.open(folder / "deck-anarchy-print-1.png")
    assert image.size == (2025, 2775)   # 6.75 x 9.25 in at 300 dpi
    assert round(image.info["dpi"][0]) == 300
    root = ET.parse(folder / "deck-anarchy-cut-1.svg").getroot()
    assert root.get("viewBox") == "0 0 171.45 234.95"


def test_every_cutter_layout_keeps_cards_clear_of_the_marks():
    """Pure geometry, every machine on every paper, for each card preset."""
    for cutter in Cutter:
        for paper in PAPERS.values():
            for card in CARD_PRESETS.values():
                spec = cutter_spec(cutter)
                try:
                    layout = plan_cutter_deck(30, card, paper, spec, Flip.LONG)
                except PnpError:
                    continue  # too big for that sheet: said so
                page = layout.deck.paper
                assert len(layout.deck.fronts) == 30 and len(layout.deck.backs) == 30
                for placement in layout.deck.fronts:
                    cx0, cy0, cx1, cy1 = placement.slot.clip
                    assert 0 < cx0 and cx1 < page.width and 0 < cy0 and cy1 < page.height
                    for mark in layout.marks:
                        for mx0, my0, mx1, my1 in mark.rects:
                            assert cx1 <= mx0 or mx1 <= cx0 or cy1 <= my0 or my1 <= cy0, (cutter, paper.name, card.name)
                page_one = [p.slot for p in layout.deck.fronts if p.page == 1]
                for a in page_one:   # no card's art runs into another card
                    for b in page_one:
                        if a is not b:
                            ax0, ay0, ax1, ay1 = a.clip
                            bx0, by0, bx1, by1 = b.trim
                            assert ax1 <= bx0 + 1e-6 or bx1 <= ax0 + 1e-6 or ay1 <= by0 + 1e-6 or by1 <= ay0 + 1e-6
                assert {m.corner for m in layout.marks} == (
                    set() if cutter is Cutter.CRICUT else
                    {"top-left", "top-right", "bottom-left"} | ({"bottom-right"} if spec.marks == 4 else set()))


def test_cutter_options_refuse_what_does_not_go_together(mini_project, tmp_path):
    runner = CliRunner()
    base = ["--project", str(mini_project), "build", "culture-war", "--out", str(tmp_path)]
    for extra, said in ((["--marks", "4"], "give --cutter too"),
                        (["--cutter", "cricut", "--marks", "3"], "only Silhouette sheets take --marks"),
                        (["--cutter", "silhouette", "--layout", "gutterfold"], "the gutterfold layout")):
        result = runner.invoke(main, base + extra)
        assert result.exit_code != 0 and said in result.output, (extra, result.output)
        assert not (tmp_path / "culture-war").exists()


@pytest.mark.pdf
def test_the_cutting_file_drawn_lies_on_the_printed_sheet(mini_project, tmp_path):
    """The SVG drawn (svglib, as a cutter's software would read it) over the
    PDF: its marks on the printed marks to 0.2 mm, its cut lines on every
    card's edges, and off the card's very corners (they are rounded)."""
    import io

    from reportlab.graphics import renderPDF
    from svglib.svglib import svg2rlg

    folder = _build(mini_project, tmp_path / "out", "--cutter", "silhouette") / "cutter-silhouette"
    entry = _file_entry(folder, "deck-anarchy.pdf")
    w, h = entry["paper_mm"]
    arm = entry["cutter"]["arm_mm"]
    buffer = io.BytesIO()
    renderPDF.drawToFile(svg2rlg(str(folder / "deck-anarchy-cut-1.svg")), buffer)
    drawn = pdfium.PdfDocument(buffer.getvalue())
    try:
        assert abs(drawn[0].get_width() * 25.4 / 72 - w) < 0.01 and abs(drawn[0].get_height() * 25.4 / 72 - h) < 0.01
        svg = drawn[0].render(scale=PX_PER_MM * 25.4 / 72).to_pil().convert("L")
    finally:
        drawn.close()
    printed = _page(folder / "deck-anarchy.pdf", 0)
    for corner, window in _corner_windows(w, h, arm).items():
        found_svg, found_pdf = _dark(svg, window, h), _dark(printed, window, h)
        assert (found_svg is None) == (found_pdf is None), corner
        if found_pdf is not None:
            assert _close(found_svg, found_pdf), (corner, found_svg, found_pdf)
    manifest = json.loads((folder / "manifest.json").read_text())
    for card in (c for c in manifest["cards"] if c["file"] == "deck-anarchy.pdf" and c["front"]["page"] == 1):
        x0, y0, x1, y1 = card["front"]["trim_mm"]
        line = lambda x, y: svg.getpixel((round(x * PX_PER_MM), round((h - y) * PX_PER_MM))) < 250  # noqa: E731
        # a red cut line, drawn where the card's edges are, half way along each
        assert all(line(x, y) for x, y in (((x0 + x1) / 2, y0), ((x0 + x1) / 2, y1), (x0, (y0 + y1) / 2),
                                           (x1, (y0 + y1) / 2))), card["id"]
        # and not at the trim's corners: cut round, 3 mm in radius (0.88 mm off the corner point)
        assert not any(line(x, y) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))), card["id"]
