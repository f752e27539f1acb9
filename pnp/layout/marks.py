"""Sheet furniture as geometry (mm): cut marks, the 50 mm scale bar, the
print-at-100% note. Everything lies outside every card's art box."""
from __future__ import annotations

from dataclasses import dataclass

from pnp.layout.sheets import BAND, BAR_ROOM, KEEP_CLEAR, MARK_GAP, MARK_LENGTH, PRINTER_MARGIN, Sheet
from pnp.model import Size

SCALE_BAR = 50.0
EDGE = 1.0             # marks stop this far from the paper's edge
FAR_MARGIN = 25.0      # beyond this much empty paper, marks stay short instead of running to the edge

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


def _deep(depth: float) -> bool:
    """A margin this deep keeps its cut marks short and has a clear band
    beyond them for the scale bar and notes."""
    return depth >= BAND + MARK_LENGTH + MARK_GAP


def margin_depths(sheet: Sheet, paper: Size) -> tuple[float, float, float, float]:
    """Printable room outside the art and its mark gap: bottom, left, top, right (mm)."""
    ax0, ay0, ax1, ay1 = sheet.art_box
    return (ay0 - MARK_GAP - PRINTER_MARGIN, ax0 - MARK_GAP - PRINTER_MARGIN,
            paper.height - ay1 - MARK_GAP - PRINTER_MARGIN, paper.width - ax1 - MARK_GAP - PRINTER_MARGIN)


def cut_marks(sheet: Sheet, paper: Size) -> list[Segment]:
    """Short lines continuing each cut line into the margins, never into art.
    They run to the paper's edge, except in a bottom margin deep enough to
    hold the scale bar below them (token and coin sheets: the bar and notes
    never cross a mark) and beside empty paper (a partly filled sheet):
    there they are MARK_LENGTH long."""
    ax0, ay0, ax1, ay1 = sheet.art_box
    depths = margin_depths(sheet, paper)
    # a side facing empty paper (a partly filled sheet) keeps short marks too
    bottom, left, top, right = (MARK_LENGTH if d > FAR_MARGIN or (i == 0 and _deep(d)) else None
                                for i, d in enumerate(depths))
    out: list[Segment] = []
    for x in sheet.cut_xs:
        out.append((x, ay1 + MARK_GAP, x, paper.height - EDGE if top is None else ay1 + MARK_GAP + top))
        out.append((x, EDGE if bottom is None else ay0 - MARK_GAP - bottom, x, ay0 - MARK_GAP))
    for y in sheet.cut_ys:
        out.append((EDGE if left is None else ax0 - MARK_GAP - left, y, ax0 - MARK_GAP, y))
        out.append((ax1 + MARK_GAP, y, paper.width - EDGE if right is None else ax1 + MARK_GAP + right, y))
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
    if _deep(strips[0][0]):  # the bottom band lies clear beyond short marks
        strips[0] = (strips[0][0], strips[0][1], [(lo_x, hi_x)], 0)
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
