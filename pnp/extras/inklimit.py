"""Total ink held to a print shop's limit (DriveThruCards: 240%), in a CMYK
PDF that Ghostscript has already converted (pnp.extras.pdfx).

SWOP separations of dark colours put more ink on the sheet than DriveThruCards
takes: our ink `#1d1d1d` becomes C70 M66 Y66 K76 (278%), black C72 M68 Y67
K88 (295%). Each colour the pages set (`k`/`K`, and `sc`/`scn` in
DeviceCMYK) whose C+M+Y+K exceeds the limit is replaced:

- a neutral colour at least as dark as the rich black prints as the rich
  black itself, C60 M40 Y40 K100 (240%, the darkest black we allow);
- any other colour by the one with the least colour difference (CIE76,
  through the same SWOP profile, littleCMS in Pillow) among those within the
  limit made from it by adding black and taking cyan, magenta and yellow away
  (as grey component replacement does) or scaling them down.

CMYK pictures are limited pixel by pixel (grey component replacement, then
cyan, magenta and yellow scaled down), with Pillow's ImageMath. Everything
else in the file is left as Ghostscript wrote it.
"""
from __future__ import annotations

import io
import re
import zlib
from functools import lru_cache
from pathlib import Path

import pikepdf
from PIL import Image, ImageChops, ImageCms, ImageMath

from pnp.extras.contentscan import DELIM, operator_pattern, operators

RICH_BLACK = (0.60, 0.40, 0.40, 1.00)
STEPS = 20          # candidates per axis
NEUTRAL_CHROMA = 6.0


