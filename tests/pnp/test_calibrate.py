"""The duplex calibration sheet, read the way a person reads it.

A simulated printer puts the back page off by a known amount (and scale);
the back is then turned over as the duplex flip does and laid behind the
front, as when the sheet is held to the light. A reader who knows nothing of
pnp's geometry finds, in each of the four scales, the front line that a back
line continues, and takes the number printed beside it. The numbers must
give the correction that undoes the simulated printer."""
from __future__ import annotations

import math
import re
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest

from helpers import pdfcheck as pc

from pnp.extras.calibrate import calibration_pdf
from pnp.model import PAPERS, Flip

pytestmark = pytest.mark.pdf

ROOT = Path(__file__).resolve().parents[2]
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}   # physical truths
VALUE = re.compile(r"^[+-]?\d\.\d\d$|^0$")
NAME = re.compile(r"^[XY][12]$")


# --------------------------------------------------------------------------- reading a PDF page

def words(pdf_bytes: bytes, page: int) -> list[tuple[str, float, float]]:
    """(text, centre x, centre y) in mm of each run of touching characters."""
    doc = pdfium.PdfDocument(pdf_bytes)
    try:
        tp = doc[page].get_textpage()
        out, cur, box = [], "", None
        for i in range(tp.count_chars()):
            ch = tp.get_text_range(i, 1)
            l, b, r, t = (v * pc.MM_PER_PT for v in tp.get_charbox(i))
            joins = box is not None and abs(b - box[1]) < 0.6 and -0.2 < l - box[2] < 0.6
            if ch.strip() and (cur == "" or joins):
                cur += ch
                box = (l, b, r, t) if box is None or cur == ch else (box[0], min(b, box[1]), r, max(t, box[3]))
                continue
            if cur:
                out.append((cur, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2))
            cur, box = (ch, (l, b, r, t)) if ch.strip() else ("", None)
        if cur:
            out.append((cur, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2))
        return out
    finally:
        doc.close()


def straight_lines(pdf_bytes: bytes, page: int) -> list[tuple[float, float, float, float]]:
    with pikepdf.open(__import__("io").BytesIO(pdf_bytes)) as pdf:
        graphics = pc.page_graphics(pdf.pages[page])
    return [s for p in graphics.paths if p.stroked for s in p.segments
            if (abs(s[0] - s[2]) < 1e-6) != (abs(s[1] - s[3]) < 1e-6)]


