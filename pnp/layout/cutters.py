"""Print-and-cut: sheets for a home cutting machine (pure geometry, mm, page
origin bottom-left as in the PDF).

A cutting machine finds a printed sheet by its registration marks, then
cuts each card along its own path (rounded corners), so cards do not share
cut lines: they sit in a grid with a gap between them (3 mm where that holds
as many cards, else less, down to touching), each with a bleed that fills
half the gap and 1 mm on the sheet's outer edges, inside the area the
machine can cut, 1 mm clear of the marks' boxes. Where the marks are and how big is what each machine's software
expects (see docs/printing.md, "Print and cut", for the sources):

- Silhouette (Silhouette Studio, "Type 1" marks of the Cameo, Portrait and
  Curio): a filled 5 mm square at the top left and L-shaped corner marks at
  the top right and bottom left (3 marks), or four inward L marks (4 marks,
  the four-point registration of the Cameo 5 Alpha); lines 0.3 mm, the mark
  corners 10 mm in from the paper's edges (Studio's smallest inset). Studio
  asks for the arm length: it is at most 20 mm and shortened, down to 5 mm,
  so that no card comes within 2 mm of a mark's box; the build says which
  length to type in.
- Cricut (Design Space, Print Then Cut): Design Space prints its own marks
  around an uploaded image, and takes at most 6.75 x 9.25 in (171.45 x
  234.95 mm) on Letter or A4 (docs/printing.md says how sure that is). Cards are laid inside that area, centred, and
  no marks are drawn (they would be printed twice).
- Brother ScanNCut: four inward L marks 10 mm in from the edges (lines
  0.5 mm, arms 10 mm, shortened to 5 mm where the cards need the room), which the machine's scan shows on its screen so the
  cut data can be placed on them; Brother publishes no mark geometry for
  files made elsewhere, so these are pnp's own (see the docs).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

from pnp.errors import PnpError
from pnp.layout.sheets import DeckLayout, Placement, Sheet, Slot, mirror
from pnp.model import Flip, Layout, Size

MM_PER_INCH = 25.4
GAPS = (3.0, 2.0, 1.0, 0.0)  # between two cards' trims, widest first: each card's bleed fills half of it
GAP = GAPS[0]
OUTER_BLEED = 1.0     # beyond the trim on the sheet's outer edges (the blade may stray outwards too)
CORNER_RADIUS = 3.0   # the cut path's corners (mm); poker cards are cut with about 1/8 in
MARK_CLEARANCE = 1.0  # nothing printed within this of a mark's box

Box = tuple[float, float, float, float]


class Cutter(str, Enum):
    SILHOUETTE = "silhouette"
    CRICUT = "cricut"
    SCANNCUT = "scanncut"


@dataclass(frozen=True)
class CutterSpec:
    cutter: Cutter
    name: str
    software: str
    marks: int               # 3 or 4 marks drawn; 0: the software prints its own
    inset: float = 10.0      # mm from each paper edge to a mark's outer corner
    thickness: float = 0.3   # a mark's line width
    arm: float = 20.0        # the longest arm of an L mark
    min_arm: float = 5.0     # the shortest the software accepts
    square: float = 5.0      # the filled square of a 3-mark sheet
    area: Size | None = None  # the largest area the software prints and cuts (Cricut), centred on the page


CUTTERS: dict[Cutter, CutterSpec] = {
    Cutter.SILHOUETTE: CutterSpec(Cutter.SILHOUETTE, "Silhouette", "Silhouette Studio", 3),
    Cutter.CRICUT: CutterSpec(Cutter.CRICUT, "Cricut", "Cricut Design Space", 0,
                              area=Size(6.75 * MM_PER_INCH, 9.25 * MM_PER_INCH, "print-then-cut")),
    Cutter.SCANNCUT: CutterSpec(Cutter.SCANNCUT, "Brother ScanNCut", "CanvasWorkspace", 4,
                                thickness=0.5, arm=10.0),
}


def cutter_spec(cutter: Cutter, marks: int | None = None) -> CutterSpec:
    """The machine's spec; `marks` (3 or 4) chooses the Silhouette's layout."""
    spec = CUTTERS[cutter]
    if marks is None or marks == spec.marks:
        return spec
    if cutter is not Cutter.SILHOUETTE or marks not in (3, 4):
        raise PnpError(f"--marks {marks}: {spec.name} sheets have "
                       + (f"{spec.marks} marks" if spec.marks else "no marks of ours (its software prints them)")
                       + "; only Silhouette sheets take --marks 3 or 4")
    return CutterSpec(spec.cutter, spec.name, spec.software, marks)


@dataclass(frozen=True)
class Mark:
    """One registration mark: its outer corner and the filled rectangles it is made of."""

    corner: str                   # "top-left", "top-right", "bottom-left", "bottom-right"
    kind: str                     # "square" or "L"
    x: float                      # the mark's outer corner (page mm)
    y: float
    rects: tuple[Box, ...]


@dataclass(frozen=True)
class CutterLayout:
    spec: CutterSpec
    deck: DeckLayout
    marks: tuple[Mark, ...]       # on every fronts page (none on backs)
    arm: float                    # the L marks' arm length drawn (what to type into the software)
    area: Box                     # where cards may go (page mm)
    radius: float = CORNER_RADIUS
    gap: float = GAP              # between two cards' trims

    def fronts_on(self, page: int) -> list[Placement]:
        return [p for p in self.deck.fronts if p.page == page]


def _l_mark(corner: str, x: float, y: float, arm: float, t: float) -> Mark:
    """An L whose outer corner is (x, y), its arms running into the page."""
    sx = 1 if "left" in corner else -1
    sy = 1 if "bottom" in corner else -1
    horizontal = (min(x, x + sx * arm), min(y, y + sy * t), max(x, x + sx * arm), max(y, y + sy * t))
    vertical = (min(x, x + sx * t), min(y, y + sy * arm), max(x, x + sx * t), max(y, y + sy * arm))
    return Mark(corner, "L", x, y, (horizontal, vertical))


def registration_marks(spec: CutterSpec, paper: Size, arm: float) -> tuple[Mark, ...]:
    """The marks of a fronts page, at the maker's inset from each edge."""
    if spec.marks == 0:
        return ()
    i, w, h = spec.inset, paper.width, paper.height
    corners = {"top-left": (i, h - i), "top-right": (w - i, h - i),
               "bottom-left": (i, i), "bottom-right": (w - i, i)}
    wanted = ["top-right", "bottom-left"] + (["top-left", "bottom-right"] if spec.marks == 4 else [])
    marks = []
    if spec.marks == 3:
        x, y = corners["top-left"]
        marks.append(Mark("top-left", "square", x, y, ((x, y - spec.square, x + spec.square, y),)))
    marks += [_l_mark(c, *corners[c], arm, spec.thickness) for c in wanted]
    return tuple(sorted(marks, key=lambda m: m.corner))


