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

from pnp.pipeline.manifest import copy_payloads
from pnp.pipeline.prepare import deck_size
from pnp.errors import PnpError
from pnp.extras.export import game_faces, shop_folder, write_all
from pnp.model import PAPERS, Deck, DocKind, Game, Shop, Size
from pnp.render.canvas import draw_face, new_canvas
from pnp.render.documents import prepare_documents

MAX_SIDE = 4096
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


def _deck_object(game: Game, deck: Deck, fronts: dict, back, size: Size, ctx, urls: _Urls, x: float,
                 files: list[tuple[str, bytes]], keys: _SheetKeys) -> dict[str, Any]:
    px = cell_pixels(size)
    cards = list(deck.cards)
    (back_image,) = _render([back], size, px, ctx) if back is not None else (_blank_back(px, deck.color),)
    files.append((f"{deck.id}-back.png", _png(back_image)))
    per_sheet = MAX_COLUMNS * MAX_ROWS - 1
    custom: dict[str, Any] = {}
    slot_of: dict[str, int] = {}
    for sheet_no, start in enumerate(range(0, len(cards), per_sheet), start=1):
        chunk = cards[start:start + per_sheet]
        key = keys.take()
        grid = grid_for(len(chunk))
        sheet = Image.new("RGB", (grid.columns * px[0], grid.rows * px[1]), "white")
        for i, (card, image) in enumerate(zip(chunk, _render([fronts[c.id] for c in chunk], size, px, ctx))):
            sheet.paste(image, ((i % grid.columns) * px[0], (i // grid.columns) * px[1]))
            slot_of[card.id] = key * 100 + i
        hidden = grid.hidden_slot
        sheet.paste(back_image, ((hidden % grid.columns) * px[0], (hidden // grid.columns) * px[1]))
        name = f"{deck.id}-sheet-{sheet_no}.png"
        files.append((name, _png(sheet)))
        del sheet
        custom[str(key)] = {"FaceURL": urls(name), "BackURL": urls(f"{deck.id}-back.png"),
                            "NumWidth": grid.columns, "NumHeight": grid.rows,
                            "BackIsHidden": False, "UniqueBack": False, "Type": 0}
    copies = [card for card in cards for _ in range(card.quantity)]
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
    if url_base is not None:
        check_url_base(url_base)   # before any drawing
    loaded = game_faces(project, game_slug, decks)
    game, tools, prepared, problems = loaded.game, loaded.tools, loaded.prepared, loaded.problems
    boards = [] if decks else prepare_documents(
        game, tools.templates, PAPERS["a4"], tools.fit, problems, [d for d in game.documents if d.kind is DocKind.BOARD])
    problems.raise_if_any()
    folder = shop_folder(out_dir, game_slug, Shop.TTS)
    urls = _Urls(folder, url_base)
    keys = _SheetKeys(game_slug)
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
            obj = _deck_object(game, deck, faces.fronts, faces.back, size, ctx, urls, x, files, keys)
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

