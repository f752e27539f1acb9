"""Whose move it is in a simulated game, and their concrete legal moves:
the player a waiting prompt asks, else the player whose turn it is, else
anyone the rules let act (used by the game loop and the search agent).

Each player's moves are generated from their own hand only, never from the
others': a move that another player answers from their hand (a Cold War
attack a defender may block) is listed without the answer, and the loop then
lets the answering player choose it (`answerer`, referee/simulate/play.py)."""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Callable, Iterator, Mapping

from referee.rules.game import Part, game_of
from referee.rules.legal import Candidate, Hands, Move, legal_moves, random_legal
from referee.model import PlayerName, State


def waiting_player(state: State) -> PlayerName | None:
    """Who the first waiting prompt asks, if one waits."""
    for prompt in state.fields.get("prompts") or ():
        if isinstance(prompt, Mapping) and prompt.get("player"):
            return PlayerName(str(prompt["player"]))
    return None


def in_turn(state: State) -> Iterator[PlayerName]:
    """The players who may act now, in the order they are asked: the one a
    waiting prompt asks, those the game says go first, the player whose turn
    it is, then everyone still in. The first with a legal move acts."""
    if state.finished:
        return
    asked = waiting_player(state)
    order = [asked] if asked else []
    first = _first_movers(state.game)
    if first is not None:  # the game's own say on who acts first when several may (Cold War's setup)
        order += list(first(state))
    order.append(state.active_player.name)
    order += [p.name for p in state.players if not p.eliminated]
    seen: set[str] = set()
    for name in order:
        if name not in seen:
            seen.add(name)
            yield PlayerName(name)


def own_hand(hands: Hands | None, player: PlayerName) -> Hands | None:
    """What `player` knows of the hands: their own."""
    return None if hands is None else {player: hands.get(player, ())}


def concrete_moves(rules: Any, state: State, player: PlayerName, hands: Hands | None) -> list[Move]:
    """`player`'s legal moves that name every card (no `<CARD>` move), from their own hand."""
    return [m for m in legal_moves(rules, state, player, own_hand(hands, player)) if m.action is not None]


def mover_and_moves(rules: Any, state: State, hands: Hands | None) -> tuple[PlayerName | None, list[Move]]:
    """The player to act now and their concrete legal moves."""
    for name in in_turn(state):
        moves = concrete_moves(rules, state, name, hands)
        if moves:
            return name, moves
    return None, []


def mover_and_draw(rules: Any, state: State, hands: Hands | None,
                   rng_of: Callable[[PlayerName], random.Random]) -> tuple[PlayerName | None, Candidate | None]:
    """The player to act now and one of their legal moves drawn uniformly
    (`referee.rules.legal.random_legal`, with that player's `rng_of`): the random
    agent's choice, without judging every move the player has."""
    for name in in_turn(state):
        chosen = random_legal(rules, state, name, own_hand(hands, name), rng_of(name))
        if chosen is not None:
            return name, chosen
    return None, None


@lru_cache(maxsize=None)
def _first_movers(game: Any):
    """The game's `movers(state)` in its selfplay module: who of the players
    that may act now goes first (e.g. a setup before anyone's regroup), or None."""
    return game_of(game).attribute(Part.SELFPLAY, "movers")  # a module attribute, not a rules hook
