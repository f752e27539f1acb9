"""Print truth: what a printer and a player will actually get from `pnp build`.

Each configuration of culture-war is built once per module; every check
measures the produced PDFs (rasters, content streams, page dictionaries) and
compares them with the manifest and with the physical card and paper sizes.
"""
from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest
import zxingcpp

from helpers import pdfcheck as pc

pytestmark = pytest.mark.pdf

# Physical truths (the poker preset and the paper standards), written out here
# on purpose rather than imported from pnp.
POKER_W, POKER_H = 63.5, 88.9
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
TOL = 0.1          # mm: what a ruler, a guillotine and a player can tell apart
GEOM_TOL = 0.01    # mm: for values that are computed, not rasterized


# --------------------------------------------------------------------------- builds (once per module)

@pytest.fixture(scope="module")
def a4_long(tmp_path_factory):
    return pc.run_build(tmp_path_factory.mktemp("a4-long"), "a4", "duplex", "long")


@pytest.fixture(scope="module")
def a4_long_again(tmp_path_factory):
    return pc.run_build(tmp_path_factory.mktemp("a4-long-again"), "a4", "duplex", "long")


@pytest.fixture(scope="module")
def a4_short(tmp_path_factory):
    return pc.run_build(tmp_path_factory.mktemp("a4-short"), "a4", "duplex", "short")


@pytest.fixture(scope="module")
def a4_gutter(tmp_path_factory):
    return pc.run_build(tmp_path_factory.mktemp("a4-gutter"), "a4", "gutterfold", "long")


@pytest.fixture(scope="module")
def letter_long(tmp_path_factory):
    return pc.run_build(tmp_path_factory.mktemp("letter-long"), "letter", "duplex", "long")


@pytest.fixture(scope="module")
def a3_long(tmp_path_factory):
    """A3 holds more poker cards on a landscape page: the other mirror axis."""
    return pc.run_build(tmp_path_factory.mktemp("a3-long"), "a3", "duplex", "long")


ALL_CONFIGS = ["a4_long", "a4_short", "a4_gutter", "letter_long"]


@pytest.fixture
def built(request):
    return request.getfixturevalue(request.param)


@pytest.fixture(scope="module")
def pdfs_open():
    """pikepdf handles, opened once per path."""
    cache: dict[Path, pikepdf.Pdf] = {}

    def get(path: Path) -> pikepdf.Pdf:
        if path not in cache:
            cache[path] = pikepdf.open(path)
        return cache[path]

    yield get
    for pdf in cache.values():
        pdf.close()


# --------------------------------------------------------------------------- 1. QR codes

QR_PAGES = [("anarchy", 1), ("anarchy", 3), ("technocracy", 1)]


@pytest.mark.parametrize("dpi", [300, 150])
@pytest.mark.parametrize("deck,page", QR_PAGES)
def test_qr_codes_decode_to_manifest_payloads_inside_their_trim(a4_long, deck, page, dpi):
    path = a4_long.pdf_path(deck)
    cards = a4_long.fronts_on(deck, page)
    assert cards, f"manifest lists no fronts on {path.name} page {page}"
    r = pc.raster(path, page, dpi)
    codes = zxingcpp.read_barcodes(r.image, formats=zxingcpp.BarcodeFormat.QRCode)
    decoded = sorted(c.text for c in codes)
    expected = sorted(c["qr"] for c in cards)
    assert decoded == expected, (
        f"{path.name} page {page} at {dpi} dpi: decoded {len(decoded)} QR codes {decoded}, "
        f"manifest has {len(expected)} payloads {expected}")
    for code in codes:
        p = code.position
        corners = [p.top_left, p.top_right, p.bottom_right, p.bottom_left]
        cx = sum(c.x for c in corners) / 4
        cy = sum(c.y for c in corners) / 4
        x, y = r.to_mm(cx, cy)
        holders = [c for c in cards if pc.point_in(tuple(c["front"]["trim_mm"]), x, y)]
        assert len(holders) == 1, (
            f"{path.name} page {page} at {dpi} dpi: QR {code.text!r} centred at "
            f"({x:.2f}, {y:.2f}) mm lies in {len(holders)} front trim boxes")
        assert holders[0]["qr"] == code.text, (
            f"{path.name} page {page} at {dpi} dpi: QR centred at ({x:.2f}, {y:.2f}) mm decodes to "
            f"{code.text!r} but the card whose trim holds it, {holders[0]['id']} copy "
            f"{holders[0]['copy']}, has payload {holders[0]['qr']!r}")


