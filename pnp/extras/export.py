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
  the card plus 1/8 inch bleed (a deck with a back per card: each copy its own).
- pdf-single: one PDF per card copy (front page, then back page), the card
  plus 1/8 inch bleed, TrimBox and BleedBox set.

Every face is drawn once, with its bleed: full-bleed backgrounds run on past
the trim. The faces' notes (text and QR codes closer than 1/8 inch to the
trim, pictures under 300 dpi) go to the preflight that follows every export
(pnp.extras.preflight).

The export runs through the one pipeline (pnp.pipeline.stages) on every core:
each task makes a chunk of a deck's faces (or a whole DriveThruCards deck:
its pictures made CMYK within the ink limit by pnp.extras.presspictures, and
each distinct face drawn once as a page), writes their files into the
staging folder (pnp.extras.staging) and drops them; the write stage has
Ghostscript make every DriveThruCards deck PDF/X-1a in one run
(pnp.extras.pdfx.to_pdfx_files: its start and profile paid once per export),
zips each deck from its staged files and moves everything into place.
"""
from __future__ import annotations

import csv
import io
import math
import time
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path

from pnp.errors import PnpError, Problems
from pnp.extras.deckpdf import draw_deck
from pnp.extras.facenotes import notes_of
from pnp.extras.shopdraw import DPI, MM_PER_INCH, pdf_pages, png_images, zip_files
from pnp.extras.shoporder import ORDER_COLUMNS, back_png, back_sharing, front_png, upload_words
from pnp.extras.staging import ExportJob, ExportTarget, chunks, shop_folder
from pnp.model import Card, Deck, Game, Shop, Size
from pnp.pipeline.prepare import BAD_BACK, back_reads_card, card_backs, deck_size, distinct_backs, prepare_card
from pnp.pipeline.stages import run_stages
from pnp.pipeline.tasks import Task, Work
from pnp.sources.qrpayload import format_payload

BLEED_MM = MM_PER_INCH / 8          # 1/8 inch
ORDER_CSV = "order.csv"
PRESS_PICTURES = ".press"   # in the staging folder: the DriveThruCards pictures in CMYK (pnp.extras.presspictures)


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
    seconds: float = 0.0
    game: Game | None = None
    notes: list = field(default_factory=list)   # the faces' notes for the preflight (pnp.extras.preflight.LayoutNote)


# --------------------------------------------------------------------------- the export

def _copies(deck: Deck) -> list[tuple[Card, int]]:
    return [(card, n) for card in deck.cards for n in range(1, card.quantity + 1)]


def _deck_names(shop: ShopSpec, game: Game, deck: Deck, size: Size, per_copy: bool = False,
                back_files: dict[str, str] | None = None) -> tuple[list[str], dict[str, dict[str, list[str]]], str]:
    """The deck's file names (in zip order), each card's fronts/backs references, and the size in words.
    An image shop gets one front per card and one image per distinct back (`back_files`: each card's;
    the order says how many of each), or with `per_copy` one front per printed copy, each with its own
    copy-numbered QR code."""
    copies = _copies(deck)
    refs: dict[str, dict[str, list[str]]] = {c.id: {"fronts": [], "backs": []} for c in deck.cards}
    names: list[str] = []
    two_sided = deck.back is not None
    if shop.output is Output.PNG:
        px = pixel_size(size, shop)
        for card, n in (copies if per_copy else [(c, 0) for c in deck.cards]):
            names.append(front_png(card.id, n))
            refs[card.id]["fronts"].append(names[-1])
        if two_sided:
            names += list(dict.fromkeys(back_files[card.id] for card in deck.cards))
            for card in deck.cards:
                refs[card.id]["backs"].append(back_files[card.id])
        return names, refs, f"{px[0]} x {px[1]} px"
    page_words = f"{size.width + 2 * shop.bleed_mm:.3f} x {size.height + 2 * shop.bleed_mm:.3f} mm"
    if shop.output is Output.DECK_PDF:
        name = f"{game.slug}-{deck.id}.pdf"
        pages = 0
        for card, _ in copies:
            if two_sided:
                pages += 1
                refs[card.id]["backs"].append(f"{name}#page={pages}")
            pages += 1
            refs[card.id]["fronts"].append(f"{name}#page={pages}")
        return [name], refs, page_words
    for card, n in copies:
        names.append(f"{card.id}-{n}.pdf")
        refs[card.id]["fronts"].append(f"{names[-1]}#page=1")
        if two_sided:
            refs[card.id]["backs"].append(f"{names[-1]}#page=2")
    return names, refs, page_words



@dataclass(frozen=True)
class Drawn:
    """What one task drew: the names it staged, the faces' notes for the preflight
    (pnp.extras.facenotes), each card's back image (an image shop's back task) and a
    DriveThruCards deck's pages, each the index of its distinct page in the staged PDF."""

    staged: list[str] = field(default_factory=list)
    notes: list = field(default_factory=list)
    back_files: dict[str, str] = field(default_factory=dict)
    order: list[int] = field(default_factory=list)


