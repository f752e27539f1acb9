"""The Fallen Leader odds: what the next flip of a Fallen Leader's pile does,
counted over the real cards left in it (the words are `view.odds_text`'s)."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from referee.errors import RefereeError
from referee.games.cold_war import desk as D
from referee.games.cold_war import zones as Z
from referee.model import State

FLIPS = ("lend", "attack", "nothing")  # what a flipped card does, by its fallen_draw


@dataclass(frozen=True)
class Odds:
    """What a Fallen Leader's next flip does, counted over real cards."""

    player: str
    source: str  # "draw pile", "draw pile, top card known", "discard pile, turned over next", "a fresh pile", "nothing"
    counts: Mapping[str, int]
    next_card: str | None = None  # the known top card, when the pile's order is known
    next_name: str | None = None

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def chance(self, outcome: str) -> Fraction:
        return Fraction(self.counts.get(outcome, 0), self.total) if self.total else Fraction(0)

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player, "source": self.source, "cards": self.total, "next_card": self.next_card,
            "counts": dict(self.counts),
            "odds": {k: str(self.chance(k)) for k in FLIPS},
            "percent": {k: round(float(self.chance(k)) * 100, 1) for k in FLIPS},
        }


def odds(state: State, player: str) -> Odds:
    """The Fallen Leader odds for `player`. From a shuffled draw pile, the
    mix of the cards left in it; from a pile turned over from the unshuffled
    discard pile (or the discard pile about to turn over), the one known top
    card. For a standing Leader, the fresh 24-card pile they would shuffle
    on falling."""
    f = state.fields
    name = state.player(player).name
    desk, deck = f["desks"][name], f["decks"][name]
    top = None
    if desk["fallen"]:
        how, ids = Z.next_flip(desk)
        if how == "known":
            top = ids[0]
            source = "draw pile, top card known" if desk["order"] else "discard pile, turned over next"
        else:
            source = "draw pile" if how == "shuffled" else "nothing"
    else:
        ids, source = Z.fresh_pile(deck), "a fresh pile"
    counts = {k: 0 for k in FLIPS}
    for cid in ids:
        kind = D.card(f, cid).get("fallen_draw")
        if kind not in counts:
            raise RefereeError(f"card {cid} has no fallen_draw in the card sources")
        counts[kind] += 1
    return Odds(name, source, counts, top, D.name_of(f, top) if top else None)
