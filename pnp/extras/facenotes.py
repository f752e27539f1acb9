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
from pnp.pipeline.prepare import BAD_BACK, back_reads_card, card_backs, deck_size, distinct_backs, prepare_card

PREFLIGHT_RULES = (Rule.SAFE_ZONE, Rule.PICTURE_PPI)


@dataclass(frozen=True)
class LayoutNote:
    """A face's note: its deck, its card (None: the deck's one back), the rule and what it says;
    `side` "back" with a card: that card's own back (a deck with a back per card)."""

    deck: str
    card: str | None
    rule: str
    message: str
    side: str = "front"

    @property
    def label(self) -> str:
        """The face as the preflight names it: "<card> front", "<card> back" or "<deck> back"."""
        return f"{self.card} {self.side}" if self.card else f"{self.deck} back"


def notes_of(deck: Deck, card: str | None, face, size, style: dict, side: str = "front") -> list[LayoutNote]:
    return [LayoutNote(deck.id, card, n.rule.value, n.message + " (as laid out)", side if card else "back")
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
        backs = card_backs(tools.templates.root.parent, deck, game, tools, problems, deck.cards, cache)
        if backs is None or backs is BAD_BACK:
            continue
        per_card = back_reads_card(tools.templates.root.parent, game, deck)
        first = {id(face): card_id for card_id, face in reversed(backs.items())}
        for face in distinct_backs(backs):
            out += notes_of(deck, first[id(face)] if per_card else None, face, size, tools.style, "back")
    return out
