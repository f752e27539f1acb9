"""Print-on-demand exports: the files a print shop asks for, per deck.

    output/<game>/shop-<shop>/
        <deck>/...            the deck's files, named by card id and copy number
        <deck>.zip            the same files, for upload
        order.csv             one row per card: its quantity and its files
        export.json           what this export wrote (so a re-export removes stale files)

Shops:
- tgc (The Game Crafter): one PNG per card face and per back, 300 dpi, with
  a 1/8 inch (37.5 px) bleed on every side. Sizes are computed from the card
  size in mm: round(mm / 25.4 * 300 + 75), halves rounding up. Poker
  (63.5 x 88.9 mm = 2.5 x 3.5 in) is 825 x 1125 px, bridge 750 x 1125, tarot
  900 x 1500, square 825 x 825; metric sizes round to the nearest pixel.
- mpc (MakePlayingCards): the same, with MPC's 36 px bleed: round(mm / 25.4 * 300 + 72);
  poker 822 x 1122 px.
- drivethru (DriveThruCards): one PDF/X-1a:2003 file per deck (CMYK, the
  SWOP output intent, fonts embedded, TrimBox and BleedBox set: see
  pnp.extras.pdfx), pages back 1, front 1, back 2, front 2, ..., each page
  the card plus 1/8 inch bleed.
- pdf-single: one PDF per card copy (front page, then back page), the card
  plus 1/8 inch bleed, TrimBox and BleedBox set.

Every face is drawn once, with its bleed: full-bleed backgrounds run on past
the trim. The safe zone check lists text and QR codes closer than 1/8 inch
(3.175 mm) to the trim as warnings.
"""
from __future__ import annotations

import csv
import io
import json
import math
import time
import zipfile
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium

from pnp.pipeline.orchestrator import check_games
from pnp.pipeline.prepare import DeckFaces, deck_size, prepare_decks
from pnp.errors import PnpError, Problems
from pnp.faces.elements import QR, Text
from pnp.faces.textfit import setting, wrapped
from pnp.model import Card, Deck, Game, Shop, Size
from pnp.render.canvas import draw_face, new_canvas
from pnp.render.tools import Tools, load_tools
from pnp.sources.loader import load_sources
from pnp.units import mm, pt
from pnp.write import write_atomic, write_json

MM_PER_INCH = 25.4
DPI = 300
BLEED_MM = MM_PER_INCH / 8          # 1/8 inch
SAFE_ZONE_MM = MM_PER_INCH / 8
EXPORT_MANIFEST = "export.json"
ORDER_CSV = "order.csv"
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)


class Output(str, Enum):
    PNG = "png"            # one image per face
    DECK_PDF = "deck-pdf"  # one PDF per deck
    CARD_PDF = "card-pdf"  # one PDF per card copy


@dataclass(frozen=True)
class ShopSpec:
    shop: Shop
    name: str
    output: Output
    bleed_px: float = 0.0   # per side, at DPI (image shops)
    bleed_mm: float = 0.0   # per side (PDF shops)


SHOPS: dict[Shop, ShopSpec] = {
    Shop.TGC: ShopSpec(Shop.TGC, "The Game Crafter", Output.PNG, bleed_px=37.5),
    Shop.MPC: ShopSpec(Shop.MPC, "MakePlayingCards", Output.PNG, bleed_px=36.0),
    Shop.DRIVETHRU: ShopSpec(Shop.DRIVETHRU, "DriveThruCards", Output.DECK_PDF, bleed_mm=BLEED_MM),
    Shop.PDF_SINGLE: ShopSpec(Shop.PDF_SINGLE, "single-card PDFs", Output.CARD_PDF, bleed_mm=BLEED_MM),
}


def _round_half_up(v: float) -> int:
    return math.floor(v + 0.5 + 1e-9)


def pixel_size(card: Size, spec: ShopSpec, dpi: int = DPI) -> tuple[int, int]:
    """The image size in pixels: the card at `dpi` plus the shop's bleed on both sides."""
    return (_round_half_up(card.width / MM_PER_INCH * dpi + 2 * spec.bleed_px),
            _round_half_up(card.height / MM_PER_INCH * dpi + 2 * spec.bleed_px))


