"""Tabletop Simulator export: `pnp export GAME --shop tts`.

    output/<game>/shop-tts/
        <deck>-sheet-<n>.png   card faces in a grid of at most 10 x 7; the
                               last slot of every sheet holds the hidden-card
                               image (the deck's back), so `BackIsHidden` is
                               false: TTS shows that slot for cards in other
                               players' hands
        <deck>-back.png        the deck's back
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
the write stage from the cards and the sheet plan alone.
"""
from __future__ import annotations

import io
import json
import math
import re
import time
import zlib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

import pypdfium2 as pdfium
from PIL import Image

from pnp.errors import PnpError, Problems
from pnp.extras.staging import ExportJob, ExportTarget, chunks, shop_folder
from pnp.model import PAPERS, Deck, DocKind, Document, Game, Shop, Size
from pnp.pipeline.manifest import copy_payloads
from pnp.pipeline.prepare import BAD_BACK, deck_size, prepare_back, prepare_card
from pnp.pipeline.stages import run_stages
from pnp.pipeline.tasks import Task, Work
from pnp.render.canvas import draw_face, new_canvas
from pnp.render.documents import prepare_documents

MAX_SIDE = 4096
# zlib level 6: a sheet encodes in 0.55 s of CPU instead of 1.9 s at level 9 (`optimize`), for 3%
# more bytes; the pixels are the same. Encoding was two thirds of the export's CPU.
PNG_LEVEL = 6
MAX_COLUMNS, MAX_ROWS = 10, 7
MAX_DPI = 300
MM_PER_INCH = 25.4
STANDARD_CARD = Size(63.5, 88.9, "poker")   # TTS's own card: scale 1 x 1
URL_SCHEMES = ("http", "https", "file")
# Icon tokens as words in a description (TTS's BBCode draws no pictures); any
# other icon reads as its name, hyphens as spaces.
ICON_WORDS = {"atk": "attack", "def": "defence", "dice": "die", "capital": "capital", "life": "life",
              "triad": "Nuclear Triad", "shield": "Shield", "deb-crowd": "crowd", "deb-str": "strength",
              "deb-cost": "cost", "deb-draw": "draw", "deb-gf": "Good Faith", "deb-bf": "Bad Faith",
              "deb-rd": "rhetorical device"}
_BOLD = re.compile(r"\*\*(.+?)\*\*", re.S)
_ICON = re.compile(r"\{([a-z0-9-]+)\}")


@dataclass(frozen=True)
class Grid:
    columns: int
    rows: int

    @property
    def slots(self) -> int:
        return self.columns * self.rows

    @property
    def hidden_slot(self) -> int:
        return self.slots - 1


def grid_for(cards: int) -> Grid:
    """The smallest grid of at most 10 x 7 that holds `cards` and the hidden slot."""
    if not 1 <= cards <= MAX_COLUMNS * MAX_ROWS - 1:
        raise ValueError(f"a sheet holds 1 to {MAX_COLUMNS * MAX_ROWS - 1} cards, not {cards}")
    columns = min(MAX_COLUMNS, cards + 1)
    return Grid(columns, math.ceil((cards + 1) / columns))


def cell_pixels(card: Size) -> tuple[int, int]:
    """One card's size on a sheet: as sharp as a full 10 x 7 sheet allows within 4096 px, at most 300 dpi."""
    dpi = min(MAX_DPI, MAX_SIDE * MM_PER_INCH / (MAX_COLUMNS * card.width),
              MAX_SIDE * MM_PER_INCH / (MAX_ROWS * card.height))
    return math.floor(card.width / MM_PER_INCH * dpi), math.floor(card.height / MM_PER_INCH * dpi)


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


def bbcode(text: str) -> str:
    """Card text as a TTS description, as the card prints it: `**bold**` ->
    [b]bold[/b], `{icon}` -> a word."""
    out = _BOLD.sub(r"[b]\1[/b]", text)
    return _ICON.sub(lambda m: ICON_WORDS.get(m.group(1), m.group(1).replace("-", " ")), out)


def check_url_base(base: str) -> str:
    """`--url-base` with a scheme and host, its path percent-encoded, ending in `/`."""
    parts = urlsplit(base.strip())
    if parts.scheme.lower() not in URL_SCHEMES or (parts.scheme.lower() != "file" and not parts.netloc):
        raise PnpError(f"--url-base {base!r} is not a full address: give its scheme and host, "
                       f"e.g. https://example.org/my-game/ ({', '.join(URL_SCHEMES)})")
    if parts.query or parts.fragment:
        raise PnpError(f"--url-base {base!r} has a query or fragment; give the folder the images are in")
    path = quote(parts.path, safe="/%:@!$&'()*+,;=~")
    return urlunsplit((parts.scheme.lower(), parts.netloc, path.rstrip("/") + "/", "", ""))


class _Urls:
    def __init__(self, folder: Path, base: str | None):
        self.folder, self.base = folder, check_url_base(base) if base else None

    def __call__(self, name: str) -> str:
        return self.base + quote(name) if self.base else (self.folder / name).resolve().as_uri()


class _SheetKeys:
    """`CustomDeck` keys for one save: from a base of the game's own, one per sheet."""

    def __init__(self, game_slug: str):
        self.next = 1000 * (1 + zlib.crc32(game_slug.encode("utf-8")) % 999) + 1

    def take(self) -> int:
        key, self.next = self.next, self.next + 1
        return key


def card_scale(size: Size) -> dict[str, float]:
    """The Transform scale that shows a card at its size against TTS's poker-sized card."""
    return {"scaleX": round(size.width / STANDARD_CARD.width, 4), "scaleY": 1.0,
            "scaleZ": round(size.height / STANDARD_CARD.height, 4)}


