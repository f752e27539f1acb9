"""The preflight's checks of one exported PDF, each read back from the file
(pikepdf for its objects, pypdfium2 for where text and pictures land), as a
shop's own preflight would: PDF/X version and output intent, RGB and
transparency, TrimBox and BleedBox, page size, fonts embedded and told apart,
pictures at 300 ppi, and text inside the safe zone. Ink is measured on the
rendered separations (pnp.extras.inkmeasure)."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from pnp.extras.contentscan import operator_pattern, operators
from pnp.extras.pdfx import PDFX_VERSION
from pnp.faces.facecheck import SAFE_ZONE_MM

PT_PER_MM = 72 / 25.4
BOX_TOLERANCE_MM = 0.05
MIN_PPI = 300
_RGB_SPACES = {"/DeviceRGB", "/CalRGB", "/Lab"}
_FONT_FILES = ("/FontFile", "/FontFile2", "/FontFile3")
_RGB_OPS = operator_pattern("rg", "RG")


@dataclass(frozen=True)
class PdfRules:
    pdfx: bool           # PDF/X-1a:2003 with a CMYK output intent
    cmyk_only: bool      # no RGB, no transparency
    card_mm: tuple[float, float]
    bleed_mm: float


Found = tuple  # (page or None, rule, message)


def page_keys(path: Path) -> list[bytes]:
    """One key per page: pages with equal keys draw the same content with the
    same resources (a deck's back, repeated for every card), so what is
    measured on one holds for all."""
    keys = []
    with pikepdf.open(path) as pdf:
        for page in pdf.pages:
            h = hashlib.sha256()
            contents = page.obj.get("/Contents")
            streams = contents if isinstance(contents, pikepdf.Array) else [contents] if contents is not None else []
            for stream in streams:
                h.update(stream.read_bytes())
            resources = page.obj.get("/Resources") or pikepdf.Dictionary()
            for group in ("/XObject", "/Font", "/ExtGState", "/ColorSpace", "/Pattern", "/Shading"):
                for name, obj in sorted((resources.get(group) or {}).items()):
                    h.update(f"{group}{name}{getattr(obj, 'objgen', '')}".encode())
            for box in ("/MediaBox", "/TrimBox", "/BleedBox"):
                h.update(repr([float(v) for v in page.obj.get(box, [])]).encode())
            keys.append(h.digest())
    return keys


def check_pdf(path: Path, rules: PdfRules, keys: list[bytes] | None = None) -> list[Found]:
    """Every finding of one PDF: (page number or None for the whole file, rule, message).
    PDFium is not thread-safe: call this from one thread at a time."""
    out: list[Found] = []
    keys = page_keys(path) if keys is None else keys
    with pikepdf.open(path) as pdf:
        if rules.pdfx:
            out += _pdfx(pdf)
        fonts: dict[str, set] = {}
        streams: dict[tuple, list[tuple[str, str]]] = {}   # a form's findings, found once for every page drawing it
        for number, page in enumerate(pdf.pages, 1):
            out += [(number, rule, msg) for rule, msg in _boxes(page, rules)]
            for k, (stream, resources) in enumerate(_streams(page.obj)):
                key = ("page", number) if k == 0 else stream.objgen   # the page itself, then each form it draws
                if key not in streams:
                    seen: set = set()
                    streams[key] = (_colour(stream, resources, seen) if rules.cmyk_only else []) \
                        + _fonts(resources, fonts, seen)
                out += [(number, rule, msg) for rule, msg in streams[key]]
        for tag, files in sorted(fonts.items()):
            if len(files) > 1:
                names = ", ".join(sorted(f"{tag}+{name}" for name, _ in files))
                out.append((None, "font-subset-tag", f"{len(files)} different fonts share the subset tag {tag}+ "
                                                     f"({names}); each subset needs a tag of its own"))
    out += _placed(path, keys)
    return out


def _pdfx(pdf) -> list[Found]:
    out = []
    version = str(pdf.docinfo.get("/GTS_PDFXVersion", "")) if pdf.docinfo is not None else ""
    if version != PDFX_VERSION:
        out.append((None, "pdfx-version", f"GTS_PDFXVersion is {version or 'missing'}, not {PDFX_VERSION}"))
    if str(pdf.pdf_version) > "1.4":
        out.append((None, "pdfx-version", f"PDF {pdf.pdf_version}: PDF/X-1a:2003 is PDF 1.3 or 1.4"))
    intents = [i for i in pdf.Root.get("/OutputIntents", []) if i.get("/S") == "/GTS_PDFX"]
    if len(intents) != 1:
        out.append((None, "output-intent", f"{len(intents)} GTS_PDFX output intents; PDF/X needs exactly one"))
        return out
    intent = intents[0]
    profile = intent.get("/DestOutputProfile")
    header = profile.read_bytes()[:20] if isinstance(profile, pikepdf.Stream) else b""
    if not str(intent.get("/OutputConditionIdentifier", "")):
        out.append((None, "output-intent", "the output intent has no OutputConditionIdentifier"))
    if header[12:16] != b"prtr" or header[16:20] != b"CMYK":
        out.append((None, "output-intent", "the output intent's profile is not a CMYK printer profile"))
    return out


def _streams(page):
    """The page's content and every form it draws (once each), with each one's resources."""
    yield page, page.get("/Resources") or pikepdf.Dictionary()
    stack, done = [page.get("/Resources") or pikepdf.Dictionary()], set()
    while stack:
        resources = stack.pop()
        for xobject in (resources.get("/XObject") or {}).values():
            if xobject.get("/Subtype") == "/Form" and xobject.objgen not in done:
                done.add(xobject.objgen)
                inner = xobject.get("/Resources") or pikepdf.Dictionary()
                yield xobject, inner
                stack.append(inner)


def _content(stream) -> bytes:
    """A form's content, or a page's (its /Contents: one stream or several)."""
    if isinstance(stream, pikepdf.Stream):
        return stream.read_bytes()
    contents = stream.get("/Contents")
    parts = contents if isinstance(contents, pikepdf.Array) else [contents] if contents is not None else []
    return b"\n".join(part.read_bytes() for part in parts)


def _space_family(space) -> str:
    if isinstance(space, pikepdf.Array) and len(space):
        family = str(space[0])
        if family == "/ICCBased":
            return "/DeviceRGB" if int(space[1].get("/N", 0)) == 3 else family
        return family
    return str(space)


def _colour(stream, resources, seen: set) -> list[tuple[str, str]]:
    out = []
    data = _content(stream)
    used = set()
    if b"rg" in data or b"RG" in data:    # the bytes at all (often in text), then as operators
        used = {m.group("op").decode() for m in operators(data, _RGB_OPS)}
    if used:
        out.append(("rgb", f"RGB colour operators ({', '.join(sorted(used))}) in the page's drawing"))
    for name, space in (resources.get("/ColorSpace") or {}).items():
        if _space_family(space) in _RGB_SPACES:
            out.append(("rgb", f"colour space {name} is {_space_family(space)[1:]}"))
    if isinstance(stream, pikepdf.Stream) and stream.get("/Group") is not None \
            and stream.Group.get("/S") == "/Transparency":
        out.append(("transparency", "a transparency group"))
    for name, gs in (resources.get("/ExtGState") or {}).items():
        if getattr(gs, "objgen", None) in seen:
            continue
        for key in ("/CA", "/ca"):
            if float(gs.get(key, 1)) < 1:
                out.append(("transparency", f"graphics state {name} sets {key[1:]} {float(gs[key]):g} (see-through)"))
        if str(gs.get("/SMask", "/None")) != "/None":
            out.append(("transparency", f"graphics state {name} sets a soft mask"))
        if str(gs.get("/BM", "/Normal")) not in ("/Normal", "/Compatible"):
            out.append(("transparency", f"graphics state {name} blends with {str(gs.BM)[1:]}"))
    for name, xobject in (resources.get("/XObject") or {}).items():
        if xobject.get("/Subtype") != "/Image" or xobject.objgen in seen:
            continue
        seen.add(xobject.objgen)
        if _space_family(xobject.get("/ColorSpace", "")) in _RGB_SPACES:
            out.append(("rgb", f"picture {name} is RGB"))
        if "/SMask" in xobject or "/Mask" in xobject:
            out.append(("transparency", f"picture {name} has a mask (transparent pixels)"))
    return out


def _fonts(resources, fonts: dict[str, set], seen: set) -> list[tuple[str, str]]:
    out = []
    for name, font in (resources.get("/Font") or {}).items():
        if font.objgen in seen:
            continue
        seen.add(font.objgen)
        base = str(font.get("/BaseFont", ""))[1:]
        described = font
        if font.get("/Subtype") == "/Type0" and font.get("/DescendantFonts"):
            described = font.DescendantFonts[0]
        if font.get("/Subtype") == "/Type3":
            continue
        descriptor = described.get("/FontDescriptor")
        embedded = descriptor is not None and any(k in descriptor for k in _FONT_FILES)
        if not embedded:
            out.append(("font-embedded", f"font {base or name} is not embedded"))
            continue
        tag, plus, rest = base.partition("+")
        if plus and len(tag) == 6 and tag.isupper():
            stream = next(descriptor[k] for k in _FONT_FILES if k in descriptor)
            fonts.setdefault(tag, set()).add((rest, stream.objgen))
    return out


def _box_mm(box) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = (float(v) / PT_PER_MM for v in box)
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def _boxes(page, rules: PdfRules) -> list[tuple[str, str]]:
    out = []
    media = _box_mm(page.mediabox)
    w, h = rules.card_mm
    b = rules.bleed_mm
    size = (media[2] - media[0], media[3] - media[1])
    if abs(size[0] - (w + 2 * b)) > BOX_TOLERANCE_MM or abs(size[1] - (h + 2 * b)) > BOX_TOLERANCE_MM:
        out.append(("page-size", f"the page is {size[0]:.2f} x {size[1]:.2f} mm, not the card with its bleed, "
                                 f"{w + 2 * b:.2f} x {h + 2 * b:.2f} mm"))
    trim, bleed = page.obj.get("/TrimBox"), page.obj.get("/BleedBox")
    if trim is None or bleed is None:
        missing = " and ".join(n for n, v in (("TrimBox", trim), ("BleedBox", bleed)) if v is None)
        return out + [("trim-bleed-box", f"no {missing}")]
    t, bl = _box_mm(trim), _box_mm(bleed)
    if abs(t[2] - t[0] - w) > BOX_TOLERANCE_MM or abs(t[3] - t[1] - h) > BOX_TOLERANCE_MM:
        out.append(("trim-bleed-box", f"the TrimBox is {t[2] - t[0]:.2f} x {t[3] - t[1]:.2f} mm, not the card's "
                                      f"{w:.2f} x {h:.2f} mm"))
    insets = (t[0] - bl[0], t[1] - bl[1], bl[2] - t[2], bl[3] - t[3])
    if any(abs(i - b) > BOX_TOLERANCE_MM for i in insets):
        out.append(("trim-bleed-box", f"the bleed around the TrimBox is {min(insets):.2f} to {max(insets):.2f} mm, "
                                      f"not {b:.3f} mm on every side"))
    return out


def _has_pictures(path: Path) -> list[bool]:
    """Per page: whether it or a form it draws holds a picture."""
    with pikepdf.open(path) as pdf:
        return [any(any(x.get("/Subtype") == "/Image" for x in (res.get("/XObject") or {}).values())
                    for _, res in _streams(page.obj)) for page in pdf.pages]


def _placed(path: Path, keys: list[bytes]) -> list[Found]:
    """Pictures under 300 ppi and text inside the safe zone, where pdfium places them (pages alike read once)."""
    out: list[Found] = []
    done: dict[bytes, list[tuple[str, str]]] = {}
    pictures = _has_pictures(path)
    doc = pdfium.PdfDocument(str(path))
    try:
        for i in range(len(doc)):
            if keys[i] not in done:
                page = doc[i]
                done[keys[i]] = _page_placed(page, pictures[i])
                page.close()
            out += [(i + 1, rule, msg) for rule, msg in done[keys[i]]]
    finally:
        doc.close()
    return out


def _page_placed(page, pictures: bool) -> list[tuple[str, str]]:
    out = []
    for obj in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,)) if pictures else ():
        px_w, px_h = obj.get_px_size()
        x0, y0, x1, y1 = obj.get_bounds()
        if x1 - x0 <= 0 or y1 - y0 <= 0:
            continue
        ppi = min(px_w / ((x1 - x0) / 72), px_h / ((y1 - y0) / 72))
        if ppi < MIN_PPI - 0.5:
            out.append(("picture-ppi", f"a {px_w} x {px_h} px picture placed at {(x1 - x0) / PT_PER_MM:.1f} x "
                                       f"{(y1 - y0) / PT_PER_MM:.1f} mm prints at {ppi:.0f} ppi, under {MIN_PPI}"))
    trim = page.get_trimbox()
    zone = SAFE_ZONE_MM * PT_PER_MM - 0.01
    inside = (trim[0] + zone, trim[1] + zone, trim[2] - zone, trim[3] - zone)
    text = page.get_textpage()
    worst: tuple[float, int] | None = None
    n = text.count_chars()
    every = text.get_text_range(0, n) if n else ""
    chars = every if len(every) == n else None      # one character each (else read them one by one)
    for start, count in _runs_outside(text, n, inside):
        for k in range(start, start + count):
            ch = chars[k] if chars is not None else text.get_text_range(k, 1)
            if not ch.strip():
                continue
            left, bottom, right, top = text.get_charbox(k)
            d = min(left - trim[0], bottom - trim[1], trim[2] - right, trim[3] - top)
            if (left < inside[0] or bottom < inside[1] or right > inside[2] or top > inside[3]) \
                    and (worst is None or d < worst[0]):
                worst = (d, k)
    if worst is not None:
        word = _word_at(text, worst[1])
        out.append(("safe-zone", f"text {word!r} is {worst[0] / PT_PER_MM:.1f} mm from the trim, inside the "
                                 f"{SAFE_ZONE_MM:.3f} mm (1/8 in) safe zone"))
    text.close()
    return out


def _runs_outside(text, n: int, inside) -> list[tuple[int, int]]:
    """(first character, count) of the characters to look at one by one: none when
    every one of pdfium's text rectangles (each a run of characters on a line, as
    large as their boxes together) lies inside `inside`, else all of them."""
    for r in range(text.count_rects()):
        left, bottom, right, top = text.get_rect(r)
        if left < inside[0] or bottom < inside[1] or right > inside[2] or top > inside[3]:
            return [(0, n)]
    return []


def _word_at(text, k: int) -> str:
    """The word of the text page around character `k`."""
    start, end, n = k, k + 1, text.count_chars()
    while start > 0 and k - start < 40 and text.get_text_range(start - 1, 1).strip():
        start -= 1
    while end < n and end - k < 40 and text.get_text_range(end, 1).strip():
        end += 1
    return text.get_text_range(start, end - start)
