"""The printed cards a player's deck may put in their hand, for a phone's
card pickers: a `<CARD>` move's choices, and the Hand panel's "add a drawn
card" (referee/serve/play.py). The referee does not see hands, so this is
what a hand may hold, not what it holds."""
from __future__ import annotations

from typing import Any, Mapping

from referee.model import State

NEUTRAL_DECKS = ("shared", "devices", "arguments")  # decks every player draws from
NEVER_HELD = {"reference", "leader", "potus", "token", "coin"}  # card types no hand holds
KIND_TYPES = {  # (game, move kind) -> the card types its <CARD> may be, where the move's details do not say
    ("cold-war", "attack"): {"military"}, ("cold-war", "special"): {"special"},
    ("debate", "argue"): {"argument"}, ("debate", "device"): {"rhetorical-device"},
    ("divide-and-conquer", "event"): {"event"}, ("divide-and-conquer", "recruit"): {"group"},
    ("divide-and-conquer", "unaffiliate"): {"group"}, ("divide-and-conquer", "attach"): {"asset", "deficit"},
}


def usable_cards(state: State, player: str, kind: str, details: Mapping[str, Any]) -> list[dict[str, str]]:
    """The printed cards `player` may put where a move says `<CARD>`: the
    cards of the table's game from the player's own deck (their faction) or
    a deck every player shares, of the types the move takes (its details'
    `type`, else the kind's), within its `max_cost`, and among its `cards`
    where the generator names them (Culture War: the printed cards the rules
    accept on the move's target). The referee does not see hands, so this
    is what the hand may hold, not what it holds."""
    from referee.cards.index import load_index, project_root  # lazy: the card index, only for a move with a card

    try:
        index = load_index(project_root())
    except Exception:  # no card sources at hand: the page offers a typed code only
        return []
    game = state.game.value
    faction = (state.player(player).faction or "").lower()
    cards = [c for c in index.cards.values() if c.game == game and c.type not in NEVER_HELD]
    own = [c for c in cards if c.deck.lower() == faction]
    if own:
        cards = own + [c for c in cards if c.deck.lower() in NEUTRAL_DECKS]
    else:
        cards = [c for c in cards if c.deck.lower() in NEUTRAL_DECKS or c.deck.lower() not in _faction_decks(game)]
    wanted = _types(details) or KIND_TYPES.get((game, kind), set())
    if wanted:
        cards = [c for c in cards if c.type in wanted]
    top = details.get("max_cost")
    if isinstance(top, int):
        cards = [c for c in cards if not isinstance(c.fields.get("cost"), int) or c.fields["cost"] <= top]
    named = details.get("cards")  # the generator's own list: the printed cards the rules accept played so
    if isinstance(named, (list, tuple)):
        cards = [c for c in cards if c.id in set(named)]
    return [{"id": c.id, "name": c.name, "code": str(c.fields.get("code") or "")} for c in cards]


def _faction_decks(game: str) -> set[str]:
    return {"culture-war": {"anarchy", "community", "conservative", "libertarian", "technocracy"},
            "cold-war": {"albion", "grauberg", "vostokia", "westmark"}}.get(game, set())


def _types(details: Mapping[str, Any]) -> set[str]:
    value = details.get("type")
    if isinstance(value, str):
        return {value}
    if isinstance(value, (list, tuple)):
        return {str(v) for v in value}
    return set()
