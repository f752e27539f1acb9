"""A Culture War table sampled from one player's view (the search agent's
determinisation; OpenSpiel's `resample_from_infostate`).

The referee's state hides no card: it counts each hand and draw pile and
names what lies face up (pieces on the board, Mods, discard piles, cards
removed from the game) and the cards everyone saw go back to a hand
(`hand_known`). What a player cannot see is which of their opponents'
copies are in hand and which in the draw pile, and the order of every
draw pile, their own included. `determinise` deals those afresh: each
faction deck's printed copies less the ones in sight (and, for the player,
less their own hand), the cards known to be in a hand put there, the rest
of each hand drawn at random from what is left and the draw pile shuffled
from the remainder. The real dealer is never read.
"""
from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Any

from referee.games.culture_war.dealer import Dealer, _named_out, printed_copies
from referee.games.culture_war.table import zones
from referee.games.culture_war.table.cards import starting_cards
from referee.model import PlayerName, State
from referee.rules.dealing import Copy, take_each


def determinise(rules: Any, view: State, player: PlayerName, hand: tuple[str, ...],
                rng: random.Random) -> tuple[State, Dealer | None]:
    """(the view, a dealer holding every hand and draw pile as PLAYER could
    believe them); no dealer when the players built their own decks."""
    if view.house_rules.get("decks", "faction") != "faction":
        return view, None
    me = view.player(player).name
    dealer = object.__new__(Dealer)
    dealer.rng = rng
    dealer.pile, dealer.held, dealer.out, dealer.printed, dealer.recent = {}, {}, {}, {}, {}
    dealer._hands = None
    for p in view.players:
        if not p.faction or not zones.tracked(view, p.name):
            continue
        copies = _deck(p.faction)
        out = take_each(copies, _named_out(view, p.name))
        count, pile_size = zones.counts(p.fields)
        if p.name == me:
            held = take_each(copies, Counter(hand))
        else:
            held = take_each(copies, Counter(zones.known_in_hand(view, p.name)))
            rng.shuffle(copies)
            while len(held) < count and copies:
                held.append(copies.pop())
        rng.shuffle(copies)
        dealer.held[p.name] = held
        dealer.pile[p.name] = copies[-pile_size:] if pile_size else []
        dealer.out[p.name] = out + (copies[:-pile_size] if pile_size else copies)  # what the view cannot place
        dealer.recent[p.name] = []
        dealer.printed[p.name] = len(held) + len(dealer.pile[p.name]) + len(dealer.out[p.name])
    return view, dealer


def _deck(faction: str) -> list[Copy]:
    """Every printed copy of a faction deck but its Real Estate: the draw pile's and the Base Unit in play."""
    return list(_printed(faction))


@lru_cache(maxsize=None)
def _printed(faction: str) -> tuple[Copy, ...]:
    copies = printed_copies(faction)
    base = starting_cards(faction)[1]
    if base is not None:
        copies.append((base["id"], 1))
    return tuple(copies)