CARDS_PER_TASK = 16   # distinct cards drawn by one task (a DriveThruCards deck is one task)


@dataclass(frozen=True)
class Unit:
    """One task: a chunk of a deck's cards ("cards"), its back ("back", image
    shops), or the whole deck ("deck", DriveThruCards)."""

    kind: str
    deck: int
    start: int = 0
    count: int = 0


@dataclass(frozen=True)
class ShopPart:
    game: Game
    decks: tuple[Deck, ...]
    units: tuple[Unit, ...]


@dataclass(frozen=True)
class ShopJob(ExportJob):
    shop: Shop = Shop.TGC
    per_copy: bool = False   # image shops: one image per printed copy, each with its copy-numbered QR code

    def run(self, work: Work, task: Task):
        """(problems, what it drew: a Drawn)."""
        spec = SHOPS[self.shop]
        part: ShopPart = work.parts[task.game]
        unit = part.units[task.index]
        game, deck, tools = part.game, part.decks[unit.deck], work.tools(task.game)
        problems = Problems(self.project)
        size = deck_size(deck, game)
        cards = deck.cards[unit.start:unit.start + unit.count] if unit.kind == "cards" else list(deck.cards)
        fronts = [prepare_card(card, deck, game, tools, problems) for card in cards] if unit.kind != "back" else []
        drawn_here = unit.kind != "cards" or spec.output is Output.CARD_PDF
        backs = card_backs(self.project, deck, game, tools, problems, cards) if drawn_here else None
        if problems or backs is BAD_BACK:
            return problems.items, Drawn()
        bleed = max(spec.bleed_mm, spec.bleed_px / DPI * MM_PER_INCH)
        ctx = replace(tools.context, bleed=bleed + 0.5)
        notes = [n for card, face in zip(cards, fronts) for n in notes_of(deck, card.id, face, size, tools.style)]
        per_card = backs is not None and back_reads_card(self.project, game, deck)
        if backs is not None and (per_card or unit.kind != "cards" or unit.start + unit.count == len(deck.cards)):
            first = {id(face): card_id for card_id, face in reversed(backs.items())}  # a back's first card
            for face in distinct_backs(backs):
                notes += notes_of(deck, first[id(face)] if per_card else None, face, size, tools.style, "back")
        title = f"{game.name} — {deck.name}"
        staged: list[str] = []

        def stage(name: str, data: bytes) -> None:
            staged.append(f"{deck.id}/{name}")
            self.stage(staged[-1], data)

        back_files: dict[str, str] = {}
        order: list[int] = []
        if spec.output is Output.PNG:
            px = pixel_size(size, spec)
            if unit.kind == "back":  # one image per distinct back, shared by the cards it is behind
                faces = distinct_backs(backs)
                names = {id(face): back_png(deck.id, n if per_card else 0) for n, face in enumerate(faces, 1)}
                for face, image in zip(faces, png_images(faces, size, px, ctx, title)):
                    stage(names[id(face)], image)
                back_files = {card_id: names[id(face)] for card_id, face in backs.items()}
            elif self.per_copy:  # each copy drawn with its own QR payload, as a build prints it
                copies = [(card, face, n) for card, face in zip(cards, fronts) for n in range(1, card.quantity + 1)]
                payloads = [format_payload(card.id, card.revision, n) for card, _, n in copies]
                images = png_images([f for _, f, _ in copies], size, px, ctx, title, payloads)
                for (card, _, n), image in zip(copies, images):
                    stage(front_png(card.id, n), image)
            else:
                for card, image in zip(cards, png_images(fronts, size, px, ctx, title)):
                    stage(front_png(card.id), image)
        elif spec.output is Output.DECK_PDF:   # drawn here, made PDF/X-1a with every other deck in `write`
            data, order = draw_deck(cards, fronts, backs, size, spec.bleed_mm, ctx, title,
                                    Path(self.staging) / PRESS_PICTURES)
            stage(f"{game.slug}-{deck.id}.pdf", data)
        else:
            for card, face in zip(cards, fronts):
                data = pdf_pages([face] + ([backs[card.id]] if backs is not None else []), size, spec.bleed_mm, ctx,
                                 f"{game.name} — {card.name}")
                for n in range(1, card.quantity + 1):
                    stage(f"{card.id}-{n}.pdf", data)
        return [], Drawn(staged, notes, back_files, order)


