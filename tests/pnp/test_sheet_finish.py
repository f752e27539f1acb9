"""Sheets finished as a picky print-and-play player expects: on token and coin
sheets the 50 mm bar sits inside the printable area and no cut mark crosses
it or its label; a sheet of a few tokens carries marks only around them; a
card next to an empty slot bleeds into it. Read from the PDFs' own vector
content and rasters, not from pnp's layout code."""
from __future__ import annotations

import json
from pathlib import Path

import pikepdf
import pytest

from helpers import pdfcheck as pc

pytestmark = pytest.mark.pdf

ROOT = Path(__file__).resolve().parents[2]
PRINTABLE = 5.0       # mm from the paper's edge
LABEL_HEIGHT = 3.0    # the bar's "50 mm" label sits just above it
TOKEN_SHEETS = [("culture-war", "deck-coins.pdf"), ("debate", "deck-tokens.pdf"), ("petri-dish", "deck-germs.pdf")]


@pytest.fixture(scope="module", params=["a4", "letter"])
def built(request, tmp_path_factory):
    from pnp.pipeline.options import BuildOptions
    from pnp.pipeline.orchestrator import build
    from pnp.model import PAPERS

    out = tmp_path_factory.mktemp(f"finish-{request.param}")
    build(ROOT, ["culture-war", "debate", "petri-dish"], out, BuildOptions(paper=PAPERS[request.param]))
    return out


def _bar(page) -> pc.Box:
    g = pc.page_graphics(page)
    bars = [r for p in g.paths if p.filled and p.fill_rgb is not None and max(p.fill_rgb) < 0.05
            for r in p.rects if abs(max(r[2] - r[0], r[3] - r[1]) - 50.0) < 0.2]
    assert len(bars) == 1, f"expected one 50 mm bar, found {bars}"
    return bars[0]


def _long_strokes(page, longer_than: float = 2.0):
    """Page-level stroked segments longer than the bar's own ticks (cut marks)."""
    g = pc.page_graphics(page)
    return [seg for p in g.paths if p.stroked for seg in p.segments
            if abs(seg[2] - seg[0]) + abs(seg[3] - seg[1]) > longer_than]


def _crosses(seg, box) -> bool:
    x0, y0, x1, y1 = seg
    bx0, by0, bx1, by1 = box
    return min(x0, x1) <= bx1 and max(x0, x1) >= bx0 and min(y0, y1) <= by1 and max(y0, y1) >= by0


@pytest.mark.parametrize("game,file", TOKEN_SHEETS)
def test_token_sheet_bar_is_printable_and_clear_of_cut_marks(built, game, file):
    with pikepdf.open(built / game / file) as pdf:
        for n, page in enumerate(pdf.pages, start=1):
            w, h = pc.page_size_mm(page)
            x0, y0, x1, y1 = _bar(page)
            assert min(x0, y0, w - x1, h - y1) >= PRINTABLE - 0.05, (
                f"{file} page {n}: the scale bar {x0:.1f},{y0:.1f}-{x1:.1f},{y1:.1f} is within {PRINTABLE} mm of an edge")
            label = (x0 - 0.5, y0 - 0.5, x1 + 0.5, y1 + LABEL_HEIGHT)
            crossing = [s for s in _long_strokes(page) if _crosses(s, label)]
            assert not crossing, f"{file} page {n}: cut marks cross the scale bar or its label: {crossing[:3]}"


def test_a_few_tokens_get_marks_only_around_them(built):
    manifest = json.loads((built / "debate" / "manifest.json").read_text())
    trims = [c["front"]["trim_mm"] for c in manifest["cards"] if c["deck"] == "tokens"]
    assert 0 < len(trims) <= 8, "the debate markers fill less than one row"
    left = min(t[0] for t in trims)
    right = max(t[2] for t in trims)
    bottom = min(t[1] for t in trims)
    top = max(t[3] for t in trims)
    with pikepdf.open(built / "debate" / "deck-tokens.pdf") as pdf:
        marks = _long_strokes(pdf.pages[0])
    assert marks, "the tokens still have cut marks"
    for seg in marks:
        xs, ys = (seg[0], seg[2]), (seg[1], seg[3])
        near = min(xs) <= right + 12 and max(xs) >= left - 12 and min(ys) <= top + 12 and max(ys) >= bottom - 12
        assert near, f"a cut mark at {tuple(round(v, 1) for v in seg)} is far from the tokens (a page-sized grid)"


def test_a_card_next_to_an_empty_slot_bleeds_into_it(built):
    """On a deck's partly filled last sheet, the last card's art runs on past
    its trim into the empty slot beside it, like on every other outer edge."""
    manifest = json.loads((built / "culture-war" / "manifest.json").read_text())
    checked = 0
    for deck in ("anarchy", "community", "technocracy", "conservative", "libertarian"):
        cards = [c for c in manifest["cards"] if c["deck"] == deck]
        last = max(c["front"]["page"] for c in cards)
        on_last = [c["front"]["trim_mm"] for c in cards if c["front"]["page"] == last]
        full_xs = {round(c["front"]["trim_mm"][2], 2) for c in cards if c["front"]["page"] == 1}
        right_edge = max(full_xs)
        for t in on_last:
            neighbour = any(abs(o[0] - t[2]) < 0.05 and abs(o[1] - t[1]) < 0.05 for o in on_last)
            if neighbour or round(t[2], 2) >= right_edge - 0.05:
                continue
            r = pc.raster(built / "culture-war" / f"deck-{deck}.pdf", last, 200)
            strip = r.crop((t[2] + 0.4, t[1] + 8, t[2] + 2.4, t[3] - 8))
            assert pc.white_fraction(strip) < 0.2, (
                f"{deck} page {last}: the card at {t} has no bleed into the empty slot beside it")
            checked += 1
    assert checked, "no deck has a card beside an empty slot on its last sheet"


def test_outer_cards_bleed_top_and_bottom_on_every_paper(built):
    """The top and bottom rows run their art on past the trim (on Letter too,
    where the margin is tight): a cut a little outside the line shows no white."""
    manifest = json.loads((built / "culture-war" / "manifest.json").read_text())
    trims = [c["front"]["trim_mm"] for c in manifest["cards"] if c["deck"] == "anarchy" and c["front"]["page"] == 1]
    top, bottom = max(t[3] for t in trims), min(t[1] for t in trims)
    r = pc.raster(built / "culture-war" / "deck-anarchy.pdf", 1, 300)
    for t in trims:
        for edge, strip in ((top, (t[0] + 8, t[3] + 0.15, t[2] - 8, t[3] + 0.6)),
                            (bottom, (t[0] + 8, t[1] - 0.6, t[2] - 8, t[1] - 0.15))):
            if abs((t[3] if edge == top else t[1]) - edge) > 0.05:
                continue
            assert pc.white_fraction(r.crop(strip)) < 0.2, f"card {t}: no bleed beyond its outer edge at y={edge:.2f}"