def test_every_printed_copy_carries_its_own_copy_number(a4_long):
    """Three copies of one card are three physical cards: each scan names its copy."""
    from pnp.sources.qrpayload import parse_payload

    cards = a4_long.manifest["cards"]
    payloads = [c["qr"] for c in cards]
    assert len(set(payloads)) == len(payloads), "two printed copies share one QR payload"
    for c in cards:
        parsed = parse_payload(c["qr"])
        assert parsed is not None and (parsed.card_id, parsed.copy) == (c["id"], c["copy"]), c
    several = [c for c in cards if c["copy"] > 1]
    assert several, "the deck should print some card more than once"


def test_qr_modules_are_at_least_0_4_mm_on_paper(a4_long):
    """Measured on the raster: the decoded symbol's width over its module count."""
    from pnp.faces.qr import qr_rows

    path = a4_long.pdf_path("anarchy")
    r = pc.raster(path, 1, 300)
    codes = zxingcpp.read_barcodes(r.image, formats=zxingcpp.BarcodeFormat.QRCode)
    assert codes
    for code in codes:
        p = code.position
        (x0, y0), (x1, y1) = r.to_mm(p.top_left.x, p.top_left.y), r.to_mm(p.top_right.x, p.top_right.y)
        width = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
        modules = len(qr_rows(code.text))
        assert modules <= 29, f"{code.text!r} needs more than QR version 3"
        assert width / modules >= 0.4, f"{code.text!r}: modules of {width / modules:.3f} mm"


def test_back_pages_carry_no_qr_code(a4_long):
    path = a4_long.pdf_path("anarchy")
    r = pc.raster(path, 2, 150)
    codes = zxingcpp.read_barcodes(r.image, formats=zxingcpp.BarcodeFormat.QRCode)
    assert codes == [], f"{path.name} page 2 (backs) at 150 dpi: decoded {[c.text for c in codes]}"


# --------------------------------------------------------------------------- 2. card size from the cut marks

def _match(value: float, measured: list[float]) -> float | None:
    best = min(measured, key=lambda m: abs(m - value), default=None)
    return best if best is not None and abs(best - value) <= TOL else None


@pytest.mark.parametrize("built", ALL_CONFIGS, indirect=True)
@pytest.mark.parametrize("page", [1, 2])
def test_cut_marks_measure_the_card_size(built, page):
    deck = "anarchy"
    path = built.pdf_path(deck)
    if page > pc.page_count(str(path)):
        pytest.skip(f"{path.name} has one page")
    trims = built.trims_on(deck, page)
    assert trims, f"manifest lists no cards on {path.name} page {page}"
    r = pc.raster(path, page, 300)
    marks = pc.find_cut_marks(r)
    where = f"{path.name} page {page} (300 dpi)"

    # opposite margins show the same lines, one per distinct card edge
    for a, b, what in ((marks.top_xs, marks.bottom_xs, "vertical marks top vs bottom (x mm)"),
                       (marks.left_ys, marks.right_ys, "horizontal marks left vs right (y mm)")):
        assert len(a) == len(b) and pc.close(a, b, TOL), f"{where}: {what}: {a} vs {b}"
    edges_x = sorted({round(t[i], 3) for t in trims for i in (0, 2)})
    edges_y = sorted({round(t[i], 3) for t in trims for i in (1, 3)})
    assert len(marks.top_xs) == len(edges_x), (
        f"{where}: measured {len(marks.top_xs)} vertical cut marks at x={marks.top_xs}, "
        f"the cards have {len(edges_x)} distinct vertical edges {edges_x}")
    assert len(marks.left_ys) == len(edges_y), (
        f"{where}: measured {len(marks.left_ys)} horizontal cut marks at y={marks.left_ys}, "
        f"the cards have {len(edges_y)} distinct horizontal edges {edges_y}")

    # every card is framed by four marks collinear with its edges, 63.5 x 88.9 mm apart
    for x0, y0, x1, y1 in trims:
        mx0, mx1 = _match(x0, marks.top_xs), _match(x1, marks.top_xs)
        my0, my1 = _match(y0, marks.left_ys), _match(y1, marks.left_ys)
        assert None not in (mx0, mx1), (
            f"{where}: no vertical cut mark within {TOL} mm of card edges x={x0}, {x1}; marks at {marks.top_xs}")
        assert None not in (my0, my1), (
            f"{where}: no horizontal cut mark within {TOL} mm of card edges y={y0}, {y1}; marks at {marks.left_ys}")
        assert abs((mx1 - mx0) - POKER_W) <= TOL, (
            f"{where}: card width between cut marks measured {mx1 - mx0:.3f} mm, poker is {POKER_W}")
        assert abs((my1 - my0) - POKER_H) <= TOL, (
            f"{where}: card height between cut marks measured {my1 - my0:.3f} mm, poker is {POKER_H}")


