"""Every printed copy of a card is one physical object.

A card printed three times can be in at most three places at once: in play,
in a base, a thread, a stack, a hand, a discard pile, or removed from the
game. Each game knows its own zones; it lists where the copies of a card are
now (one entry per copy, in words a player reads, such as "ann's discard
pile" or "in play as #4") and asks `check_free_copy` before an action puts
another copy somewhere. The refusal names the card, where its copies are,
and the rule.

Which copies a player may use depends on the game: in Culture War and Cold
War each player owns a printed deck, so the count is per owner; in Divide &
Conquer and the debate game the count is over the shared printing (or one
player's tactic deck). The caller decides which places to count.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable

from referee.errors import RuleViolation

RULE = "printed copies"


def copies_word(quantity: int) -> str:
    return f"{quantity} printed cop{'y' if quantity == 1 else 'ies'}"


def where_text(places: Iterable[str]) -> str:
    """ "2 in play, 1 in ann's discard pile" from one entry per copy, in first-seen order."""
    counts = Counter(places)
    return ", ".join(place if n == 1 else f"{n} x {place}" for place, n in counts.items())


def check_free_copy(card_id: str, name: str, quantity: int, places: Iterable[str], *,
                    wanted: int = 1, rule: str = RULE) -> None:
    """Raise RuleViolation unless `wanted` more copies of the card are free.

    `places` has one entry per copy already somewhere on the table. A card
    with quantity 0 (or unknown) counts as printed once."""
    places = list(places)
    printed = max(1, int(quantity or 1))
    if len(places) + wanted <= printed:
        return
    if not places:
        raise RuleViolation(rule, f"{name} ({card_id}) has {copies_word(printed)}, not {wanted}")
    raise RuleViolation(
        rule,
        f"{name} ({card_id}) has {copies_word(printed)}, and "
        f"{'it is' if printed == 1 else 'they are'} already in use: {where_text(places)}",
    )
