"""Culture War's house rules: where the rules leave a choice, the default
and the values a table may choose instead (each with a range or choices).
The rule sheet (card_sources/culture-war/rules.md) states every one."""
from __future__ import annotations

from typing import Any

from referee.rules import HouseRule

# House rule default (shared/seeds/README.md): shorter games for bigger tables.
LIFE_BY_PLAYERS = {2: 100, 3: 90, 4: 80, 5: 70}
FIRST_PLAYER = ("roll-off", "seating")
COUNTER_FAIL = ("free", "normal")
HERO_KILLS_HERO = ("once", "both")
ESTATE_PRICE = ("owned", "bought")
DECKS = ("faction", "mixed")


def _house(key: str, default: Any, text: str, low: int | None = None, high: int | None = None,
           choices: tuple[str, ...] = ()) -> HouseRule:
    return HouseRule(key, default, text, str if choices else int, low, high, choices)


HOUSE_RULES: dict[str, HouseRule] = {
    "starting-life": _house(
        "starting-life", None, "life each player starts with; default 100/90/80/70 for 2/3/4/5 players",
        1, 1000),
    "starting-capital": _house(
        "starting-capital", 1, "coins on each player's first Real Estate at the start (more go to the bank)",
        0, 100),
    "unopposed-damage": _house(
        "unopposed-damage", 5, "life lost to an attack on a player who has no units to defend", 0, 100),
    "unopposed-hero-damage": _house(
        "unopposed-hero-damage", 10, "the same, when the attacker is a hero", 0, 100),
    "first-player": _house(
        "first-player", "roll-off", "roll-off: everyone rolls a die, ties roll again (`referee rolloff`); "
        "seating: the first --player starts", choices=FIRST_PLAYER),
    "counter-fail": _house(
        "counter-fail", "free", "free: a failed counter-attack costs nothing; normal: it costs its owner "
        "2 (4 for a Hero) like any failed attack", choices=COUNTER_FAIL),
    "hero-kills-hero": _house(
        "hero-kills-hero", "once", "once: a Hero destroyed by a Hero costs its owner 10; both: 20 (10 for "
        "the Hero's kill and 10 for losing a Hero)", choices=HERO_KILLS_HERO),
    "estate-price": _house(
        "estate-price", "owned", "owned: your next Real Estate costs one more than the number you own now; "
        "bought: one more than the number you have ever had, so a lost one does not make the next cheaper",
        choices=ESTATE_PRICE),
    "decks": _house(
        "decks", "faction", "faction: each player plays only their own faction's printed deck, and the referee "
        "counts hands and draw piles; mixed: players build decks from several factions (the referee then "
        "counts no hands or draw piles, and copies still per owner)", choices=DECKS),
    "stat-floor": _house(
        "stat-floor", 0, "the lowest a unit's ATK or DEF can be pushed by mods and effects", -10, 0),
}