@pytest.mark.parametrize("built", ALL_CONFIGS, indirect=True)
def test_manifest_trims_are_poker_sized_and_inside_the_trimbox(built, pdfs_open):
    assert pc.close(built.manifest["card_size_mm"], (POKER_W, POKER_H), TOL), (
        f"manifest card_size_mm {built.manifest['card_size_mm']}")
    for card in built.cards():
        for side in ("front", "back"):
            x0, y0, x1, y1 = card[side]["trim_mm"]
            assert abs((x1 - x0) - POKER_W) <= TOL and abs((y1 - y0) - POKER_H) <= TOL, (
                f"{card['file']} {card['id']} copy {card['copy']} {side}: manifest trim is "
                f"{x1 - x0:.3f} x {y1 - y0:.3f} mm, poker is {POKER_W} x {POKER_H}")
    for deck in built.decks():
        path = built.pdf_path(deck)
        pdf = pdfs_open(path)
        for n, page in enumerate(pdf.pages, start=1):
            assert "/TrimBox" in page.obj, f"{path.name} page {n} has no /TrimBox"
            trimbox = pc.box_mm(page.obj.TrimBox)
            for t in built.trims_on(deck, n):
                assert pc.contains(trimbox, t, GEOM_TOL), (
                    f"{path.name} page {n}: /TrimBox {tuple(round(v, 3) for v in trimbox)} mm "
                    f"does not enclose card trim {t}")


# --------------------------------------------------------------------------- 3. no mark enters a card

