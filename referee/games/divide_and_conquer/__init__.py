"""Political Divide & Conquer: bases, the unaffiliated area, the discard
pile and the draw count (`zones`), the attack sequence (`battle`), events
(`events`), the table rules (`rules`), words (`text`) and the table-level
functions behind the game's CLI commands (`commands`)."""
from referee.games.divide_and_conquer.rules import RULES

__all__ = ["RULES"]