def _transform(x: float, z: float = 0.0, flipped: bool = True, scale: dict[str, float] | None = None
               ) -> dict[str, float]:
    return {"posX": x, "posY": 1.0, "posZ": z, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if flipped else 0.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0, **(scale or {})}


def _description(card) -> str:
    parts = [bbcode(card.text)] if card.text else []
    if card.flavor:
        parts.append(f"[i]{bbcode(card.flavor)}[/i]")
    return "\n\n".join(parts)


@dataclass(frozen=True)
class Unit:
    """One task of the export: a deck's back image, one sheet of its fronts, a
    chunk of token images, or one board."""

    kind: str        # "back", "sheet", "tiles" or "board"
    deck: int = 0    # index into the part's decks (a board: into its boards)
    start: int = 0   # the first card of the deck it draws
    count: int = 0
    key: int = 0     # a sheet's CustomDeck key
    name: str = ""   # the file it writes (tiles: one per card, named from the card)


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
        px = cell_pixels(size)
        cards = deck.cards[unit.start:unit.start + unit.count]
        fronts = [prepare_card(card, deck, game, tools, problems) for card in cards]
        back = prepare_back(deck, game, tools, problems) if unit.kind != "tiles" else None
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
        grid = grid_for(len(cards))
        sheet = Image.new("RGB", (grid.columns * px[0], grid.rows * px[1]), "white")
        for i, image in enumerate(_images(fronts, size, px, ctx)):  # each pasted, then dropped
            sheet.paste(image, ((i % grid.columns) * px[0], (i // grid.columns) * px[1]))
        hidden = grid.hidden_slot
        sheet.paste(back_image, ((hidden % grid.columns) * px[0], (hidden // grid.columns) * px[1]))
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
        per_sheet = MAX_COLUMNS * MAX_ROWS - 1
        for i, deck in enumerate(decks):
            if deck.back is None:
                units += [Unit("tiles", i, start, count) for start, count in chunks(len(deck.cards), TILES_PER_TASK)]
                continue
            units.append(Unit("back", i, name=f"{deck.id}-back.png"))
            units += [Unit("sheet", i, start, count, keys.take(), f"{deck.id}-sheet-{n}.png")
                      for n, (start, count) in enumerate(chunks(len(deck.cards), per_sheet), start=1)]
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


def _deck_object(game: Game, deck: Deck, sheets: list[Unit], size: Size, urls: _Urls, x: float) -> dict[str, Any]:
    custom: dict[str, Any] = {}
    slot_of: dict[str, int] = {}
    for unit in sheets:
        grid = grid_for(unit.count)
        for i, card in enumerate(deck.cards[unit.start:unit.start + unit.count]):
            slot_of[card.id] = unit.key * 100 + i
        custom[str(unit.key)] = {"FaceURL": urls(unit.name), "BackURL": urls(f"{deck.id}-back.png"),
                                 "NumWidth": grid.columns, "NumHeight": grid.rows,
                                 "BackIsHidden": False, "UniqueBack": False, "Type": 0}
    copies = [card for card in deck.cards for _ in range(card.quantity)]
    payloads = copy_payloads(copies)
    scale = card_scale(size)
    contained = []
    for card, payload in zip(copies, payloads):
        card_id = slot_of[card.id]
        contained.append({
            "Name": "Card", "Transform": _transform(x, scale=scale), "Nickname": card.name,
            "Description": _description(card), "GMNotes": f"{card.id}\n{payload}", "CardID": card_id,
            "Hands": True, "CustomDeck": {str(card_id // 100): custom[str(card_id // 100)]},
        })
    if len(contained) == 1:  # TTS holds a single card as a Card, not a deck of one
        return contained[0]
    return {"Name": "DeckCustom", "Transform": _transform(x, scale=scale), "Nickname": f"{game.name}: {deck.name}",
            "Description": f"{len(copies)} cards", "Hands": False, "DeckIDs": [c["CardID"] for c in contained],
            "CustomDeck": custom, "ContainedObjects": contained}


def _token_objects(deck: Deck, size: Size, urls: _Urls, x: float) -> dict[str, Any]:
    """A one-sided deck (tokens, coins, counters): a bag of tiles, one per printed copy."""
    tiles = []
    for card in deck.cards:
        name = f"{deck.id}-{card.id}.png"
        round_token = abs(size.width - size.height) < 0.01
        for n in range(card.quantity):
            tiles.append({"Name": "Custom_Tile", "Transform": {**_transform(x, flipped=False),
                                                               "scaleX": size.width / 25.0, "scaleZ": size.width / 25.0},
                          "Nickname": card.name, "GMNotes": card.id,
                          "CustomImage": {"ImageURL": urls(name), "ImageSecondaryURL": "", "WidthScale": 0.0,
                                          "CustomTile": {"Type": 2 if round_token else 0, "Thickness": 0.2,
                                                         "Stackable": True, "Stretch": True}}})
    return {"Name": "Bag", "Transform": _transform(x, flipped=False), "Nickname": deck.name,
            "ContainedObjects": tiles}


def _board_object(doc: Document, name: str, urls: _Urls, x: float) -> dict[str, Any]:
    size = doc.size
    return {"Name": "Custom_Board", "Transform": _transform(x, z=-30.0, flipped=False), "Nickname": doc.name,
            "CustomImage": {"ImageURL": urls(name), "ImageSecondaryURL": "", "WidthScale": size.width / size.height}}


def saved_object(objects: list[dict[str, Any]], name: str) -> dict[str, Any]:
    return {"SaveName": name, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "",
            "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects, "TabStates": {},
            "VersionNumber": ""}


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


def _json(value: Any) -> bytes:
    return (json.dumps(value, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
