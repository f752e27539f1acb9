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
    return files_ink([(path, page_keys(path) if keys is None else keys)], limit_percent, dpi)[0]


def files_ink(files: list[tuple[Path, list[bytes]]], limit_percent: float, dpi: int = INK_DPI) -> list[list[PageInk]]:
    """Every page's ink in each of `files` ((PDF, its pages' keys)), by one
    Ghostscript run: the distinct pages of them all (pages alike measured once)
    are gathered into one PDF (pikepdf copies their objects as they are), and
    that is rendered into separations."""
    import pikepdf  # lazy: a preflight of PNGs never needs it

    firsts: list[dict[bytes, int]] = []
    for _, keys in files:
        first: dict[bytes, int] = {}
        for i, key in enumerate(keys, 1):
            first.setdefault(key, i)
        firsts.append(first)
    # 8-bit separations round each ink to 1/255: allow that rounding on each of the four
    limit_bytes = limit_percent / 100 * 255 + 2
    wanted = [(f, page) for f, first in enumerate(firsts) for page in sorted(set(first.values()))]
    measured: dict[tuple[int, int], tuple[float, float]] = {}
    with tempfile.TemporaryDirectory(prefix="pnp-ink-") as tmp:
        source = Path(tmp) / "pages.pdf"
        if len(files) == 1:
            source = files[0][0]
            pages = ",".join(str(page) for _, page in wanted)
        else:
            pages = ""
            with pikepdf.new() as gathered:
                opened = [pikepdf.open(path) for path, _ in files]
                try:
                    for f, page in wanted:
                        gathered.pages.append(opened[f].pages[page - 1])
                    gathered.save(source)
                finally:
                    for pdf in opened:
                        pdf.close()
        command = [ghostscript(), "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=tiff32nc", f"-r{dpi}",
                   *([f"-sPageList={pages}"] if pages else []), f"-sOutputFile={tmp}/p%05d.tif", str(source)]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        rendered = sorted(Path(tmp).glob("p*.tif"))
        if done.returncode != 0 or len(rendered) != len(wanted):
            said = (done.stderr or done.stdout).strip().splitlines()
            raise PnpError(f"Ghostscript could not render {', '.join(path.name for path, _ in files)} to measure "
                           f"their ink: {said[-1] if said else f'exit {done.returncode}'}")
        for where, file in zip(wanted, rendered):
            with Image.open(file) as image:
                measured[where] = _ink(image.convert("CMYK"), limit_bytes)
    return [[PageInk(i, *measured[f, first[key]]) for i, key in enumerate(keys, 1)]
            for f, ((_, keys), first) in enumerate(zip(files, firsts))]
