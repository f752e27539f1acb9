"""The faces' notes (pnp.faces.facecheck) that the preflight reports as
findings: text and QR codes inside the safe zone and pictures under 300 dpi,
as laid out. The export collects them while it draws; a preflight of its own
lays the faces out again."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pnp.errors import Problems
from pnp.faces.facecheck import Rule, face_notes
from pnp.model import Deck, Game
from pnp.pipeline.facecache import MAX_CARDS, FaceCache
from pnp.pipeline.prepare import deck_size, prepare_back, prepare_card

PREFLIGHT_RULES = (Rule.SAFE_ZONE, Rule.PICTURE_PPI)


@dataclass(frozen=True)
class LayoutNote:
    """A face's note: its deck, its card (None: the deck's back), the rule and what it says."""

    deck: str
    card: str | None
    rule: str
    message: str


def notes_of(deck: Deck, card: str | None, face, size, style: dict) -> list[LayoutNote]:
    return [LayoutNote(deck.id, card, n.rule.value, n.message + " (as laid out)")
            for n in face_notes(face, size, style) if n.rule in PREFLIGHT_RULES]


def layout_notes(game: Game, decks: list[Deck], tools, problems: Problems, project: Path | None = None
                 ) -> list[LayoutNote]:
    """The notes of every face of `decks` (faces with problems are left out, their problems recorded);
    with `project`, faces a build remembered (pnp.pipeline.facecache) are taken from there."""
    out = []
    for deck in decks:
        size = deck_size(deck, game)
        cache = FaceCache(project, game.slug, deck.id, enabled=len(deck.cards) <= MAX_CARDS) if project else None
        for card in deck.cards:
            face = prepare_card(card, deck, game, tools, problems, cache)
            if face is not None:
                out += notes_of(deck, card.id, face, size, tools.style)
        back = prepare_back(deck, game, tools, problems, cache)
        if back is not None and hasattr(back, "elements"):
            out += notes_of(deck, None, back, size, tools.style)
    return out
