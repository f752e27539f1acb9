"""Typed values for games, decks and cards. Lengths are millimetres."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, NewType


@dataclass(frozen=True)
class FieldType:
    """A card field's declared type (parsed from its type string by pnp.sources.schema)."""

    kind: str  # int, str, bool, enum, list, effects, outcomes
    optional: bool = False
    minimum: int | None = None
    choices: tuple[str, ...] = ()
    item: "FieldType | None" = None

    def default(self) -> Any:
        if self.kind == "outcomes":
            return {}
        return [] if self.kind in ("list", "effects") else None

    def describe(self) -> str:
        if self.kind == "enum":
            return "one of " + ", ".join(self.choices)
        if self.kind == "list":
            return f"a list of {self.item.describe() if self.item else 'values'}"
        if self.kind == "int" and self.minimum is not None:
            return f"a whole number >= {self.minimum}"
        return {"int": "a whole number", "str": "text", "bool": "true or false",
                "effects": "a list of effects",
                "outcomes": "a mapping of die faces (\"1\", \"5-6\", \"4+\") to lists of effects"}.get(self.kind, self.kind)


CardId = NewType("CardId", str)
GameSlug = NewType("GameSlug", str)
DeckId = NewType("DeckId", str)

GAME_SLUGS = ("culture-war", "divide-and-conquer", "petri-dish", "debate", "cold-war")


@dataclass(frozen=True)
class Size:
    """A width and height in millimetres."""

    width: float
    height: float
    name: str = "custom"

    def rotated(self) -> "Size":
        return Size(self.height, self.width, self.name)


@dataclass(frozen=True)
class Point:
    """A place in millimetres."""

    x: float
    y: float


CARD_PRESETS: dict[str, Size] = {
    "poker": Size(63.5, 88.9, "poker"),
    "bridge": Size(57.15, 88.9, "bridge"),
    "tarot": Size(69.85, 120.65, "tarot"),
    "mini-euro": Size(44, 68, "mini-euro"),
    "mini-american": Size(41, 63, "mini-american"),
    "square": Size(63.5, 63.5, "square"),
    "mtg": Size(63, 88, "mtg"),
}

PAPERS: dict[str, Size] = {
    "a4": Size(210, 297, "a4"),
    "letter": Size(215.9, 279.4, "letter"),
    "a3": Size(297, 420, "a3"),
    "tabloid": Size(279.4, 431.8, "tabloid"),
}


class Layout(str, Enum):
    DUPLEX = "duplex"
    GUTTERFOLD = "gutterfold"


class Flip(str, Enum):
    LONG = "long"
    SHORT = "short"


class Ink(str, Enum):
    NORMAL = "normal"
    SAVER = "saver"      # grayscale, light tints and outlines instead of dark areas


class Backs(str, Enum):
    """Which back each deck prints with."""

    DECK = "deck"        # each deck its own (a faction's colour and mark)
    COMMON = "common"    # one neutral back for every deck: mixed decks give nothing away


class Shop(str, Enum):
    """The print shops `pnp export` prepares files for (see pnp.extras.export)."""

    TGC = "tgc"
    MPC = "mpc"
    DRIVETHRU = "drivethru"
    PDF_SINGLE = "pdf-single"
    TTS = "tts"


class Coverage(str, Enum):
    """How much of a card's rules text the referee applies (computed from its effects, never typed)."""

    FULL = "full"            # every effect is applied by the referee
    PROMPT = "prompt"        # some effect needs a person: the referee prompts with its text
    NONE = "none"            # no rules text
    UNCHECKED = "unchecked"  # hand-written text in a game without effects.yaml


@dataclass(frozen=True)
class CardType:
    name: str
    template: str
    fields: dict[str, FieldType] = field(hash=False)


@dataclass(frozen=True)
class Card:
    id: CardId
    game: GameSlug
    deck: DeckId
    name: str
    type: str
    quantity: int
    fields: dict[str, Any] = field(hash=False, compare=False)
    revision: str = ""
    path: Path = Path()
    line: int = 0
    field_lines: dict[str, int] = field(default_factory=dict, hash=False, compare=False)
    coverage: Coverage = Coverage.NONE

    @property
    def text(self) -> str:
        return self.fields.get("text") or ""

    @property
    def flavor(self) -> str:
        return self.fields.get("flavor") or ""


CardSource = Card  # the name the referee uses for a card read from sources


@dataclass(frozen=True)
class Deck:
    id: DeckId
    name: str
    back: str | None            # None: printed one-sided (tokens, sheets of counters)
    color: str
    icon: str
    cards: tuple[Card, ...]
    path: Path = Path()
    line: int = 0
    size: Size | None = None    # overrides the game's card size (tokens, reference cards)

    @property
    def copies(self) -> int:
        return sum(c.quantity for c in self.cards)


class DocKind(str, Enum):
    BOARD = "board"    # drawn at true size; tiled over several sheets when larger than the paper
    PAGE = "page"      # one sheet sized to the paper: score sheets, mats
    RULES = "rules"    # a typeset rule sheet from Markdown


@dataclass(frozen=True)
class Document:
    """Anything printed that is not a deck of cards."""

    id: str
    kind: DocKind
    name: str
    template: str                       # board/page: templates/<game>/<template>.xml.j2; rules: a .md source
    size: Size | None = None            # boards only
    data: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    path: Path = Path()
    line: int = 0


@dataclass(frozen=True)
class Game:
    slug: GameSlug
    name: str
    players: tuple[int, int]
    card_size: Size
    card_types: dict[str, CardType] = field(hash=False)
    decks: tuple[Deck, ...]
    extra: dict[str, Any] = field(hash=False, compare=False)
    path: Path = Path()
    documents: tuple[Document, ...] = ()
    effects_file: Path | None = None    # card_sources/<game>/effects.yaml: card texts are generated

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(c for d in self.decks for c in d.cards)


@dataclass(frozen=True)
class Sources:
    root: Path
    games: dict[str, Game] = field(hash=False)

    @property
    def cards(self) -> dict[str, Card]:
        return {c.id: c for g in self.games.values() for c in g.cards}
