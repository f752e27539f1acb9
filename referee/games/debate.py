"""The debate game: two players, a crowd track from -30 to +30.

The crowd starts at a random value within `crowd-spread` of 0 either way
(the rulebook says up to 10), drawn from the table's dice so it replays.
Fortitude, the forum and POTUS powers plug in here later.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from referee.games import HouseRule
from referee.games.generic import GenericRules
from referee.errors import RuleViolation
from referee.model import GameSlug, Setup, State

CROWD_LIMIT = 30


class DebateRules(GenericRules):
    slug = GameSlug.DEBATE
    title = "Debate"
    min_players, max_players = 2, 2
    crowd_limit = CROWD_LIMIT
    faction_word = "POTUS"
    house_rules = {
        "crowd-spread": HouseRule(
            "crowd-spread", 10, "the crowd starts at a random value from -N to +N"
        ),
    }

    def _spread(self, setup: Setup) -> int:
        spread = int(self._house_rules(setup)["crowd-spread"])  # type: ignore[arg-type]
        if not 0 <= spread <= CROWD_LIMIT:
            raise RuleViolation("crowd-spread", f"crowd-spread must be 0 to {CROWD_LIMIT}, not {spread}")
        return spread

    def setup_dice(self, setup: Setup) -> tuple[int, ...]:
        spread = self._spread(setup)
        return (2 * spread + 1,) if spread else ()

    def setup(self, setup: Setup, dice: Sequence[int]) -> State:
        spread = self._spread(setup)
        state = super().setup(setup, dice)
        crowd = dice[0] - spread - 1 if spread else 0
        return replace(state, crowd=crowd)


RULES = DebateRules()
