"""Tabletop Simulator export: `pnp export GAME --shop tts`.

    output/<game>/shop-tts/
        <deck>-sheet-<n>.png   card faces in a grid of at most 10 x 7; the
                               last slot of every sheet holds the hidden-card
                               image (the back), as TTS expects
        <deck>-back.png        the deck's back
        <deck>.json            a saved object TTS loads as the deck
        <token>-<card>.png     one-sided decks (tokens, coins): one image each
        board-<id>.png         boards, at true proportions
        <game>.json            everything above in one saved object
        export.json            what this export wrote

Each deck is a `DeckCustom`: `CustomDeck` (one entry per sheet: FaceURL,
BackURL, NumWidth, NumHeight, BackIsHidden), `DeckIDs` with one id per
printed copy (sheet number x 100 + slot), and one `Card` per copy whose
`Nickname` is the card's name and `GMNotes` its id and QR payload. Tokens
and boards become `Custom_Tile` / `Custom_Board` objects. Sheets are at most
4096 px on a side. Image URLs are `file:///` paths, or `--url-base URL` +
the file name for a designer who uploads the images.
"""
from __future__ import annotations

import io
import json
import math
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
from PIL import Image

from pnp.build.manifest import copy_payloads
from pnp.build.prepare import deck_size
from pnp.extras.export import game_faces, shop_folder, write_all
from pnp.model import PAPERS, Deck, DocKind, Game, Shop, Size
from pnp.render.canvas import draw_face, new_canvas
from pnp.render.documents import prepare_documents

MAX_SIDE = 4096
MAX_COLUMNS, MAX_ROWS = 10, 7
MAX_DPI = 300
MM_PER_INCH = 25.4


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


def _render(faces: list, card: Size, px: tuple[int, int], ctx) -> list:
    """Each face as a PIL image of exactly `px` (the trimmed card, no bleed)."""
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, card, ctx, "tts", None)
    for face in faces:
        draw_face(canvas, face, card, ctx)
        canvas.showPage()
    canvas.save()
    doc = pdfium.PdfDocument(buffer.getvalue())
    try:
        out = []
        for i in range(len(doc)):
            page = doc[i]
            image = page.render(scale=px[0] / (card.width / MM_PER_INCH * 72)).to_pil().convert("RGB")
            out.append(image if image.size == px else image.resize(px))
            page.close()
        return out
    finally:
        doc.close()


def _png(image) -> bytes:
    data = io.BytesIO()
    image.save(data, format="PNG", optimize=True)
    return data.getvalue()


def _blank_back(px: tuple[int, int], colour: str):
    return Image.new("RGB", px, colour)


class _Urls:
    def __init__(self, folder: Path, base: str | None):
        self.folder, self.base = folder, (base.rstrip("/") + "/") if base else None

    def __call__(self, name: str) -> str:
        return self.base + name if self.base else (self.folder / name).resolve().as_uri()


