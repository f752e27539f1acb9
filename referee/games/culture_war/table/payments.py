"""Capital moving on a Culture War board: a player gains coins, loses them,
or pays for a card (another faction's coins pay at most half its cost, and
are spent first, up to that share). Each move leaves its line in the
board's story."""
from __future__ import annotations

from typing import Iterable

from referee.errors import RefereeError, RuleViolation
from referee.games.culture_war import story
from referee.games.culture_war.table.board import Board
from referee.games.culture_war.table.coins import PLAIN, coins_total, tidy
from referee.games.culture_war.table.pieces import find_piece


def named_sources(board: Board, name: str, order: Iterable[str]) -> list[tuple[str, dict[str, int]]]:
    """The places a player named to pay from, in their order: `bank` or their
    Real Estate by handle (`3`, `#3`, `ann/squat`)."""
    out = []
    for key in order:
        if key == "bank":
            out.append(("bank", board.bank(name)))
        else:
            handle = find_piece(board, key if key.startswith("#") or "/" in key else f"#{key}", ("estate",))
            if board.pieces[handle]["owner"] != name:
                raise RefereeError(f"#{handle} {board.pieces[handle]['name']} is not {name}'s Real Estate")
            out.append((handle, board.pieces[handle]["coins"]))
    return out


def gain_capital(board: Board, name: str, amount: int, faction: str | None, why: str) -> None:
    """Add `amount` coins of `faction` (else plain) to a player's bank, unless they are out."""
    if amount <= 0 or board.people[name].eliminated:
        return
    board.put(name, {faction or PLAIN: amount})
    board.note(f"{name} gains {amount} capital to the bank ({why})")


def take_coins(board: Board, name: str, amount: int, why: str, faction: str | None = None,
               skip: Iterable[str] = ()) -> dict[str, int]:
    """Remove up to `amount` coins (of one faction if given, from no Real
    Estate in `skip`) and return them by faction."""
    taken: dict[str, int] = {}
    left = amount
    skip = set(skip)
    for key, coins in board.sources(name):
        if key in skip:
            continue
        for f in sorted(coins):
            if left == 0:
                break
            if faction is not None and f != faction:
                continue
            n = min(left, coins[f])
            coins[f] -= n
            taken[f] = taken.get(f, 0) + n
            left -= n
        tidy(coins)
    if taken:
        board.note(f"{name} loses {coins_total(taken)} capital ({why})")
    return taken


def pay_for(board: Board, name: str, cost: int, deck: str | None, what: str,
            order: Iterable[str] | None = None, why: str = "") -> None:
    """Pay `cost` for a card of faction `deck`. Coins of another faction
    may pay at most half the cost; they are spent first, up to that share."""
    if cost <= 0:
        return
    sources = board.sources(name) if order is None else named_sources(board, name, order)
    own = lambda f: f == PLAIN or deck is None or f == deck  # noqa: E731
    cap = cost // 2
    foreign = sum(n for _, c in sources for f, n in c.items() if not own(f))
    mine = sum(n for _, c in sources for f, n in c.items() if own(f))
    where = (" in " + ", ".join("the bank" if k == "bank" else f"#{k}" for k, _ in sources)) if order else ""
    if mine + min(foreign, cap) < cost:
        if mine + foreign >= cost:
            raise RuleViolation(
                "capital of another faction pays at most half a card's cost",
                f"{name} cannot pay {cost} for {what}: {name} has {mine} {deck} coins{where}, "
                f"and other factions' coins may pay at most {cap} of it",
            )
        raise RuleViolation("pay the card's cost",
                            f"{name} needs {cost} capital for {what} but has {mine + foreign}{where}")
    spent: list[tuple[int, str, str]] = []
    left, foreign_left = cost, min(cap, foreign)
    for wants_own in (False, True):
        for key, coins in sources:
            for f in sorted(coins):
                if own(f) != wants_own or left == 0:
                    continue
                n = min(coins[f], left if wants_own else min(left, foreign_left))
                if n <= 0:
                    continue
                coins[f] -= n
                left -= n
                if not wants_own:
                    foreign_left -= n
                spent.append((n, f, key))
            tidy(coins)
    board.tell(story.pays(name, cost, why, what, spent))
