"""Culture War effect kinds that change a unit's stats for a while (stats,
reroll, shield), send it back to the hand (bounce) or fail an attack, and
the static kinds that `effects` reads while a card is in play (nothing to do
at a moment). The dispatch table is handlers.HANDLERS.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from referee.games.culture_war.table import zones
from referee.games.culture_war.table.board import Board
from referee.games.culture_war.effects.context import Ctx, guarded

def _stats(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    who = e.get("who")
    if ctx.moment == "static":
        return
    duration = e.get("duration") or ("battle" if who == "this" or ctx.moment == "battle" else "turn")
    changes = [(s, int(e[s])) for s in ("atk", "def") if e.get(s)]
    if who in ("your-units", "enemy-units"):
        scope = "own-units" if who == "your-units" else "enemy-units"
        for stat, amount in changes:
            board.f["timed"].append({"stat": stat, "amount": amount, "scope": scope, "player": ctx.owner,
                                     "until": "turn", "source": ctx.name, "type": ctx.type})
        side = f"{ctx.owner}'s units" if who == "your-units" else f"units of {ctx.owner}'s opponents"
        board.note(f"{side} get {_changes(changes)} until the end of the turn ({ctx.name})")
        return
    handle = ctx.this if who == "this" else ctx.target
    if handle is None or handle not in board.pieces or guarded(board, handle, ctx, who != "this"):
        return
    unit = board.pieces[handle]
    for stat, amount in changes:
        if duration == "game":
            unit.setdefault("adj", {})
            unit["adj"][stat] = unit["adj"].get(stat, 0) + amount
        else:
            board.f["timed"].append({"stat": stat, "amount": amount, "scope": "unit", "handle": handle,
                                     "until": duration, "source": ctx.name})
    word = {"game": "for the rest of the game", "battle": "for this battle" if ctx.moment == "battle"
            or board.f.get("window") else "for its next battle this turn", "turn": "until the end of the turn"}[duration]
    board.note(f"{board.label(handle)} gets {_changes(changes)} {word} ({ctx.name})")


def _changes(changes: list[tuple[str, int]]) -> str:
    return " and ".join(f"{a:+d} {s.upper()}" for s, a in changes)


def _static(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    """Kinds read by `effects` while the card is in play: nothing to do at a moment."""


def _timed_unit(key: str, **extra: Any) -> Callable[[Board, Mapping[str, Any], Ctx], None]:
    def handler(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
        if ctx.moment == "static" or (e.get("who") == "this"):
            return
        if ctx.target is None or ctx.target not in board.pieces or guarded(board, ctx.target, ctx):
            return
        entry = {"stat": key, "amount": 0, "scope": "unit", "handle": ctx.target, "until": "battle",
                 "source": ctx.name, **{k: e.get(k, v) for k, v in extra.items()}}
        board.f["timed"].append(entry)
        when = "this battle" if board.f.get("window") else "its next battle this turn"
        board.note(f"{board.label(ctx.target)}: {ctx.name} holds for {when}")
    return handler


def _bounce(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    if ctx.target in board.pieces and not guarded(board, ctx.target, ctx):
        zones.return_to_hand(board, ctx.target)


def _attack_fails(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    ctx.battle["failed"] = True
