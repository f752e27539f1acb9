"""15 Minute Cold War at the table: country decks, defence stacks, Propaganda,
the Nuclear Triad, Fallen Leaders and a three-round score sheet.

- `cards`: each country's 25 cards and the game notes, read from card_sources/;
- `desk`: pure helpers on one player's cards on the table (spots, defence);
- `rules`: the rules object (check/apply for every action);
- `view`: what `status` may show (face-down cards hidden), odds, change lines;
- `commands`: the table-level functions behind the game's CLI commands.
"""
from referee.games.cold_war.rules import RULES

__all__ = ["RULES"]
