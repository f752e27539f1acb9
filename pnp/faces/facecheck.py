"""What a fitted face may get wrong without being an error: text or a QR code
inside the safe zone, a picture printed under 300 dpi, text shrunk below its
style's size. Builds, previews and exports all ask here (each says it once per
kind of card, see pnp.pipeline.facewarnings), and the preflight lists them per card.

The safe zone is the band 1/8 inch (3.175 mm) inside the trim, where a cut a
little off may reach: what matters (text, QR codes) stays out of it. Text is
measured where its lines really are (its fitted size, wrapped in its box,
aligned), not by its box.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from pnp.faces.artpanel import MIN_DPI, is_raster, raster_dpi, raster_pixels
from pnp.faces.drawable import Surface
from pnp.faces.elements import QR, Art, Text
from pnp.model import Size

MM_PER_INCH = 25.4
SAFE_ZONE_MM = MM_PER_INCH / 8


class Rule(str, Enum):
    SAFE_ZONE = "safe-zone"
    PICTURE_PPI = "picture-ppi"
    TEXT_SHRUNK = "text-shrunk"


@dataclass(frozen=True)
class Note:
    """One thing on one face: its rule, what it is about ("text 'code'"), the
    measure (mm to the trim, dpi, pt) and the sentence that says it."""

    rule: Rule
    what: str
    value: float
    message: str


def text_box(el: Text, surface: Surface) -> tuple[float, float, float, float] | None:
    """Where a fitted text's lines really are (card mm, y down): x0, top, x1, bottom."""
    if not el.markup:
        return None
    lines = el.measure(Size(el.w, el.h), surface)
    w, h = lines.width, lines.height
    top = el.y + {"top": 0.0, "middle": (el.h - h) / 2, "bottom": el.h - h}.get(el.valign, 0.0)
    left = el.x + {"center": (el.w - w) / 2, "right": el.w - w}.get(el.align, 0.0)
    return (left, top, left + w, top + h)


def _label(el: Text) -> str:
    return f"text '{el.field}'" if el.field else "text"


def safe_zone_problems(face, size, style: dict) -> list[tuple[str, float]]:
    """(what, distance to the trim in mm) for text and QR codes inside the safe zone."""
    out, surface = [], Surface(size, style=style)
    for el in face.elements:
        if isinstance(el, QR):
            box, what = (el.x, el.y, el.x + el.size, el.y + el.size), "QR code"
        elif isinstance(el, Text):
            box, what = text_box(el, surface), _label(el)
        else:
            continue
        if box is None:
            continue
        x0, y0, x1, y1 = box
        d = min(x0, y0, size.width - x1, size.height - y1)
        if d < SAFE_ZONE_MM - 0.005:
            out.append((what, d))
    return out


def face_notes(face, size, style: dict) -> list[Note]:
    """Every note on one fitted face, in the order of its elements' rules."""
    notes = [Note(Rule.SAFE_ZONE, what, d, f"{what} is {d:.1f} mm from the trim, inside the "
                  f"{SAFE_ZONE_MM:.3f} mm (1/8 in) safe zone")
             for what, d in safe_zone_problems(face, size, style)]
    for el in face.elements:
        if isinstance(el, Art) and is_raster(el.src):
            dpi = raster_dpi(el.src, el.w, el.h)
            if dpi < MIN_DPI - 0.5:
                px = raster_pixels(el.src)
                name = el.src.replace("\\", "/").rsplit("/", 1)[-1]
                notes.append(Note(Rule.PICTURE_PPI, f"picture {name}", dpi,
                                  f"picture {name} ({px[0]} x {px[1]} px in {el.w:.1f} x {el.h:.1f} mm) prints at "
                                  f"{dpi:.0f} dpi, under {MIN_DPI}"))
        elif isinstance(el, Text) and el.markup:
            spec = style.get("paragraph_styles", {}).get(el.style, {})
            wanted = float(spec.get("size", 8))
            quiet = float(spec.get("shrink_to", wanted))   # the style says its text may shrink this far unremarked
            if el.size < min(wanted, quiet) - 1e-6:
                allowed = f", below the {quiet:g} pt its style '{el.style}' shrinks to" if quiet < wanted else ""
                notes.append(Note(Rule.TEXT_SHRUNK, _label(el), el.size,
                                  f"{_label(el)} shrunk from {wanted:g} pt to {el.size:g} pt to fit its "
                                  f"{el.w:g} x {el.h:g} mm box{allowed}"))
    return notes
