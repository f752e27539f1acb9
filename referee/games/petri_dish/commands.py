"""Table-level functions behind the Petri dish commands (one per command).

Each opens the table through referee.table.operations, works, and returns a plain
result; the CLI module prints it. Nothing here prints or exits.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from referee.table import operations as table
from referee.errors import RefereeError
from referee.games.petri_dish import dish, engine
from referee.games.petri_dish.engine import Position
from referee.model import GameSlug, State
from referee.table.results import ActResult

ARG_NAMES = {"place": ("at",), "grow": ("at",), "move": ("from", "onto"), "divide": ("from", "onto"),
             "pass": (), "claim-draw": ()}


def _state(path: Path) -> State:
    state = table.status(path).state
    if state.game is not GameSlug.PETRI_DISH:
        raise RefereeError(f"{path} is a {state.game.value} table, not a petri-dish one")
    return state


def act(path: Path, name: str, points: Sequence[str], actor: str | None = None) -> ActResult:
    """Play one action: `place d4`, `move c3 d4`, `grow c3`, `divide c3 d4`, `pass`, `claim-draw`."""
    keys = ARG_NAMES[name]
    if len(points) != len(keys):
        raise RefereeError(f"{name} takes {len(keys)} point(s), got {len(points)}")
    args = {key: str(p).strip().lower() for key, p in zip(keys, points)}
    if actor is None:  # the log names the side to move as the one acting
        actor = _state(path).active_player.name
    return table.act(path, name, args, actor)


@dataclass(frozen=True)
class LegalView:
    player: str
    colour: str
    actions: tuple[str, ...]
    over: str | None

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "colour": self.colour, "actions": list(self.actions),
                "count": len(self.actions), "game_over": self.over}


def legal(path: Path) -> LegalView:
    """`legal`: the moves of the side to move (`referee moves`, as plain command lines)."""
    state = _state(path)
    from referee.table.moves import moves_view  # lazy: the move generators, only for `legal`

    view = moves_view(state)
    colour = state.player(view.player).faction or ""
    return LegalView(view.player, colour, tuple(m.command for m in view.moves), view.over)


@dataclass(frozen=True)
class Dish:
    """The table and the position on its dish (`view.board_text` draws them)."""

    state: State
    position: Position


def board(path: Path) -> Dish:
    state = _state(path)
    return Dish(state, dish.position_of(state))


@dataclass(frozen=True)
class PerftResult:
    depth: int
    total: int
    split: tuple[tuple[str, int], ...]  # per first action, when asked for

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"depth": self.depth, "nodes": self.total}
        if self.split:
            out["split"] = dict(self.split)
        return out


MAX_PERFT_DEPTH = 5  # depth 5 is some 10-20 s from an open board; depth 6 would be minutes to hours


def perft(path: Path, depth: int, split: bool = False) -> PerftResult:
    """Count the action sequences of length `depth` from the table's position
    (places, moves, grows, divisions and passes; a draw claim is not counted)."""
    if depth < 0:
        raise RefereeError("perft needs a depth of 0 or more")
    if depth > MAX_PERFT_DEPTH:
        raise RefereeError(f"perft counts at most {MAX_PERFT_DEPTH} moves deep, not {depth}: each move more "
                           "multiplies the count (and the time) by 10 to 50; depth 4 takes about 2 s")
    pos = dish.position_of(_state(path))
    if split and depth >= 1:
        parts = tuple((engine.action_text(a), n) for a, n in engine.perft_divide(pos, depth))
        return PerftResult(depth, sum(n for _, n in parts), parts)
    return PerftResult(depth, engine.perft(pos, depth), ())
