"""Culture War: 2-5 players, one faction deck each, life and capital coins.

- `rules`: the rules object (setup, hooks) and ACTIONS, its table of actions;
- `actions`, `attacks`, `alliances`, `turns`: the actions, as steps on a `board`
  (a working copy of the table): cards, battles, alliances, the roll-off and the turn;
- `phases`: the turn's phases and what each allows; `zones`: hands, decks and discard piles;
- `effects`: what cards in play do all the time; `handlers`: each effect kind at its moment (the
  kinds in `stat_changes` and `life_and_capital`, who acts and when in `effect_context`), and
  the moments (attacks, deaths, "would die" saves); `turn_effects`: a turn's start and end;
- `battle`: one battle's dice; `odds`: exact battle odds; `house_rules`, `cards`: settings and card data;
- `view`: the words (status, changes, odds);
- `commands`: the table-level functions behind the game's CLI commands; `cli`: those commands;
- `report`: the game's part of the match report.
"""
from referee.games.culture_war.rules import LIFE_BY_PLAYERS, RULES, CultureWarRules
from referee.model import GameSlug
from referee.rules.game import Game, Part

GAME = Game(GameSlug.CULTURE_WAR, RULES, (Part.VIEW, Part.PHRASES, Part.COMMANDS, Part.CLI, Part.REPORT, Part.LEGAL, Part.SELFPLAY))

__all__ = ["GAME", "RULES", "LIFE_BY_PLAYERS", "CultureWarRules"]
