"""The one error base for the referee.

Every failure a person can cause is a RefereeError whose message names the
player, card, rule or file involved. cli.py turns it into a click error in
one place; nothing else in the package prints or exits.

Warnings the core raises without printing them (a damaged snapshot rebuilt,
a table upgraded, a newer referee's table) go through `note`: the command
line collects them (`collecting`) and says them; a caller that collects
nothing gets them as Python warnings, so none is lost.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator


class RefereeError(Exception):
    """Anything the referee refuses or cannot do, as a readable message."""


class RuleViolation(RefereeError):
    """An action the rules do not allow. `rule` names the rule it breaks."""

    def __init__(self, rule: str, message: str):
        self.rule = rule
        self.message = message
        super().__init__(f"{message} [rule: {rule}]")


class UnknownPlayer(RefereeError):
    def __init__(self, name: str, known: list[str]):
        self.name = name
        import difflib  # lazy: only a mistyped name needs it, not every command

        listed = ", ".join(known) or "nobody"
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.5) or \
            [k for k in known if k.lower() == name.lower()]
        hint = f"; did you mean {close[0]}?" if close else ""
        super().__init__(f"no player called {name!r} at this table (players: {listed}){hint}")


class DiceError(RefereeError):
    """A dice expression or an entered die that cannot be right."""


class CardError(RefereeError):
    """A card code that does not match a card, or card sources that cannot be read."""


class TableError(RefereeError):
    """A table file that is missing, busy, corrupt or not a referee table."""


class NothingToDo(RefereeError):
    """Undo with nothing to undo, redo with nothing to redo."""


class TableDamaged(TableError):
    """A table whose log or saved state fails its checksums: where, and how.
    `seq` is the first damaged event (0: the table's own header, its meta)."""

    def __init__(self, seq: int, detail: str, path: object | None = None):
        self.seq, self.detail, self.path = seq, detail, path
        where = f" at event {seq}" if seq else ""
        name = f"the table {path}" if path is not None else "this table"
        hint = "; `referee check` lists the damage, `referee check --repair` keeps what is sound in a new file" \
            if path is not None else ""
        super().__init__(f"{name} is damaged{where} ({detail}){hint}")

    def at(self, path: object) -> "TableDamaged":
        return TableDamaged(self.seq, self.detail, path)


class TableReadOnly(TableError):
    """A table that can be read but not written (read-only folder, full disk, newer referee)."""


# ---- notices: the core's warnings -------------------------------------------

_NOTES: ContextVar[list[str] | None] = ContextVar("referee_notices", default=None)


class TableWarning(UserWarning):
    """A warning about a table file (damage repaired, an upgrade, a read-only fallback)."""


def note(text: str) -> None:
    notes = _NOTES.get()
    if notes is None:
        import warnings  # lazy: only a caller that collects nothing needs it

        warnings.warn(text, TableWarning, stacklevel=3)
    elif text not in notes:
        notes.append(text)


@contextmanager
def collecting() -> Iterator[list[str]]:
    """Collect the notices raised inside; the list fills as they come."""
    notes: list[str] = []
    token = _NOTES.set(notes)
    try:
        yield notes
    finally:
        _NOTES.reset(token)
