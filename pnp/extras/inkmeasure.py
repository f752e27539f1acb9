"""Total ink measured as a press would lay it: each page of a CMYK PDF
rendered by Ghostscript into its four separations (`tiff32nc`: 8 bits per
ink, no anti-aliasing, so every pixel is a colour the page really sets), and
C+M+Y+K summed per pixel. Pages that draw the same thing (a deck's back,
repeated for every card) are rendered once."""
from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from pnp.errors import PnpError
from pnp.extras.pdfrules import page_keys
from pnp.extras.pdfx import ghostscript

INK_DPI = 60   # fine enough to see every area of colour on a card (about 165 x 225 pixels), and every line


@dataclass(frozen=True)
class PageInk:
    page: int             # 1-based
    max_percent: float    # the most ink on any pixel, in % (400 at most)
    over_share: float     # the share of the page's pixels over the limit asked about


def _ink(image: Image.Image, limit_bytes: float) -> tuple[float, float]:
    """(the most ink on one pixel in %, the share of pixels over `limit_bytes` summed byte values)."""
    colours = image.getcolors(image.width * image.height) or []
    most = max((sum(c) for _, c in colours), default=0)
    over = sum(n for n, c in colours if sum(c) > limit_bytes)
    return most / 255 * 100, over / max(1, image.width * image.height)


def page_ink(path: Path, limit_percent: float, keys: list[bytes] | None = None, dpi: int = INK_DPI) -> list[PageInk]:
    """Every page's ink (pages alike, by `keys` from pnp.extras.pdfrules.page_keys, measured once, each reported)."""
    keys = page_keys(path) if keys is None else keys
    first: dict[bytes, int] = {}
    for i, key in enumerate(keys, 1):
        first.setdefault(key, i)
    wanted = sorted(set(first.values()))
    # 8-bit separations round each ink to 1/255: allow that rounding on each of the four
    limit_bytes = limit_percent / 100 * 255 + 2
    measured: dict[int, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory(prefix="pnp-ink-") as tmp:
        command = [ghostscript(), "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=tiff32nc", f"-r{dpi}",
                   f"-sPageList={','.join(map(str, wanted))}", f"-sOutputFile={tmp}/p%05d.tif", str(path)]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        rendered = sorted(Path(tmp).glob("p*.tif"))
        if done.returncode != 0 or len(rendered) != len(wanted):
            said = (done.stderr or done.stdout).strip().splitlines()
            raise PnpError(f"Ghostscript could not render {path.name} to measure its ink: "
                           f"{said[-1] if said else f'exit {done.returncode}'}")
        for page, file in zip(wanted, rendered):
            with Image.open(file) as image:
                measured[page] = _ink(image.convert("CMYK"), limit_bytes)
    return [PageInk(i, *measured[first[key]]) for i, key in enumerate(keys, 1)]
