"""The dish on the table: a State's board as the engine's Position and back.

The table's State keeps the dish as plain JSON:
- `fields.board`: every foodpoint name -> null or {"owner": colour, "size": n};
- `fields.passed`: the last action was a pass;
- `fields.seen_positions`: how often each position (germs + side to move) occurred;
- `fields.result`: null, or why the game ended in a draw;
- each player's `fields.reserve`: tokens not on the dish.
`turn` counts actions from 1; turns 1 and 2 are the two placements.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from referee.errors import RefereeError, RuleViolation
from referee.games.petri_dish import engine
from referee.games.petri_dish.engine import BLACK, COLOURS, DRAW, WHITE, Position, Variant
from referee.games.petri_dish.geometry import INDEX, POINTS, REMOVED, is_point_name
from referee.model import Action, Player, State

REPETITIONS_FOR_DRAW = 3
BOARD_ACTIONS = ("place", "move", "grow", "divide", "pass")



def variant_of(house_rules: Mapping[str, Any]) -> Variant:
    return Variant(
        large_divide_liberties=int(house_rules.get("large-divide-liberties", 3)),
        areas_to_win=int(house_rules.get("areas-to-win", 3)),
    )


def colour_of(player: Player) -> int:
    return WHITE if player.faction == "white" else BLACK


def player_of(state: State, colour: int) -> Player:
    return next(p for p in state.players if p.faction == COLOURS[colour])


def who(player: Player) -> str:
    """A player with their colour, as refusals name them."""
    return f"{player.name} ({player.faction})"


def board_fields(board: Sequence[int]) -> dict[str, Any]:
    return {
        name: None if v == 0 else {"owner": COLOURS[WHITE if v > 0 else BLACK], "size": abs(v)}
        for name, v in zip(POINTS, board)
    }


def position_of(state: State) -> Position:
    cells = state.fields["board"]
    board = []
    for name in POINTS:
        cell = cells.get(name)
        board.append(0 if not cell else cell["size"] * (1 if cell["owner"] == "white" else -1))
    if state.winner is not None:
        result: int | None = colour_of(state.player(state.winner))
    elif state.finished:
        result = DRAW
    else:
        result = None
    return Position(
        tuple(board), colour_of(state.active_player), state.turn - 1,
        bool(state.fields.get("passed")), result, variant_of(state.house_rules),
    )


def state_after(state: State, pos: Position) -> State:
    """The table after the engine played to `pos` from `state`."""
    players = tuple(
        replace(p, fields={**p.fields, "reserve": pos.reserve(colour_of(p))}) for p in state.players
    )
    seen = dict(state.fields.get("seen_positions") or {})
    key = engine.position_key(pos)
    seen[key] = seen.get(key, 0) + 1
    fields = {
        **state.fields,
        "board": board_fields(pos.board),
        "passed": pos.passed,
        "seen_positions": seen,
        "result": "draw: a pass was answered by a pass" if pos.result == DRAW else None,
    }
    active = next(i for i, p in enumerate(players) if colour_of(p) == pos.side)
    turn = state.turn + 1
    winner = player_of(state, pos.result).name if pos.result in (WHITE, BLACK) else None
    return replace(state, players=players, fields=fields, active=active, turn=turn,
                   round=(turn + 1) // 2, winner=winner)


def repetitions(state: State) -> int:
    """How often the current position (same side to move) has occurred."""
    key = engine.position_key(position_of(state))
    return int((state.fields.get("seen_positions") or {}).get(key, 0))


def point_index(name: object) -> int:
    """The index of a foodpoint named like `d4`; refuses other text."""
    text = str(name).strip().lower()
    if text in INDEX:
        return INDEX[text]
    if is_point_name(text) and text in REMOVED:
        raise RuleViolation(
            "foodpoints", f"{text} is not a foodpoint: the dish has no point there "
            f"(the corners {', '.join(sorted(REMOVED))} are cut off)",
        )
    raise RefereeError(f"{name!r} is not a point of the dish: write a file a-h and a rank 1-8, like d4")


def action_of(action: Action) -> tuple[int, int, int]:
    """The engine's tuple for a table action; malformed points are refused."""
    args = action.args
    if action.name == "place":
        return (engine.PLACE, -1, point_index(args.get("at")))
    if action.name == "grow":
        return (engine.GROW, point_index(args.get("at")), -1)
    if action.name in ("move", "divide"):
        kind = engine.MOVE if action.name == "move" else engine.DIVIDE
        return (kind, point_index(args.get("from")), point_index(args.get("onto")))
    if action.name == "pass":
        return (engine.PASS, -1, -1)
    raise RefereeError(f"petri-dish has no action called {action.name!r}")


def action_args(move: tuple[int, int, int]) -> tuple[str, dict[str, str]]:
    """The table action (name, args) for an engine tuple."""
    kind, a, b = move
    if kind == engine.PLACE:
        return "place", {"at": POINTS[b]}
    if kind == engine.GROW:
        return "grow", {"at": POINTS[a]}
    if kind == engine.PASS:
        return "pass", {}
    return engine.KIND_NAMES[kind], {"from": POINTS[a], "onto": POINTS[b]}


def legal_strings(state: State) -> list[str]:
    """Every action the side to move may take, as the strings the commands accept."""
    if state.finished:
        return []
    out = [engine.action_text(m) for m in engine.legal_actions(position_of(state))]
    if repetitions(state) >= REPETITIONS_FOR_DRAW:
        out.append("claim-draw")
    return out
