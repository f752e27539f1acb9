"""Measuring produced PDFs: builds, rasters, page-level vector geometry.

Everything here measures what is *in* the PDF (content streams, rasters,
page dictionaries); nothing re-uses pnp's layout constants. All lengths are
millimetres from the page's bottom-left corner, as in the manifest.
"""
from __future__ import annotations

import json
import math
import re
from decimal import Decimal
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
from PIL import Image, ImageChops

PROJECT = Path(__file__).resolve().parents[2]
GAME = "culture-war"
MM_PER_PT = 25.4 / 72.0

Box = tuple[float, float, float, float]


# --------------------------------------------------------------------------- builds

FACTIONS = ("anarchy", "community", "technocracy", "conservative", "libertarian")


@dataclass
class Built:
    """One build of culture-war into its own directory."""

    out: Path
    manifest: dict
    manifest_bytes: bytes

    @property
    def game_dir(self) -> Path:
        return self.out / GAME

    def pdf_path(self, deck: str) -> Path:
        return self.game_dir / f"deck-{deck}.pdf"

    def pdfs(self) -> list[Path]:
        return [self.game_dir / f["file"] for f in self.manifest["files"]]

    def decks(self) -> list[str]:
        """The faction decks: poker-sized, two-sided playing cards (not coins or reference cards)."""
        return [f["deck"] for f in self.manifest["files"] if f.get("kind") == "deck" and f["deck"] in FACTIONS]

    def file_entry(self, deck: str) -> dict:
        return next(f for f in self.manifest["files"] if f.get("deck") == deck)

    def cards(self, deck: str | None = None) -> list[dict]:
        wanted = {deck} if deck else set(self.decks())
        return [c for c in self.manifest["cards"] if c["deck"] in wanted]

    def fronts_on(self, deck: str, page: int) -> list[dict]:
        return [c for c in self.cards(deck) if c["front"]["page"] == page]

    def backs_on(self, deck: str, page: int) -> list[dict]:
        return [c for c in self.cards(deck) if c["back"]["page"] == page]

    def trims_on(self, deck: str, page: int) -> list[Box]:
        out = [tuple(c["front"]["trim_mm"]) for c in self.fronts_on(deck, page)]
        out += [tuple(c["back"]["trim_mm"]) for c in self.backs_on(deck, page)]
        return out


def run_build(out: Path, paper: str = "a4", layout: str = "duplex", flip: str = "long") -> Built:
    from pnp.pipeline.options import BuildOptions
    from pnp.pipeline.orchestrator import build
    from pnp.model import PAPERS, Flip, Layout

    options = BuildOptions(paper=PAPERS[paper], layout=Layout(layout), flip=Flip(flip))
    build(PROJECT, [GAME], out, options)
    raw = (out / GAME / "manifest.json").read_bytes()
    return Built(out, json.loads(raw), raw)


def deck_colors() -> dict[str, tuple[int, int, int]]:
    """The deck colours as declared in the game's source (input data, not pnp code)."""
    import yaml

    game = yaml.safe_load((PROJECT / "card_sources" / GAME / "game.yaml").read_text())
    out = {}
    for deck in game["decks"]:
        h = deck["color"].lstrip("#")
        out[deck["id"]] = (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))
    return out


# --------------------------------------------------------------------------- boxes

def shrink(box: Box, d: float) -> Box:
    x0, y0, x1, y1 = box
    return (x0 + d, y0 + d, x1 - d, y1 - d)


def contains(outer: Box, inner: Box, tol: float = 0.0) -> bool:
    return (outer[0] <= inner[0] + tol and outer[1] <= inner[1] + tol
            and outer[2] >= inner[2] - tol and outer[3] >= inner[3] - tol)


def point_in(box: Box, x: float, y: float) -> bool:
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def close(a, b, tol: float) -> bool:
    return all(abs(p - q) <= tol for p, q in zip(a, b, strict=True))


