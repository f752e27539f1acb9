"""Stage 3, layout: where every card copy goes on which sheet (pure geometry, in mm).

Page coordinates are millimetres from the page's bottom-left corner, as in
the PDF. Cards in a grid abut and share cut lines; art runs into a bleed of
up to 3 mm only on the edges that face the sheet's margin.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from pnp.errors import PnpError
from pnp.model import Flip, Layout, Size

PRINTER_MARGIN = 5.0   # nothing a person needs is printed closer to the paper's edge
MAX_BLEED = 3.0
MARK_ROOM = 3.5        # printable room kept for cut marks outside the bleed
MARK_GAP = 0.5         # gap between the bleed and a cut mark
GUTTER = 6.0           # gutterfold: space between a front and its back, fold in the middle
MARK_LENGTH = 3.5      # a cut mark's length where it does not run to the paper's edge
BAR_ROOM = 52.0        # the 50 mm scale bar; its "50 mm, print at 100%" label sits above it
BAND = 3.8             # depth of the margin band the bar and notes need
KEEP_CLEAR = 2.0       # labels keep this far from any cut mark
EPS = 1e-6

Box = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True)
class Slot:
    """One card position: its trim box and the box its art may fill (trim + bleed)."""

    trim: Box
    clip: Box
    rotate: int = 0  # 0 or 180 degrees


@dataclass(frozen=True)
class Placement:
    copy: int        # index into the deck's list of printed copies
    page: int        # 1-based page number
    slot: Slot


@dataclass(frozen=True)
class Sheet:
    page: int
    kind: str                       # "fronts", "backs" or "gutterfold"
    cut_xs: tuple[float, ...]       # vertical cut lines
    cut_ys: tuple[float, ...]       # horizontal cut lines
    art_box: Box                    # every card's art (trim + bleed) lies inside
    fold_y: float | None = None


@dataclass(frozen=True)
class DeckLayout:
    paper: Size                     # as oriented on the page
    layout: Layout
    flip: Flip
    sheets: tuple[Sheet, ...]
    fronts: tuple[Placement, ...]
    backs: tuple[Placement, ...]
    per_page: int

    @property
    def pages(self) -> int:
        return len(self.sheets)


MIN_USEFUL_BLEED = 1.0  # less than this, and the bleed runs on to the printable edge instead


def _bleed(space: float) -> float:
    """Bleed on an outer edge `space` mm from the paper's edge: up to 3 mm,
    keeping printable room for the cut marks beyond it; where that room is
    too small for a useful bleed (poker cards on Letter, top and bottom),
    the art runs on to the edge of the printable area and the marks sit in
    the printer's margin."""
    roomy = space - PRINTER_MARGIN - MARK_ROOM - MARK_GAP
    if roomy >= MIN_USEFUL_BLEED:
        return min(MAX_BLEED, roomy)
    return max(0.0, min(MAX_BLEED, space - PRINTER_MARGIN - MARK_GAP))


