"""Which notes about old printings an action may say aloud.

A copy scanned by its QR text and printed before the last change of its
card gets a note (referee.cards.Lookup.warning) naming the card and what
changed. A card the action lays face down, or otherwise keeps from the
other players, must not be named, nor even flagged: "one of Bo's face-down
cards is an old print" tells which card it is when only a few cards changed
since the printing. So for such a card the note is not said, and instead
the action always says, whatever the cards are, that its hidden cards were
not checked aloud and how their holder checks one alone (`referee card`,
which shows the card to whoever scanned it). Two tables differing only in
their hidden cards thus read the same.
"""
from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from referee.model import CardUse

HIDDEN_NOTE = ("the cards kept hidden here were not checked aloud for an old printing (that would tell "
               "which they are); their holder checks one alone with `referee card` and its QR text")


def is_shown(card_id: str, shown_args: Mapping[str, Any]) -> bool:
    """True if the action's public arguments name the card."""
    return f'"{card_id}"' in json.dumps(shown_args, default=str)


def stated(hides: bool, shown_args: Mapping[str, Any], uses: Sequence[CardUse],
           unchecked: bool = False) -> tuple[str, ...]:
    """The notes an action says aloud: each shown card's, and, when any
    scanned card stays hidden (`hides`: the command may hide cards; or
    `unchecked`: the game's command kept a scanned hidden card out of
    `uses`), the one note that says hidden cards are not checked aloud."""
    out = []
    hidden_scanned = unchecked
    for use in uses:
        if hides and not is_shown(use.card_id, shown_args):
            hidden_scanned = hidden_scanned or use.scanned
        elif use.warning:
            out.append(use.warning)
    if hidden_scanned:
        out.append(HIDDEN_NOTE)
    return tuple(dict.fromkeys(out))
