"""Political Divide & Conquer: 4-8 players, no life or capital.

Influence, bases and attacks plug in here later; for now the generic rules
keep players and turns.
"""
from __future__ import annotations

from referee.games.generic import GenericRules
from referee.model import GameSlug


class DivideAndConquerRules(GenericRules):
    slug = GameSlug.DIVIDE_AND_CONQUER
    title = "Political Divide & Conquer"
    min_players, max_players = 4, 8


RULES = DivideAndConquerRules()
