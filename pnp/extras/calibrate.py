"""The duplex calibration sheet: where it all goes (pure geometry, mm), then
drawing it (ReportLab, points only in `render_calibration`).

Page 1 (front): a title, four crosshairs at known positions, a 100 mm ruler
on each axis with millimetre ticks, the index lines of four offset scales,
and the instructions. Page 2 (back): the other half of the offset scales,
the back halves of the rulers (ticks on the other side of the same base
line) and crosshairs behind the front ones.

The offset scales are verniers. Pair k has a line on the front at
centre + 2.00 k mm and a line on the back that lands at centre + 2.25 k mm
when the printer is perfect; a printer that puts the back e mm off makes
the pair with 0.25 k = -e (seen from the front) coincide. Each pair carries
the correction to apply to the backs: the number `pnp printer add` wants.
Pairs sit in three staggered bands, so a back line can only ever meet the
front line of its own pair inside the +-3 mm range. Two scales per axis,
100 mm apart, give the back's scale error as the difference of their readings.
"""
from __future__ import annotations

import io
import math
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Frame, Paragraph

from pnp.errors import PnpError
from pnp.layout.printers import back_shift, get_profile
from pnp.layout.sheets import mirror
from pnp.model import PAPERS, Flip, Size
from pnp.project import TEMPLATES_DIR
from pnp.render.fonts import register_fonts
from pnp.units import pt
from pnp.write import write_atomic

STEP = 0.25            # mm per pair
PAIRS = 12             # pairs -12..12: -3..+3 mm
FRONT_PITCH = 2.0
BACK_PITCH = FRONT_PITCH + STEP
BANDS = 3
LINE_LEN = 6.0
LABEL_H = 2.2          # room for a value label across the scale
LABEL_W = 5.0          # room for a value label beside a horizontal line
BAND_GAP = 0.6
SPREAD = 50.0          # the two scales of an axis sit this far either side of the page centre
LINE_W = 0.12          # mm
VALUE_PT = 5.0
NAME_PT = 8.0
RULER = 100.0
MARGIN = 8.0


@dataclass(frozen=True)
class Seg:
    x0: float
    y0: float
    x1: float
    y1: float
    width: float = LINE_W


@dataclass(frozen=True)
class Cross:
    x: float
    y: float
    r: float = 2.5
    arm: float = 6.0


@dataclass(frozen=True)
class Label:
    x: float
    y: float                 # baseline
    text: str
    size: float = VALUE_PT
    align: str = "centre"    # centre, left or right
    bold: bool = False


@dataclass(frozen=True)
class Block:
    """Wrapped text in a box (x0, y0, x1, y1), set from the top."""
    box: tuple[float, float, float, float]
    paragraphs: tuple[str, ...]
    size: float = 7.5


@dataclass(frozen=True)
class Vernier:
    name: str                # X1, X2, Y1, Y2 (X2 / Y2: larger x / y on the back page)
    axis: str                # "x" or "y": which offset it reads
    centre: tuple[float, float]   # front coordinates
    values: tuple[float, ...]     # the reading of pair k, k = -PAIRS..PAIRS


@dataclass
class Page:
    segs: list[Seg] = field(default_factory=list)
    crosses: list[Cross] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)


@dataclass
class CalibrationSheet:
    paper: Size              # portrait
    flip: Flip
    front: Page
    back: Page               # in the back page's own coordinates
    verniers: list[Vernier]


def _portrait(paper: Size) -> Size:
    return paper if paper.height >= paper.width else paper.rotated()


def value_text(v: float) -> str:
    return "0" if abs(v) < 1e-9 else f"{v:+.2f}"


