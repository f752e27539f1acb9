"""Warnings the core raises without printing them: the command line (or
any caller) collects them and says them; a caller that does not collect
them gets them as Python warnings, so none is lost."""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

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