def segment_hits_box(seg: tuple[float, float, float, float], box: Box) -> bool:
    """Liang-Barsky: does the closed segment meet the open interior of the box?"""
    x0, y0, x1, y1 = seg
    bx0, by0, bx1, by1 = box
    if bx0 >= bx1 or by0 >= by1:
        return False
    dx, dy = x1 - x0, y1 - y0
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, x0 - bx0), (dx, bx1 - x0), (-dy, y0 - by0), (dy, by1 - y0)):
        if p == 0:
            if q <= 0:      # parallel and outside (or exactly on the edge)
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    # strictly inside somewhere?  check the mid-point of the clipped part
    tm = (t0 + t1) / 2
    mx, my = x0 + tm * dx, y0 + tm * dy
    return bx0 < mx < bx1 and by0 < my < by1


# --------------------------------------------------------------------------- page-level vector geometry

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def mat_mul(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF convention: new CTM = m x CTM when m is the cm operand)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
            e * A + f * C + E, e * B + f * D + F)


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


@dataclass
class PaintedPath:
    op: str                              # the painting operator (S, f, f*, B, ...)
    segments: list[tuple[float, float, float, float]]   # mm, page space
    rects: list[Box]                     # mm, page space (from `re`), axis-aligned bboxes
    line_width: float                    # mm
    dash: list[float]                    # dash array (user units); [] = solid
    stroke_rgb: tuple[float, ...] | None
    fill_rgb: tuple[float, ...] | None

    @property
    def stroked(self) -> bool:
        return self.op in ("S", "s", "B", "B*", "b", "b*")

    @property
    def filled(self) -> bool:
        return self.op in ("f", "F", "f*", "B", "B*", "b", "b*")


@dataclass
class Placed:
    name: str
    ctm: Matrix   # points


@dataclass
class PageGraphics:
    paths: list[PaintedPath] = field(default_factory=list)
    xobjects: list[Placed] = field(default_factory=list)


_PAINT = {"S", "s", "f", "F", "f*", "B", "B*", "b", "b*"}


def page_graphics(page: pikepdf.Page) -> PageGraphics:
    """Interpret the page's own content stream (not the forms it draws):
    every painted path in page space (mm) and every XObject placement."""
    out = PageGraphics()
    ctm: Matrix = IDENTITY
    lw, dash, srgb, frgb = 1.0, [], (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)
    stack = []
    segs: list[tuple[float, float, float, float]] = []
    rects: list[Box] = []
    cur = start = None
    in_text = False

    def to_mm(x, y):
        px, py = apply(ctm, x, y)
        return px * MM_PER_PT, py * MM_PER_PT

    for operands, operator in pikepdf.parse_content_stream(page):
        op = str(operator)
        args = [float(v) if isinstance(v, (int, float, Decimal)) else v for v in operands]
        if op == "BT":
            in_text = True
        elif op == "ET":
            in_text = False
        if in_text:
            continue
        if op == "q":
            stack.append((ctm, lw, list(dash), srgb, frgb))
        elif op == "Q":
            ctm, lw, dash, srgb, frgb = stack.pop()
        elif op == "cm":
            ctm = mat_mul(tuple(float(v) for v in args), ctm)
        elif op == "w":
            lw = float(args[0])
        elif op == "d":
            dash = [float(v) for v in operands[0]]
        elif op == "RG":
            srgb = tuple(float(v) for v in args)
        elif op == "rg":
            frgb = tuple(float(v) for v in args)
        elif op == "G":
            srgb = (float(args[0]),) * 3
        elif op == "g":
            frgb = (float(args[0]),) * 3
        elif op == "m":
            cur = start = to_mm(*args)
        elif op == "l":
            p = to_mm(*args)
            segs.append((*cur, *p))
            cur = p
        elif op in ("c", "v", "y"):
            pts = [to_mm(args[i], args[i + 1]) for i in range(0, len(args), 2)]
            for p in pts:   # the control polygon: a conservative stand-in
                segs.append((*cur, *p))
                cur = p
        elif op == "h":
            if cur is not None and start is not None:
                segs.append((*cur, *start))
                cur = start
        elif op == "re":
            x, y, w, h = args
            corners = [to_mm(x, y), to_mm(x + w, y), to_mm(x + w, y + h), to_mm(x, y + h)]
            for i in range(4):
                segs.append((*corners[i], *corners[(i + 1) % 4]))
            xs, ys = [c[0] for c in corners], [c[1] for c in corners]
            rects.append((min(xs), min(ys), max(xs), max(ys)))
            cur = start = corners[0]
        elif op in _PAINT:
            scale = math.sqrt(abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]))
            out.paths.append(PaintedPath(op, segs, rects, lw * scale * MM_PER_PT, list(dash), srgb, frgb))
            segs, rects, cur, start = [], [], None, None
        elif op == "n":     # clipping path or no-op path: nothing painted
            segs, rects, cur, start = [], [], None, None
        elif op == "Do":
            out.xobjects.append(Placed(str(operands[0]), ctm))
    return out