def _overlap(a: pc.Box, b: pc.Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("built", ALL_CONFIGS, indirect=True)
def test_no_page_level_line_or_fill_enters_a_card(built, pdfs_open):
    stroked_seen = 0
    for deck in built.decks():
        path = built.pdf_path(deck)
        pdf = pdfs_open(path)
        for n, page in enumerate(pdf.pages, start=1):
            boxes = [pc.shrink(t, GEOM_TOL) for t in built.trims_on(deck, n)]
            g = pc.page_graphics(page)
            for p in g.paths:
                for seg in p.segments:
                    for box in boxes:
                        if p.stroked:
                            stroked_seen += 1
                            hit = _overlap(pc.stroke_box(seg, p.line_width), box)
                        else:
                            hit = pc.segment_hits_box(seg, box)
                        assert not hit, (
                            f"{path.name} page {n}: page-level {p.op} segment "
                            f"{tuple(round(v, 3) for v in seg)} mm (line width {p.line_width:.3f} mm) "
                            f"enters card trim {tuple(round(v, 3) for v in box)} (shrunk {GEOM_TOL} mm)")
                for rect in p.rects:
                    for box in boxes:
                        assert not (p.filled and _overlap(rect, box)), (
                            f"{path.name} page {n}: page-level filled rect "
                            f"{tuple(round(v, 3) for v in rect)} mm covers part of card trim {box}")
    assert stroked_seen > 0, "found no page-level stroked segments at all (no cut marks?)"


# --------------------------------------------------------------------------- 4. backs mirror fronts

def _flipped(box, W: float, H: float, flip: str):
    """Where a box on a sheet's front lands on its back once the sheet is turned
    over its long or short edge. On a portrait page the long edges are the
    vertical sides (x -> W - x); on a landscape page they are horizontal (y -> H - y)."""
    x0, y0, x1, y1 = box
    portrait = H >= W
    if (flip == "long") == portrait:
        return (W - x1, y0, W - x0, y1)
    return (x0, H - y1, x1, H - y0)


DUPLEX_CONFIGS = ["a4_long", "a4_short", "a3_long"]


@pytest.mark.parametrize("built", DUPLEX_CONFIGS, indirect=True)
def test_duplex_back_trims_mirror_front_trims(built, pdfs_open):
    flip = built.file_entry("anarchy")["flip"]
    for deck in built.decks():
        path = built.pdf_path(deck)
        pdf = pdfs_open(path)
        for card in built.cards(deck):
            fp, bp = card["front"]["page"], card["back"]["page"]
            assert bp == fp + 1 and fp % 2 == 1, (
                f"{path.name} {card['id']} copy {card['copy']}: front on page {fp}, back on page {bp}")
            W, H = pc.page_size_mm(pdf.pages[bp - 1])
            want = _flipped(card["front"]["trim_mm"], W, H, flip)
            got = card["back"]["trim_mm"]
            assert pc.close(got, want, GEOM_TOL), (
                f"{path.name} {card['id']} copy {card['copy']} ({flip} flip, page {W:.1f} x {H:.1f} mm): "
                f"back trim {got}, front {card['front']['trim_mm']} turned over is {want}")
            assert card["back"]["rotation"] == 0, f"{card['id']}: duplex back rotation {card['back']['rotation']}"


@pytest.mark.parametrize("built", DUPLEX_CONFIGS, indirect=True)
def test_duplex_back_pages_show_backs_behind_the_fronts(built):
    """For the first and the last sheet of every deck: each grid cell that holds
    a front must, turned over, land on deck colour on the back page's raster,
    and each empty cell must land on white paper. The partly filled last
    sheet is what tells a mirrored back from an un-mirrored one."""
    colors = pc.deck_colors()
    flip = built.file_entry("anarchy")["flip"]
    partial = 0
    for deck in built.decks():
        path = built.pdf_path(deck)
        grid = [tuple(c["front"]["trim_mm"]) for c in built.fronts_on(deck, 1)]
        last_front = built.file_entry(deck)["pages"] - 1
        for front_page in sorted({1, last_front}):
            back_page = front_page + 1
            filled = [tuple(c["front"]["trim_mm"]) for c in built.fronts_on(deck, front_page)]
            partial += len(filled) < len(grid)
            r = pc.raster(path, back_page, 50)
            for cell in grid:
                behind = _flipped(cell, r.page_w, r.page_h, flip)
                inner = r.crop(pc.shrink(behind, 1.0))
                colour = pc.color_fraction(inner, colors[deck])
                shown = tuple(round(v, 2) for v in behind)
                if any(pc.close(cell, f, TOL) for f in filled):
                    assert colour >= 0.5, (
                        f"{path.name}: front page {front_page} has a card at {cell}; on back page {back_page} "
                        f"({flip} flip) only {colour:.0%} of the pixels at {shown} are the deck colour {colors[deck]}")
                else:  # a neighbour's bleed may run 3 mm into an empty cell
                    white = pc.white_fraction(r.crop(pc.shrink(behind, 4.0)))
                    assert white >= 0.98, (
                        f"{path.name}: front page {front_page} has no card at {cell}, yet on back page "
                        f"{back_page} ({flip} flip) the area {shown} is only {white:.0%} white "
                        f"({colour:.0%} deck colour)")
    assert partial, "no deck has a partly filled last sheet: this check cannot tell mirrored backs apart"


# --------------------------------------------------------------------------- 5. gutterfold

def test_gutterfold_backs_fold_onto_fronts(a4_gutter, pdfs_open):
    for deck in a4_gutter.decks():
        path = a4_gutter.pdf_path(deck)
        pdf = pdfs_open(path)
        for n, page in enumerate(pdf.pages, start=1):
            cards = a4_gutter.fronts_on(deck, n)
            assert cards, f"{path.name} page {n} has no cards"
            g = pc.page_graphics(page)
            folds = [s for p in g.paths if p.stroked and p.dash for s in p.segments
                     if abs(s[1] - s[3]) < GEOM_TOL]
            assert len(folds) == 1, f"{path.name} page {n}: found {len(folds)} dashed horizontal lines {folds}"
            fold_y = folds[0][1]
            fronts = [tuple(c["front"]["trim_mm"]) for c in cards]
            backs = [tuple(c["back"]["trim_mm"]) for c in cards]
            lowest_front = min(t[1] for t in fronts)
            highest_back = max(t[3] for t in backs)
            assert abs(fold_y - (lowest_front + highest_back) / 2) <= GEOM_TOL, (
                f"{path.name} page {n}: dashed fold line at y={fold_y:.3f} mm, midway between front row "
                f"bottom {lowest_front} and back row top {highest_back} is {(lowest_front + highest_back) / 2:.3f}")
            fx0 = min(min(t[0] for t in fronts), min(t[0] for t in backs))
            fx1 = max(max(t[2] for t in fronts), max(t[2] for t in backs))
            assert min(folds[0][0], folds[0][2]) <= fx0 + TOL and max(folds[0][0], folds[0][2]) >= fx1 - TOL, (
                f"{path.name} page {n}: fold line spans x {folds[0][0]:.2f}..{folds[0][2]:.2f} mm, "
                f"the cards span {fx0}..{fx1}")
            placed = [(pc.apply(x.ctm, 0, 0), x) for x in g.xobjects]
            for card in cards:
                where = f"{path.name} page {n} {card['id']} copy {card['copy']}"
                assert card["back"]["page"] == n, f"{where}: back on page {card['back']['page']}"
                assert card["back"]["rotation"] == 180, f"{where}: back rotation {card['back']['rotation']}"
                x0, y0, x1, y1 = card["front"]["trim_mm"]
                want = (x0, 2 * fold_y - y1, x1, 2 * fold_y - y0)
                assert pc.close(card["back"]["trim_mm"], want, GEOM_TOL), (
                    f"{where}: back trim {card['back']['trim_mm']}, front {card['front']['trim_mm']} "
                    f"folded over y={fold_y:.3f} is {want}")
                # the form drawn there: upright at the front's bottom-left, turned 180 at the back's top-right
                bx0, by0, bx1, by1 = card["back"]["trim_mm"]
                for corner, sign, side in (((x0, y0), 1, "front"), ((bx1, by1), -1, "back")):
                    hits = [x for (ox, oy), x in placed
                            if abs(ox * pc.MM_PER_PT - corner[0]) <= GEOM_TOL
                            and abs(oy * pc.MM_PER_PT - corner[1]) <= GEOM_TOL]
                    assert len(hits) == 1, f"{where}: {len(hits)} faces drawn with origin at {side} corner {corner}"
                    a, b, c, d = hits[0].ctm[:4]
                    assert pc.close((a, b, c, d), (sign, 0, 0, sign), 1e-6), (
                        f"{where}: the {side} face is drawn with matrix {(a, b, c, d)}, "
                        f"expected {'upright' if sign == 1 else 'turned 180 degrees'}")


# --------------------------------------------------------------------------- 6. fonts

@pytest.mark.parametrize("built", ALL_CONFIGS, indirect=True)
def test_every_font_is_embedded(built, pdfs_open):
    for path in built.pdfs():
        pdf = pdfs_open(path)
        fonts = list(pc.iter_fonts(pdf))
        assert fonts, f"{path.name}: found no fonts at all"
        for where, font in fonts:
            name = str(font.get("/BaseFont", "?"))
            if font.get("/Subtype") in ("/Type0", "/Type3"):
                continue   # the descendant (Type0) or glyph procedures (Type3) carry the glyphs
            assert not (pc.STANDARD_14.search(name) and not pc.font_embedded(font)), (
                f"{path.name} {where}: standard-14 font {name} is not embedded")
            assert pc.font_embedded(font), (
                f"{path.name} {where}: font {name} ({font.get('/Subtype')}) has no embedded "
                f"FontFile/FontFile2/FontFile3")


# --------------------------------------------------------------------------- 7. structure

@pytest.mark.parametrize("built", ALL_CONFIGS, indirect=True)
def test_pdf_structure_and_viewer_preferences(built, pdfs_open):
    layout = built.manifest["files"][0]["layout"]
    flip = built.manifest["files"][0]["flip"]
    for path in built.pdfs():
        pdf = pdfs_open(path)
        check = getattr(pdf, "check", None) or pdf.check_pdf_syntax
        problems = check()
        assert not problems, f"{path.name}: qpdf check reports {problems}"
        prefs = pdf.Root.get("/ViewerPreferences")
        assert prefs is not None, f"{path.name}: no /ViewerPreferences"
        assert str(prefs.get("/PrintScaling")) == "/None", (
            f"{path.name}: /PrintScaling is {prefs.get('/PrintScaling')}")
        duplex = prefs.get("/Duplex")
        entry = next(f for f in built.manifest["files"] if f["file"] == path.name)
        if entry.get("sides", 1) == 2 and layout == "duplex":
            want = {"long": "/DuplexFlipLongEdge", "short": "/DuplexFlipShortEdge"}[flip]
            assert str(duplex) == want, f"{path.name} ({flip} flip): /Duplex is {duplex}, want {want}"
        else:
            assert duplex is None or str(duplex) == "/Simplex", (
                f"{path.name} (gutterfold, printed one-sided): /Duplex is {duplex}")
        for n, page in enumerate(pdf.pages, start=1):
            assert "/TrimBox" in page.obj, f"{path.name} page {n}: no /TrimBox"


# --------------------------------------------------------------------------- 8. determinism

def test_two_builds_are_byte_identical(a4_long, a4_long_again):
    names = sorted(p.name for p in a4_long.game_dir.iterdir())
    again = sorted(p.name for p in a4_long_again.game_dir.iterdir())
    assert names == again, f"file lists differ: {names} vs {again}"
    assert a4_long.manifest_bytes == a4_long_again.manifest_bytes, "manifest.json differs between two builds"
    for name in names:
        a = (a4_long.game_dir / name).read_bytes()
        b = (a4_long_again.game_dir / name).read_bytes()
        assert a == b, (
            f"{name}: {len(a)} vs {len(b)} bytes, first difference at byte "
            f"{next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))}")


# --------------------------------------------------------------------------- 9. paper presets

@pytest.mark.parametrize("built,paper", [("a4_long", "a4"), ("letter_long", "letter")], indirect=["built"])
def test_paper_preset_holds_a_centred_3x3_grid(built, paper, pdfs_open):
    W_want, H_want = PAPER_MM[paper]
    for f in built.manifest["files"]:
        if f.get("deck") not in built.decks():
            continue  # coins, reference cards and sheets have their own sizes
        assert f["cards_per_page"] == 9, f"{f['file']} on {paper}: manifest cards_per_page {f['cards_per_page']}"
        assert f["paper"] == paper, f"{f['file']}: manifest paper {f['paper']}"
    deck = "anarchy"
    path = built.pdf_path(deck)
    page = pdfs_open(path).pages[0]
    W, H = pc.page_size_mm(page)
    assert abs(W - W_want) <= TOL and abs(H - H_want) <= TOL, (
        f"{path.name}: MediaBox measures {W:.2f} x {H:.2f} mm, {paper} is {W_want} x {H_want}")
    for d in built.decks():
        trims = {tuple(c["front"]["trim_mm"]) for c in built.fronts_on(d, 1)}
        assert len(trims) == 9, f"deck-{d}.pdf page 1 on {paper}: {len(trims)} distinct front trims"
        xs = sorted({t[0] for t in trims})
        ys = sorted({t[1] for t in trims})
        assert len(xs) == 3 and len(ys) == 3, f"deck-{d}.pdf page 1: columns at x {xs}, rows at y {ys}"
    # centring, from the manifest...
    trims = [tuple(c["front"]["trim_mm"]) for c in built.fronts_on(deck, 1)]
    left, bottom = min(t[0] for t in trims), min(t[1] for t in trims)
    right, top = W - max(t[2] for t in trims), H - max(t[3] for t in trims)
    assert abs(left - right) <= TOL, f"{path.name} page 1: manifest margins left {left:.3f} right {right:.3f} mm"
    assert abs(top - bottom) <= TOL, f"{path.name} page 1: manifest margins top {top:.3f} bottom {bottom:.3f} mm"
    # ...and from the cut marks on the raster
    marks = pc.find_cut_marks(pc.raster(path, 1, 300))
    ml, mr = marks.top_xs[0], W - marks.top_xs[-1]
    mb, mt = marks.left_ys[0], H - marks.left_ys[-1]
    assert abs(ml - mr) <= TOL, f"{path.name} page 1: cut marks put the grid {ml:.3f} mm from the left, {mr:.3f} from the right"
    assert abs(mt - mb) <= TOL, f"{path.name} page 1: cut marks put the grid {mt:.3f} mm from the top, {mb:.3f} from the bottom"
    assert len(marks.top_xs) == 4 and len(marks.left_ys) == 4, (
        f"{path.name} page 1: {len(marks.top_xs)} vertical and {len(marks.left_ys)} horizontal cut marks, want 4 and 4")


# --------------------------------------------------------------------------- 10. the scale bar

def _bars(page: pikepdf.Page) -> list[pc.Box]:
    """Page-level filled black rectangles (the scale bar)."""
    g = pc.page_graphics(page)
    return [r for p in g.paths if p.filled and p.fill_rgb is not None and max(p.fill_rgb) < 0.05
            for r in p.rects]


@pytest.mark.parametrize("built", ALL_CONFIGS, indirect=True)
def test_every_page_has_the_note_and_a_50mm_bar(built, pdfs_open):
    for path in built.pdfs():
        pdf = pdfs_open(path)
        for n, page in enumerate(pdf.pages, start=1):
            text = pc.page_text(str(path), n)
            for needle in ("50 mm", "100%"):
                assert needle in text, f"{path.name} page {n}: extracted text lacks {needle!r}"
            bars = _bars(page)
            assert len(bars) == 1, f"{path.name} page {n}: {len(bars)} filled black rectangles at page level: {bars}"
            x0, y0, x1, y1 = bars[0]
            length = max(x1 - x0, y1 - y0)
            assert abs(length - 50.0) <= TOL, f"{path.name} page {n}: the scale bar is {length:.3f} mm long"


@pytest.mark.parametrize("built", ["a4_long", "letter_long"], indirect=True)
def test_scale_bar_measures_50mm_on_the_raster(built, pdfs_open):
    """Between its end ticks, measured on a 300 dpi raster, the bar is 50 mm."""
    path = built.pdf_path("anarchy")
    bar = _bars(pdfs_open(path).pages[0])[0]
    r = pc.raster(path, 1, 300)
    x0, y0, x1, y1 = bar
    horizontal = (x1 - x0) > (y1 - y0)
    m, pad = 1.2, 0.12   # look 1.2 mm either side of the bar, off the bar itself
    if horizontal:
        bands = [(x0 - 0.5, y1 + pad, x1 + 0.5, y1 + m), (x0 - 0.5, y0 - m, x1 + 0.5, y0 - pad)]
        profiles = []
        for b in bands:
            left = r.box_px(b)[0]
            profiles.append((left, pc.column_darkness(r.crop(b))))
        left = profiles[0][0]
        prof = [a + b for a, b in zip(profiles[0][1], profiles[1][1])]
        ticks = [(left + c) * r.sx for c in pc.line_centres(prof, 20.0)]
    else:
        bands = [(x1 + pad, y0 - 0.5, x1 + m, y1 + 0.5), (x0 - m, y0 - 0.5, x0 - pad, y1 + 0.5)]
        upper = r.box_px(bands[0])[1]
        profs = [pc.row_darkness(r.crop(b)) for b in bands]
        prof = [a + b for a, b in zip(*profs)]
        ticks = sorted(r.page_h - (upper + c) * r.sy for c in pc.line_centres(prof, 20.0))
    assert len(ticks) >= 2, f"{path.name} page 1: found {len(ticks)} scale bar ticks on the raster"
    length = ticks[-1] - ticks[0]
    assert abs(length - 50.0) <= TOL, (
        f"{path.name} page 1: end ticks of the scale bar measured {length:.3f} mm apart at 300 dpi "
        f"(ticks at {[round(t, 2) for t in ticks]})")
    ends = (x0, x1) if horizontal else (y0, y1)
    assert abs(ticks[0] - ends[0]) <= TOL and abs(ticks[-1] - ends[1]) <= TOL, (
        f"{path.name} page 1: end ticks at {ticks[0]:.3f}, {ticks[-1]:.3f} mm do not sit on the bar ends {ends}")
