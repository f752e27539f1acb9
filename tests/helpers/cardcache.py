"""Cards looked up once per test process. A card's printed stats do not change
while the tests run, but each real lookup first checks the date of every card
source and pnp module (referee.cards.index.signature): a walk of thousands of
plays would pay for that thousands of times. Each call hands out its own copy,
as the real lookup does."""
from __future__ import annotations

import copy
import functools
from typing import Any, Callable, TypeVar

from referee.games.culture_war.table.cards import resolve

T = TypeVar("T")


def once(look_up: Callable[[str], T]) -> Callable[[str], T]:
    """`look_up`, asked once per argument; each answer a fresh deep copy."""
    held = functools.lru_cache(maxsize=None)(look_up)

    @functools.wraps(look_up)
    def fresh(code: str) -> T:
        return copy.deepcopy(held(code))

    return fresh


cached_card: Callable[[str], dict[str, Any]] = once(resolve)  # a Culture War card's stats, by id or QR text
