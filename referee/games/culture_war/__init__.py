"""Culture War: 2-5 players, one faction deck each, life and capital coins.

`rules` holds the GameRules object (setup, roll-off, turns, life and
capital) and `actions` the card, battle and alliance actions; they edit a
`board` (a working copy of the table) through `effects` (card effects) and
`battle`; `odds` gives exact battle odds; `commands` opens a table file for
the CLI; `view` writes the text; `cards` reads card data.
"""
from referee.games.culture_war.rules import LIFE_BY_PLAYERS, CultureWarRules

RULES = CultureWarRules()

__all__ = ["RULES", "LIFE_BY_PLAYERS", "CultureWarRules"]
