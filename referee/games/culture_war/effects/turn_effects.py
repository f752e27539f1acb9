"""Culture War card effects at a turn's start and end: whose cards act
(their pieces, their Mods, Mods on their cards), the dice those take, the
truces that end, and resource collection (the turn's draw, then each Real
Estate's production) after the start-of-turn effects.
"""
from __future__ import annotations

from typing import Any

from referee.games.culture_war import story
from referee.games.culture_war.table import zones
from referee.games.culture_war.table.board import Board
from referee.games.culture_war.effects.context import Ctx, Dice, guarded
from referee.games.culture_war.effects.static import capacity, live_effects, production, read, when_of
from referee.games.culture_war.effects.handlers import rolls_in, run

# ---- a turn's start and end ------------------------------------------------------------------------


def turn_sources(board: Board, name: str, when: str) -> list[tuple[list[dict[str, Any]], dict[str, Any]]]:
    """Who acts at the start or end of `name`'s turn: their pieces, their Mods
    (start-of-turn / end-of-turn) and Mods on their cards (owner-turn)."""
    out = []
    for handle, piece in board.owned(name):
        effects = [e for e in live_effects(piece) if when_of(e) == when]
        if effects:
            out.append((effects, {"owner": name, "source": piece, "this": handle}))
    for handle, piece in board.in_order():
        for mod in piece.get("mods", []):
            by = mod.get("by") or piece["owner"]
            effects = [e for e in read(mod.get("effects")) if when_of(e) == when and by == name]
            if when == "start-of-turn" and piece["owner"] == name:
                effects += [e for e in read(mod.get("effects")) if when_of(e) == "owner-turn"]
            if effects:
                out.append((effects, {"owner": by, "source": mod, "mod": mod, "host": handle}))
    return out


def turn_dice(board: Board, name: str, when: str) -> int:
    return sum(rolls_in(effects) for effects, _ in turn_sources(board, name, when))


def at_turn(board: Board, name: str, when: str, dice: Dice | None) -> None:
    moment = "start of turn" if when == "start-of-turn" else "end of turn"
    for effects, kw in turn_sources(board, name, when):
        gone = (kw.get("this") and kw["this"] not in board.pieces) or \
            (kw.get("mod") is not None and kw["mod"] not in board.pieces.get(kw["host"], {}).get("mods", []))
        if gone or board.people[name].eliminated:
            for _ in range(rolls_in(effects)):
                if dice is not None:
                    dice()  # the die was rolled for a card that has left play: it does nothing
            continue
        run(board, effects, Ctx(dice=dice, moment=moment, **kw))


def end_truces(board: Board, name: str) -> None:
    if board.f.get("truce"):
        kept = [t for t in board.f["truce"] if t["player"] != name]
        if len(kept) != len(board.f["truce"]):
            board.note(f"{name}'s truce ends")
        board.f["truce"] = kept


def attack_banned(board: Board, attacker_owner: str, defender_owner: str | None) -> str | None:
    """The card that stops this attack (Consensus Meeting, Secession Weekend), if any."""
    for t in board.f.get("truce", []):
        if t["who"] == "everyone":
            return t["source"]
        if t["player"] == attacker_owner:
            return t["source"]
        if t["player"] == defender_owner:
            return t["source"]
    return None


def start_of_turn(board: Board, name: str, dice: Dice | None, draw: int = 0) -> None:
    """A player's turn begins (after their first): their truces end, then the
    start-of-turn effects of their cards, oldest card first, then Mods (a
    hand count is read before the turn's draw, an upkeep is paid before the
    new coins, a Real Estate destroyed here makes nothing), then resource
    collection: the turn's `draw`, then production (the rule sheet's "Card text")."""
    end_truces(board, name)
    at_turn(board, name, "start-of-turn", dice)
    if draw:
        zones.draw_on_board(board, name, draw, "start of turn")
    blocked = board.f.get("no_income", [])
    for handle, estate in board.owned(name, "estate"):
        if estate.get("since", 0) >= board.turn:
            continue
        by = board.f.get("no_income_by", {}).get(name)
        if name in blocked and by and guarded(board, handle, Ctx(by[0], {"name": by[2], "type": by[1]}), False):
            pass  # a protected Real Estate produces: the card that stopped income cannot affect it
        elif name in blocked or f"#{handle}" in blocked:
            board.note(f"{name}'s #{handle} {estate['name']} produces nothing this turn")
            continue
        room = capacity(estate) - sum(estate["coins"].values())
        made = min(production(estate, board), max(0, room))
        faction = estate.get("deck") or "plain"
        if made:
            estate["coins"][faction] = estate["coins"].get(faction, 0) + made
            board.tell(story.produces(name, handle, estate["name"], made, sum(estate["coins"].values()),
                                        capacity(estate)))
        elif production(estate, board):
            board.note(f"{name}'s #{handle} {estate['name']} is full "
                               f"({sum(estate['coins'].values())}/{capacity(estate)}) and produces nothing")
        else:
            board.note(f"{name}'s #{handle} {estate['name']} produces nothing")
    mine = {f"#{h}" for h, _ in board.owned(name, "estate")}
    board.f["no_income"] = [b for b in blocked if b != name and b not in mine]
    board.f.get("no_income_by", {}).pop(name, None)