@dataclass(frozen=True)
class _Grid:
    paper: Size
    card: Size
    cols: int
    rows: int
    x0: float
    y0: float
    bleed_x: float
    bleed_y: float

    def slot(self, row: int, col: int, count: int | None = None) -> Slot:
        """Row 0 is the top row. With `count` cards on the sheet (filled row by
        row), a card whose neighbour slot stays empty bleeds into it too."""
        w, h = self.card.width, self.card.height
        x = self.x0 + col * w
        y = self.y0 + (self.rows - 1 - row) * h
        trim = (x, y, x + w, y + h)
        empty = (lambda r, c: r * self.cols + c >= count) if count is not None else (lambda r, c: False)
        right = self.bleed_x if col == self.cols - 1 else (MAX_BLEED if empty(row, col + 1) else 0)
        below = self.bleed_y if row == self.rows - 1 else (MAX_BLEED if empty(row + 1, col) else 0)
        clip = (
            x - (self.bleed_x if col == 0 else 0),
            y - below,
            x + w + right,
            y + h + (self.bleed_y if row == 0 else 0),
        )
        return Slot(trim, clip)

    def used(self, count: int) -> tuple[int, int]:
        """(rows, columns) that `count` cards fill, row by row from the top left."""
        count = min(count, self.cols * self.rows)
        return math.ceil(count / self.cols), min(self.cols, count)

    def used_cut_xs(self, count: int) -> tuple[float, ...]:
        return self.cut_xs()[: self.used(count)[1] + 1]

    def used_cut_ys(self, count: int) -> tuple[float, ...]:
        return self.cut_ys()[self.rows - self.used(count)[0]:]

    def used_art_box(self, count: int) -> Box:
        """The art of the cards on a sheet holding `count` of them: a partly
        filled sheet gets cut lines and marks only around its cards."""
        rows, cols = self.used(count)
        if (rows, cols) == (self.rows, self.cols):
            return self.art_box()
        w, h = self.card.width, self.card.height
        bottom = self.y0 + (self.rows - rows) * h
        return (self.x0 - self.bleed_x,
                bottom - (self.bleed_y if rows == self.rows else MAX_BLEED),
                self.x0 + cols * w + (self.bleed_x if cols == self.cols else MAX_BLEED),
                self.y0 + self.rows * h + self.bleed_y)

    def cut_xs(self) -> tuple[float, ...]:
        return tuple(self.x0 + i * self.card.width for i in range(self.cols + 1))

    def cut_ys(self) -> tuple[float, ...]:
        return tuple(self.y0 + i * self.card.height for i in range(self.rows + 1))

    def art_box(self) -> Box:
        return (self.x0 - self.bleed_x, self.y0 - self.bleed_y,
                self.x0 + self.cols * self.card.width + self.bleed_x,
                self.y0 + self.rows * self.card.height + self.bleed_y)


def _fit(length: float, card: float) -> int:
    return max(0, math.floor((length - 2 * PRINTER_MARGIN + EPS) / card))


def _grid(paper: Size, card: Size) -> _Grid:
    """As many cards as fit inside the margins, centred, leaving printable room
    for the scale bar (a tight grid of small tokens gives up a row for it)."""
    cols, rows = _fit(paper.width, card.width), _fit(paper.height, card.height)
    while True:
        x0 = (paper.width - cols * card.width) / 2
        y0 = (paper.height - rows * card.height) / 2
        grid = _Grid(paper, card, cols, rows, x0, y0, _bleed(x0), _bleed(y0))
        if rows <= 1 or _bar_fits(grid):
            return grid
        rows -= 1


def _bar_fits(grid: _Grid) -> bool:
    """Whether the sheet's margins hold the 50 mm bar without crossing a cut
    mark: below short marks in a deep bottom margin, or between the marks of
    a margin band where the cards are long enough."""
    below = grid.y0 - grid.bleed_y - MARK_GAP - PRINTER_MARGIN
    side = grid.x0 - grid.bleed_x - MARK_GAP - PRINTER_MARGIN
    between = BAR_ROOM + 2 * KEEP_CLEAR
    return (below >= BAND + MARK_LENGTH + MARK_GAP
            or (below >= BAND and grid.card.width >= between)
            or (side >= BAND and grid.card.height >= between))


def _orientations(paper: Size) -> list[Size]:
    portrait = paper if paper.height >= paper.width else paper.rotated()
    return [portrait, portrait.rotated()]


def mirror(box: Box, paper: Size, flip: Flip) -> Box:
    """Where a box on a sheet's front lands on its back after a duplex flip.
    Long-edge flip turns the sheet over its long edge, short-edge over its short."""
    x0, y0, x1, y1 = box
    portrait = paper.height >= paper.width
    mirror_x = (flip is Flip.LONG) == portrait
    if mirror_x:
        return (paper.width - x1, y0, paper.width - x0, y1)
    return (x0, paper.height - y1, x1, paper.height - y0)


def plan_deck(copies: int, card: Size, paper: Size, layout: Layout, flip: Flip, backs: bool = True) -> DeckLayout:
    """Without backs (tokens, counters) every page is a fronts page."""
    if layout is Layout.GUTTERFOLD and backs:
        return _plan_gutterfold(copies, card, paper, flip)
    return _plan_duplex(copies, card, paper, flip, backs)