class _Back:
    """Collects back-page marks given in front coordinates, mirrored onto the back."""

    def __init__(self, paper: Size, flip: Flip, page: Page):
        self.paper, self.flip, self.page = paper, flip, page

    def pt(self, x: float, y: float) -> tuple[float, float]:
        x0, y0, _, _ = mirror((x, y, x, y), self.paper, self.flip)
        return x0, y0

    def seg(self, s: Seg) -> None:
        x0, y0 = self.pt(s.x0, s.y0)
        x1, y1 = self.pt(s.x1, s.y1)
        self.page.segs.append(Seg(x0, y0, x1, y1, s.width))

    def cross(self, c: Cross) -> None:
        x, y = self.pt(c.x, c.y)
        self.page.crosses.append(Cross(x, y, c.r, c.arm))

    def label(self, x: float, y_mid: float, text: str, size: float = VALUE_PT, bold: bool = False) -> None:
        """A label centred on (x, y_mid) as seen from the front; it reads normally from the back."""
        bx, by = self.pt(x, y_mid)
        self.page.labels.append(Label(bx, by - size * 0.35 * 25.4 / 72, text, size, "centre", bold))


def _signs(paper: Size, flip: Flip) -> tuple[int, int]:
    """+1 where the back's axis runs the same way as the front's, -1 where the flip reverses it."""
    x0, y0, _, _ = mirror((0.0, 0.0, 0.0, 0.0), paper, flip)
    x1, y1, _, _ = mirror((1.0, 1.0, 1.0, 1.0), paper, flip)
    return (1 if x1 > x0 else -1), (1 if y1 > y0 else -1)


def _label_mid(page: Page, x: float, y_mid: float, text: str, size: float = VALUE_PT, bold: bool = False,
               align: str = "centre") -> None:
    page.labels.append(Label(x, y_mid - size * 0.35 * 25.4 / 72, text, size, align, bold))


def _vernier(name: str, axis: str, cx: float, cy: float, sign: int, front: Page, back: _Back) -> Vernier:
    values = []
    for k in range(-PAIRS, PAIRS + 1):
        band = k % BANDS
        value = sign * STEP * k
        values.append(value)
        text = value_text(value)
        if axis == "x":   # vertical lines; bands stacked top to bottom
            pitch = LINE_LEN + 2 * LABEL_H + BAND_GAP
            top = cy + (BANDS * pitch - BAND_GAP) / 2 - band * pitch - LABEL_H
            fx, bx = cx + FRONT_PITCH * k, cx + BACK_PITCH * k
            front.segs.append(Seg(fx, top - LINE_LEN, fx, top))
            _label_mid(front, fx, top + LABEL_H / 2, text)
            back.seg(Seg(bx, top - LINE_LEN, bx, top))
            back.label(bx, top - LINE_LEN - LABEL_H / 2, text)
        else:             # horizontal lines; bands side by side, left to right
            pitch = LINE_LEN + 2 * LABEL_W + BAND_GAP
            left = cx - (BANDS * pitch - BAND_GAP) / 2 + band * pitch + LABEL_W
            fy, by = cy + FRONT_PITCH * k, cy + BACK_PITCH * k
            front.segs.append(Seg(left, fy, left + LINE_LEN, fy))
            _label_mid(front, left - LABEL_W / 2, fy, text)
            back.seg(Seg(left, by, left + LINE_LEN, by))
            back.label(left + LINE_LEN + LABEL_W / 2, by, text)
    return Vernier(name, axis, (cx, cy), tuple(values))


def _x_size() -> tuple[float, float]:
    """Width and height of an X scale (lines vertical, bands stacked)."""
    return 2 * PAIRS * BACK_PITCH + LABEL_W, BANDS * (LINE_LEN + 2 * LABEL_H + BAND_GAP) - BAND_GAP


def _y_size() -> tuple[float, float]:
    """Width and height of a Y scale (lines horizontal, bands side by side)."""
    return BANDS * (LINE_LEN + 2 * LABEL_W + BAND_GAP) - BAND_GAP, 2 * PAIRS * BACK_PITCH + LABEL_H


