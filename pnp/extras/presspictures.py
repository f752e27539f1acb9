"""A designer's PNG and JPEG pictures made ready for the press before the
DriveThruCards deck is drawn: each in CMYK through the same SWOP profile the
PDF/X-1a file declares (littleCMS in Pillow, from sRGB, relative
colorimetric), its total ink held to the limit (pnp.extras.inklimit's
grey component replacement, then C, M, Y scaled down), and written as a
CMYK JPEG at quality 95 without chroma subsampling.

Ghostscript passes such a JPEG through unchanged, where an RGB picture cost
it a decode, a colour conversion and a JPEG encode of its own (which it did
anyway: its pdfwrite JPEG-encodes photographic pictures by default), and
the ink limiter only reads it to confirm it is within the limit. The ink is
limited a little under the shop's limit (`JPEG_MARGINS`), and the JPEG read
back checked to be within it, so that the JPEG's rounding carries no pixel
over it.

Each picture is made once per export, named by the digest of its content,
in a folder of the export's staging folder; pictures with transparency
are left as they are (Ghostscript flattens them, as before).
"""
from __future__ import annotations

import hashlib
import io
import os
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageCms

from pnp.extras.inklimit import limit_picture, within
from pnp.faces.artpanel import is_raster
from pnp.faces.elements import Art, Face

JPEG_QUALITY = 95
# how far under the limit the picture is held before JPEG encoding, tried in turn until the JPEG read
# back is within the limit: a grainy picture's JPEG moves some pixels' sums by 7% and more
JPEG_MARGINS = (0.06, 0.12, 0.2, 0.3)


@lru_cache(maxsize=4)
def _to_cmyk(profile: str):
    return ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(profile), "RGB", "CMYK",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)


def press_picture(src: str, folder: Path, profile: Path, limit: float) -> str:
    """The press-ready CMYK JPEG of the picture at `src` (made in `folder` once), or `src` itself
    when it has transparency or a mode Pillow cannot convert."""
    content = Path(src).read_bytes()
    target = folder / f"{hashlib.sha256(content).hexdigest()[:24]}.jpg"
    if target.is_file():
        return str(target)
    with Image.open(src) as image:
        if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
            return src
        dpi = image.info.get("dpi", (300, 300))
        try:   # a CMYK picture keeps its own separations; anything else goes through the profile
            cmyk = image.copy() if image.mode == "CMYK" else ImageCms.applyTransform(image.convert("RGB"),
                                                                                   _to_cmyk(str(profile)))
        except (OSError, ValueError):   # a mode Pillow cannot convert (16-bit grey...): as before
            return src
    for margin in JPEG_MARGINS:   # the JPEG read back must be within the limit: else a wider margin
        data = io.BytesIO()
        limit_picture(cmyk, limit - margin).save(data, format="JPEG", quality=JPEG_QUALITY, subsampling=0, dpi=dpi)
        with Image.open(data) as back:
            if within(back, limit):
                break
    else:
        return src   # no margin holds it (never seen): Ghostscript and the ink limiter take it as before
    folder.mkdir(parents=True, exist_ok=True)
    part = target.with_suffix(f".{os.getpid()}.part")
    part.write_bytes(data.getvalue())
    os.replace(part, target)   # another task making the same picture writes the same bytes
    return str(target)


def press_face(face: Face, folder: Path, profile: Path, limit: float) -> Face:
    """The face with each raster picture replaced by its press-ready CMYK JPEG."""
    if not any(isinstance(el, Art) and is_raster(el.src) for el in face.elements):
        return face
    return replace(face, elements=tuple(
        replace(el, src=press_picture(el.src, folder, profile, limit)) if isinstance(el, Art) and is_raster(el.src)
        else el for el in face.elements))
