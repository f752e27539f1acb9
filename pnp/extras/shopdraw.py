"""Drawing a print shop's files: a face with its bleed on a page of its own,
PDF pages (each distinct face one form) with TrimBox and BleedBox, PNGs of
an exact pixel size, a deck's zip. Used by pnp.extras.export's tasks."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pypdfium2 as pdfium

from pnp.errors import PnpError
from pnp.model import Size
from pnp.render.canvas import draw_copy_elements, draw_face, new_canvas
from pnp.units import pt

MM_PER_INCH = 25.4
DPI = 300
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)


# --------------------------------------------------------------------------- drawing

def _canvas(buffer: io.BytesIO, page: Size, ctx, title: str):
    return new_canvas(buffer, page, ctx, title, None)


def _draw_on_page(canvas, face, card: Size, bleed_x: float, bleed_y: float, ctx) -> None:
    canvas.saveState()
    canvas.translate(pt(bleed_x), pt(bleed_y))
    draw_face(canvas, face, card, ctx)
    canvas.restoreState()


def _set_boxes(canvas, page: Size, bleed_x: float, bleed_y: float) -> None:
    canvas.setBleedBox((0, 0, pt(page.width), pt(page.height)))
    canvas.setTrimBox((pt(bleed_x), pt(bleed_y), pt(page.width - bleed_x), pt(page.height - bleed_y)))


def pdf_pages(faces: list, card: Size, bleed: float, ctx, title: str, boxes: bool = True, a85: bool = True) -> bytes:
    """A PDF with one page per face (faces may repeat: each distinct face is one form); `a85`
    False: pictures embedded as binary, not ASCII85 (a file only Ghostscript reads: 20% smaller,
    and ReportLab spends a fifth of the DriveThruCards export encoding ASCII85 otherwise)."""
    if not a85:
        from reportlab import rl_config  # lazy: only the DriveThruCards deck asks for it

        kept, rl_config.useA85 = rl_config.useA85, 0
        try:
            return pdf_pages(faces, card, bleed, ctx, title, boxes)
        finally:
            rl_config.useA85 = kept
    page = Size(card.width + 2 * bleed, card.height + 2 * bleed, "card")
    buffer = io.BytesIO()
    canvas = _canvas(buffer, page, ctx, title)
    forms: dict[int, str] = {}
    for face in faces:
        if id(face) not in forms:
            name = forms[id(face)] = f"face{len(forms)}"
            canvas.beginForm(name, 0, 0, pt(page.width), pt(page.height))
            _draw_on_page(canvas, face, card, bleed, bleed, ctx)
            canvas.endForm()
        canvas.doForm(forms[id(face)])
        if boxes:
            _set_boxes(canvas, page, bleed, bleed)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def png_images(faces: list, card: Size, px: tuple[int, int], ctx, title: str,
               payloads: list[str] | None = None) -> list[bytes]:
    """Each face as a PNG of exactly `px` pixels at DPI, the card centred, its art run into the bleed;
    with `payloads` (one per face), each face's QR codes carry that payload (a printed copy's own)."""
    w_in, h_in = px[0] / DPI, px[1] / DPI
    page = Size(w_in * MM_PER_INCH, h_in * MM_PER_INCH, "image")
    bx, by = (page.width - card.width) / 2, (page.height - card.height) / 2
    buffer = io.BytesIO()
    canvas = _canvas(buffer, page, ctx, title)
    for i, face in enumerate(faces):
        if payloads is None:
            _draw_on_page(canvas, face, card, bx, by, ctx)
        else:
            canvas.saveState()
            canvas.translate(pt(bx), pt(by))
            draw_face(canvas, face, card, ctx, qr=False)
            draw_copy_elements(canvas, face, card, ctx, payloads[i])
            canvas.restoreState()
        canvas.showPage()
    canvas.save()
    doc = pdfium.PdfDocument(buffer.getvalue())
    out = []
    try:
        for i in range(len(doc)):
            pdf_page = doc[i]
            scale = DPI / 72 * (1 - 1e-6)   # pdfium rounds the bitmap size up (and keeps page sizes as float32)
            image = pdf_page.render(scale=scale).to_pil().convert("RGB")
            if image.size != px:
                raise PnpError(f"internal: rendered {image.size}, wanted {px}")
            data = io.BytesIO()
            image.save(data, format="PNG", dpi=(DPI, DPI))
            out.append(data.getvalue())
            pdf_page.close()
    finally:
        doc.close()
    return out


def zip_files(path: Path, files: list[tuple[str, Path]]) -> None:
    """A zip at `path` of the files (name in the zip, file), read one at a time."""
    with zipfile.ZipFile(path, "w") as archive:
        for name, source in files:
            info = zipfile.ZipInfo(name, _ZIP_DATE)
            # PNGs and PDFs are compressed already: deflating them again costs seconds and saves ~1%
            info.compress_type = zipfile.ZIP_STORED if name.endswith((".png", ".pdf")) else zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, source.read_bytes())
