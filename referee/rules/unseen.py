"""What is worked out only for a person to read, and the switch that skips it.

Two things the referee makes are read by people and by nothing else:

- the words of a legal move (`referee moves`), and
- Culture War's `now` on each piece in play (a unit's ATK and DEF with
  every effect, a Real Estate's production and capacity), which `status`,
  the echo and the live page show.

No rule and no agent reads either. Self-play plays thousands of games inside
`unseen()`, where neither is made: wording the moves cost it about a fifth of
its time, and the `now` figures about an eighth. The same seeds give the same
games inside and outside (tests/referee/test_unseen.py).
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

# False inside `unseen()`.
_FOR_PEOPLE: ContextVar[bool] = ContextVar("made_for_people", default=True)


@contextmanager
def unseen() -> Iterator[None]:
    """Inside, what only a person reads is not worked out (see the module docstring)."""
    token = _FOR_PEOPLE.set(False)
    try:
        yield
    finally:
        _FOR_PEOPLE.reset(token)


def for_people() -> bool:
    """Whether what only a person reads is worked out now (not inside `unseen()`)."""
    return _FOR_PEOPLE.get()