class ShopTarget(ExportTarget):
    """A print shop's export as a target of the pipeline."""

    def __init__(self, project: Path, game_slug: str, shop: Shop, out_dir: Path, decks: list[str] | None,
                 per_copy: bool = False):
        spec = SHOPS[shop]
        if per_copy and spec.output is not Output.PNG:
            raise PnpError(f"--copies is for the image shops (tgc, mpc); {spec.name} files are one page per copy already")
        super().__init__(project, game_slug, shop_folder(out_dir, game_slug, shop), decks)
        self.spec, self.per_copy = spec, per_copy
        self.job = ShopJob(project, str(self.staging), shop, per_copy)

    # 3. layout: a DriveThruCards deck is one task; other shops draw chunks of cards, and the back once
    def plan(self, game: Game) -> tuple[dict[str, ShopPart], list[Task]]:
        decks = tuple(self.chosen(game))
        units: list[Unit] = []
        for i, deck in enumerate(decks):
            if self.spec.output is Output.DECK_PDF:
                units.append(Unit("deck", i, 0, len(deck.cards)))
                continue
            units += [Unit("cards", i, start, count) for start, count in chunks(len(deck.cards), CARDS_PER_TASK)]
            if deck.back is not None and self.spec.output is Output.PNG:
                units.append(Unit("back", i))
        self.part = ShopPart(game, decks, tuple(units))
        tasks = [Task(game.slug, u.kind, k, f"{game.slug}/{decks[u.deck].id}", max(1, u.count))
                 for k, u in enumerate(units)]
        return {game.slug: self.part}, tasks

    # 5. write: each deck zipped from its staged files, everything moved into place, the order list
    def write(self, sources, tasks: list[Task], results: list) -> ExportReport:
        self.problems(results)
        part, game, folder = self.part, self.part.game, self.folder
        report = ExportReport(self.spec, folder, game=game)
        staged: list[str] = []
        order: list[str] = []
        rows = []
        if self.spec.output is Output.DECK_PDF:   # every deck's PDF made PDF/X-1a by one Ghostscript run
            from pnp.extras.pdfx import to_pdfx_files  # lazy: only this shop needs Ghostscript

            orders = [[n for u, (_, made) in zip(part.units, results) if u.deck == i for n in made.order]
                      for i in range(len(part.decks))]
            to_pdfx_files([(self.staging / deck.id / f"{game.slug}-{deck.id}.pdf", f"{game.name} — {deck.name}")
                           for deck in part.decks], f"{game.name} — DriveThruCards", orders)
        for i, deck in enumerate(part.decks):
            mine = [made for u, (_, made) in zip(part.units, results) if u.deck == i]
            back_files = {card: name for made in mine for card, name in made.back_files.items()}
            names, refs, size_words = _deck_names(self.spec, game, deck, deck_size(deck, game), self.per_copy,
                                                  back_files)
            missing = set(names) - {n.split("/", 1)[1] for made in mine for n in made.staged}
            if missing:
                raise PnpError(f"internal: {deck.id}: {len(missing)} files not drawn, e.g. {sorted(missing)[0]}")
            zip_files(self.staging / f"{deck.id}.zip", [(name, self.staging / deck.id / name) for name in names])
            files = [f"{deck.id}/{name}" for name in names] + [f"{deck.id}.zip"]
            staged += files
            order += files
            report.decks.append(DeckExport(deck.id, len(deck.cards), deck.copies, size_words, folder / deck.id,
                                           folder / f"{deck.id}.zip"))
            report.notes += [n for made in mine for n in made.notes]
            per_card = self.spec.output is Output.PNG and back_reads_card(self.project, game, deck)
            shared = back_sharing(deck, back_files) if per_card else {}   # a back per card: who shares which
            for card in deck.cards:
                fronts = [f"{deck.id}/{r}" for r in refs[card.id]["fronts"]]
                backs = list(dict.fromkeys(f"{deck.id}/{r}" for r in refs[card.id]["backs"]))
                rows.append([deck.id, card.id, card.name, card.quantity, " ".join(fronts), " ".join(backs),
                             upload_words(self.spec.output, card.quantity, fronts, backs, shared.get(card.id))])
        text = io.StringIO()
        writer = csv.writer(text, lineterminator="\n")
        writer.writerow(ORDER_COLUMNS)
        writer.writerows(rows)
        self.commit(staged, [(ORDER_CSV, text.getvalue().encode("utf-8"))])
        report.files = [folder / name for name in order + [ORDER_CSV]]
        report.csv = folder / ORDER_CSV
        return report


def export(project: Path, game_slug: str, shop: Shop, out_dir: Path, decks: list[str] | None = None,
           per_copy: bool = False) -> ExportReport:
    """Write the shop's files for GAME's decks (all, or those named)."""
    started = time.perf_counter()
    target = ShopTarget(project, game_slug, shop, out_dir, decks, per_copy)
    try:
        report = run_stages(project, [game_slug], target)
    finally:
        target.discard()
    report.seconds = time.perf_counter() - started
    return report
