"""Culture War: 2-5 players, one faction deck each, life and capital coins.

- `rules`: the rules object (setup, the hooks the core calls); `action_table`: its
  actions, each step by a plain import, loaded on first use; `board_actions`: how an
  action played on a Board is checked, applied and narrated;
- `actions`, `alliances`, `turns`: the steps on a board: cards, alliances, the roll-off and the turn;
- `battle/`: attacks, one battle's dice (`fight`), exact odds, "would die" saves, rolling actions;
- `effects/`: what cards in play do all the time (`static`), each effect kind at its moment
  (`handlers` and its kinds), a turn's start and end, cancels, prompts answered with numbers;
- `table/`: the board (a working copy of the table), zones, phases, the printed cards, house rules;
- `legal`, `selfplay`: the move generator and self-play's dealer and evaluation;
- `story`: the facts the steps tell (life, payments, draws, pieces entering and leaving, rolls);
- `view`, `words`, `phrases`: what people read (status, changes, odds; the game's view; each
  action's phrase);
- `commands`: the table-level functions behind the game's CLI commands; `cli`: those commands;
- `report`: the game's part of the match report.
"""
from referee.games.culture_war.rules import LIFE_BY_PLAYERS, RULES, CultureWarRules
from referee.model import GameSlug
from referee.rules.game import Game, Part

GAME = Game(GameSlug.CULTURE_WAR, RULES, (Part.VIEW, Part.WORDS, Part.PHRASES, Part.COMMANDS, Part.CLI, Part.REPORT, Part.LEGAL, Part.SELFPLAY, Part.POLICY))

__all__ = ["GAME", "RULES", "LIFE_BY_PLAYERS", "CultureWarRules"]