def stroke_box(seg, width: float) -> Box:
    """Axis-aligned bounds of a stroked segment with butt caps (conservative)."""
    x0, y0, x1, y1 = seg
    h = width / 2
    return (min(x0, x1) - h, min(y0, y1) - h, max(x0, x1) + h, max(y0, y1) + h)


def page_size_mm(page: pikepdf.Page) -> tuple[float, float]:
    x0, y0, x1, y1 = (float(v) for v in page.mediabox)
    return (x1 - x0) * MM_PER_PT, (y1 - y0) * MM_PER_PT


def box_mm(arr) -> Box:
    x0, y0, x1, y1 = (float(v) * MM_PER_PT for v in arr)
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


# --------------------------------------------------------------------------- fonts

def iter_fonts(pdf: pikepdf.Pdf):
    """(where, font dict) for every font reachable from any page's resources,
    including inside form XObjects (recursively) and Type0 descendants."""
    seen: set = set()

    def walk_resources(res, where):
        if res is None:
            return
        fonts = res.get("/Font")
        if fonts is not None:
            for name, font in fonts.items():
                key = font.objgen if font.is_indirect else id(font)
                if key in seen:
                    continue
                seen.add(key)
                yield f"{where} {name}", font
                for desc in font.get("/DescendantFonts", []):
                    yield f"{where} {name} (descendant)", desc
                if font.get("/Subtype") == "/Type3" and "/Resources" in font:
                    yield from walk_resources(font.Resources, f"{where} {name} Type3")
        xobjs = res.get("/XObject")
        if xobjs is not None:
            for name, xo in xobjs.items():
                key = xo.objgen if xo.is_indirect else id(xo)
                if key in seen:
                    continue
                seen.add(key)
                if xo.get("/Subtype") == "/Form" and "/Resources" in xo:
                    yield from walk_resources(xo.Resources, f"{where} {name}")

    for i, page in enumerate(pdf.pages, start=1):
        yield from walk_resources(page.obj.get("/Resources"), f"page {i}")


def font_embedded(font) -> bool:
    desc = font.get("/FontDescriptor")
    if desc is None:
        return False
    return any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))


STANDARD_14 = re.compile(r"(Helvetica|Times|Courier|Symbol|ZapfDingbats)", re.I)


# --------------------------------------------------------------------------- rasters

@lru_cache(maxsize=64)
def _doc(path: str) -> pdfium.PdfDocument:
    return pdfium.PdfDocument(path)


@lru_cache(maxsize=6)   # a 300 dpi A4 page is ~26 MB: keep only a few
def render(path: str, page: int, dpi: int) -> Image.Image:
    """Page `page` (1-based) as an RGB image at `dpi`."""
    pdf = _doc(path)
    return pdf[page - 1].render(scale=dpi / 72.0).to_pil().convert("RGB")


def page_text(path: str, page: int) -> str:
    pdf = _doc(path)
    tp = pdf[page - 1].get_textpage()
    try:
        return tp.get_text_range()
    finally:
        tp.close()


def page_count(path: str) -> int:
    return len(_doc(path))


