"""`pnp preflight GAME --shop SHOP`: an export's files checked against the
shop's rules, as the shop's own preflight would check them, each finding one
line naming the file, the page, the card and the rule.

Rules, per shop (DriveThruCards: every one; pdf-single: those of a PDF that
is not PDF/X; TGC and MPC: those of a PNG):

| rule              | drivethru | pdf-single | tgc, mpc |
|-------------------|-----------|------------|----------|
| pdfx-version      | PDF/X-1a:2003, PDF 1.3-1.4 | | |
| output-intent     | one GTS_PDFX intent, a CMYK printer profile | | |
| rgb, transparency | none | | PNG: RGB, no alpha |
| ink-limit         | 240% C+M+Y+K on the rendered separations | | |
| trim-bleed-box, page-size | TrimBox the card, BleedBox 1/8 in around it | same | |
| pixel-size, resolution | | | the shop's exact pixels, 300 dpi |
| font-embedded, font-subset-tag | every font embedded, one tag per subset | same | |
| picture-ppi       | placed pictures 300 ppi or more (in the file, and as laid out) | same | as laid out |
| safe-zone         | text in the file, and text and QR codes as laid out, 1/8 in inside the trim | same | as laid out |

The checks of a file read only the file (pnp.extras.pdfrules,
pnp.extras.inkmeasure, Pillow); "as laid out" comes from the cards' faces
(pnp.faces.facecheck), which a PNG cannot show. Files with the same bytes (a
card's copies) are checked once and reported each.
"""
from __future__ import annotations

import csv
import hashlib
import json
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

from pnp.errors import PnpError, Problems
from pnp.extras.export import SHOPS, ShopSpec, export, pixel_size
from pnp.extras.inkmeasure import files_ink
from pnp.extras.pdfrules import PdfRules, check_pdf, page_keys
from pnp.extras.staging import EXPORT_MANIFEST, shop_folder
from pnp.extras.facenotes import LayoutNote, layout_notes
from pnp.model import Game, Shop
from pnp.pipeline.prepare import deck_size

INK_LIMIT = {Shop.DRIVETHRU: 240.0}
DPI = 300


@dataclass(frozen=True, order=True)
class Finding:
    file: str          # relative to the output folder: <game>/shop-<shop>/<deck>/<file>
    page: int          # 0: the whole file
    card: str          # "<card id> front", "<deck> back", or "-" for the whole file
    rule: str
    message: str

    def __str__(self) -> str:
        page = f"page {self.page}" if self.page else "all pages"
        return f"{self.file}: {page}: {self.card}: {self.rule}: {self.message}"


@dataclass
class PreflightReport:
    shop: ShopSpec
    folder: Path
    files: int = 0
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return not self.findings


# --------------------------------------------------------------------------- the files

def _exported(folder: Path) -> list[str]:
    try:
        names = json.loads((folder / EXPORT_MANIFEST).read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError):
        raise PnpError(f"no export in {folder} ({EXPORT_MANIFEST} missing or unreadable); "
                       "run `pnp export` for this shop first") from None
    return [n for n in names if n.endswith((".pdf", ".png"))]


def _who(folder: Path) -> tuple[dict[tuple[str, int], str], dict[str, list[str]]]:
    """From order.csv: (file, page) -> the face it shows, and each face -> its files (`file#page=N` refs)."""
    labels: dict[tuple[str, int], str] = {}
    refs: dict[str, list[str]] = {}
    try:
        rows = list(csv.DictReader((folder / "order.csv").read_text(encoding="utf-8").splitlines()))
    except OSError:
        return labels, refs
    for row in rows:
        for column, value in row.items():
            if not column or not column.endswith("_files") or not value:
                continue
            side = "front" if column.startswith("front") else "back"
            label = f"{row.get('card_id', '?')} front" if side == "front" else f"{row.get('deck', '?')} back"
            for ref in value.split():
                name, _, page = ref.partition("#page=")
                labels.setdefault((name, int(page) if page.isdigit() else 1), label)
                refs.setdefault(label, []).append(ref)
                if side == "back":   # a back per card: its card's own
                    refs.setdefault(f"{row.get('card_id', '?')} back", []).append(ref)
    return labels, refs


def _png(path: Path, px: tuple[int, int]) -> list[tuple[int, str, str]]:
    """The findings on one PNG (its one page, page 1)."""
    out = []
    with Image.open(path) as image:
        if image.size != px:
            out.append((1, "pixel-size", f"{image.size[0]} x {image.size[1]} px, not {px[0]} x {px[1]} px"))
        dpi = image.info.get("dpi")
        if not dpi or any(abs(float(d) - DPI) > 0.5 for d in dpi):
            out.append((1, "resolution", f"the image says {dpi and round(float(dpi[0]))} dpi, not {DPI}"))
        if image.mode != "RGB":
            rule = "transparency" if "A" in image.mode or "transparency" in image.info else "rgb"
            out.append((1, rule, f"the image is {image.mode}, not RGB without transparency"))
    return out