def _plan_duplex(copies: int, card: Size, paper: Size, flip: Flip, backs_too: bool = True) -> DeckLayout:
    grids = [_grid(p, card) for p in _orientations(paper)]
    grid = max(grids, key=lambda g: g.cols * g.rows)  # portrait wins a tie
    per_page = grid.cols * grid.rows
    if per_page == 0:
        raise PnpError(f"a {card.width:g} x {card.height:g} mm card does not fit on {paper.name} paper inside the 5 mm margin")
    sheets, fronts, backs = [], [], []
    n_sheets = max(1, math.ceil(copies / per_page))
    step = 2 if backs_too else 1
    for s in range(n_sheets):
        front_page, back_page = step * s + 1, step * s + 2
        count = max(1, min(per_page, copies - s * per_page))
        cut_xs, cut_ys, art = grid.used_cut_xs(count), grid.used_cut_ys(count), grid.used_art_box(count)
        sheets.append(Sheet(front_page, "fronts" if backs_too else "sheet", cut_xs, cut_ys, art))
        if backs_too:
            xs = tuple(sorted(mirror((x, 0, x, 0), grid.paper, flip)[0] for x in cut_xs))
            ys = tuple(sorted(mirror((0, y, 0, y), grid.paper, flip)[1] for y in cut_ys))
            sheets.append(Sheet(back_page, "backs", xs, ys, mirror(art, grid.paper, flip)))
        for i in range(per_page):
            copy = s * per_page + i
            if copy >= copies:
                break
            slot = grid.slot(i // grid.cols, i % grid.cols, count)
            fronts.append(Placement(copy, front_page, slot))
            if backs_too:
                back = Slot(mirror(slot.trim, grid.paper, flip), mirror(slot.clip, grid.paper, flip))
                backs.append(Placement(copy, back_page, back))
    return DeckLayout(grid.paper, Layout.DUPLEX, flip, tuple(sheets), tuple(fronts), tuple(backs), per_page)


def _plan_gutterfold(copies: int, card: Size, paper: Size, flip: Flip) -> DeckLayout:
    best = None
    for p in _orientations(paper):
        cols = _fit(p.width, card.width)
        rows = max(0, math.floor((p.height - 2 * PRINTER_MARGIN - GUTTER + EPS) / 2 / card.height))
        if best is None or cols * rows > best[1] * best[2]:
            best = (p, cols, rows)
    p, cols, rows = best
    per_page = cols * rows
    if per_page == 0:
        raise PnpError(f"a {card.width:g} x {card.height:g} mm card does not fit twice on {paper.name} paper for gutterfold")
    w, h = card.width, card.height
    fold = p.height / 2
    x0 = (p.width - cols * w) / 2
    top = fold + GUTTER / 2 + rows * h
    bleed_x, bleed_y = _bleed(x0), _bleed(p.height - top)
    half_gutter = GUTTER / 2
    cut_xs = tuple(x0 + i * w for i in range(cols + 1))
    ys_front = [fold + half_gutter + i * h for i in range(rows + 1)]
    ys_back = [fold - half_gutter - i * h for i in range(rows + 1)]
    cut_ys = tuple(sorted(ys_front + ys_back))
    art = (x0 - bleed_x, fold - half_gutter - rows * h - bleed_y, x0 + cols * w + bleed_x, top + bleed_y)
    sheets, fronts, backs = [], [], []
    for s in range(max(1, math.ceil(copies / per_page))):
        page = s + 1
        sheets.append(Sheet(page, "gutterfold", cut_xs, cut_ys, art, fold))
        for i in range(per_page):
            copy = s * per_page + i
            if copy >= copies:
                break
            row, col = i // cols, i % cols  # row 0 is the row next to the fold
            x = x0 + col * w
            left = bleed_x if col == 0 else 0
            right = bleed_x if col == cols - 1 else 0
            outer = bleed_y if row == rows - 1 else 0
            fy = fold + half_gutter + row * h
            front = Slot((x, fy, x + w, fy + h), (x - left, fy - half_gutter if row == 0 else fy, x + w + right, fy + h + outer))
            by = fold - half_gutter - (row + 1) * h
            back = Slot((x, by, x + w, by + h), (x - left, by - outer, x + w + right, by + h + (half_gutter if row == 0 else 0)), 180)
            fronts.append(Placement(copy, page, front))
            backs.append(Placement(copy, page, back))
    return DeckLayout(p, Layout.GUTTERFOLD, flip, tuple(sheets), tuple(fronts), tuple(backs), per_page)
