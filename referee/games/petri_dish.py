"""Battle for the Petri Dish: two players, white and black; white moves first.

The board and germ moves plug in here later.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from referee.errors import RuleViolation
from referee.games.generic import GenericRules
from referee.model import GameSlug, Setup, State

COLOURS = ("white", "black")


class PetriDishRules(GenericRules):
    slug = GameSlug.PETRI_DISH
    title = "Battle for the Petri Dish"
    min_players, max_players = 2, 2
    factions = COLOURS
    faction_word = "colour"

    def setup(self, setup: Setup, dice: Sequence[int]) -> State:
        """Unnamed colours go in listed order (first listed is white); white starts."""
        self._check_players(setup)
        given = [self._faction(f) for _, f in setup.players]
        named = [c for c in given if c]
        if len(set(named)) != len(named):
            raise RuleViolation("colour", f"both players asked for {named[0]}; one plays white, one black")
        free = [c for c in COLOURS if c not in named]
        colours = [c or free.pop(0) for c in given]
        setup = replace(setup, players=tuple((n, c) for (n, _), c in zip(setup.players, colours)))
        state = super().setup(setup, dice)
        return replace(state, active=colours.index("white"))


RULES = PetriDishRules()
