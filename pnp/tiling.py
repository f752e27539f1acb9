"""Where a board drawn at true size goes on paper: one sheet, or tiles that
overlap by at least 10 mm (pure geometry, mm, page origin bottom-left)."""
from __future__ import annotations

import math
from dataclasses import dataclass

from pnp.layout import PRINTER_MARGIN
from pnp.model import Size

MIN_OVERLAP = 10.0
LABEL_STRIP = 9.0   # bottom strip kept for the tile label and the scale bar

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Tile:
    row: int            # 1-based, row 1 is the top of the board
    col: int
    rows: int
    cols: int
    window: Box         # the part of the board on this sheet, board mm (origin bottom-left)
    origin: tuple[float, float]  # where board point (0, 0) lands on the page, page mm

    @property
    def label(self) -> str:
        return f"row {self.row}, column {self.col} of {self.rows} x {self.cols}"

    def page_box(self) -> Box:
        x0, y0, x1, y1 = self.window
        ox, oy = self.origin
        return (ox + x0, oy + y0, ox + x1, oy + y1)


@dataclass(frozen=True)
class TilePlan:
    paper: Size
    board: Size
    tiles: tuple[Tile, ...]
    overlap_x: float
    overlap_y: float


def _spans(length: float, window: float) -> tuple[list[tuple[float, float]], float]:
    if length <= window + 1e-9:
        return [(0.0, length)], 0.0
    n = math.ceil((length - MIN_OVERLAP) / (window - MIN_OVERLAP) - 1e-9)
    overlap = (n * window - length) / (n - 1)
    step = window - overlap
    return [(i * step, i * step + window) for i in range(n)], overlap


def plan_tiles(board: Size, paper: Size) -> TilePlan:
    """Fewest sheets, trying the paper both ways round; a board that fits
    goes on one sheet, centred in the printable area."""
    best = None
    for p in (paper, paper.rotated()):
        win_w = p.width - 2 * PRINTER_MARGIN
        win_h = p.height - 2 * PRINTER_MARGIN - LABEL_STRIP
        xs, ox = _spans(board.width, win_w)
        ys, oy = _spans(board.height, win_h)
        tiles = []
        for r, (y0, y1) in enumerate(reversed(ys)):  # row 1 is the top of the board
            for c, (x0, x1) in enumerate(xs):
                w, h = x1 - x0, y1 - y0
                page_x = PRINTER_MARGIN + (win_w - w) / 2
                page_y = PRINTER_MARGIN + LABEL_STRIP + (win_h - h) / 2
                tiles.append(Tile(r + 1, c + 1, len(ys), len(xs), (x0, y0, x1, y1), (page_x - x0, page_y - y0)))
        plan = TilePlan(p, board, tuple(tiles), ox, oy)
        if best is None or len(plan.tiles) < len(best.tiles):
            best = plan
    return best


def registration_points(plan: TilePlan) -> list[tuple[float, float]]:
    """Board points in the middle of every overlap, where tiles are matched up."""
    points = []
    xs = sorted({t.window[0] for t in plan.tiles})
    ys = sorted({t.window[1] for t in plan.tiles})
    x_ends = sorted({t.window[2] for t in plan.tiles})
    y_ends = sorted({t.window[3] for t in plan.tiles})
    mid_x = [(a + b) / 2 for a, b in zip(xs[1:], x_ends[:-1])]
    mid_y = [(a + b) / 2 for a, b in zip(ys[1:], y_ends[:-1])]
    for x in mid_x:
        for t in plan.tiles:
            if t.window[0] < x < t.window[2]:
                y0, y1 = t.window[1], t.window[3]
                points += [(x, y0 + (y1 - y0) * f) for f in (0.2, 0.8)]
    for y in mid_y:
        for t in plan.tiles:
            if t.window[1] < y < t.window[3]:
                x0, x1 = t.window[0], t.window[2]
                points += [(x0 + (x1 - x0) * f, y) for f in (0.2, 0.8)]
    return sorted(set((round(x, 3), round(y, 3)) for x, y in points))
