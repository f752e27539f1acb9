"""Tiled boards join into one seamless board when the printed instructions
are followed: cut each sheet along its dashed lines (left and top), lay it on
its neighbours, picture lined up. The joined board is compared pixel by pixel
with the same board printed on one sheet big enough to hold it."""
from __future__ import annotations

import json
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageFilter, ImageStat

from pnp.model import PAPERS, Size

pytestmark = pytest.mark.pdf

ROOT = Path(__file__).resolve().parents[2]
PX = 5.0  # pixels per mm
BOARDS = [("petri-dish", "board-dish.pdf"), ("debate", "board-forum.pdf")]


def _build(out: Path, paper: Size) -> Path:
    from pnp.pipeline.options import BuildOptions
    from pnp.pipeline.orchestrator import build

    build(ROOT, [g for g, _ in BOARDS], out, BuildOptions(paper=paper))
    return out


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    base = tmp_path_factory.mktemp("tiles")
    return {name: _build(base / name, paper) for name, paper in
            (("a4", PAPERS["a4"]), ("letter", PAPERS["letter"]), ("one-sheet", Size(700.0, 501.0, "poster")))}


def _entry(out: Path, game: str, file: str) -> dict:
    manifest = json.loads((out / game / "manifest.json").read_text())
    return next(f for f in manifest["files"] if f["file"] == file)


def _page(pdf: Path, index: int) -> Image.Image:
    page = pdfium.PdfDocument(str(pdf))[index]
    img = page.render(scale=PX * 25.4 / 72).to_pil().convert("L")
    img.info["mm"] = (page.get_width() * 25.4 / 72, page.get_height() * 25.4 / 72)
    return img


def _board_box(img: Image.Image, origin, box) -> Image.Image:
    """The board region `box` (board mm, origin bottom-left) as printed on a
    page, at PX pixels per mm (the raster's own scale corrected to it)."""
    page_w, page_h = img.info["mm"]
    sx, sy = img.width / page_w, img.height / page_h
    ox, oy = origin
    x0, y0, x1, y1 = box
    crop = img.crop((round((ox + x0) * sx), round((page_h - oy - y1) * sy),
                     round((ox + x1) * sx), round((page_h - oy - y0) * sy)))
    return crop.resize((round((x1 - x0) * PX), round((y1 - y0) * PX)))


def _joined(out: Path, game: str, file: str) -> tuple[Image.Image, dict]:
    """Every sheet cut along its cut lines and laid, row by row, left to right,
    on the ones already down, where its picture matches the board."""
    entry = _entry(out, game, file)
    bw, bh = entry["size_mm"]
    board = Image.new("L", (round(bw * PX), round(bh * PX)), 255)
    for tile in sorted(entry["tiles"], key=lambda t: (t["row"], t["column"])):
        x0, y0, x1, y1 = tile["window_mm"]
        cut = tile["cut_mm"]
        left = cut["left"] if cut["left"] is not None else x0
        top = cut["top"] if cut["top"] is not None else y1
        assert x0 <= left < x1 and y0 < top <= y1, f"{file} sheet {tile['page']}: cut outside its window"
        img = _page(out / game / file, tile["page"] - 1)
        piece = _board_box(img, tile["origin_mm"], (left, y0, x1, top))
        board.paste(piece, (round(left * PX), round((bh - top) * PX)))
    return board, entry


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game,file", BOARDS)
def test_joined_tiles_equal_the_one_sheet_board(builds, paper, game, file):
    joined, entry = _joined(builds[paper], game, file)
    assert entry["pages"] >= 2, f"{file} on {paper} is expected to need several sheets"
    whole = _entry(builds["one-sheet"], game, file)
    assert whole["pages"] == 1
    reference = _board_box(_page(builds["one-sheet"] / game / file, 0), whole["tiles"][0]["origin_mm"],
                           (0, 0, *entry["size_mm"])).resize(joined.size)
    margin = round(1.0 * PX)  # the outermost millimetre carries the trim frame on tiles only
    box = (margin, margin, joined.width - margin, joined.height - margin)
    # a light blur forgives the sub-pixel rounding of where each sheet is rasterised
    diff = ImageChops.difference(joined.crop(box).filter(ImageFilter.GaussianBlur(1)),
                                 reference.crop(box).filter(ImageFilter.GaussianBlur(1)))
    hist = diff.histogram()
    total = sum(hist)
    off = sum(hist[24:]) / total
    assert off < 0.006, f"{file} on {paper}: {off:.2%} of the joined board differs from the one-sheet board"
    strip = _whitest_strip(joined, reference)
    assert strip[0] < 8, f"{file} on {paper}: a strip at {strip[1]} is {strip[0]:.0f} grey lighter than on one sheet"


def _whitest_strip(joined: Image.Image, reference: Image.Image) -> tuple[float, str]:
    """How much lighter the joined board is than the one-sheet board in its
    lightest 3 mm wide column or row (a white strip where sheets meet; a
    line one pixel off lands in the same band, so rounding is forgiven)."""
    step = round(PX)
    band = 3 * step
    worst = (0.0, "nowhere")
    for vertical in (True, False):
        length = joined.width if vertical else joined.height
        for start in range(step, length - band - step, step):
            box = (start, step, start + band, joined.height - step) if vertical else \
                  (step, start, joined.width - step, start + band)
            a, b = joined.crop(box), reference.crop(box)
            lighter = ImageStat.Stat(a).mean[0] - ImageStat.Stat(b).mean[0]
            if lighter > worst[0]:
                worst = (lighter, f"{'x' if vertical else 'y from the top'}={start / PX:.1f} mm")
    return worst


@pytest.mark.parametrize("game,file", BOARDS)
def test_the_comparison_can_tell_a_white_strip(builds, game, file):
    """Laid edge to edge without cutting (the sheets' white margins showing),
    the joined board no longer matches: the comparison above can fail."""
    entry = _entry(builds["a4"], game, file)
    bw, bh = entry["size_mm"]
    board = Image.new("L", (round(bw * PX), round(bh * PX)), 255)
    for tile in sorted(entry["tiles"], key=lambda t: (t["row"], t["column"])):
        x0, y0, x1, y1 = tile["window_mm"]
        img = _page(builds["a4"] / game / file, tile["page"] - 1)
        piece = _board_box(img, tile["origin_mm"], (x0 - 5, y0 - 5, x1, y1))  # sheet edge, margin included
        board.paste(piece, (round((x0 - 5) * PX), round((bh - y1) * PX)))
    whole = _entry(builds["one-sheet"], game, file)
    reference = _board_box(_page(builds["one-sheet"] / game / file, 0), whole["tiles"][0]["origin_mm"],
                           (0, 0, bw, bh)).resize(board.size)
    assert _whitest_strip(board, reference)[0] >= 8


def test_cut_and_guide_lines_are_printed_where_the_manifest_says(builds):
    entry = _entry(builds["a4"], "debate", "board-forum.pdf")
    for tile in entry["tiles"]:
        left = tile["cut_mm"]["left"]
        if left is None:
            continue
        img = _page(builds["a4"] / "debate" / "board-forum.pdf", tile["page"] - 1)
        x0, y0, x1, y1 = tile["window_mm"]
        column = _board_box(img, tile["origin_mm"], (left - 0.2, y0 + 2, left + 0.2, y1 - 2))
        dark = column.point(lambda v: 255 if v < 200 else 0).histogram()[255] / (column.width * column.height)
        assert dark > 0.25, f"sheet {tile['page']}: no dashed cut line at x={left} mm ({dark:.0%} dark)"