def _ink_findings(files: list[tuple[Path, list[bytes]]], limit: float) -> list[list[tuple[int, str, str]]]:
    """Each file's pages over the ink limit, measured on their rendered separations (one Ghostscript
    run for every file of the export, in its own process)."""
    return [[(ink.page, "ink-limit", f"total ink reaches {ink.max_percent:.0f}% "
                                     f"({ink.over_share:.1%} of the page over {limit:.0f}%)")
             for ink in inks if ink.max_percent > limit + 2 / 255 * 100]
            for inks in files_ink(files, limit)]


def _check_files(todo: dict[str, tuple[Path, tuple[float, float], tuple[int, int]]], spec: ShopSpec) -> dict[str, list]:
    """Each distinct file's findings. Ghostscript renders the CMYK files' separations, all
    in one run, in a thread while this thread reads the files with pikepdf and PDFium
    (which is not thread-safe)."""
    limit = INK_LIMIT.get(spec.shop)
    out: dict[str, list] = {}
    with ThreadPoolExecutor(max_workers=1) as pool:
        keys = {digest: page_keys(path) for digest, (path, _, _) in todo.items()
                if limit is not None and path.suffix == ".pdf"}
        inks = pool.submit(_ink_findings, [(todo[d][0], k) for d, k in keys.items()], limit) if keys else None
        for digest, (path, card_mm, px) in todo.items():
            if path.suffix == ".png":
                out[digest] = _png(path, px)
                continue
            rules = PdfRules(pdfx=spec.shop is Shop.DRIVETHRU, cmyk_only=spec.shop is Shop.DRIVETHRU,
                             card_mm=card_mm, bleed_mm=spec.bleed_mm)
            out[digest] = [(page or 0, rule, msg) for page, rule, msg in check_pdf(path, rules, keys.get(digest))]
        for digest, found in zip(keys, inks.result() if inks is not None else []):
            out[digest] += found
    return out


def check_export(folder: Path, game: Game, shop: Shop, notes: list[LayoutNote]) -> PreflightReport:
    """Every finding on the export in `folder` (made from `game`), with the faces' `notes`."""
    started = time.perf_counter()
    if shop not in SHOPS:
        raise PnpError(f"preflight checks print shops' files; {shop.value} is not one "
                       f"(shops: {', '.join(s.value for s in SHOPS)})")
    spec = SHOPS[shop]
    report = PreflightReport(spec, folder)
    names = _exported(folder)
    labels, refs = _who(folder)
    decks = {d.id: d for d in game.decks}
    base = f"{game.slug}/{folder.name}"
    todo: dict[str, tuple[Path, tuple[float, float], tuple[int, int]]] = {}
    files: list[tuple[str, str]] = []
    for name in names:
        deck = decks.get(name.split("/", 1)[0])
        if deck is None:
            continue
        size = deck_size(deck, game)
        path = folder / name
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        todo.setdefault(digest, (path, (size.width, size.height), pixel_size(size, spec)))
        files.append((name, digest))
    checked = _check_files(todo, spec)   # each distinct file once
    report.files = len(files)
    for name, digest in files:
        for page, rule, message in checked[digest]:
            card = labels.get((name, page), "-") if page else "-"
            report.findings.append(Finding(f"{base}/{name}", page, card, rule, message))
    for note in notes:
        label = note.label
        where = refs.get(label) or [f"{note.deck}/"]
        name, _, page = where[0].partition("#page=")
        copies = f" (and on its {len(where) - 1} other copies)" if len(where) > 1 else ""
        report.findings.append(Finding(f"{base}/{name}", int(page) if page.isdigit() else 1, label, note.rule,
                                       note.message + copies))
    report.findings = sorted(set(report.findings))
    report.seconds = time.perf_counter() - started
    return report


def preflight(project: Path, game_slug: str, shop: Shop, out_dir: Path) -> PreflightReport:
    """Check the export of GAME for SHOP in `out_dir` (its faces as laid out from the sources as they are now)."""
    from pnp.render.tools import load_tools  # lazy: only a preflight of its own draws the faces again
    from pnp.sources.loader import load_sources  # lazy: as above

    started = time.perf_counter()
    folder = shop_folder(out_dir, game_slug, shop)
    _exported(folder)   # no export: say so before reading anything
    game = load_sources(project, [game_slug]).games[game_slug]
    problems = Problems(project)
    exported = {n.split("/", 1)[0] for n in _exported(folder)}
    notes = layout_notes(game, [d for d in game.decks if d.id in exported], load_tools(project, game_slug), problems)
    problems.raise_if_any()
    report = check_export(folder, game, shop, notes)
    report.seconds = time.perf_counter() - started
    return report


def export_checked(project: Path, game_slug: str, shop: Shop, out_dir: Path, decks: list[str] | None = None,
                   per_copy: bool = False):
    """`pnp export`: the shop's files written (pnp.extras.export), then preflighted. (ExportReport, PreflightReport)."""
    made = export(project, game_slug, shop, out_dir, decks, per_copy)
    return made, check_export(made.folder, made.game, shop, made.notes)