def _mark_box(mark: Mark, size: float) -> Box:
    """The square a mark's software keeps clear, `size` on a side from its outer corner."""
    sx = 1 if "left" in mark.corner else -1
    sy = 1 if "bottom" in mark.corner else -1
    return (min(mark.x, mark.x + sx * size), min(mark.y, mark.y + sy * size),
            max(mark.x, mark.x + sx * size), max(mark.y, mark.y + sy * size))


def _overlap(a: Box, b: Box) -> bool:
    """Whether two boxes share more than an edge (to a micrometre)."""
    e = 1e-6
    return a[0] < b[2] - e and b[0] < a[2] - e and a[1] < b[3] - e and b[1] < a[3] - e


def card_area(spec: CutterSpec, paper: Size) -> Box:
    """Where cards (with their bleed) may lie: inside the marks, or the software's print area."""
    if spec.area is not None:  # turned with the page
        a = spec.area if (spec.area.height >= spec.area.width) == (paper.height >= paper.width) else spec.area.rotated()
        if a.width > paper.width or a.height > paper.height:
            raise PnpError(f"{spec.name}'s {a.width:g} x {a.height:g} mm print area is larger than {paper.name}")
        x0, y0 = (paper.width - a.width) / 2, (paper.height - a.height) / 2
        return (x0, y0, x0 + a.width, y0 + a.height)
    edge = spec.inset + spec.thickness + MARK_CLEARANCE
    return (edge, edge, paper.width - edge, paper.height - edge)


