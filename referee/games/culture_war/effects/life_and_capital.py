"""Culture War effect kinds on LIFE, capital and cards: gain and lose, take
(coins from Real Estate or the bank), steal, refund, upkeep, draw, taking
control of a unit, truces, no income, winning; and the kinds that become a
prompt for a player (card text to follow, a discard, pay or destroy). The
dispatch table is handlers.HANDLERS.
"""
from __future__ import annotations

import re
from typing import Any, Mapping

from referee.games.culture_war.table import zones
from referee.games.culture_war.table.board import Board
from referee.games.culture_war.table.coins import coins_total
from referee.games.culture_war.table.payments import gain_capital, take_coins
from referee.games.culture_war.effects.context import Ctx, guarded, players

def _gain(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    _add(board, ctx, ctx.owner, e["what"], int(e["amount"]))


def _add(board: Board, ctx: Ctx, who: str, what: str, amount: int) -> None:
    if what == "life":
        board.change_life(who, amount, ctx.name)
    else:
        gain_capital(board, who, amount, ctx.source.get("deck"), ctx.name)


def _lose(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    for who in players(board, e.get("who"), ctx):
        if e["what"] == "life":
            board.change_life(who, -int(e["amount"]), ctx.name)
        else:
            take(board, who, int(e["amount"]), ctx.name, e.get("source"), ctx)


def take(board: Board, who: str, amount: int, why: str, source: str | None = None,
         ctx: Ctx | None = None) -> dict[str, int]:
    """Coins lost: from Real Estate only when the card says so, else Real Estate first, then the bank.
    Coins on a Real Estate the card may not affect (effects.shielded) stay where they are."""
    kept = set()
    for handle, _ in board.owned(who, "estate"):
        if ctx is not None and guarded(board, handle, ctx, targeted=False):
            kept.add(handle)
    if source != "real-estate":
        return take_coins(board, who, amount, why, skip=kept)
    taken: dict[str, int] = {}
    left = amount
    for _, estate in sorted(((h, p) for h, p in board.owned(who, "estate") if h not in kept),
                            key=lambda hp: -coins_total(hp[1]["coins"])):
        for f in sorted(estate["coins"]):
            n = min(left, estate["coins"][f])
            estate["coins"][f] -= n
            taken[f] = taken.get(f, 0) + n
            left -= n
        estate["coins"] = {f: n for f, n in estate["coins"].items() if n > 0}
    if taken:
        board.note(f"{who} loses {coins_total(taken)} capital from Real Estate ({why})")
    return taken


def _gain_per(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    count = len(board.owned(ctx.owner, "unit" if e["per"] == "unit" else "estate"))
    if count:
        _add(board, ctx, ctx.owner, e["what"], int(e["amount"]) * count)
    else:
        board.note(f"{ctx.name}: {ctx.owner} has none to count, so gains nothing")


def _steal(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    victim = ctx.target_player if e["who"] == "target-player" else ctx.that_player
    if not victim or victim == ctx.owner or victim not in board.live():
        return
    taken = take(board, victim, int(e["amount"]), f"taken by {ctx.name}", e.get("source"), ctx)
    board.put(ctx.owner, taken)
    if taken:
        board.note(f"{ctx.owner} gains {coins_total(taken)} capital to the bank ({ctx.name})")


def _refund(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    cost = int(ctx.battle.get("refund") or 0)
    if cost:
        gain_capital(board, ctx.owner, cost, ctx.source.get("deck"), ctx.name)


def _pay_or_discard(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    amount = int(e["amount"])
    handle = ctx.this if e["who"] == "you" else ctx.host
    if handle is None or handle not in board.pieces:
        return
    payer = board.pieces[handle]["owner"]
    if guarded(board, handle, ctx, targeted=False):
        return
    if board.capital(payer) >= amount:
        take_coins(board, payer, amount, f"upkeep of #{handle} {board.pieces[handle]['name']} ({ctx.name})")
    else:
        board.remove(handle, f"{payer} cannot pay {amount} ({ctx.name})")


def _draw(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    who = board.live() if e.get("who") == "each-player" else [ctx.owner]
    for name in who:
        zones.draw_on_board(board, name, int(e["amount"]), ctx.name)


def _take_control(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    if ctx.target in board.pieces and not guarded(board, ctx.target, ctx):
        change_control(board, ctx.target, ctx.owner, ctx.name)


def change_control(board: Board, handle: str, to: str, why: str) -> None:
    piece = board.pieces[handle]
    piece.setdefault("home", piece["owner"])
    old = piece["owner"]
    piece["owner"] = to
    piece["attacked"] = board.turn
    board.f["timed"] = [t for t in board.f["timed"] if t.get("handle") != handle]
    board.note(f"{to} takes control of {old}'s #{handle} {piece['name']} ({why})")


def _truce(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    board.f.setdefault("truce", []).append({"player": ctx.owner, "who": e["who"], "source": ctx.name})
    board.note(f"{ctx.name}: " + ("no player may attack until the start of "
                                          f"{ctx.owner}'s next turn" if e["who"] == "everyone" else
                                          f"{ctx.owner}'s units neither attack nor can be attacked until "
                                          f"{ctx.owner}'s next turn"))


def _no_income(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    if e["who"] == "this":
        if ctx.this in board.pieces:
            board.f.setdefault("no_income", []).append(f"#{ctx.this}")
            board.note(f"{board.label(ctx.this)} produces nothing at the start of "  # type: ignore[arg-type]
                               f"{ctx.owner}'s next turn ({ctx.name})")
        return
    for name in players(board, "each-opponent", ctx):
        board.f.setdefault("no_income", []).append(name)
        board.f.setdefault("no_income_by", {})[name] = [ctx.owner, ctx.type, ctx.name]
    board.note(f"each opponent of {ctx.owner} collects no capital at the start of their next turn")


def _win(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    if board.life(ctx.owner) >= int(e["n"]):
        board.f["won_by"] = ctx.owner
        board.note(f"{ctx.owner} wins the game ({ctx.name})")


WORDS = {"capital": "Capital", "life": "LIFE", "atk": "ATK", "def": "DEF", "dice": "die", "cyber": "Cyber",
         "hero": "Hero"}


def words(text: str) -> str:
    """Card text for a prompt: the printed icons ({capital}, {life} ...) in words."""
    return re.sub(r"\{(\w+)\}", lambda m: WORDS.get(m.group(1), m.group(1)), text)


def _prompt(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    text = words(str(e["text"]))
    board.asks.append({"player": ctx.owner, "card_id": ctx.card_id or "", "card": ctx.name,
                       "moment": ctx.moment, "text": text[:1].upper() + text[1:]})


def _discard(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    """Cards leave a hand: the player answers with the cards (their ids), and
    the referee takes them off the hand count into the discard pile
    (answers.py). A random discard no one names is answered `done`."""
    who = e.get("who") or "you"
    for name in players(board, who, ctx):
        fields = board.people[name].fields
        hand = int(fields["hand"]) if "hand" in fields else None
        n = int(e["amount"]) if hand is None else min(int(e["amount"]), hand)
        if n == 0:
            board.note(f"{name} has no cards in hand to discard ({ctx.name})")
            continue
        how = " at random" if e.get("random") else ""
        cards = f"{n} card" + ("s" if n > 1 else "")
        ids = ",".join(["CARD"] * n)
        enter = f"referee resolve {{n}} {ids}" + (f" (the card{'s' if n > 1 else ''} {name} discarded), "
                                                  "or referee resolve {n} done if no one names them"
                                                  if hand is not None else "")
        if hand is None:
            enter = "referee resolve {n} done"  # the referee keeps no hand for this player
        board.asks.append({"player": name, "card_id": ctx.card_id or "", "card": ctx.name, "moment": ctx.moment,
                           "text": f"{name} discards {cards}{how} ({ctx.name})", "enter": enter, "commands": (),
                           "data": {"discard": {"player": name, "count": n, "counted": hand is not None},
                                    "free": True}})


def _pay_or_destroy(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    """Pay or lose one of your other units: the answer is `pay` or the unit's handle (answers.py)."""
    amount = int(e["amount"])
    others = [h for h, _ in board.owned(ctx.owner, "unit") if h != ctx.this]
    if not others:
        board.note(f"{ctx.name}: {ctx.owner} has no other unit, so nothing happens")
        return
    choices = (["pay"] if board.capital(ctx.owner) >= amount else []) + others
    units = ", ".join(f"{h} ({board.pieces[h]['name']})" for h in others)
    board.asks.append({"player": ctx.owner, "card_id": ctx.card_id or "", "card": ctx.name, "moment": ctx.moment,
                       "text": (f"{ctx.owner} pays {amount} Capital or destroys one of their other units, "
                                f"losing no LIFE for it: {units}" + ("" if "pay" in choices else
                                                                     f" ({ctx.owner} cannot pay {amount})")),
                       "enter": "referee resolve {n} " + "|".join(choices), "commands": (), "choices": choices,
                       "data": {"pay-or-destroy": {"player": ctx.owner, "amount": amount}}})
