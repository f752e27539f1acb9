"""Culture War alliances as board steps (see actions.py): allies are named
(`ally`, `unally`) and may give each other life (`donate`) and capital (`gift`)."""
from __future__ import annotations

from typing import Any, Mapping

from referee.errors import RefereeError, RuleViolation
from referee.games.culture_war.actions import acting
from referee.games.culture_war.table.board import Board
from referee.games.culture_war.table.coins import coins_text
from referee.games.culture_war.table.payments import take_coins


def ally(board: Board, args: Mapping[str, Any], dice: Any) -> None:
    names = [acting(board, n) for n in args["players"]]
    if len(set(names)) < 2:
        raise RefereeError("an alliance needs at least two different players")
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            pair = sorted([a, b])
            if pair not in board.f["alliances"]:
                board.f["alliances"].append(pair)
    board.f["alliances"].sort()
    board.note("alliance: " + " & ".join(names))


def unally(board: Board, args: Mapping[str, Any], dice: Any) -> None:
    names = [board.name(n) for n in args["players"]]
    before = list(board.f["alliances"])
    if len(names) == 1:
        board.f["alliances"] = [p for p in before if names[0] not in p]
    else:
        board.f["alliances"] = [p for p in before if not set(p) <= set(names)]
    if board.f["alliances"] == before:
        raise RefereeError(f"{' and '.join(names)} are not in an alliance")
    board.note(f"alliance ended: {' & '.join(names)}")


def donate(board: Board, args: Mapping[str, Any], dice: Any) -> None:
    giver, taker, amount = transfer(board, args, "life")
    life = board.life(giver)
    if amount >= life:
        raise RuleViolation("an alliance donation never brings the donor to 0 life",
                            f"{giver} has {life} life, so can give {taker} at most {life - 1}")
    board.change_life(giver, -amount, f"donated to {taker}")
    board.change_life(taker, amount, f"donated by {giver}")


def gift(board: Board, args: Mapping[str, Any], dice: Any) -> None:
    giver, taker, amount = transfer(board, args, "capital")
    faction = args.get("faction")
    have = board.capital(giver) if faction is None else sum(
        c.get(faction, 0) for _, c in board.sources(giver))
    if amount > have:
        kind = f"{faction} " if faction else ""
        raise RuleViolation("capital cannot go below 0", f"{giver} has only {have} {kind}capital to give")
    coins = take_coins(board, giver, amount, f"given to {taker}", faction)
    board.put(taker, coins)
    board.note(f"{taker} puts {coins_text(coins)} in the bank; coins of another faction "
                       "pay at most half of any card")


def transfer(board: Board, args: Mapping[str, Any], what: str) -> tuple[str, str, int]:
    giver, taker = acting(board, args["from"]), acting(board, args["to"])
    amount = args.get("amount")
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
        raise RefereeError(f"give a whole number of {what} of at least 1, not {amount!r}")
    if giver == taker:
        raise RefereeError(f"{giver} cannot give {what} to themselves")
    if sorted([giver, taker]) not in board.f["alliances"]:
        raise RuleViolation(f"only allies give each other {what}",
                            f"{giver} and {taker} are not allied (referee ally {giver} {taker})")
    return giver, taker, amount
