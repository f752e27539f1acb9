"""Sheet furniture as geometry (mm): cut marks, the 50 mm scale bar, the
print-at-100% note. Everything lies outside every card's art box."""
from __future__ import annotations

from dataclasses import dataclass

from pnp.layout import MARK_GAP, PRINTER_MARGIN, Box, Sheet
from pnp.model import Size

SCALE_BAR = 50.0
BAR_ROOM = 52.0        # the bar; its "50 mm, print at 100%" label sits above it
BAND = 3.8             # depth of the band the bar and notes need
EDGE = 1.0             # marks stop this far from the paper's edge
KEEP_CLEAR = 2.0       # labels keep this far from any cut mark

Segment = tuple[float, float, float, float]


@dataclass(frozen=True)
class Label:
    """Something written along a margin: at (x, y) (its start, on the band's
    inner edge), running in direction `angle` (0 = rightwards, 90 = upwards)."""

    kind: str        # "bar" or "note"
    x: float
    y: float
    angle: int
    length: float


def cut_marks(sheet: Sheet, paper: Size) -> list[Segment]:
    """Short lines continuing each cut line into the margins, never into art."""
    ax0, ay0, ax1, ay1 = sheet.art_box
    out: list[Segment] = []
    for x in sheet.cut_xs:
        out.append((x, ay1 + MARK_GAP, x, paper.height - EDGE))
        out.append((x, EDGE, x, ay0 - MARK_GAP))
    for y in sheet.cut_ys:
        out.append((EDGE, y, ax0 - MARK_GAP, y))
        out.append((ax1 + MARK_GAP, y, paper.width - EDGE, y))
    return [s for s in out if abs(s[2] - s[0]) + abs(s[3] - s[1]) > 0.5]


def _free(lo: float, hi: float, cuts: tuple[float, ...]) -> list[tuple[float, float]]:
    spans, start = [], lo
    for c in sorted(cuts):
        if c - KEEP_CLEAR > start:
            spans.append((start, min(hi, c - KEEP_CLEAR)))
        start = max(start, c + KEEP_CLEAR)
    if hi > start:
        spans.append((start, hi))
    return [s for s in spans if s[1] > s[0]]


def place_labels(sheet: Sheet, paper: Size, items: list[tuple[str, float]]) -> list[Label]:
    """Find margin room for each (kind, length) item, trying the bottom, left,
    top and right margins in that order, between the cut marks."""
    ax0, ay0, ax1, ay1 = sheet.art_box
    lo_x, hi_x = PRINTER_MARGIN, paper.width - PRINTER_MARGIN
    lo_y, hi_y = PRINTER_MARGIN, paper.height - PRINTER_MARGIN
    strips = [  # (band depth, start point of a label at position a, free spans, angle)
        (ay0 - MARK_GAP - PRINTER_MARGIN, lambda a: (a, PRINTER_MARGIN), _free(lo_x, hi_x, sheet.cut_xs), 0),
        (ax0 - MARK_GAP - PRINTER_MARGIN, lambda a: (PRINTER_MARGIN + BAND, a), _free(lo_y, hi_y, sheet.cut_ys), 90),
        (paper.height - ay1 - MARK_GAP - PRINTER_MARGIN, lambda a: (a, paper.height - PRINTER_MARGIN - BAND), _free(lo_x, hi_x, sheet.cut_xs), 0),
        (paper.width - ax1 - MARK_GAP - PRINTER_MARGIN, lambda a: (paper.width - PRINTER_MARGIN, a), _free(lo_y, hi_y, sheet.cut_ys), 90),
    ]
    free = [[depth, at, sorted(spans), angle] for depth, at, spans, angle in strips if depth >= BAND]
    labels = []
    for kind, need in items:
        placed = False
        for strip in free:
            _, at, spans, angle = strip
            for i, (a, b) in enumerate(spans):
                if b - a >= need:
                    x, y = at(a)
                    labels.append(Label(kind, x, y, angle, need))
                    spans[i] = (a + need + KEEP_CLEAR, b)
                    placed = True
                    break
            if placed:
                break
    if not any(l.kind == "bar" for l in labels):  # no room anywhere: the bottom margin, centred
        labels.append(Label("bar", max(0.5, (paper.width - BAR_ROOM) / 2), max(0.5, ay0 - MARK_GAP - BAND), 0, BAR_ROOM))
    return labels