@dataclass(frozen=True)
class DeckExport:
    deck: str
    cards: int            # distinct cards
    copies: int
    size: str             # "825 x 1125 px" or "69.85 x 95.25 mm"
    folder: Path
    zip: Path


@dataclass
class ExportReport:
    shop: ShopSpec
    folder: Path
    decks: list[DeckExport] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    csv: Path | None = None
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0


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


def _safe_zone_warnings(deck: Deck, faces: list[tuple[str, Any]], size: Size, style: dict) -> list[str]:
    found: dict[tuple[str, float], list[str]] = {}
    for label, face in faces:
        for what, d in safe_zone_problems(face, size, style):
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


def _pdf_pages(faces: list, card: Size, bleed: float, ctx, title: str, boxes: bool = True) -> bytes:
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


def _pngs(faces: list, card: Size, px: tuple[int, int], ctx, title: str) -> list[bytes]:
    """Each face as a PNG of exactly `px` pixels at DPI, the card centred, its art run into the bleed."""
    w_in, h_in = px[0] / DPI, px[1] / DPI
    page = Size(w_in * MM_PER_INCH, h_in * MM_PER_INCH, "image")
    bx, by = (page.width - card.width) / 2, (page.height - card.height) / 2
    buffer = io.BytesIO()
    canvas = _canvas(buffer, page, ctx, title)
    for face in faces:
        _draw_on_page(canvas, face, card, bx, by, ctx)
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


