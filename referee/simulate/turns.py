"""Whose move it is in a simulated game, and their concrete legal moves:
the player a waiting prompt asks, else the player whose turn it is, else
anyone the rules let act (used by the game loop and the search agent).

Each player's moves are generated from their own hand only, never from the
others': a move that another player answers from their hand (a Cold War
attack a defender may block) is listed without the answer, and the loop then
lets the answering player choose it (`answerer`, referee/simulate/play.py)."""
from __future__ import annotations

import importlib
from functools import lru_cache
from typing import Any, Mapping

from referee.legal import Hands, Move, legal_moves
from referee.model import PlayerName, State


def waiting_player(state: State) -> PlayerName | None:
    """Who the first waiting prompt asks, if one waits."""
    for prompt in state.fields.get("prompts") or ():
        if isinstance(prompt, Mapping) and prompt.get("player"):
            return PlayerName(str(prompt["player"]))
    return None


def mover_and_moves(rules: Any, state: State, hands: Hands | None) -> tuple[PlayerName | None, list[Move]]:
    """The player to act now and their concrete legal moves."""
    if state.finished:
        return None, []
    asked = waiting_player(state)
    order = [asked] if asked else []
    first = _first_movers(state.game)
    if first is not None:  # the game's own say on who acts first when several may (Cold War's setup)
        order += list(first(state))
    order.append(state.active_player.name)
    order += [p.name for p in state.players if not p.eliminated]
    seen: set[str] = set()
    for name in order:
        if name in seen:
            continue
        seen.add(name)
        own = None if hands is None else {PlayerName(name): hands.get(PlayerName(name), ())}
        moves = [m for m in legal_moves(rules, state, PlayerName(name), own) if m.action is not None]
        if moves:
            return PlayerName(name), moves
    return None, []


@lru_cache(maxsize=None)
def _first_movers(game: Any):
    """The game's `movers(state)` in its selfplay module: who of the players
    that may act now goes first (e.g. a setup before anyone's regroup), or None."""
    name = game.module("selfplay")
    try:
        module = importlib.import_module(name)  # lazy: a game's self-play module, only when simulating
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None
    return getattr(module, "movers", None)  # a module attribute, not a rules hook