@dataclass(frozen=True)
class _Grid:
    paper: Size
    cols: int
    rows: int
    x0: float   # the first card's trim
    y0: float
    card: Size
    gap: float

    def trim(self, row: int, col: int) -> Box:
        """Row 0 is the top row."""
        x = self.x0 + col * (self.card.width + self.gap)
        y = self.y0 + (self.rows - 1 - row) * (self.card.height + self.gap)
        return (x, y, x + self.card.width, y + self.card.height)

    def clip(self, row: int, col: int) -> Box:
        """A card's art: half the gap on the sides facing other cards, OUTER_BLEED on the sheet's outer edges."""
        x0, y0, x1, y1 = self.trim(row, col)
        inner, outer = self.gap / 2, OUTER_BLEED
        return (x0 - (outer if col == 0 else inner), y0 - (outer if row == self.rows - 1 else inner),
                x1 + (outer if col == self.cols - 1 else inner), y1 + (outer if row == 0 else inner))

    def extent(self) -> Box:
        """The cards' art (trim and bleed) together."""
        return (self.x0 - OUTER_BLEED, self.y0 - OUTER_BLEED,
                self.x0 + self.cols * (self.card.width + self.gap) - self.gap + OUTER_BLEED,
                self.y0 + self.rows * (self.card.height + self.gap) - self.gap + OUTER_BLEED)


def _fit(length: float, card: float, gap: float) -> int:
    """How many cards `gap` apart fit in `length`, with the outer bleed at both ends."""
    return max(0, math.floor((length - 2 * OUTER_BLEED + gap + 1e-9) / (card + gap)))


def _best_arm(spec: CutterSpec, paper: Size, grid: _Grid) -> float | None:
    """The longest arm (up to the maker's) whose marks keep clear of every card; None if even the shortest fails."""
    if spec.marks == 0:
        return 0.0
    art = grid.extent()
    arm = spec.arm
    while arm >= spec.min_arm - 1e-9:
        boxes = [_mark_box(m, max(arm, spec.square) + MARK_CLEARANCE) for m in registration_marks(spec, paper, arm)]
        if not any(_overlap(art, box) for box in boxes):
            return round(arm, 1)
        arm = round(arm - 0.5, 1)
    return None


def _grid(spec: CutterSpec, paper: Size, card: Size) -> tuple[_Grid, float] | None:
    """The most cards that fit in the area, centred, with marks they keep
    clear of: 3 mm apart if that holds as many, else closer, down to touching
    (as silhouette-card-maker lays them); then the longest marks."""
    x0, y0, x1, y1 = card_area(spec, paper)
    best = None
    for gap in GAPS:
        cols, rows = _fit(x1 - x0, card.width, gap), _fit(y1 - y0, card.height, gap)
        for c, r in sorted(((c, r) for c in range(1, cols + 1) for r in range(1, rows + 1)), key=lambda cr: -cr[0] * cr[1]):
            if best is not None and c * r <= best[0].cols * best[0].rows:
                break
            gw, gh = c * (card.width + gap) - gap, r * (card.height + gap) - gap
            grid = _Grid(paper, c, r, x0 + (x1 - x0 - gw) / 2, y0 + (y1 - y0 - gh) / 2, card, gap)
            arm = _best_arm(spec, paper, grid)
            if arm is not None:
                best = (grid, arm)
                break
    return best


