"""Political Divide & Conquer: 4-8 players, one shared deck.

- `rules`: the rules object (setup, house rules, hooks) and ACTIONS, its table of actions;
- `actions`: each action's check and apply functions (a turn's action, each attack step, corrections);
- `phases`: the phases of a turn (action, the attack's steps, game over);
- `zones`: bases, the unaffiliated area, the discard pile and the draw count; `printed`: printed copies;
- `battle`: the attack sequence; `events`: what event cards do; `hands`: hand-count corrections;
- `work`: a scratch copy of the table an action changes; `cards`, `effects`: card data;
- `view`: the words (status, changes);
- `commands`: the table-level functions behind the game's CLI commands; `cli`: those commands;
- `report`: the game's part of the match report.
"""
from referee.games.divide_and_conquer.rules import RULES
from referee.model import GameSlug
from referee.rules.game import Game, Part

GAME = Game(GameSlug.DIVIDE_AND_CONQUER, RULES, (Part.VIEW, Part.WORDS, Part.PHRASES, Part.COMMANDS, Part.CLI, Part.REPORT, Part.LEGAL, Part.SELFPLAY, Part.POLICY))

__all__ = ["GAME", "RULES"]