def _zip(files: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files:
            info = zipfile.ZipInfo(name, _ZIP_DATE)
            info.compress_type = zipfile.ZIP_STORED if name.endswith(".png") else zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return buffer.getvalue()


# --------------------------------------------------------------------------- the export

def _copies(deck: Deck) -> list[tuple[Card, int]]:
    return [(card, n) for card in deck.cards for n in range(1, card.quantity + 1)]


def _deck_files(shop: ShopSpec, game: Game, deck: Deck, size: Size, fronts: dict, back, ctx
                ) -> tuple[list[tuple[str, bytes]], dict[str, dict[str, list[str]]], str]:
    """(file name, bytes) for the deck, each card's fronts/backs references, and the size in words."""
    copies = _copies(deck)
    refs: dict[str, dict[str, list[str]]] = {c.id: {"fronts": [], "backs": []} for c in deck.cards}
    files: list[tuple[str, bytes]] = []
    title = f"{game.name} — {deck.name}"
    if shop.output is Output.PNG:
        px = pixel_size(size, shop)
        faces = list(deck.cards) + ([None] if back is not None else [])
        images = _pngs([fronts[c.id] if c is not None else back for c in faces], size, px, ctx, title)
        by_card = dict(zip([c.id if c is not None else "" for c in faces], images))
        for card, n in copies:
            name = f"{card.id}-{n}-front.png"
            files.append((name, by_card[card.id]))
            refs[card.id]["fronts"].append(name)
            if back is not None:
                files.append((f"{card.id}-{n}-back.png", by_card[""]))
                refs[card.id]["backs"].append(f"{card.id}-{n}-back.png")
        return files, refs, f"{px[0]} x {px[1]} px"
    page_words = f"{size.width + 2 * shop.bleed_mm:.3f} x {size.height + 2 * shop.bleed_mm:.3f} mm"
    if shop.output is Output.DECK_PDF:
        name = f"{game.slug}-{deck.id}.pdf"
        pages = []
        for card, _ in copies:
            if back is not None:
                pages.append(back)
                refs[card.id]["backs"].append(f"{name}#page={len(pages)}")
            pages.append(fronts[card.id])
            refs[card.id]["fronts"].append(f"{name}#page={len(pages)}")
        from pnp.extras.pdfx import to_pdfx  # lazy: only this shop needs Ghostscript

        files.append((name, to_pdfx(_pdf_pages(pages, size, shop.bleed_mm, ctx, title), title)))
        return files, refs, page_words
    single: dict[str, bytes] = {}
    for card, n in copies:
        if card.id not in single:
            faces = [fronts[card.id]] + ([back] if back is not None else [])
            single[card.id] = _pdf_pages(faces, size, shop.bleed_mm, ctx, f"{game.name} — {card.name}")
        name = f"{card.id}-{n}.pdf"
        files.append((name, single[card.id]))
        refs[card.id]["fronts"].append(f"{name}#page=1")
        if back is not None:
            refs[card.id]["backs"].append(f"{name}#page=2")
    return files, refs, page_words


def shop_folder(out_dir: Path, game: str, shop: Shop) -> Path:
    return out_dir / game / f"shop-{shop.value}"


@dataclass
class GameFaces:
    """A game read and its chosen decks' faces prepared, with the tools that drew them."""

    game: Game
    tools: Tools
    prepared: list[DeckFaces]    # one per chosen deck
    problems: Problems


def game_faces(project: Path, game_slug: str, decks: list[str] | None = None) -> GameFaces:
    """Read GAME, check the deck ids asked for, and prepare those decks' faces
    (all decks when none are named). Problems are collected, not raised."""
    check_games(project, [game_slug])
    game = load_sources(project, [game_slug]).games[game_slug]
    known = [d.id for d in game.decks]
    unknown = [d for d in decks or [] if d not in known]
    if unknown:
        raise PnpError(f"{game_slug} has no deck {', '.join(unknown)}; its decks: {', '.join(known)}")
    chosen = [d for d in game.decks if not decks or d.id in decks]
    tools = load_tools(project, game_slug)
    problems = Problems(project)
    return GameFaces(game, tools, prepare_decks(game, tools, problems, chosen), problems)


def export(project: Path, game_slug: str, shop: Shop, out_dir: Path, decks: list[str] | None = None) -> ExportReport:
    """Write the shop's files for GAME's decks (all, or those named)."""
    started = time.perf_counter()
    spec = SHOPS[shop]
    loaded = game_faces(project, game_slug, decks)
    loaded.problems.raise_if_any()
    game, tools, prepared = loaded.game, loaded.tools, loaded.prepared
    folder = shop_folder(out_dir, game_slug, shop)
    report = ExportReport(spec, folder)
    written: list[tuple[Path, bytes]] = []
    rows = []
    for faces in prepared:
        deck = faces.deck
        size = deck_size(deck, game)
        bleed = max(spec.bleed_mm, spec.bleed_px / DPI * MM_PER_INCH)
        ctx = replace(tools.context, bleed=bleed + 0.5)
        files, refs, size_words = _deck_files(spec, game, deck, size, faces.fronts, faces.back, ctx)
        deck_dir = folder / deck.id
        written += [(deck_dir / name, data) for name, data in files]
        written.append((folder / f"{deck.id}.zip", _zip(files)))
        report.decks.append(DeckExport(deck.id, len(deck.cards), deck.copies, size_words, deck_dir,
                                       folder / f"{deck.id}.zip"))
        labelled = [(f"{c.id} front", faces.fronts[c.id]) for c in deck.cards]
        if faces.back is not None:
            labelled.append((f"{deck.id} back", faces.back))
        report.warnings += _safe_zone_warnings(deck, labelled, size, tools.style)
        for card in deck.cards:
            rows.append([deck.id, card.id, card.name, card.quantity,
                         " ".join(f"{deck.id}/{r}" for r in refs[card.id]["fronts"]),
                         " ".join(f"{deck.id}/{r}" for r in refs[card.id]["backs"])])
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["deck", "card_id", "name", "quantity", "front_files", "back_files"])
    writer.writerows(rows)
    written.append((folder / ORDER_CSV, text.getvalue().encode("utf-8")))
    write_all(folder, written)
    report.files = [p for p, _ in written]
    report.csv = folder / ORDER_CSV
    report.seconds = time.perf_counter() - started
    return report


def write_all(folder: Path, written: list[tuple[Path, bytes]]) -> None:
    """Write every file, then remove what an earlier export of this shop wrote and this one did not."""
    previous: list[str] = []
    try:
        previous = json.loads((folder / EXPORT_MANIFEST).read_text(encoding="utf-8")).get("files", [])
    except (OSError, ValueError, AttributeError):
        previous = []
    for path, data in written:
        write_atomic(path, data)
    now = sorted(str(p.relative_to(folder)) for p, _ in written)
    for stale in set(previous) - set(now):
        target = folder / stale
        if target.resolve().is_relative_to(folder.resolve()):
            target.unlink(missing_ok=True)
            try:
                target.parent.rmdir() if target.parent != folder else None
            except OSError:
                pass   # not empty
    write_json(folder / EXPORT_MANIFEST, {"files": now})
