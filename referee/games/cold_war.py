"""15 Minute Cold War: 2-4 countries; the faction is the country played.

Leaders, defence stacks and the round score sheet plug in here later.
"""
from __future__ import annotations

from referee.games.generic import GenericRules
from referee.model import GameSlug


class ColdWarRules(GenericRules):
    slug = GameSlug.COLD_WAR
    title = "15 Minute Cold War"
    min_players, max_players = 2, 4
    faction_word = "country"


RULES = ColdWarRules()