def _transform(x: float, z: float = 0.0, flipped: bool = True) -> dict[str, float]:
    return {"posX": x, "posY": 1.0, "posZ": z, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if flipped else 0.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def _deck_object(game: Game, deck: Deck, fronts: dict, back, size: Size, ctx, urls: _Urls, x: float,
                 files: list[tuple[str, bytes]]) -> dict[str, Any]:
    px = cell_pixels(size)
    cards = list(deck.cards)
    images = _render([fronts[c.id] for c in cards] + ([back] if back is not None else []), size, px, ctx)
    back_image = images.pop() if back is not None else _blank_back(px, deck.color)
    files.append((f"{deck.id}-back.png", _png(back_image)))
    per_sheet = MAX_COLUMNS * MAX_ROWS - 1
    custom: dict[str, Any] = {}
    slot_of: dict[str, int] = {}
    for sheet_no, start in enumerate(range(0, len(cards), per_sheet), start=1):
        chunk = cards[start:start + per_sheet]
        grid = grid_for(len(chunk))
        sheet = Image.new("RGB", (grid.columns * px[0], grid.rows * px[1]), "white")
        for i, card in enumerate(chunk):
            sheet.paste(images[start + i], ((i % grid.columns) * px[0], (i // grid.columns) * px[1]))
            slot_of[card.id] = sheet_no * 100 + i
        hidden = grid.hidden_slot
        sheet.paste(back_image, ((hidden % grid.columns) * px[0], (hidden // grid.columns) * px[1]))
        name = f"{deck.id}-sheet-{sheet_no}.png"
        files.append((name, _png(sheet)))
        custom[str(sheet_no)] = {"FaceURL": urls(name), "BackURL": urls(f"{deck.id}-back.png"),
                                 "NumWidth": grid.columns, "NumHeight": grid.rows,
                                 "BackIsHidden": True, "UniqueBack": False, "Type": 0}
    copies = [card for card in cards for _ in range(card.quantity)]
    payloads = copy_payloads(copies)
    contained = []
    for card, payload in zip(copies, payloads):
        card_id = slot_of[card.id]
        contained.append({
            "Name": "Card", "Transform": _transform(x), "Nickname": card.name, "Description": card.text,
            "GMNotes": f"{card.id}\n{payload}", "CardID": card_id,
            "CustomDeck": {str(card_id // 100): custom[str(card_id // 100)]},
        })
    if len(contained) == 1:  # TTS holds a single card as a Card, not a deck of one
        return contained[0]
    return {"Name": "DeckCustom", "Transform": _transform(x), "Nickname": f"{game.name}: {deck.name}",
            "Description": f"{len(copies)} cards", "DeckIDs": [c["CardID"] for c in contained],
            "CustomDeck": custom, "ContainedObjects": contained}


def _token_objects(deck: Deck, fronts: dict, size: Size, ctx, urls: _Urls, x: float,
                   files: list[tuple[str, bytes]]) -> dict[str, Any]:
    """A one-sided deck (tokens, coins, counters): a bag of tiles, one per printed copy."""
    px = cell_pixels(size)
    images = _render([fronts[c.id] for c in deck.cards], size, px, ctx)
    tiles = []
    for card, image in zip(deck.cards, images):
        name = f"{deck.id}-{card.id}.png"
        files.append((name, _png(image)))
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


def _board_object(doc, face, size: Size, ctx, urls: _Urls, x: float, files: list[tuple[str, bytes]]) -> dict[str, Any]:
    scale = min(MAX_SIDE / size.width, MAX_SIDE / size.height, MAX_DPI / MM_PER_INCH)
    px = (math.floor(size.width * scale), math.floor(size.height * scale))
    (image,) = _render([face], size, px, ctx)
    name = f"board-{doc.id}.png"
    files.append((name, _png(image)))
    return {"Name": "Custom_Board", "Transform": _transform(x, z=-30.0, flipped=False), "Nickname": doc.name,
            "CustomImage": {"ImageURL": urls(name), "ImageSecondaryURL": "", "WidthScale": size.width / size.height}}


def saved_object(objects: list[dict[str, Any]], name: str) -> dict[str, Any]:
    return {"SaveName": name, "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "",
            "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects, "TabStates": {},
            "VersionNumber": ""}


def export_tts(project: Path, game_slug: str, out_dir: Path, decks: list[str] | None = None,
               url_base: str | None = None) -> TtsReport:
    started = time.perf_counter()
    loaded = game_faces(project, game_slug, decks)
    game, tools, prepared, problems = loaded.game, loaded.tools, loaded.prepared, loaded.problems
    boards = [] if decks else prepare_documents(
        game, tools.templates, PAPERS["a4"], tools.fit, problems, [d for d in game.documents if d.kind is DocKind.BOARD])
    problems.raise_if_any()
    folder = shop_folder(out_dir, game_slug, Shop.TTS)
    urls = _Urls(folder, url_base)
    ctx = replace(tools.context, bleed=0.0)
    report = TtsReport(folder)
    files: list[tuple[str, bytes]] = []
    everything = []
    for i, faces in enumerate(prepared):
        deck = faces.deck
        size = deck_size(deck, game)
        x = -20.0 + 4.0 * i
        if faces.back is None:
            obj = _token_objects(deck, faces.fronts, size, ctx, urls, x, files)
        else:
            before = len(files)
            obj = _deck_object(game, deck, faces.fronts, faces.back, size, ctx, urls, x, files)
            report.sheets += sum(1 for name, _ in files[before:] if "-sheet-" in name)
        files.append((f"{deck.id}.json", _json(saved_object([obj], f"{game.name}: {deck.name}"))))
        report.decks.append(deck.id)
        everything.append(obj)
    for j, board in enumerate(boards):
        everything.append(_board_object(board.doc, board.face, board.size, ctx, urls, 10.0 * j, files))
    files.append((f"{game_slug}.json", _json(saved_object(everything, game.name))))
    report.objects = len(everything)
    written = [(folder / name, data) for name, data in files]
    write_all(folder, written)
    report.files = [p for p, _ in written]
    report.seconds = time.perf_counter() - started
    return report


def _json(value: Any) -> bytes:
    return (json.dumps(value, indent=1, ensure_ascii=False) + "\n").encode("utf-8")

