"""Self-play's knowledge of Culture War: the dealer (dealer.py: the printed
decks shuffled by copy, every hand followed), a dealer sampled from one
player's view (sampling.py, the search agent's determinisation) and the
evaluation the heuristic's lookahead and the search agent score with.
"""
from __future__ import annotations

import random
from typing import Any

from referee.games.culture_war.dealer import Dealer, printed_copies
from referee.games.culture_war.legal import dice_for
from referee.games.culture_war.table.cards import card
from referee.games.culture_war.sampling import determinise
from referee.games.culture_war.table import zones
from referee.model import PlayerName, State

__all__ = ["Dealer", "card", "deal", "determinise", "evaluate", "dice_for", "printed_copies"]

WIN = 1_000_000.0


def deal(rules: Any, state: State, rng: random.Random) -> Dealer:
    """Shuffle each faction deck by copy and deal the first hands."""
    return Dealer(state, rng)


# ---- the evaluation (heuristic lookahead and search) ------------------------------------------------------


def evaluate(state: State, player: PlayerName) -> float:
    """A player's standing against the strongest other player still in: LIFE
    first, then the board (units by ATK and DEF, Real Estate, Operations),
    coins and cards in hand."""
    if state.winner is not None:
        return WIN if state.winner == player else -WIN
    me = state.player(player)
    if me.eliminated:
        return -WIN
    worth: dict[str, float] = {p.name: 0.0 for p in state.players}
    for piece in state.fields.get("pieces", {}).values():
        owner = piece.get("owner")
        if owner not in worth:
            continue
        kind = piece.get("kind")
        if kind == "unit":
            worth[owner] += 2.0 + 1.5 * (int(piece.get("atk") or 0) + int(piece.get("def") or 0))
        elif kind == zones.ESTATE_KIND:
            worth[owner] += 6.0 + sum((piece.get("coins") or {}).values())
        else:
            worth[owner] += 3.0
    for owner, coins in (state.fields.get("banks") or {}).items():
        if owner in worth:
            worth[owner] += sum(coins.values())

    def standing(p: Any) -> float:
        return float(p.life or 0) + worth[p.name] + 1.0 * int(p.fields.get("hand", 0))

    others = [standing(p) for p in state.players if p.name != me.name and not p.eliminated]
    return standing(me) - (max(others) if others else 0.0) - 5.0 * len(others)