def _ruler(front: Page, back: _Back, start: tuple[float, float], axis: str, reversed_on_back: bool) -> None:
    """A 100 mm ruler: front ticks on one side of the base line, back ticks on
    the other, each side numbered from its own left (or bottom) end."""
    x, y = start
    for mm_ in range(int(RULER) + 1):
        length = 4.0 if mm_ % 10 == 0 else 2.6 if mm_ % 5 == 0 else 1.6
        for page_side, direction in (("front", 1), ("back", -1)):
            if axis == "x":
                seg = Seg(x + mm_, y, x + mm_, y + direction * length, 0.1)
            else:
                seg = Seg(x, y + mm_, x - direction * length, y + mm_, 0.1)
            if page_side == "front":
                front.segs.append(seg)
            else:
                back.seg(seg)
        if mm_ % 10 == 0:
            if axis == "x":
                _label_mid(front, x + mm_, y + 5.6, str(mm_), 5.5)
                back.label(x + mm_, y - 5.6, str(int(RULER) - mm_ if reversed_on_back else mm_), 5.5)
            else:
                _label_mid(front, x - 7.0, y + mm_, str(mm_), 5.5)
                back.label(x + 7.0, y + mm_, str(int(RULER) - mm_ if reversed_on_back else mm_), 5.5)
    if axis == "x":
        front.segs.append(Seg(x, y, x + RULER, y, 0.12))
        back.seg(Seg(x, y, x + RULER, y, 0.12))
    else:
        front.segs.append(Seg(x, y, x, y + RULER, 0.12))
        back.seg(Seg(x, y, x, y + RULER, 0.12))


def calibration_sheet(paper: Size, flip: Flip, printer_note: str = "") -> CalibrationSheet:
    paper = _portrait(paper)
    W, H = paper.width, paper.height
    cx, cy = W / 2, H / 2
    front, back_page = Page(), Page()
    back = _Back(paper, flip, back_page)
    sx, sy = _signs(paper, flip)
    xw, xh = _x_size()
    yw, yh = _y_size()
    verniers = []

    # X scales along the top, Y scales down the left, both symmetric about the centre
    x_mid = H - MARGIN - 4.0 - xh / 2
    for front_x in (cx - SPREAD, cx + SPREAD):
        back_x = back.pt(front_x, x_mid)[0]
        name = "X2" if back_x > back.pt(2 * cx - front_x, x_mid)[0] else "X1"
        verniers.append(_vernier(name, "x", front_x, x_mid, sx, front, back))
        _label_mid(front, front_x - xw / 2 - 1.0, x_mid + xh / 2 + 2.5, name, NAME_PT, True, "left")
        back.label(front_x + xw / 2 - 1.0, x_mid + xh / 2 + 2.5, name, NAME_PT, True)
    y_mid_x = MARGIN + yw / 2
    for front_y in (cy - SPREAD, cy + SPREAD):
        back_y = back.pt(y_mid_x, front_y)[1]
        name = "Y2" if back_y > back.pt(y_mid_x, 2 * cy - front_y)[1] else "Y1"
        verniers.append(_vernier(name, "y", y_mid_x, front_y, sy, front, back))
        _label_mid(front, y_mid_x + yw / 2 + 1.5, front_y + 4.0, name, NAME_PT, True, "left")
        back.label(y_mid_x + yw / 2 + 4.0, front_y - 4.0, name, NAME_PT, True)

    # rulers: bottom and right
    _ruler(front, back, (cx - RULER / 2, MARGIN + 14.0), "x", sx < 0)
    _ruler(front, back, (W - MARGIN - 12.0, cy - RULER / 2), "y", sy < 0)

    # crosshairs at whole-millimetre positions, on both sides
    left_x = math.floor(y_mid_x + yw / 2 + 14.0)
    right_x = math.floor(W - MARGIN - 30.0)
    low_y = math.floor(MARGIN + 34.0)
    high_y = math.floor(x_mid - xh / 2 - 10.0)
    for x, y in ((left_x, low_y), (right_x, low_y), (left_x, high_y), (right_x, high_y)):
        front.crosses.append(Cross(x, y))
        back.cross(Cross(x, y))
        _label_mid(front, x, y - 8.0, f"{x}, {y} mm", 5.0)
        bx, by = back.pt(x, y)
        back.label(x, y + 8.0, f"{bx:g}, {by:g} mm", 5.0)

    side = "long" if flip is Flip.LONG else "short"
    title = f"pnp duplex calibration · {paper.name.upper()} · flip on the {side} edge"
    text_box = (left_x + 4.0, low_y + 10.0, right_x - 4.0, high_y - 11.0)
    front.blocks.append(Block(text_box, (f"<b>{title}</b>", "FRONT · page 1 of 2") + front_instructions(flip, printer_note)))
    bx0, by0, _, _ = mirror(text_box, paper, flip)
    back_page.blocks.append(Block((bx0, by0, bx0 + text_box[2] - text_box[0], by0 + text_box[3] - text_box[1]),
                                  (f"<b>{title}</b>", "BACK · page 2 of 2") + back_instructions(printer_note)))
    return CalibrationSheet(paper, flip, front, back_page, verniers)


