"""Drawing boards and full-page sheets: true size, tiled when needed."""
from __future__ import annotations

import io

from reportlab.pdfbase.pdfmetrics import stringWidth

from pnp.faces.elements import Face
from pnp.layout.sheets import PRINTER_MARGIN
from pnp.layout.tiling import TilePlan, cut_lines, guide_lines
from pnp.model import Size
from pnp.render.canvas import NOTE_FONT_SIZE, RenderContext, draw_face, end_form, new_canvas, scale_bar
from pnp.units import mm, pt

CUT_DASH = (2.0, 1.2)   # mm: the dashed cut line on a sheet's left and top edges
GUIDE_OFFSET = 0.35     # mm: the guide line sits this far inside the part the next sheet covers
JOIN_HELP = ("To join: cut each sheet along its dashed cut lines (left and top edges), lay the cut edge "
             "on the thin guide line of the sheet to its left or above it, picture lined up, and tape from behind.")


def render_board(title: str, face: Face, board: Size, plan: TilePlan, ctx: RenderContext) -> bytes:
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, plan.paper, ctx, title, None)
    canvas.beginForm("board", 0, 0, pt(board.width), pt(board.height))
    draw_face(canvas, face, board, ctx)
    end_form(canvas)
    tiled = len(plan.tiles) > 1
    for tile in plan.tiles:
        x0, y0, x1, y1 = tile.page_box()
        ox, oy = tile.origin
        canvas.saveState()
        path = canvas.beginPath()
        path.rect(pt(x0), pt(y0), pt(x1 - x0), pt(y1 - y0))
        canvas.clipPath(path, stroke=0, fill=0)
        canvas.saveState()
        canvas.translate(pt(ox), pt(oy))
        canvas.doForm("board")
        canvas.restoreState()
        if tiled:
            _joins(canvas, plan, tile)
        canvas.restoreState()
        if tiled:
            canvas.setStrokeColorRGB(0.6, 0.6, 0.6)
            canvas.setLineWidth(pt(0.15))
            canvas.setDash([pt(1), pt(1)])
            canvas.rect(pt(x0), pt(y0), pt(x1 - x0), pt(y1 - y0), stroke=1, fill=0)
            canvas.setDash([])
            _strip(canvas, ctx, f"{title} · sheet {tile.label}", JOIN_HELP)
        else:
            _strip(canvas, ctx, title)
        canvas.setTrimBox((pt(x0), pt(y0), pt(x1), pt(y1)))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _joins(canvas, plan: TilePlan, tile) -> None:
    """Cut lines on the tile's left and top edges, guide lines where the next
    sheets' cut edges go. Both lie in overlaps that the joined board hides."""
    x0, y0, x1, y1 = tile.page_box()
    ox, oy = tile.origin
    left, top = cut_lines(plan, tile)
    right, below = guide_lines(plan, tile)
    canvas.saveState()
    canvas.setStrokeColorRGB(0.55, 0.55, 0.55)  # light: what stays of it after the cut is not seen
    canvas.setLineWidth(pt(0.2))
    canvas.setDash([pt(CUT_DASH[0]), pt(CUT_DASH[1])])
    if left is not None:
        canvas.line(pt(ox + left), pt(y0), pt(ox + left), pt(y1))
    if top is not None:
        canvas.line(pt(x0), pt(oy + top), pt(x1), pt(oy + top))
    canvas.setDash([])
    canvas.setStrokeColorRGB(0.35, 0.35, 0.35)
    canvas.setLineWidth(pt(0.15))
    if right is not None:
        canvas.line(pt(ox + right + GUIDE_OFFSET), pt(y0), pt(ox + right + GUIDE_OFFSET), pt(y1))
    if below is not None:
        canvas.line(pt(x0), pt(oy + below - GUIDE_OFFSET), pt(x1), pt(oy + below - GUIDE_OFFSET))
    canvas.restoreState()


def _strip(canvas, ctx: RenderContext, caption: str, help_text: str = "") -> None:
    """The bottom strip: the 50 mm scale bar, then what this sheet is and,
    for a tiled board, how to join the sheets (wrapped, never cut off)."""
    canvas.saveState()
    canvas.translate(pt(PRINTER_MARGIN), pt(PRINTER_MARGIN + 1))
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setStrokeColorRGB(0, 0, 0)
    scale_bar(canvas, ctx.font)
    room = mm(canvas._pagesize[0]) - 2 * PRINTER_MARGIN - 56
    lines = _wrap(caption, ctx.font, room) + _wrap(help_text, ctx.font, room)
    size = NOTE_FONT_SIZE if len(lines) <= 3 else NOTE_FONT_SIZE * 3 / len(lines)
    canvas.setFont(ctx.font, size)
    leading = size * 1.15 * 25.4 / 72
    for i, line in enumerate(lines):
        canvas.drawString(pt(56), pt(0.6 + leading * (len(lines) - 1 - i)), line)
    canvas.restoreState()


def _wrap(text: str, font: str, room: float) -> list[str]:
    """Words of `text` in lines no wider than `room` mm at the note size."""
    lines: list[str] = []
    for word in text.split():
        trial = f"{lines[-1]} {word}" if lines else word
        if lines and mm(stringWidth(trial, font, NOTE_FONT_SIZE)) <= room:
            lines[-1] = trial
        else:
            lines.append(word)
    return lines
