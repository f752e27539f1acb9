"""Tabletop Simulator export: `pnp export GAME --shop tts`.

    output/<game>/shop-tts/
        <deck>-sheet-<n>.png   card faces in a grid of at most 10 x 7; the
                               last slot of every sheet holds the hidden-card
                               image (the deck's back), so `BackIsHidden` is
                               false: TTS shows that slot for cards in other
                               players' hands
        <deck>-back.png        the deck's back
        <deck>-backs-<n>.png   a deck with a back per card: sheet n's backs,
                               each in its card's slot (UniqueBack; the
                               hidden image is then the card's own back)
        <deck>.json            a saved object TTS loads as the deck
        <token>-<card>.png     one-sided decks (tokens, coins): one image each
        board-<id>.png         boards, at true proportions
        <game>.json            everything above in one saved object
        export.json            what this export wrote

Each deck is a `DeckCustom`: `CustomDeck` (one entry per sheet: FaceURL,
BackURL, NumWidth, NumHeight, BackIsHidden), `DeckIDs` with one id per
printed copy (sheet key x 100 + slot), and one `Card` per copy whose
`Nickname` is the card's name, `Description` its text in TTS's BBCode
(`**bold**` as [b]bold[/b], `{atk}` as a word) and `GMNotes` its id and QR
payload; cards carry `Hands: true`. Sheet keys are unique across the whole
save (numbered on from a base of the game's own, so decks of two games mix
too): TTS files a card's image under its key, and two sheets sharing one
show the wrong faces once decks are merged. A card size other than poker
(TTS's standard card) is the Transform scale: width / 63.5 mm across,
height / 88.9 mm along. Tokens and boards become `Custom_Tile` /
`Custom_Board` objects. Sheets are at most 4096 px on a side and are
rendered and encoded one at a time. Image URLs are `file:///` paths, or
`--url-base URL` (http, https or file, checked) + the percent-encoded file
name for a designer who uploads the images.

The export runs through the one pipeline (pnp.pipeline.stages) on every
core: each sheet is one task, which makes its cards' faces, draws them,
pastes them one by one into the sheet and writes the sheet's PNG (staged,
pnp.extras.staging) before the next sheet's faces are made; a deck's back,
a chunk of tokens and a board are tasks too. The saved objects are made in
the write stage from the cards and the sheet plan alone (pnp.extras.ttsobjects).
"""
from __future__ import annotations

import io
import math
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from pnp.errors import Problems
from pnp.extras.staging import ExportJob, ExportTarget, chunks, shop_folder
from pnp.extras.ttsobjects import (MAX_DPI, MAX_SIDE, MM_PER_INCH, _board_object, _deck_object, _json, _SheetKeys,
                                   _token_objects, _Urls, cell_pixels, check_url_base, grid_for, saved_object,
                                   sheet_chunks)
from pnp.model import PAPERS, Deck, DocKind, Document, Game, Shop, Size
from pnp.pipeline.prepare import (BAD_BACK, back_reads_card, card_backs, deck_size, distinct_backs, prepare_back,
                                  prepare_card)
from pnp.pipeline.stages import run_stages
from pnp.pipeline.tasks import Task, Work
from pnp.render.canvas import draw_face, new_canvas
from pnp.render.documents import prepare_documents

# zlib level 6: a sheet encodes in 0.55 s of CPU instead of 1.9 s at level 9 (`optimize`), for 3%
# more bytes; the pixels are the same. Encoding was two thirds of the export's CPU.
PNG_LEVEL = 6


@dataclass
class TtsReport:
    folder: Path
    decks: list[str] = field(default_factory=list)
    sheets: int = 0
    objects: int = 0
    files: list[Path] = field(default_factory=list)
    seconds: float = 0.0


TILES_PER_TASK = 24   # token images per task


def _images(faces: list, card: Size, px: tuple[int, int], ctx):
    """Each face as a PIL image of exactly `px` (the trimmed card, no bleed),
    one at a time: drawn into one PDF, rasterized page by page."""
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, card, ctx, "tts", None)
    for face in faces:
        draw_face(canvas, face, card, ctx)
        canvas.showPage()
    canvas.save()
    doc = pdfium.PdfDocument(buffer.getvalue())
    try:
        for i in range(len(doc)):
            page = doc[i]
            image = page.render(scale=px[0] / (card.width / MM_PER_INCH * 72)).to_pil().convert("RGB")
            page.close()
            yield image if image.size == px else image.resize(px)
    finally:
        doc.close()


