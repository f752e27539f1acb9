"""The dice a Culture War action is played with: handed in as a function
(the rules never roll), one die each call, and a clear error when the dice
given run out before the rules are done."""
from __future__ import annotations

from typing import Callable, Iterable

from referee.errors import RefereeError

Dice = Callable[[], int]


class DiceShortage(RefereeError):
    """The dice given ran out before the rules were done with them."""


def feeder(values: Iterable[int]) -> Dice:
    """Dice handed out one by one; DiceShortage when they run out."""
    it = iter(values)

    def next_die() -> int:
        try:
            return next(it)
        except StopIteration:
            raise DiceShortage("the dice ran out before the rules were done with them") from None

    return next_die
