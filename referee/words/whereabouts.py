"""Where a scanned card's printed copies are on the table now.

`referee card CODE` and scan mode show it, so a scorekeeper who scans a card
that is already in play, in a base or in a discard pile learns where at once
(each game's `where_is` says it in words a player may read: hands and
face-down identities stay hidden).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from referee.table import operations as table
from referee.rules.copy_register import places_of_copy
from referee.errors import RefereeError
from referee.rules import rules_for


@dataclass(frozen=True)
class Whereabouts:
    game: str
    places: tuple[str, ...]  # one entry per copy somewhere on the table
    copy: int | None = None  # the printed copy asked about (a QR code's copy number)
    copy_places: tuple[str, ...] = ()  # where that copy is, when the table knows (each owner's, in Culture War)

    def to_json(self) -> dict:
        return {"game": self.game, "places": list(self.places), "copy": self.copy,
                "copy_places": list(self.copy_places)}


def where_is(path: Path, card_id: str, game: str, copy: int | None = None) -> Whereabouts | None:
    """None when there is no table at `path`, or it plays another game. With
    `copy`, also where that printed copy is (None: the table was never told,
    or it went where no player can see)."""
    if not path.is_file():
        return None
    try:
        view = table.status(path)
    except RefereeError:
        return None
    if view.state.game != game:
        return None
    places = tuple(rules_for(view.state.game).where_is(view.state, card_id))
    at = tuple(places_of_copy(view.state, card_id, copy)) if copy else ()
    return Whereabouts(game, places, copy, at)
