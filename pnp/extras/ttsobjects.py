"""What Tabletop Simulator loads, as pure values: the sheet grid and cell
size, the saved objects (decks, token bags, boards) with their `CustomDeck`
keys, transforms and BBCode descriptions, and the image URLs. No drawing
here: pnp.extras.tts draws the images and writes these beside them."""
from __future__ import annotations

import json
import math
import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

from pnp.errors import PnpError
from pnp.model import Deck, Document, Game, Size
from pnp.pipeline.manifest import copy_payloads

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
    cell: tuple[int, int] = (0, 0)   # one card's pixels on the sheet

    @property
    def slots(self) -> int:
        return self.columns * self.rows

    @property
    def hidden_slot(self) -> int:
        return self.slots - 1


def _dpi(card: Size, columns: int, rows: int) -> float:
    return min(MAX_DPI, MAX_SIDE * MM_PER_INCH / (columns * card.width), MAX_SIDE * MM_PER_INCH / (rows * card.height))


def grid_for(cards: int, card: Size = STANDARD_CARD) -> Grid:
    """The grid of at most 10 x 7 holding `cards` and the hidden slot whose
    faces are sharpest within 4096 px a side (at most 300 dpi); among equally
    sharp ones, the fewest empty slots, then the fewest columns."""
    if not 1 <= cards <= MAX_COLUMNS * MAX_ROWS - 1:
        raise ValueError(f"a sheet holds 1 to {MAX_COLUMNS * MAX_ROWS - 1} cards, not {cards}")
    best = None
    for columns in range(2, MAX_COLUMNS + 1):   # two columns at least, as pnp has always made them
        rows = math.ceil((cards + 1) / columns)
        if rows > MAX_ROWS or (columns > 1 and (columns - 1) * rows >= cards + 1):
            continue  # too tall, or a whole column would stay empty
        rank = (-math.floor(_dpi(card, columns, rows) * 1000), columns * rows, columns)
        if best is None or rank < best[0]:
            best = (rank, columns, rows)
    _, columns, rows = best
    return Grid(columns, rows, cell_pixels(card, columns, rows))


def cell_pixels(card: Size, columns: int = MAX_COLUMNS, rows: int = MAX_ROWS) -> tuple[int, int]:
    """One card's size on a sheet of columns x rows: as sharp as 4096 px allows, at most 300 dpi."""
    dpi = _dpi(card, columns, rows)
    return math.floor(card.width / MM_PER_INCH * dpi), math.floor(card.height / MM_PER_INCH * dpi)


def sheet_chunks(cards: int) -> list[tuple[int, int]]:
    """(start, count) of a deck's sheets: as few as hold it, sharing the cards evenly
    (75 cards: 38 and 37, not 69 and 6, so neither sheet's faces are small)."""
    per_sheet = MAX_COLUMNS * MAX_ROWS - 1
    n = max(1, math.ceil(cards / per_sheet))
    size = math.ceil(cards / n)
    return [(start, min(size, cards - start)) for start in range(0, cards, size)]


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


def _deck_object(game: Game, deck: Deck, sheets: list, size: Size, urls: _Urls, x: float) -> dict[str, Any]:
    """A two-sided deck; `sheets`: its sheets' (start, count, key, name, backs), as pnp.extras.tts plans them."""
    custom: dict[str, Any] = {}
    slot_of: dict[str, int] = {}
    for unit in sheets:
        grid = grid_for(unit.count, size)
        for i, card in enumerate(deck.cards[unit.start:unit.start + unit.count]):
            slot_of[card.id] = unit.key * 100 + i
        # a back per card: BackURL is a sheet of backs in the fronts' grid (UniqueBack), and a card in
        # another player's hand shows its own back, as on a real table (BackIsHidden)
        unique = bool(unit.backs)
        custom[str(unit.key)] = {"FaceURL": urls(unit.name), "BackURL": urls(unit.backs or f"{deck.id}-back.png"),
                                 "NumWidth": grid.columns, "NumHeight": grid.rows,
                                 "BackIsHidden": unique, "UniqueBack": unique, "Type": 0}
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


def _json(value: Any) -> bytes:
    return (json.dumps(value, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