class InkLimiter:
    """Colours within `limit` (a fraction: 2.4 is 240%) through the CMYK profile at `profile`."""

    def __init__(self, profile: Path, limit: float = 2.4):
        self.limit = limit
        lab = ImageCms.createProfile("LAB", 6500)
        self._to_lab = ImageCms.buildTransform(ImageCms.getOpenProfile(str(profile)), lab, "CMYK", "LAB",
                                               renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
        self._rich = self.lab([RICH_BLACK])[0]
        self.colour = lru_cache(maxsize=None)(self._colour)

    def lab(self, colours: list[tuple[float, ...]]) -> list[tuple[float, float, float]]:
        """CIE L*a*b* of CMYK colours (0..1 each)."""
        data = bytes(round(max(0.0, min(1.0, v)) * 255) for c in colours for v in c)
        image = Image.frombytes("CMYK", (len(colours), 1), data)
        out = ImageCms.applyTransform(image, self._to_lab).tobytes()
        return [(out[i] / 2.55, _signed(out[i + 1]), _signed(out[i + 2])) for i in range(0, len(out), 3)]

    def _colour(self, cmyk: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        if sum(cmyk) <= self.limit + 1e-6:
            return cmyk
        (l0, a0, b0), = self.lab([cmyk])
        if (a0 * a0 + b0 * b0) ** 0.5 <= NEUTRAL_CHROMA and l0 <= self._rich[0] + 2.5:
            return RICH_BLACK
        candidates = _candidates(cmyk, self.limit)
        labs = self.lab(candidates)
        best = min(range(len(candidates)),
                   key=lambda i: (labs[i][0] - l0) ** 2 + (labs[i][1] - a0) ** 2 + (labs[i][2] - b0) ** 2)
        return tuple(round(v, 4) for v in candidates[best])


def _signed(byte: int) -> float:
    return byte - 256 if byte > 127 else byte   # a* and b* come as signed bytes


def _candidates(cmyk, limit: float) -> list[tuple[float, float, float, float]]:
    """Colours within `limit` made from `cmyk` by adding black (0 to all of what
    is left) and taking ink from C, M, Y: an equal amount, or in proportion."""
    c, m, y, k = cmyk
    out = []
    for i in range(STEPS + 1):
        k2 = k + (1 - k) * i / STEPS
        budget = limit - k2
        cmy = c + m + y
        if budget < 0 or cmy <= 0:
            continue
        if cmy > budget:
            s = budget / cmy
            out.append((c * s, m * s, y * s, k2))
            out.append(_take_equally((c, m, y), cmy - budget) + (k2,))
        else:
            out.append((c, m, y, k2))
    return out or [(0.0, 0.0, 0.0, min(1.0, limit))]


def _take_equally(cmy: tuple[float, float, float], amount: float) -> tuple[float, float, float]:
    """`amount` of ink taken from the channels equally, none going below 0."""
    values = list(cmy)
    left = amount
    for _ in range(3):
        live = [i for i, v in enumerate(values) if v > 1e-9]
        if not live or left <= 1e-9:
            break
        each = min(left / len(live), min(values[i] for i in live))
        for i in live:
            values[i] -= each
        left -= each * len(live)
    return tuple(values)


# --------------------------------------------------------------------------- the file

# The scan stops at the operator `k` or `K` (a CMYK colour: its four numbers
# come before it), or one that sets a colour space or starts an inline image
# (then the stream goes through pikepdf's parser, which tracks the colour space).
_TOKEN = operator_pattern("k", "K", "cs", "CS", "BI")
_OPERANDS = re.compile(rb"(?:(?<=[" + DELIM + rb"])|^)((?:[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)\s+){4})$")


def limit_content(data: bytes, limiter: InkLimiter) -> bytes | None:
    """The content stream with its `k`/`K` colours limited; None when nothing
    changed. _NeedsParser when it sets colour spaces (see `_limit_parsed`)."""
    out, last, changed = [], 0, False
    for m in operators(data, _TOKEN):
        if m.group("op") not in (b"k", b"K"):
            raise _NeedsParser
        found = _OPERANDS.search(data, max(last, m.start() - 96), m.start())
        if found is None:
            continue
        values = tuple(float(v) for v in found.group(1).split())
        limited = limiter.colour(values)
        if limited != values:
            out += [data[last:found.start(1)], " ".join(_num(v) for v in limited).encode(), b" "]
            last, changed = m.start(), True
    if not changed:
        return None
    out.append(data[last:])
    return b"".join(out)


class _NeedsParser(Exception):
    """A content stream that sets colour spaces: its `sc`/`scn` colours need the parser."""


def _num(v: float) -> str:
    return f"{v:.4f}".rstrip("0").rstrip(".") or "0"


_SPACE_OPS = {"cs": "fill", "CS": "stroke"}
_SET_OPS = {"sc": "fill", "scn": "fill", "SC": "stroke", "SCN": "stroke"}


def _limit_parsed(stream, limiter: InkLimiter) -> None:
    """Rewrite one content stream's CMYK colours (`k`/`K`, and `sc`/`scn` in DeviceCMYK) through pikepdf's parser."""
    space = {"fill": "", "stroke": ""}
    changed = False
    out = []
    for inst in pikepdf.parse_content_stream(stream):
        if isinstance(inst, pikepdf.ContentStreamInlineImage):
            out.append(inst)
            continue
        operands, name = inst.operands, str(inst.operator)
        if name in _SPACE_OPS:
            space[_SPACE_OPS[name]] = str(operands[0]) if operands else ""
        if name in ("k", "K") or (name in _SET_OPS and space[_SET_OPS[name]] == "/DeviceCMYK" and len(operands) == 4):
            values = tuple(float(v) for v in operands)
            limited = limiter.colour(values)
            if limited != values:
                inst = pikepdf.ContentStreamInstruction([pikepdf.Object.parse(_num(v).encode()) for v in limited],
                                                        inst.operator)
                changed = True
        out.append(inst)
    if changed:
        stream.write(zlib.compress(pikepdf.unparse_content_stream(out)), filter=pikepdf.Name.FlateDecode)


def _limit_stream(stream, limiter: InkLimiter) -> None:
    try:
        data = limit_content(stream.read_bytes(), limiter)
    except _NeedsParser:
        _limit_parsed(stream, limiter)
        return
    if data is not None:
        stream.write(zlib.compress(data), filter=pikepdf.Name.FlateDecode)


def _limit_image(image: pikepdf.Stream, limit: float) -> bool:
    if image.get("/ColorSpace") != pikepdf.Name.DeviceCMYK or int(image.get("/BitsPerComponent", 8)) != 8:
        return False
    pil = pikepdf.PdfImage(image).as_pil_image()
    if pil.mode != "CMYK":
        return False
    if _adobe_inverted(image, pil):   # Ghostscript's CMYK JPEGs: Pillow hands their inks back inverted
        pil = ImageChops.invert(pil)
    if within(pil, limit):   # a picture made ready before (pnp.extras.presspictures): left as it is
        return False
    limited = limit_picture(pil, limit)
    image.write(zlib.compress(limited.tobytes()), filter=pikepdf.Name.FlateDecode)
    for key in ("/DecodeParms", "/Decode"):
        if key in image:
            del image[key]
    return True


def _adobe_inverted(image: pikepdf.Stream, pil: Image.Image) -> bool:
    """Whether a DCT picture is an Adobe CMYK JPEG with no /Decode: PDF readers take its
    bytes as Adobe stores them (inverted), and Pillow's decoding gives 255 minus each ink."""
    filters = image.get("/Filter")
    names = [str(f) for f in filters] if isinstance(filters, pikepdf.Array) else [str(filters)]
    return names[-1:] == ["/DCTDecode"] and "/Decode" not in image and "adobe" in pil.info


def within(image: Image.Image, limit: float) -> bool:
    """Whether every pixel of a CMYK picture is within `limit` total ink (to the 1/255 of each ink)."""
    c, m, y, k = image.split()
    total = ImageMath.lambda_eval(lambda e: e["c"] + e["m"] + e["y"] + e["k"], c=c, m=m, y=y, k=k)
    return total.getextrema()[1] <= limit * 255 + 2


def limit_picture(image: Image.Image, limit: float) -> Image.Image:
    """A CMYK picture with every pixel's total ink within `limit`: black added
    for the grey in C, M, Y (grey component replacement), then C, M, Y scaled down."""
    c, m, y, k = (band.convert("F") for band in image.split())
    cap = limit * 255

    def moved(e):   # the grey moved into black: at most what is over, shared by C, M, Y and K
        grey = e["min"](e["min"](e["c"], e["m"]), e["y"])
        over = e["max"](e["c"] + e["m"] + e["y"] + e["k"] - cap, 0)
        return e["min"](e["min"](grey, 255 - e["k"]), over / 2)

    t = ImageMath.lambda_eval(moved, c=c, m=m, y=y, k=k)
    k = ImageMath.lambda_eval(lambda e: e["k"] + e["t"], k=k, t=t)
    c, m, y = (ImageMath.lambda_eval(lambda e: e["v"] - e["t"], v=v, t=t) for v in (c, m, y))
    s = ImageMath.lambda_eval(lambda e: e["max"](e["min"]((cap - e["k"]) / e["max"](e["c"] + e["m"] + e["y"], 0.001),
                                                           1.0), 0.0), c=c, m=m, y=y, k=k)
    scaled = [ImageMath.lambda_eval(lambda e: e["v"] * e["s"], v=v, s=s) for v in (c, m, y)]
    return Image.merge("CMYK", [b.convert("L") for b in (*scaled, k)])


def limit_ink(pdf: bytes, profile: Path, limit: float = 2.4) -> bytes:
    """The CMYK PDF with every colour and CMYK picture within `limit` total ink."""
    limiter = InkLimiter(profile, limit)
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        done: set[tuple[int, int]] = set()
        for page in doc.pages:
            page.contents_coalesce()
            _limit_stream(page.obj.Contents, limiter)
            _walk(page.obj.get("/Resources"), limiter, done)
        out = io.BytesIO()
        doc.save(out, compress_streams=True, object_stream_mode=pikepdf.ObjectStreamMode.disable)
        return out.getvalue()


def _walk(resources, limiter: InkLimiter, done: set) -> None:
    """Forms, patterns and pictures under `resources`, each limited once."""
    if not isinstance(resources, pikepdf.Dictionary):
        return
    for group in ("/XObject", "/Pattern"):
        for obj in (resources.get(group) or {}).values():
            if not isinstance(obj, pikepdf.Stream) or obj.objgen in done:
                continue
            done.add(obj.objgen)
            if obj.get("/Subtype") == "/Image":
                _limit_image(obj, limiter.limit)
            elif obj.get("/Subtype") == "/Form" or obj.get("/PatternType") == 1:
                _limit_stream(obj, limiter)
                _walk(obj.get("/Resources"), limiter, done)