def plan_cutter_deck(copies: int, card: Size, paper: Size, spec: CutterSpec, flip: Flip,
                     backs: bool = True) -> CutterLayout:
    """Every copy placed on fronts pages (with the machine's marks) and, in
    duplex, back pages (the mirror, without marks); portrait or landscape,
    whichever holds more cards (portrait on a tie)."""
    portrait = paper if paper.height >= paper.width else paper.rotated()
    found = [(p, g) for p in (portrait, portrait.rotated()) if (g := _grid(spec, p, card)) is not None]
    if not found:
        raise PnpError(f"a {card.width:g} x {card.height:g} mm card does not fit on {paper.name} paper "
                       f"inside {spec.name}'s marks")
    page, (grid, arm) = max(found, key=lambda pg: pg[1][0].cols * pg[1][0].rows)
    per_page = grid.cols * grid.rows
    sheets, fronts, back_slots = [], [], []
    step = 2 if backs else 1
    for s in range(max(1, math.ceil(copies / per_page))):
        front_page, back_page = step * s + 1, step * s + 2
        art = grid.extent()
        sheets.append(Sheet(front_page, "fronts" if backs else "sheet", (), (), art))
        if backs:
            sheets.append(Sheet(back_page, "backs", (), (), mirror(art, page, flip)))
        for i in range(per_page):
            copy = s * per_page + i
            if copy >= copies:
                break
            row, col = i // grid.cols, i % grid.cols
            slot = Slot(grid.trim(row, col), grid.clip(row, col))
            fronts.append(Placement(copy, front_page, slot))
            if backs:
                back_slots.append(Placement(copy, back_page, Slot(mirror(slot.trim, page, flip),
                                                                   mirror(slot.clip, page, flip))))
    deck = DeckLayout(page, Layout.DUPLEX, flip, tuple(sheets), tuple(fronts), tuple(back_slots), per_page)
    return CutterLayout(spec, deck, registration_marks(spec, page, arm), arm, card_area(spec, page), gap=grid.gap)


def rounded_rect(box: Box, radius: float) -> list[tuple[str, tuple[float, ...]]]:
    """A closed path round `box` with corners of `radius`, as (operation, numbers):
    "M" x y, "L" x y, "A" r x y (a quarter circle to x y), "Z"."""
    x0, y0, x1, y1 = box
    r = max(0.0, min(radius, (x1 - x0) / 2, (y1 - y0) / 2))
    return [("M", (x0 + r, y0)), ("L", (x1 - r, y0)), ("A", (r, x1, y0 + r)), ("L", (x1, y1 - r)),
            ("A", (r, x1 - r, y1)), ("L", (x0 + r, y1)), ("A", (r, x0, y1 - r)), ("L", (x0, y0 + r)),
            ("A", (r, x0 + r, y0)), ("Z", ())]


def software_settings(layout: CutterLayout) -> str:
    """What to set in the machine's software so that it looks for the marks where they are printed."""
    spec = layout.spec
    if spec.marks == 0:
        a = spec.area
        return (f"{spec.software}: Print Then Cut, the sheet image at {a.width:.2f} x {a.height:.2f} mm "
                f"({a.width / MM_PER_INCH:g} x {a.height / MM_PER_INCH:g} in); it prints its own marks")
    if spec.cutter is Cutter.SILHOUETTE:
        style = "Type 1, 3-point" if spec.marks == 3 else "four-point (four L marks, as the Cameo 5 Alpha reads them)"
        return (f"{spec.software}: Registration Marks on, {style}, length {layout.arm:g} mm, "
                f"thickness {spec.thickness:g} mm, inset {spec.inset:g} mm")
    return (f"{spec.software}: {spec.marks} corner marks {spec.inset:g} mm from each edge, arms {layout.arm:g} mm, "
            f"lines {spec.thickness:g} mm")