def seg_distance(x: float, y: float, s) -> float:
    x0, y0, x1, y1 = s
    dx, dy = x1 - x0, y1 - y0
    t = max(0.0, min(1.0, ((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy)))
    return math.hypot(x - (x0 + t * dx), y - (y0 + t * dy))


def scales(pdf_bytes: bytes, page: int) -> dict[str, list[tuple[float, tuple]]]:
    """Each named scale's (printed value, its line): value labels cluster into
    scales; each label belongs to the line nearest to it."""
    found = words(pdf_bytes, page)
    values = [(float(t), x, y) for t, x, y in found if VALUE.match(t)]
    names = [(t, x, y) for t, x, y in found if NAME.match(t)]
    clusters: list[list] = []
    for v in values:   # single linkage, 17.5 mm
        near = [c for c in clusters if any(math.hypot(v[1] - w[1], v[2] - w[2]) < 17.5 for w in c)]
        merged = [v] + [w for c in near for w in c]
        clusters = [c for c in clusters if c not in near] + [merged]
    lines = straight_lines(pdf_bytes, page)
    out = {}
    for c in clusters:
        if len(c) < 10:
            continue   # a ruler's "0"
        mx, my = sum(v[1] for v in c) / len(c), sum(v[2] for v in c) / len(c)
        name = min(names, key=lambda n: math.hypot(n[1] - mx, n[2] - my))[0]
        out[name] = [(v, min(lines, key=lambda s: seg_distance(x, y, s))) for v, x, y in c]
    return out


# --------------------------------------------------------------------------- the simulated printer and the light

def printed_back(seg, paper, error, scale):
    """Where the printer really puts a back-page segment (back-page coordinates)."""
    w, h = PAPER_MM[paper]
    cx, cy = w / 2, h / 2
    x0, y0, x1, y1 = seg
    f = lambda x, y: (cx + scale * (x - cx) + error[0], cy + scale * (y - cy) + error[1])  # noqa: E731
    return (*f(x0, y0), *f(x1, y1))


def seen_from_front(seg, paper, flip):
    """A back-page segment as seen through the sheet from the front (portrait paper)."""
    w, h = PAPER_MM[paper]
    x0, y0, x1, y1 = seg
    if flip == "long":      # turned over its long (vertical) edge: left and right swap
        return (w - x0, y0, w - x1, y1)
    return (x0, h - y0, x1, h - y1)


def read_sheet(pdf: bytes, paper: str, flip: str, error=(0.0, 0.0), scale=1.0) -> dict[str, float]:
    front = scales(pdf, 0)
    back = scales(pdf, 1)
    assert sorted(front) == sorted(back) == ["X1", "X2", "Y1", "Y2"]
    back_lines = [seen_from_front(printed_back(s, paper, error, scale), paper, flip)
                  for name in back for _, s in back[name]]
    readings = {}
    for name, pairs in front.items():
        hits = []
        for value, f in pairs:
            vertical = abs(f[0] - f[2]) < 1e-6
            for b in back_lines:
                if vertical and abs(b[0] - b[2]) < 1e-6:
                    gap = abs(b[0] - f[0])
                    overlap = min(max(f[1], f[3]), max(b[1], b[3])) - max(min(f[1], f[3]), min(b[1], b[3]))
                elif not vertical and abs(b[1] - b[3]) < 1e-6:
                    gap = abs(b[1] - f[1])
                    overlap = min(max(f[0], f[2]), max(b[0], b[2])) - max(min(f[0], f[2]), min(b[0], b[2]))
                else:
                    continue
                if overlap > 1.0 and gap < 0.125:
                    hits.append((gap, value))
        assert hits, f"{name}: no front line is continued by a back line"
        best = min(hits)
        assert sum(1 for g, _ in hits if g < 0.06) <= 1, f"{name}: ambiguous, {sorted(hits)[:3]}"
        readings[name] = best[1]
    return readings


@pytest.fixture(scope="module")
def sheets():
    out = {}
    for paper in ("a4", "letter"):
        for flip in Flip:
            out[(paper, flip.value)] = calibration_pdf(ROOT, PAPERS[paper], flip)
    return out


# --------------------------------------------------------------------------- tests

def test_two_pages_at_paper_size_with_fonts_embedded(sheets):
    for (paper, _), data in sheets.items():
        with pikepdf.open(__import__("io").BytesIO(data)) as pdf:
            assert len(pdf.pages) == 2
            for page in pdf.pages:
                w, h = pc.page_size_mm(page)
                assert abs(w - PAPER_MM[paper][0]) < 0.01 and abs(h - PAPER_MM[paper][1]) < 0.01
            fonts = list(pc.iter_fonts(pdf))
            assert fonts and all(pc.font_embedded(f) for _, f in fonts if "/DescendantFonts" not in f)


@pytest.mark.parametrize("paper,flip", [("a4", "long"), ("a4", "short"), ("letter", "long"), ("letter", "short")])
def test_a_perfect_printer_reads_zero_everywhere(sheets, paper, flip):
    assert read_sheet(sheets[(paper, flip)], paper, flip) == {"X1": 0, "X2": 0, "Y1": 0, "Y2": 0}


@pytest.mark.parametrize("paper,flip,error", [
    ("a4", "long", (0.75, -0.5)),
    ("a4", "short", (-1.25, 2.0)),
    ("letter", "long", (3.0, -3.0)),
    ("letter", "short", (-2.75, 0.25)),
])
def test_readings_give_the_correction_for_an_offset(sheets, paper, flip, error):
    r = read_sheet(sheets[(paper, flip)], paper, flip, error)
    dx, dy = (r["X1"] + r["X2"]) / 2, (r["Y1"] + r["Y2"]) / 2
    assert (dx, dy) == (-error[0], -error[1])
    assert r["X1"] == r["X2"] and r["Y1"] == r["Y2"]   # no scale error


@pytest.mark.parametrize("flip", ["long", "short"])
def test_readings_give_the_scale_correction(sheets, flip):
    s, error = 1.005, (0.5, -0.25)     # the back comes out 0.5% larger, and off
    r = read_sheet(sheets[("a4", flip)], "a4", flip, error, s)
    scale = 1 + (r["X2"] - r["X1"] + r["Y2"] - r["Y1"]) / 200   # the formula printed on the sheet
    assert abs(scale - 1 / s) < 0.0005
    dx, dy = (r["X1"] + r["X2"]) / 2, (r["Y1"] + r["Y2"]) / 2
    assert abs(dx + error[0]) < 0.01 and abs(dy + error[1]) < 0.01


def test_the_sheet_tells_how_to_use_it(sheets):
    doc = pdfium.PdfDocument(sheets[("a4", "long")])
    try:
        front = doc[0].get_textpage().get_text_range()
    finally:
        doc.close()
    flat = " ".join(front.split())
    assert "pnp printer add" in flat and "--dx" in flat and "--dy" in flat and "--flip long" in flat
    assert "100%" in flat and "light" in flat
    assert "(X1 + X2) / 2" in flat and "(Y1 + Y2) / 2" in flat


def test_the_rulers_are_100_mm_with_mm_ticks(sheets):
    """The front's ruler ticks: 101 per axis, 1 mm apart, 100 mm end to end."""
    lines = straight_lines(sheets[("a4", "long")], 0)
    for vertical_ticks in (True, False):
        ticks = [s for s in lines if (abs(s[0] - s[2]) < 1e-6) == vertical_ticks
                 and 1.0 < math.hypot(s[2] - s[0], s[3] - s[1]) < 4.5]
        # ticks of one ruler share a base line
        key = (lambda s: round(min(s[1], s[3]), 2)) if vertical_ticks else (lambda s: round(max(s[0], s[2]), 2))
        groups: dict[float, list] = {}
        for s in ticks:
            groups.setdefault(key(s), []).append(s[0] if vertical_ticks else s[1])
        ruler = max(groups.values(), key=len)
        ruler.sort()
        assert len(ruler) == 101
        assert abs(ruler[-1] - ruler[0] - 100.0) < 0.01
        assert all(abs(b - a - 1.0) < 0.01 for a, b in zip(ruler, ruler[1:]))


def test_crosshairs_sit_behind_each_other_and_where_labelled(sheets):
    for (paper, flip), data in sheets.items():
        fronts = _crosshair_centres(data, 0)
        backs = [seen_from_front((x, y, x, y), paper, flip)[:2] for x, y in _crosshair_centres(data, 1)]
        assert len(fronts) == 4
        for x, y in fronts:
            assert min(math.hypot(x - bx, y - by) for bx, by in backs) < 0.01
        labels = {t for t, _, _ in words(data, 0)}
        for x, y in fronts:   # "75, 42 mm" under each crosshair
            assert f"{round(x, 1):g}," in labels and f"{round(y, 1):g}" in labels


def _crosshair_centres(data: bytes, page: int) -> list[tuple[float, float]]:
    """Centres of crossing pairs of 12 mm strokes."""
    lines = straight_lines(data, page)
    arms = [s for s in lines if abs(math.hypot(s[2] - s[0], s[3] - s[1]) - 12.0) < 0.01]
    hs = [s for s in arms if abs(s[1] - s[3]) < 1e-6]
    vs = [s for s in arms if abs(s[0] - s[2]) < 1e-6]
    return [((h[0] + h[2]) / 2, h[1]) for h in hs for v in vs
            if abs((h[0] + h[2]) / 2 - v[0]) < 0.01 and abs((v[1] + v[3]) / 2 - h[1]) < 0.01]


def test_cli_writes_the_sheet(tmp_path):
    from click.testing import CliRunner

    from pnp.cli import main

    out = tmp_path / "cal.pdf"
    result = CliRunner().invoke(main, ["--project", str(ROOT), "calibrate", "--paper", "letter", "--flip", "short",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert str(out) in result.output and "short edge" in result.output
    data = out.read_bytes()
    assert read_sheet(data, "letter", "short", (1.0, 1.0)) == {"X1": -1, "X2": -1, "Y1": -1, "Y2": -1}


def test_measure_store_and_check_a_printer(tmp_path, monkeypatch):
    """The whole loop: a printer 0.75 mm left and 0.5 mm high, 0.5% large on the
    back; read the sheet, store what it says, print the checking sheet with
    the profile on the same printer: every scale reads 0."""
    from click.testing import CliRunner

    from pnp.cli import main

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    error, s = (-0.75, 0.5), 1.005
    plain = tmp_path / "cal.pdf"
    runner = CliRunner()
    assert runner.invoke(main, ["--project", str(ROOT), "calibrate", "--out", str(plain)]).exit_code == 0
    r = read_sheet(plain.read_bytes(), "a4", "long", error, s)
    dx, dy = (r["X1"] + r["X2"]) / 2, (r["Y1"] + r["Y2"]) / 2
    scale = 1 + (r["X2"] - r["X1"] + r["Y2"] - r["Y1"]) / 200
    added = runner.invoke(main, ["printer", "add", "office", "--dx", str(dx), "--dy", str(dy),
                                 "--scale", f"{scale:.4f}", "--flip", "long"])
    assert added.exit_code == 0, added.output
    check = tmp_path / "check.pdf"
    result = runner.invoke(main, ["--project", str(ROOT), "calibrate", "--printer", "office", "--out", str(check)])
    assert result.exit_code == 0, result.output
    assert read_sheet(check.read_bytes(), "a4", "long", error, s) == {"X1": 0, "X2": 0, "Y1": 0, "Y2": 0}
