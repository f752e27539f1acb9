"""Where a board drawn at true size goes on paper: one sheet, or tiles that
overlap by at least 10 mm (pure geometry, mm, page origin bottom-left)."""
from __future__ import annotations

import math
from dataclasses import dataclass

from pnp.layout.sheets import PRINTER_MARGIN
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


def _cut(ends: list[float], starts: list[float], index: int) -> float | None:
    """The cut line between span index-1 and span index: the middle of their overlap."""
    if index == 0:
        return None
    return (starts[index] + ends[index - 1]) / 2


def _spans_of(plan: TilePlan) -> tuple[list[float], list[float], list[float], list[float]]:
    xs = sorted({t.window[0] for t in plan.tiles})
    x_ends = sorted({t.window[2] for t in plan.tiles})
    ys = sorted({t.window[1] for t in plan.tiles}, reverse=True)     # row 1 (the top) first
    y_ends = sorted({t.window[3] for t in plan.tiles}, reverse=True)
    return xs, x_ends, ys, y_ends


def cut_lines(plan: TilePlan, tile: Tile) -> tuple[float | None, float | None]:
    """(x, y) in board mm of the cut lines on this tile's left and top edges;
    None where the tile is in the first column or row (its edge is the board's).

    Joining: every sheet but the first of its row is cut along its left line
    and every sheet below the first row along its top line; the cut edge is
    laid on the neighbour's guide line. Each cut sits in the middle of an
    overlap, so the sheet underneath still shows the board right up to the
    cut: the joined board has no white strip and no seam to trim."""
    xs, x_ends, ys, y_ends = _spans_of(plan)
    left = _cut(x_ends, xs, tile.col - 1)
    top = None
    if tile.row > 1:  # rows run top to bottom: the overlap of this row's top and the previous row's bottom
        top = (y_ends[tile.row - 1] + ys[tile.row - 2]) / 2
    return left, top


def guide_lines(plan: TilePlan, tile: Tile) -> tuple[float | None, float | None]:
    """(x, y) board mm where the next sheet's cut edge is laid, to this tile's
    right and below it; None at the board's own edge."""
    right = below = None
    for other in plan.tiles:
        if other.row == tile.row and other.col == tile.col + 1:
            right = cut_lines(plan, other)[0]
        if other.col == tile.col and other.row == tile.row + 1:
            below = cut_lines(plan, other)[1]
    return right, below

