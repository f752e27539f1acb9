"""Battle for the Petri Dish: geometry, the pure move generator (engine),
the table rules (rules) and text output (text). `commands` holds the
table-level functions behind the game's CLI commands."""
from referee.games.petri_dish.rules import RULES

__all__ = ["RULES"]
