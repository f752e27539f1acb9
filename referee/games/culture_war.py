"""Culture War: 2-5 players, one faction deck each, life and capital.

For now this is the shared generic ruleset with Culture War's numbers; the
combat rules plug in here later.
"""
from __future__ import annotations

from typing import Mapping

from referee.errors import RuleViolation
from referee.games import HouseRule
from referee.games.generic import GenericRules
from referee.model import GameSlug, Setup

# House rule default (shared/seeds/README.md): shorter games for bigger tables.
LIFE_BY_PLAYERS = {2: 100, 3: 90, 4: 80, 5: 70}


class CultureWarRules(GenericRules):
    slug = GameSlug.CULTURE_WAR
    title = "Culture War"
    min_players, max_players = 2, 5
    has_life = True
    has_capital = True
    out_at_zero_life = True
    factions = ("anarchy", "community", "technocracy", "conservative", "libertarian")
    house_rules = {
        "starting-life": HouseRule(
            "starting-life", None, "life each player starts with; default 100/90/80/70 for 2/3/4/5 players"
        ),
        "starting-capital": HouseRule(
            "starting-capital", 1, "capital each player starts with (the coin on the first real estate)"
        ),
        "unopposed-damage": HouseRule(
            "unopposed-damage", 5, "life lost to an attack on a player who has no units to defend"
        ),
        "unopposed-hero-damage": HouseRule(
            "unopposed-hero-damage", 10, "the same, when the attacker is a hero"
        ),
    }

    def starting_life(self, setup: Setup, rules: Mapping[str, object]) -> int | None:
        if setup.life is not None:
            if setup.life < 1:
                raise RuleViolation("starting life", f"players must start with at least 1 life, not {setup.life}")
            return setup.life
        chosen = rules.get("starting-life")
        return int(chosen) if chosen is not None else LIFE_BY_PLAYERS[len(setup.players)]

    def starting_capital(self, rules: Mapping[str, object]) -> int | None:
        return int(rules["starting-capital"])  # type: ignore[arg-type]


RULES = CultureWarRules()
