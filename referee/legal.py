"""Legal moves: every action a game's rules accept now, for one player.

Generation is kept apart from making a move (python-chess's habit): each game
generates its moves in `referee/games/<game>/legal.py`, a module exporting

    def legal_moves(rules, state: State, player: PlayerName,
                    hands: Hands | None = None) -> list[Move]

and the rules' `check` stays the one judge. A test holds the two equal on
random reachable states of every game: every generated concrete action
passes `check`, and every action `check` accepts out of a broad candidate set
is generated.

`hands`: at a physical table the referee does not know what is in a hand
(None), so card plays from a hand are listed by what they may be, as a Move
with `action=None` and a `command` holding a placeholder (`<CARD>`). In
self-play the simulator knows every hand and passes it; the same generator
then lists the concrete cards.

This module is the core's part: the Move value and the dispatch to the game's
module, loaded only when moves are asked for (referee start-up stays lazy).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from referee.model import Action, CardId, PlayerName, State

# What the caller knows of each player's hand: the card ids (one per copy held).
Hands = Mapping[PlayerName, Sequence[CardId]]

CARD_PLACEHOLDER = "<CARD>"


@dataclass(frozen=True)
class Move:
    """One legal move for a player.

    action:  the exact Action the CLI records (every argument given), or None
             when the move stands for a card from a hand the referee cannot
             see ("deploy a unit costing up to 3 from your hand");
    command: the command line that plays it, without the leading `referee`
             (`battle ann/window-smasher bo/mall-walkers`); a move with
             action=None has `<CARD>` where the card goes;
    kind:    the group it is shown under (the action's name: "attack", "play" ...);
    text:    the move in words, from the game's phrases where it has one.
    """

    action: Action | None
    command: str
    kind: str
    text: str
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "command": self.command, "text": self.text}
        if self.action is not None:
            out["action"] = {"name": self.action.name, "args": dict(self.action.args),
                             "actor": self.action.actor}
        else:
            out["action"] = None
        if self.details:
            out["details"] = dict(self.details)
        return out


def legal_moves(rules: Any, state: State, player: PlayerName, hands: Hands | None = None) -> list[Move]:
    """Every move `player` may make now, in the game's own order."""
    module = importlib.import_module(state.game.module("legal"))  # lazy: only when moves are asked for
    return module.legal_moves(rules, state, player, hands)