def _png(image) -> bytes:
    data = io.BytesIO()
    image.save(data, format="PNG", compress_level=PNG_LEVEL)
    return data.getvalue()


def _blank_back(px: tuple[int, int], colour: str):
    return Image.new("RGB", px, colour)


@dataclass(frozen=True)
class Unit:
    """One task of the export: a deck's back image, one sheet of its fronts, a
    chunk of token images, or one board."""

    kind: str        # "back", "sheet", "backs" (a sheet of its cards' own backs), "tiles" or "board"
    deck: int = 0    # index into the part's decks (a board: into its boards)
    start: int = 0   # the first card of the deck it draws
    count: int = 0
    key: int = 0     # a sheet's CustomDeck key
    name: str = ""   # the file it writes (tiles: one per card, named from the card)
    backs: str = ""  # a sheet of a deck with a back per card: its sheet of backs (TTS's UniqueBack)


@dataclass(frozen=True)
class TtsPart:
    game: Game
    decks: tuple[Deck, ...]
    boards: tuple[Document, ...]
    units: tuple[Unit, ...]


@dataclass(frozen=True)
class TtsJob(ExportJob):
    def run(self, work: Work, task: Task):
        """(problems, names of the files staged) for one unit."""
        part: TtsPart = work.parts[task.game]
        unit = part.units[task.index]
        game, tools = part.game, work.tools(task.game)
        problems = Problems(self.project)
        ctx = replace(tools.context, bleed=0.0)
        if unit.kind == "board":
            (board,) = prepare_documents(game, tools.templates, PAPERS["a4"], tools.fit, problems,
                                         [part.boards[unit.deck]]) or (None,)
            if problems or board is None:
                return problems.items, []
            size = board.size
            scale = min(MAX_SIDE / size.width, MAX_SIDE / size.height, MAX_DPI / MM_PER_INCH)
            px = (math.floor(size.width * scale), math.floor(size.height * scale))
            (image,) = _images([board.face], size, px, ctx)
            self.stage(unit.name, _png(image))
            return [], [unit.name]
        deck = part.decks[unit.deck]
        size = deck_size(deck, game)
        # a sheet's cells are as sharp as its grid allows; a back or a token at its sharpest (1 x 1)
        grid = grid_for(unit.count, size) if unit.kind in ("sheet", "backs") else None
        px = grid.cell if grid is not None else cell_pixels(size, 1, 1)
        cards = deck.cards[unit.start:unit.start + unit.count]
        if unit.kind == "backs":
            return self._backs_sheet(unit, game, deck, cards, grid, tools, ctx, problems)
        fronts = [prepare_card(card, deck, game, tools, problems) for card in cards]
        # a deck with a back per card has no one back: its cards' backs are a sheet of their own
        back = prepare_back(deck, game, tools, problems) if unit.kind != "tiles" and not unit.backs else None
        if problems or back is BAD_BACK:
            return problems.items, []
        if unit.kind == "tiles":
            names = []
            for card, image in zip(cards, _images(fronts, size, px, ctx)):
                names.append(f"{deck.id}-{card.id}.png")
                self.stage(names[-1], _png(image))
            return [], names
        (back_image,) = _images([back], size, px, ctx) if back is not None else (_blank_back(px, deck.color),)
        if unit.kind == "back":
            self.stage(unit.name, _png(back_image))
            return [], [unit.name]
        sheet = Image.new("RGB", (grid.columns * px[0], grid.rows * px[1]), "white")
        for i, image in enumerate(_images(fronts, size, px, ctx)):  # each pasted, then dropped
            sheet.paste(image, ((i % grid.columns) * px[0], (i // grid.columns) * px[1]))
        hidden = grid.hidden_slot
        sheet.paste(back_image, ((hidden % grid.columns) * px[0], (hidden // grid.columns) * px[1]))
        self.stage(unit.name, _png(sheet))
        return [], [unit.name]

    def _backs_sheet(self, unit: Unit, game: Game, deck: Deck, cards, grid, tools, ctx, problems: Problems):
        """The sheet of the cards' own backs, each in its card's slot of the fronts' sheet (TTS's
        UniqueBack); identical backs are drawn once."""
        backs = card_backs(self.project, deck, game, tools, problems, cards)
        if problems or backs is BAD_BACK:
            return problems.items, []
        size, px = deck_size(deck, game), grid.cell
        faces = distinct_backs(backs)
        images = dict(zip((id(face) for face in faces), _images(faces, size, px, ctx)))
        sheet = Image.new("RGB", (grid.columns * px[0], grid.rows * px[1]), "white")
        for i, card in enumerate(cards):
            sheet.paste(images[id(backs[card.id])], ((i % grid.columns) * px[0], (i // grid.columns) * px[1]))
        self.stage(unit.name, _png(sheet))
        return [], [unit.name]


class TtsTarget(ExportTarget):
    """The Tabletop Simulator export as a target of the pipeline."""

    def __init__(self, project: Path, game_slug: str, folder: Path, decks: list[str] | None, url_base: str | None):
        super().__init__(project, game_slug, folder, decks)
        self.job = TtsJob(project, str(self.staging))
        self.urls = _Urls(folder, url_base)

    # 3. layout: per deck its back and one sheet of at most 69 fronts (or chunks of tokens); each board
    def plan(self, game: Game) -> tuple[dict[str, TtsPart], list[Task]]:
        decks = tuple(self.chosen(game))
        boards = () if self.decks else tuple(d for d in game.documents if d.kind is DocKind.BOARD)
        keys = _SheetKeys(game.slug)
        units: list[Unit] = []
        for i, deck in enumerate(decks):
            if deck.back is None:
                units += [Unit("tiles", i, start, count) for start, count in chunks(len(deck.cards), TILES_PER_TASK)]
                continue
            per_card = back_reads_card(self.project, game, deck)
            if not per_card:
                units.append(Unit("back", i, name=f"{deck.id}-back.png"))
            for n, (start, count) in enumerate(sheet_chunks(len(deck.cards)), start=1):
                backs = f"{deck.id}-backs-{n}.png" if per_card else ""
                units.append(Unit("sheet", i, start, count, keys.take(), f"{deck.id}-sheet-{n}.png", backs))
                if per_card:
                    units.append(Unit("backs", i, start, count, units[-1].key, backs))
        units += [Unit("board", j, name=f"board-{doc.id}.png") for j, doc in enumerate(boards)]
        self.part = TtsPart(game, decks, boards, tuple(units))
        tasks = [Task(game.slug, u.kind, k, f"{game.slug}/{u.name or decks[u.deck].id}", max(1, u.count))
                 for k, u in enumerate(units)]
        return {game.slug: self.part}, tasks

    # 5. write: the staged images moved into place, the saved objects written beside them
    def write(self, sources, tasks: list[Task], results: list) -> TtsReport:
        self.problems(results)
        part, game = self.part, self.part.game
        report = TtsReport(self.folder)
        staged: list[str] = []
        made: list[tuple[str, bytes]] = []
        order: list[str] = []   # each deck's images then its saved object; the boards; the game's saved object
        everything = []
        for i, deck in enumerate(part.decks):
            units = [(u, names) for u, (_, names) in zip(part.units, results) if u.kind != "board" and u.deck == i]
            staged += [name for _, names in units for name in names]
            order += [name for _, names in units for name in names] + [f"{deck.id}.json"]
            size = deck_size(deck, game)
            x = -20.0 + 4.0 * i
            if deck.back is None:
                obj = _token_objects(deck, size, self.urls, x)
            else:
                sheets = [u for u, _ in units if u.kind == "sheet"]
                obj = _deck_object(game, deck, sheets, size, self.urls, x)
                report.sheets += len(sheets)
            made.append((f"{deck.id}.json", _json(saved_object([obj], f"{game.name}: {deck.name}"))))
            report.decks.append(deck.id)
            everything.append(obj)
        for j, board in enumerate(part.boards):
            name = f"board-{board.id}.png"
            staged.append(name)
            order.append(name)
            everything.append(_board_object(board, name, self.urls, 10.0 * j))
        made.append((f"{game.slug}.json", _json(saved_object(everything, game.name))))
        order.append(f"{game.slug}.json")
        report.objects = len(everything)
        self.commit(staged, made)
        report.files = [self.folder / name for name in order]
        return report


def export_tts(project: Path, game_slug: str, out_dir: Path, decks: list[str] | None = None,
               url_base: str | None = None) -> TtsReport:
    started = time.perf_counter()
    if url_base is not None:
        check_url_base(url_base)   # before any drawing
    target = TtsTarget(project, game_slug, shop_folder(out_dir, game_slug, Shop.TTS), decks, url_base)
    try:
        report = run_stages(project, [game_slug], target)
    finally:
        target.discard()
    report.seconds = time.perf_counter() - started
    return report


