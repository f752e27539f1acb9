"""Finding a card by its id or by the text of its QR code.

A code is either a card id (`anarchy-brick-courier`, any case) or a QR
payload (`PNP:ANARCHY-WINDOW-SMASHER:1A2B3C:2`, or an older print's
`PNP:CULTURE-WAR:ANARCHY-WINDOW-SMASHER:1A2B3C`). A payload also says
which revision was printed and, on newer prints, which copy it is; when the
sources have moved on, the lookup says the copy was printed before the last
change and what changed, when the card index or the last build remembers the
printed revision (referee.cards.printed).
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.cards.index import CardIndex, CardInfo, load_index, project_root
from referee.cards import printed as prints
from referee.cards.printed import FieldChange
from referee.errors import CardError
from referee.model import CardUse

_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Lookup:
    card: CardInfo
    printed_revision: str | None = None  # from a scanned QR code
    changes: tuple[FieldChange, ...] | None = None  # None: printed revision not remembered
    copy: int | None = None  # which printed copy was scanned (None: typed, or an older print)

    @property
    def out_of_date(self) -> bool:
        return self.printed_revision is not None and self.printed_revision != self.card.revision

    def note(self) -> str | None:
        """'this copy was printed before the last change (...): what changed'; None for an up-to-date copy."""
        if not self.out_of_date:
            return None
        return prints.note(str(self.printed_revision), self.card.revision, self.changes)

    def warning(self) -> str | None:
        """The note with the card it is about, for a warning line."""
        said = self.note()
        return None if said is None else f"{self.card.name} ({self.card.id}): {said}"

    def to_json(self) -> dict[str, Any]:
        data = self.card.to_json()
        data["printed_revision"] = self.printed_revision
        data["out_of_date"] = self.out_of_date
        data["copy"] = self.copy
        data["changes"] = (
            None if self.changes is None
            else [{"field": c.field, "printed": c.printed, "current": c.current} for c in self.changes]
        )
        return data


def looks_like_payload(text: str) -> bool:
    return text.strip().upper().startswith("PNP:")


def by_code(index: CardIndex, text: str, game: str | None = None) -> list[str]:
    """The ids of the cards whose short code is `text` (any case; look-alike
    characters read as the code alphabet has them), in `game` when given."""
    from pnp.sources.codes import looks_like_code, lookalike  # lazy: pnp loads only when a code is read

    if not looks_like_code(text):
        return []
    wanted = text.strip().upper()
    for candidate in (wanted, lookalike(wanted)):
        found = [c.id for c in index.cards.values() if str(c.fields.get("code", "")).upper() == candidate
                 and (game is None or c.game == game)]
        if found:
            return found
    return []


def lookup(code: str, start: Path | None = None, index: CardIndex | None = None, table_game: str | None = None) -> Lookup:
    """The card a code names: a card id, its short code, or a scanned QR
    payload. CardError names the code when there is none. `table_game` picks
    between cards of several games sharing a short code."""
    from pnp.sources.qrpayload import parse_payload  # lazy: pnp loads only when a code is read

    index = index or load_index(project_root(start))
    text = code.strip()
    printed = None
    game = None
    copy = None
    if looks_like_payload(text):
        payload = parse_payload(text)
        if payload is None:
            raise CardError(
                f"{text!r} starts like a card's QR code but is not one "
                "(expected PNP:CARD-ID:REVISION:COPY, e.g. PNP:SOME-CARD:1A2B3C:2)"
            )
        card_id, printed, game, copy = payload.card_id, payload.revision, payload.game, payload.copy
    else:
        card_id = text.lower()
        if card_id not in index.cards:
            coded = by_code(index, text, table_game)
            if len(coded) > 1:
                raise CardError(f"short code {text.upper()} names several cards ({', '.join(sorted(coded))}); "
                                "type the card's id instead")
            if coded:
                card_id = coded[0]
        if not _ID.match(card_id):
            raise CardError(f"{text!r} is neither a card id, a short code nor a card's QR code")
    card = index.cards.get(card_id)
    if card is None:
        close = difflib.get_close_matches(card_id, list(index.cards), n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise CardError(f"no card {card_id!r} in the card sources at {index.root}{hint}")
    if game is not None and game != card.game:
        raise CardError(f"the QR code says card {card_id} belongs to {game}, but the sources put it in {card.game}")
    changes = None
    if printed is not None and printed != card.revision:
        found = prints.printed_fields(index.root, index.history.get(card_id, {}), card, printed)
        if found is not None:
            changes = prints.changes(found[0], found[1])
    if copy is not None and not 1 <= copy <= card.quantity:
        raise CardError(f"the QR code says copy {copy} of {card_id}, but only {card.quantity} "
                        f"{'is' if card.quantity == 1 else 'are'} printed")
    return Lookup(card, printed, changes, copy)


def resolve(code: str, game: str, start: Path | None = None) -> CardUse:
    """A card named in an action: it must belong to the table's game."""
    found = lookup(code, start, table_game=game)
    if found.card.game != game:
        raise CardError(f"card {found.card.id} belongs to {found.card.game}, but this table plays {game}")
    return CardUse(found.card.id, found.card.revision, found.warning(), found.copy, found.printed_revision is not None)


def is_card(text: str, start: Path | None = None) -> bool:
    """True if `text` is a known card id or short code (used by scan mode). Never raises."""
    try:
        index = load_index(project_root(start))
    except (CardError, ImportError, OSError):  # no project or broken sources: not a card
        return False
    return text.strip().lower() in index.cards or bool(by_code(index, text))


def of_game(found: Lookup, game: str) -> CardInfo:
    """The card a lookup found, refused when it belongs to another game than the table's."""
    card = found.card
    if card.game != game:
        raise CardError(f"card {card.id} belongs to {card.game}, but this table plays {game}")
    return card
