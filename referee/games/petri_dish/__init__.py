"""Battle for the Petri Dish, the smallest game (the example in docs/adding-a-game.md).

- `rules`: the rules object (setup, house rules, hooks) and ACTIONS, its table of actions;
- `actions`: each action's check and apply functions;
- `dish`: the table's State as the engine's Position and back;
- `engine`, `geometry`: the pure move generator (perft) and the dish's points;
- `view`: the dish as text (status, changes, the board diagram);
- `commands`: the table-level functions behind the game's CLI commands; `cli`: those commands;
- `report`: the game's part of the match report.
"""
from referee.games.petri_dish.rules import RULES
from referee.model import GameSlug
from referee.rules.game import Game, Part

GAME = Game(GameSlug.PETRI_DISH, RULES, (Part.VIEW, Part.WORDS, Part.PHRASES, Part.COMMANDS, Part.CLI, Part.REPORT, Part.LEGAL, Part.SELFPLAY, Part.POLICY))

__all__ = ["GAME", "RULES"]
