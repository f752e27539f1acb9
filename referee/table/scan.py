"""Scan mode: telling a scanned card from a typed command, line by line.

A USB or phone scanner types a card's QR text and Enter. The scorekeeper may
also type referee commands without the `referee` prefix. A line is:

- blank or starting with `#`: ignored;
- `quit` or `exit`: the end of the session (so is end of input);
- a QR payload (`PNP:...`): a card to show;
- a line whose first word is a referee command: that command;
- a single word that is a known card id: a card to show;
- anything else: run as a command, so the usual error explains it.

Commands win over card ids, so a card can never hide a command.

A command that takes several cards (an attack team, a raise, a combined
attack, a setup) may be typed without them: its cards are then scanned one
per line, each checked at once (`scanned_card`: a card of this table's game,
with a copy still free), until a blank line or `done` runs it (`cancel`
drops it).
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Callable, Collection

from referee.table import operations as table
from referee.cards import is_card as is_known_card, lookup
from referee.rules.copies import where_text
from referee.rules.copy_register import place_of
from referee.errors import RefereeError
from referee.rules import rules_for


class LineKind(str, Enum):
    SKIP = "skip"
    QUIT = "quit"
    CARD = "card"
    COMMAND = "command"


@dataclass(frozen=True)
class ScanLine:
    kind: LineKind
    text: str
    argv: tuple[str, ...] = ()


def classify(line: str, commands: Collection[str],
             is_card: Callable[[str], bool] | None = None) -> ScanLine:
    text = line.strip()
    if not text or text.startswith("#"):
        return ScanLine(LineKind.SKIP, text)
    if text.lower() in ("quit", "exit"):
        return ScanLine(LineKind.QUIT, text)
    if text.upper().startswith("PNP:"):
        return ScanLine(LineKind.CARD, text)
    if text.lower().startswith("referee "):  # typed out of habit
        text = text[len("referee "):].strip()
    try:
        argv = tuple(shlex.split(text))
    except ValueError as exc:
        raise RefereeError(f"cannot read the line {line.strip()!r}: {exc}") from None
    if argv and argv[0] not in commands and len(argv) == 1:
        check = is_card or _known_card
        if check(argv[0]):
            return ScanLine(LineKind.CARD, argv[0])
    return ScanLine(LineKind.COMMAND, text, argv)


def _known_card(text: str) -> bool:
    return is_known_card(text, Path.cwd())


DONE_WORDS = ("", "done", "end", "go")
CANCEL_WORDS = ("cancel", "abort")


@dataclass(frozen=True)
class Scanned:
    card_id: str
    name: str
    notes: tuple[str, ...] = ()
    code: str = ""  # what the command gets: the QR text when it names a copy (the copy is kept), else the id
    copy: int | None = None


def scanned_card(code: str, db: Path) -> Scanned:
    """A card scanned (or typed: id, short code) into a gathering action, checked
    at once: it must be a card of the table's game; a card whose every printed
    copy is already somewhere on the table is refused, saying where."""
    state = table.status(db).state
    found = lookup(code, table_game=state.game)
    card = found.card
    if card.game != state.game:
        raise RefereeError(f"{card.name} ({card.id}) is a {card.game} card; this table plays {state.game}")
    places = rules_for(state.game).where_is(state, card.id)
    at = place_of(state, card.id, found.copy) if found.copy else None  # a shared printing's copy (per-owner decks: when played)
    if at is not None:
        raise RefereeError(f"{card.name} ({card.id}): copy {found.copy} is already on the table ({at}); "
                           "a printed copy is one card, so scan the copy you are putting down")
    printed = max(1, card.quantity)
    if len(places) >= printed:
        raise RefereeError(f"{card.name} ({card.id}): all {printed} printed cop{'y is' if printed == 1 else 'ies are'} "
                           f"already on the table: {where_text(places)}")
    code_out = code.strip() if found.copy else card.id
    return Scanned(card.id, card.name, tuple(w for w in [found.warning()] if w), code_out, found.copy)
