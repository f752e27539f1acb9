"""The Petri dish's legal moves: the engine's own generator (engine.legal_actions,
held to `refusal` by perft-style tests) turned into table actions, plus a
draw claim when the position has occurred three times, plus the shared
actions (none is open on the dish: a turn ends by playing, and no card asks).

Only the side to move has moves; its commands need no `--by` (the dish's
commands name the side to move). The dish hides nothing, so `hands` is unused.
"""
from __future__ import annotations

from typing import Any

from referee.games.petri_dish import engine
from referee.games.petri_dish.dish import REPETITIONS_FOR_DRAW, action_args, position_of, repetitions
from referee.rules.legal import Candidate, Hands, Move, action, judged, move, shared_candidates
from referee.model import Action, PlayerName, State


def legal_moves(rules: Any, state: State, player: PlayerName, hands: Hands | None = None) -> list[Move]:
    return judged(rules, state, candidates(rules, state, player, hands))


def candidates(rules: Any, state: State, player: PlayerName, hands: Hands | None = None) -> list[Candidate]:
    """The moves, each worded only when wanted (self-play's random draw
    words one); the engine's moves and a draw claim need no check."""
    if state.finished:
        return []
    mover = state.player(player)
    if mover.name != state.active_player.name:
        return []
    out: list[Candidate] = []
    for tup in engine.legal_actions(position_of(state)):
        name, args = action_args(tup)
        out.append(_known(rules, state, action(name, args, mover.name), engine.action_text(tup)))
    if repetitions(state) >= REPETITIONS_FOR_DRAW:
        out.append(_known(rules, state, action("claim-draw", {}, mover.name), "claim-draw"))
    return out + shared_candidates(rules, state, mover.name)


def _known(rules: Any, state: State, act: Action, command: str) -> Candidate:
    return Candidate(act, None, lambda: move(rules, state, act, command.split()))