def front_instructions(flip: Flip, printer_note: str = "") -> tuple[str, ...]:
    side = "long" if flip is Flip.LONG else "short"
    steps = (
        "<b>How to measure your printer</b>",
        f"1. Print both pages on one sheet, double-sided, at 100% / actual size (turn off 'fit to page'), "
        f"flipping on the {side} edge, on the paper you print cards on.",
        "2. Scale: lay a good ruler along the two 100 mm rulers. If either is not 100 mm long, "
        "fix the print settings first and print again.",
        "3. Hold the sheet against a window or a lamp with this side towards you: the lines on the back "
        "show through. In each of the four scales X1, X2, Y1 and Y2, find the one place where a line on "
        "this side and a line from the back form a single straight line, and note the number beside it "
        "(millimetres, in 0.25 steps). If no pair lines up anywhere, the back is more than 3 mm out.",
        "4. dx = (X1 + X2) / 2 and dy = (Y1 + Y2) / 2.",
        "5. Scale error: if X2 differs from X1 or Y2 from Y1, the back comes out larger or smaller than the "
        "front; then scale = 1 + (X2 - X1 + Y2 - Y1) / 200. If they agree, leave the scale out.",
        f"6. Save the profile:  pnp printer add NAME --dx DX --dy DY [--scale S] --flip {side}",
        "7. Build with it:  pnp build --printer NAME. To check, print  pnp calibrate --printer NAME : "
        "every scale should then read 0.",
        "The crosshairs sit at the positions printed under them (mm from the bottom-left corner) on both "
        "sides; seen against the light they show the misalignment at a glance.",
    )
    return steps + ((printer_note,) if printer_note else ())


def back_instructions(printer_note: str = "") -> tuple[str, ...]:
    lines = (
        "<b>This is the back of the calibration sheet.</b>",
        "Read the scales from the other side, holding the sheet against the light: the numbers there give "
        "the correction for the backs. The numbers on this side are the same pairs, for checking.",
        "The rulers here share their base lines with the rulers on the front: if the ticks drift apart "
        "along a ruler, the two sides are printed at different scales.",
    )
    return lines + ((printer_note,) if printer_note else ())


# --------------------------------------------------------------------------- drawing

