"""Drawing boards and full-page sheets: true size, tiled when needed."""
from __future__ import annotations

import io

from reportlab.pdfbase.pdfmetrics import stringWidth

from pnp.elements import Face
from pnp.layout import PRINTER_MARGIN
from pnp.model import Size
from pnp.render import NOTE_FONT_SIZE, RenderContext, _scale_bar, draw_face, end_form, new_canvas
from pnp.tiling import TilePlan, registration_points
from pnp.units import mm, pt

REG_RADIUS = 2.5  # mm


def render_board(title: str, face: Face, board: Size, plan: TilePlan, ctx: RenderContext) -> bytes:
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, plan.paper, ctx, title, None)
    canvas.beginForm("board", 0, 0, pt(board.width), pt(board.height))
    draw_face(canvas, face, board, ctx)
    end_form(canvas)
    marks = registration_points(plan) if len(plan.tiles) > 1 else []
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
        for bx, by in marks:
            _registration_mark(canvas, ox + bx, oy + by)
        canvas.restoreState()
        if len(plan.tiles) > 1:
            canvas.setStrokeColorRGB(0.6, 0.6, 0.6)
            canvas.setLineWidth(pt(0.15))
            canvas.setDash([pt(1), pt(1)])
            canvas.rect(pt(x0), pt(y0), pt(x1 - x0), pt(y1 - y0), stroke=1, fill=0)
            canvas.setDash([])
        caption = f"{title} · {tile.label}" if len(plan.tiles) > 1 else title
        if len(plan.tiles) > 1:
            caption += f" · tiles overlap by {min(v for v in (plan.overlap_x, plan.overlap_y) if v) :.1f} mm: lay the crosshair marks of neighbouring sheets on top of each other"
        _strip(canvas, ctx, caption)
        canvas.setTrimBox((pt(x0), pt(y0), pt(x1), pt(y1)))
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _registration_mark(canvas, x: float, y: float) -> None:
    canvas.saveState()
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(pt(0.2))
    canvas.circle(pt(x), pt(y), pt(REG_RADIUS * 0.6), stroke=1, fill=0)
    canvas.line(pt(x - REG_RADIUS), pt(y), pt(x + REG_RADIUS), pt(y))
    canvas.line(pt(x), pt(y - REG_RADIUS), pt(x), pt(y + REG_RADIUS))
    canvas.restoreState()


def _strip(canvas, ctx: RenderContext, caption: str) -> None:
    """The bottom strip: the 50 mm scale bar, then what this sheet is."""
    canvas.saveState()
    canvas.translate(pt(PRINTER_MARGIN), pt(PRINTER_MARGIN + 1))
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setStrokeColorRGB(0, 0, 0)
    _scale_bar(canvas, ctx.font)
    canvas.setFont(ctx.font, NOTE_FONT_SIZE)
    room = mm(canvas._pagesize[0]) - 2 * PRINTER_MARGIN - 56
    text = caption
    while mm(stringWidth(text, ctx.font, NOTE_FONT_SIZE)) > room and len(text) > 10:
        text = text[:-2]
    if text != caption:
        text = text[:-1] + "…"
    canvas.drawString(pt(56), pt(0.6), text)
    canvas.restoreState()