class Raster:
    """A page raster with mm <-> pixel conversion (mm from the bottom-left).

    pdfium stretches the page over a whole number of pixels, so the scale is
    taken from the bitmap's size, per axis, not from the nominal dpi."""

    def __init__(self, image: Image.Image, page_w_mm: float, page_h_mm: float):
        self.image, self.page_w, self.page_h = image, page_w_mm, page_h_mm
        self.sx = page_w_mm / image.width    # mm per pixel, horizontally
        self.sy = page_h_mm / image.height   # mm per pixel, vertically

    def to_mm(self, px: float, py: float) -> tuple[float, float]:
        """Pixel coordinates (pixel edges, as zxing reports them) to page mm."""
        return px * self.sx, self.page_h - py * self.sy

    def box_px(self, box: Box) -> tuple[int, int, int, int]:
        """PIL crop box (left, upper, right, lower) of a mm box (rounded inwards)."""
        x0, y0, x1, y1 = box
        return (math.ceil(x0 / self.sx), math.ceil((self.page_h - y1) / self.sy),
                math.floor(x1 / self.sx), math.floor((self.page_h - y0) / self.sy))

    def crop(self, box: Box) -> Image.Image:
        return self.image.crop(self.box_px(box))

    def pixel(self, x: float, y: float) -> tuple[int, int, int]:
        return self.image.getpixel((min(self.image.width - 1, int(x / self.sx)),
                                    min(self.image.height - 1, int((self.page_h - y) / self.sy))))


def raster(path: str | Path, page: int, dpi: int) -> Raster:
    """Render page `page` (1-based) and wrap it with its page size from the PDF."""
    pdf = _doc(str(path))
    w_pt, h_pt = pdf[page - 1].get_size()
    return Raster(render(str(path), page, dpi), w_pt * MM_PER_PT, h_pt * MM_PER_PT)


def color_fraction(img: Image.Image, rgb: tuple[int, int, int], tol: int = 12) -> float:
    """The fraction of pixels within `tol` (per channel) of `rgb`."""
    r, g, b = (c.point(lambda v, t=t: 255 if abs(v - t) <= tol else 0)
               for c, t in zip(img.split(), rgb))
    both = ImageChops.multiply(ImageChops.multiply(r, g), b)
    hist = both.histogram()
    n = img.width * img.height
    return hist[255] / n if n else 0.0


def white_fraction(img: Image.Image, floor: int = 245) -> float:
    return color_fraction(img, (255, 255, 255), 255 - floor)


def line_centres(profile: list[float], threshold: float) -> list[float]:
    """Darkness-weighted centres (in pixel units, pixel i spans [i, i+1)) of
    the runs of `profile` above `threshold`."""
    out, run = [], []
    for i, v in enumerate(profile + [0.0]):
        if v > threshold:
            run.append((i, v))
        elif run:
            w = sum(v for _, v in run)
            out.append(sum((i + 0.5) * v for i, v in run) / w)
            run = []
    return out


def column_darkness(img: Image.Image) -> list[float]:
    """Mean darkness (0 white .. 255 black) of each column."""
    gray = img.convert("L").resize((img.width, 1), Image.Resampling.BOX)
    return [255.0 - v for v in gray.tobytes()]


def row_darkness(img: Image.Image) -> list[float]:
    gray = img.convert("L").resize((1, img.height), Image.Resampling.BOX)
    return [255.0 - v for v in gray.tobytes()]


@dataclass
class Marks:
    """Cut-mark line centres found in the four margin strips (mm)."""

    top_xs: list[float]
    bottom_xs: list[float]
    left_ys: list[float]
    right_ys: list[float]


def find_cut_marks(r: Raster, near: float = 1.5, far: float = 4.5) -> Marks:
    """Measure the cut marks in strips `near`..`far` mm from each paper edge
    (the printer's dead zone, where nothing but cut marks should be printed).
    Vertical marks are found as dark columns of the top/bottom strips,
    horizontal marks as dark rows of the left/right strips."""
    H, page_w = r.page_h, r.page_w
    strips = {
        "top": (0.0, H - far, page_w, H - near),
        "bottom": (0.0, near, page_w, far),
        "left": (near, 0.0, far, H),
        "right": (page_w - far, 0.0, page_w - near, H),
    }
    out = {}
    for name, box in strips.items():
        left, upper, right, lower = r.box_px(box)
        img = r.image.crop((left, upper, right, lower))
        if name in ("top", "bottom"):
            prof = column_darkness(img)
            out[name] = [(left + c) * r.sx for c in line_centres(prof, 60.0)]
        else:
            prof = row_darkness(img)
            out[name] = sorted(H - (upper + c) * r.sy for c in line_centres(prof, 60.0))
    return Marks(out["top"], out["bottom"], out["left"], out["right"])