def render_calibration(sheet: CalibrationSheet, font: str, bold_font: str, back_shift=None) -> bytes:
    """The two-page PDF. `back_shift` (a pnp.layout.printers.BackShift) corrects page 2 as a build would."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(pt(sheet.paper.width), pt(sheet.paper.height)), invariant=1,
                    initialFontName=font, pageCompression=1)
    canvas.setTitle("pnp duplex calibration")
    canvas.setAuthor("pnp")
    canvas.setCreator("pnp print-and-play pipeline")
    canvas.setViewerPreference("PrintScaling", "None")
    canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge" if sheet.flip is Flip.LONG else "DuplexFlipShortEdge")
    style = ParagraphStyle("calibration", fontName=font, fontSize=7.5, leading=9.4, spaceAfter=3)
    for page, shift in ((sheet.front, None), (sheet.back, back_shift)):
        canvas.saveState()
        if shift is not None:
            a, b, c, d, e, f = shift.matrix()
            canvas.transform(a, b, c, d, pt(e), pt(f))
        canvas.setStrokeColorRGB(0, 0, 0)
        canvas.setFillColorRGB(0, 0, 0)
        canvas.setLineCap(0)
        for s in page.segs:
            canvas.setLineWidth(pt(s.width))
            canvas.line(pt(s.x0), pt(s.y0), pt(s.x1), pt(s.y1))
        canvas.setLineWidth(pt(LINE_W))
        for c in page.crosses:
            canvas.circle(pt(c.x), pt(c.y), pt(c.r), stroke=1, fill=0)
            canvas.line(pt(c.x - c.arm), pt(c.y), pt(c.x + c.arm), pt(c.y))
            canvas.line(pt(c.x), pt(c.y - c.arm), pt(c.x), pt(c.y + c.arm))
        for label in page.labels:
            canvas.setFont(bold_font if label.bold else font, label.size)
            draw = {"centre": canvas.drawCentredString, "left": canvas.drawString,
                    "right": canvas.drawRightString}[label.align]
            draw(pt(label.x), pt(label.y), label.text)
        for block in page.blocks:
            x0, y0, x1, y1 = block.box
            frame = Frame(pt(x0), pt(y0), pt(x1 - x0), pt(y1 - y0), leftPadding=0, rightPadding=0,
                          topPadding=0, bottomPadding=0, showBoundary=0)
            story = [Paragraph(p.replace("<b>", f'<font name="{bold_font}">').replace("</b>", "</font>"), style)
                     for p in block.paragraphs]
            frame.addFromList(story, canvas)
            if story:
                raise ValueError("the calibration instructions do not fit their box")
        canvas.restoreState()
        canvas.setTrimBox((0, 0, pt(sheet.paper.width), pt(sheet.paper.height)))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def calibration_pdf(project, paper: Size, flip: Flip, printer=None) -> bytes:
    """The calibration sheet for `paper` and `flip`, in the project's fonts;
    with a printer profile, its correction is applied to the back page."""
    names = register_fonts(project / TEMPLATES_DIR)
    font = "RobotoCondensed-Regular" if "RobotoCondensed-Regular" in names else names[0]
    bold = "RobotoCondensed-Bold" if "RobotoCondensed-Bold" in names else font
    note = ""
    if printer is not None:
        note = (f"This sheet's back is corrected for printer '{printer.name}' (dx {printer.dx:+.2f} mm, "
                f"dy {printer.dy:+.2f} mm, scale {printer.scale:g}): every scale should read 0.")
    sheet = calibration_sheet(paper, flip, note)
    shift = back_shift(printer, sheet.paper) if printer is not None else None
    return render_calibration(sheet, font, bold, shift)


def write_calibration(project, paper: str, flip: Flip, printer: str | None = None, out=None):
    """Write the calibration PDF (default: output/calibration-<paper>-<flip>.pdf); returns its path."""
    if paper not in PAPERS:
        raise PnpError(f"unknown paper {paper!r}; choose from {', '.join(sorted(PAPERS))}")
    profile = get_profile(printer) if printer else None
    if profile is not None and profile.flip is not None and profile.flip is not flip:
        raise PnpError(f"printer {profile.name!r} was calibrated flipping on the {profile.flip.value} edge; "
                       f"use --flip {profile.flip.value}")
    path = Path(out) if out else Path(project) / "output" / f"calibration-{paper}-{flip.value}.pdf"
    write_atomic(path, calibration_pdf(Path(project), PAPERS[paper], flip, profile))
    return path
