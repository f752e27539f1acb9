"""Drawing a print shop's files: a face with its bleed on a page of its own,
PDF pages (each distinct face one form) with TrimBox and BleedBox, PNGs of
an exact pixel size, a deck's zip; and the safe-zone check (text and QR
codes closer than 1/8 inch to the trim). Used by pnp.extras.export's tasks."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pypdfium2 as pdfium

from pnp.errors import PnpError
from pnp.faces.elements import QR, Text
from pnp.faces.textfit import setting, wrapped
from pnp.model import Deck, Size
from pnp.render.canvas import draw_face, draw_qr_element, new_canvas
from pnp.units import mm, pt

MM_PER_INCH = 25.4
DPI = 300
SAFE_ZONE_MM = MM_PER_INCH / 8
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)


# --------------------------------------------------------------------------- safe zone

def _text_box(el, style: dict) -> tuple[float, float, float, float] | None:
    """Where a fitted text's lines really are (card mm, y down): x0, top, x1, bottom."""
    if not el.markup:
        return None
    own = setting(el, style, el.size)
    if own is not None:
        h, w = mm(own.height), mm(own.width)
    else:
        para, hp = wrapped(el, style, el.size)
        h = mm(hp)
        widths = getattr(para, "getActualLineWidths0", lambda: [])() or [el.w]
        w = min(el.w, mm(max(widths)) if widths else el.w)
    top = el.y + {"top": 0.0, "middle": (el.h - h) / 2, "bottom": el.h - h}.get(el.valign, 0.0)
    left = el.x + {"center": (el.w - w) / 2, "right": el.w - w}.get(el.align, 0.0)
    return (left, top, left + w, top + h)


def safe_zone_problems(face, size: Size, style: dict) -> list[tuple[str, float]]:
    """(what, distance to the trim in mm) for text and QR codes inside the safe zone."""
    out = []
    for el in face.elements:
        if isinstance(el, QR):
            box, what = (el.x, el.y, el.x + el.size, el.y + el.size), "QR code"
        elif isinstance(el, Text):
            box = _text_box(el, style)
            what = f"text '{el.field}'" if el.field else "text"
        else:
            continue
        if box is None:
            continue
        x0, y0, x1, y1 = box
        d = min(x0, y0, size.width - x1, size.height - y1)
        if d < SAFE_ZONE_MM - 0.005:
            out.append((what, d))
    return out


def safe_zone_warnings(deck: Deck, close: list[tuple[str, str, float]]) -> list[str]:
    """The warnings for one deck, from (face label, what, distance) in the order the faces come."""
    found: dict[tuple[str, float], list[str]] = {}
    for label, what, d in close:
        found.setdefault((what, round(d, 1)), []).append(label)
    out = []
    for (what, d), labels in sorted(found.items()):
        where = labels[0] if len(labels) == 1 else f"{len(labels)} faces, e.g. {labels[0]}"
        out.append(f"{deck.id}: {what} is {d:.1f} mm from the trim, inside the {SAFE_ZONE_MM:.3f} mm "
                   f"(1/8 in) safe zone ({where})")
    return out


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


def pdf_pages(faces: list, card: Size, bleed: float, ctx, title: str, boxes: bool = True) -> bytes:
    """A PDF with one page per face (faces may repeat: each distinct face is one form)."""
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
            for el in face.elements:
                if isinstance(el, QR):
                    draw_qr_element(canvas, el, card, payloads[i])
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
            info.compress_type = zipfile.ZIP_STORED if name.endswith(".png") else zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, source.read_bytes())
