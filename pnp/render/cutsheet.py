"""Drawing a cutting machine's sheets (pnp.layout.cutters): the registration
marks on fronts pages, the scale bar and notes placed clear of them, and the
cutting file: an SVG of each fronts page's cut paths (rounded corners) that
the machine's software imports at true size."""
from __future__ import annotations

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnp.layout.cutters import Cutter, CutterLayout, rounded_rect, software_settings
from pnp.layout.marks import BAR_ROOM
from pnp.layout.sheets import PRINTER_MARGIN, Sheet
from pnp.render.canvas import NOTE_FONT_SIZE, RenderContext, scale_bar
from pnp.units import mm, pt

NOTE = "If the bar is not 50 mm long, turn off 'fit to page' and print again."


def cutter_furniture(layout: CutterLayout, ctx: RenderContext):
    """A furniture function for pnp.render.decks.render_deck: marks on fronts
    pages only, the bar and notes centred in the bottom and top margins,
    beyond the marks' reach."""
    paper = layout.deck.paper

    def draw(canvas: Canvas, sheet: Sheet, caption: str) -> None:
        canvas.saveState()
        canvas.setFillColorRGB(0, 0, 0)
        if sheet.kind != "backs":
            for mark in layout.marks:
                for x0, y0, x1, y1 in mark.rects:
                    canvas.rect(pt(x0), pt(y0), pt(x1 - x0), pt(y1 - y0), stroke=0, fill=1)
        settings = software_settings(layout) if sheet.kind != "backs" else ""
        lines = [t for t in (caption, settings) if t]
        bottom_text = NOTE
        note_w = mm(stringWidth(bottom_text, ctx.font, NOTE_FONT_SIZE))
        total = BAR_ROOM + 4 + note_w
        x = (paper.width - total) / 2
        y = PRINTER_MARGIN
        canvas.saveState()
        canvas.translate(pt(x), pt(y))
        scale_bar(canvas, ctx.font)
        canvas.restoreState()
        canvas.setFont(ctx.font, NOTE_FONT_SIZE)
        canvas.drawString(pt(x + BAR_ROOM + 4), pt(y + 0.8), bottom_text)
        top = paper.height - PRINTER_MARGIN - 1.0
        for i, text in enumerate(lines):
            width = mm(stringWidth(text, ctx.font, NOTE_FONT_SIZE))
            canvas.drawString(pt((paper.width - width) / 2), pt(top - 2.4 * i), text)
        canvas.restoreState()

    return draw


def _fmt(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".")


def _path_data(box, radius: float, height: float) -> str:
    """A rounded rectangle as SVG path data, in SVG's y-down millimetres."""
    parts = []
    for op, nums in rounded_rect(box, radius):
        if op in ("M", "L"):
            parts.append(f"{op}{_fmt(nums[0])},{_fmt(height - nums[1])}")
        elif op == "A":
            r, x, y = nums
            # page y up becomes SVG y down, which turns the sweep around: counter-clockwise on the page is 0 here
            parts.append(f"A{_fmt(r)},{_fmt(r)} 0 0 0 {_fmt(x)},{_fmt(height - y)}")
        else:
            parts.append("Z")
    return " ".join(parts)


def cut_svg(layout: CutterLayout, page: int, title: str) -> bytes:
    """The cutting file of one fronts page: the page at true size (mm), one
    closed path per card on it, the registration marks on a layer of their
    own (to line up with; not to cut). A Cricut file holds just the print
    area, as Design Space takes the cut paths at the size of their outline."""
    paper = layout.deck.paper
    spec = layout.spec
    placed = layout.fronts_on(page)
    if spec.cutter is Cutter.CRICUT:
        ax0, ay0, ax1, ay1 = layout.area
        width, height, dx, dy = ax1 - ax0, ay1 - ay0, ax0, ay0
    else:
        width, height, dx, dy = paper.width, paper.height, 0.0, 0.0
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(width)}mm" height="{_fmt(height)}mm" '
           f'viewBox="0 0 {_fmt(width)} {_fmt(height)}">',
           f"  <title>{_escape(title)} · cut paths, page {page}</title>",
           f"  <desc>{_escape(software_settings(layout))}; corner radius {_fmt(layout.radius)} mm</desc>",
           '  <g id="cut" fill="none" stroke="#ff0000" stroke-width="0.1">']
    for i, p in enumerate(placed, start=1):
        x0, y0, x1, y1 = p.slot.trim
        box = (x0 - dx, y0 - dy, x1 - dx, y1 - dy)
        out.append(f'    <path id="card-{i}" d="{_path_data(box, layout.radius, height)}"/>')
    out.append("  </g>")
    if layout.marks:
        out.append('  <g id="registration-marks" fill="#000000" stroke="none">')
        for mark in layout.marks:
            for x0, y0, x1, y1 in mark.rects:
                out.append(f'    <rect class="{mark.corner}" x="{_fmt(x0)}" y="{_fmt(height - y1)}" '
                           f'width="{_fmt(x1 - x0)}" height="{_fmt(y1 - y0)}"/>')
        out.append("  </g>")
    out.append("</svg>")
    return ("\n".join(out) + "\n").encode("utf-8")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
