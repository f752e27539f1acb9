"""The debate game: POTUS, fortitude, the forum of 2 x 7 threads and the crowd.

- `rules`: the rules object (setup, house rules, hooks) and ACTIONS, its table of actions;
- `actions`: each action's check and apply functions (tactics, abilities, round end ...);
- `phases`: the phases of a round and what each allows;
- `forum`: the threads and the round-end arithmetic; `piles`: decks, hands, draw and discard piles;
- `abilities`, `effects`: what cards and POTUS abilities do; `cards`: card data from the index;
- `view`: the words (status, changes, the round-end breakdown);
- `commands`: the table-level functions behind the game's CLI commands; `cli`: those commands;
- `report`: the game's part of the match report.
"""
from referee.games.debate.rules import RULES
from referee.model import GameSlug
from referee.rules.game import Game, Part

GAME = Game(GameSlug.DEBATE, RULES, (Part.VIEW, Part.WORDS, Part.PHRASES, Part.COMMANDS, Part.CLI, Part.REPORT, Part.LEGAL, Part.SELFPLAY, Part.POLICY))

__all__ = ["GAME", "RULES"]
