"""The Culture War commands' core: open the table, read what is needed,
call `table.act`, and hand back the result with the story of what happened.

Battles and the roll-off reroll ties, so how many dice they take is known
only by playing them: the table plays them once, in its one transaction,
with the dice drawn as the rules ask (drawing.py, `table.act(drawn=True)`):
the typed --dice (a tie left unresolved or dice left over is refused
before anything is written) or the table's seeded dice in order from the
generator's position. Either way the action records how many dice it took
and the log holds every die. The story an echo tells is the facts the
action was played with: the battle is fought once per command.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from referee.rules import dice as dicelib
from referee.table import operations as table
from referee.errors import RefereeError
from referee.rules.facts import Fact
from referee.games.culture_war.battle import odds as odds_of
from referee.games.culture_war.battle.attacks import target_of
from referee.games.culture_war.battle.fight import strike
from referee.games.culture_war.table.board import Board
from referee.games.culture_war.table.pieces import find_piece, hero
from referee.games.culture_war.table.cards import resolve
from referee.games.culture_war.rules import RULES
from referee.model import Action, State
from referee.table.store import db
from referee.table.store import events as log
from referee.table.results import ActResult


@dataclass(frozen=True)
class Report:
    result: ActResult
    notes: tuple[Fact, ...]  # the story of the action (referee/facts.py)


@dataclass(frozen=True)
class OddsReport:
    state: State
    attacker: str
    defender: str
    odds: odds_of.Odds | None
    damage: int | None = None
    changes: dict[str, int] | None = None  # a direct attack: each player's life change, card effects included

    def to_json(self) -> dict[str, Any]:
        if self.odds is None:
            return {"attacker": self.attacker, "defender": self.defender, "direct": True, "damage": self.damage,
                    "expected": dict(self.changes or {})}
        o = self.odds
        return {
            "attacker": self.attacker, "defender": self.defender, "direct": False, "atk": o.atk, "def": o.dfn,
            "kill": str(o.kill), "fail": str(o.fail), "critical": str(o.critical),
            "counter_kill": str(o.counter_kill),
            "expected": {k: str(v) for k, v in o.expected.items()}, "swing": str(o.swing),
        }


def _current(path: Path) -> tuple[State, int | None, int]:
    """The table now, its seed, and how many seeded dice it has drawn."""
    with table.opened(path) as (conn, rules), db.read(conn):
        if rules.slug.value != "culture-war":
            raise RefereeError(f"{path} is a {rules.slug.value} table, not culture-war")
        last = log.last_event(conn)
        state, _ = log.state_at(conn, rules, last.head)
        return state, log.seed_of(conn), last.rng


def _report(result: ActResult) -> Report:
    """The result and its story: the facts the action was played with (the ledger's `rules.play`)."""
    if result.facts is not None:
        return Report(result, result.facts)
    e = result.event
    return Report(result, tuple(RULES.narrate(result.before, e.to_action(), e.dice)))


def _rolled(path: Path, name: str, args: dict[str, Any], dice_text: str | None) -> Report:
    """Act on an action that rolls an unknown number of dice: played once,
    in the table's one transaction, with the typed dice (a tie left
    unresolved or dice left over is refused before anything is written) or
    the table's seeded dice drawn in order as the rules ask for them."""
    if dice_text is not None and name == "rolloff":  # typed roll-off dice may stop after a tie; the rules check the rounds
        rolls = len(dicelib.parse_entered(dice_text))
        return _report(table.act(path, name, {**args, "rolls": rolls}, None, (), dice_text))
    return _report(table.act(path, name, args, None, (), dice_text, drawn=True))


def rolloff(path: Path, dice_text: str | None = None) -> Report:
    return _rolled(path, "rolloff", {}, dice_text)


def play(path: Path, code: str, player: str | None = None, on: str | None = None,
         sources: Sequence[str] = (), cost: int | None = None, expect: str | None = None,
         dice_text: str | None = None) -> Report:
    """Play any card: deploy a unit, buy Real Estate, or play an event."""
    card = resolve(code)
    if expect is not None and card["type"] != expect:
        raise RefereeError(f"{card['id']} is a {card['type']} card; use `referee play` for it")
    state, _, _ = _current(path)
    board = Board(state)
    name = board.name(player) if player else board.active
    args: dict[str, Any] = {"player": name, "card": card["id"], "_card": card}
    if on:
        args["on"] = on
    if sources:
        args["from"] = [s.strip() for part in sources for s in part.split(",") if s.strip()]
    if cost is not None:
        if cost < 0:
            raise RefereeError(f"--cost cannot be negative ({cost})")
        args["cost"] = cost
    return _report(table.act(path, "play", args, name, (code,), dice_text))


def seize(path: Path, unit: str, player: str | None = None, sources: Sequence[str] = ()) -> Report:
    """Take control of a unit offered for a price (kind for-sale)."""
    state, _, _ = _current(path)
    board = Board(state)
    name = board.name(player) if player else board.active
    args: dict[str, Any] = {"player": name, "piece": find_piece(board, unit, ("unit",))}
    if sources:
        args["from"] = [s.strip() for part in sources for s in part.split(",") if s.strip()]
    return _report(table.act(path, "seize", args, name))


def fight(path: Path, attacker: str, defender: str, dice_text: str | None = None, counter: bool = True,
          window: bool = False) -> Report:
    """A battle: the units as typed (the rules find them, drawing.canonical).
    With `window`, both dice now; the battle waits for Flashes and `settle`."""
    args: dict[str, Any] = {"attacker": attacker.strip(), "defender": defender.strip()}
    if not counter:
        args["counter"] = False
    return _rolled(path, "window" if window else "battle", args, dice_text)


def settle(path: Path, dice_text: str | None = None) -> Report:
    """Fight the battle whose dice are shown, with those dice (and any more it needs)."""
    return _rolled(path, "settle", {}, dice_text)


def odds(path: Path, attacker: str, defender: str, counter: bool = True) -> OddsReport:
    state, _, _ = _current(path)
    board = Board(state)
    handle = find_piece(board, attacker, ("unit",))
    text = defender.strip()
    args = {"attacker": handle, "defender": text, "rolls": 1}
    RULES.check(state, Action("battle", args))  # the same refusals as the battle itself
    _, target, direct = target_of(board, args)
    if direct:
        key = "unopposed-hero-damage" if hero(board.pieces[handle]) else "unopposed-damage"
        trial = Board(state)
        strike(trial, handle, target)  # the same code as the attack: on-attack and on-direct effects count
        changes = {p.name: trial.life(p.name) - (p.life or 0) for p in state.players
                   if trial.life(p.name) != (p.life or 0)}
        return OddsReport(state, handle, target, None, int(state.house_rules.get(key, 0)), changes)
    return OddsReport(state, handle, target, odds_of.odds(state, handle, target, counter))


def draw(path: Path, count: int = 1, player: str | None = None, reason: str | None = None) -> Report:
    """A player draws COUNT cards because a card says so (the draw as each
    turn begins is made by `end-turn`)."""
    state, _, _ = _current(path)
    name = Board(state).name(player) if player else state.active_player.name
    args: dict[str, Any] = {"player": name, "count": count}
    if reason:
        args["reason"] = reason
    return _report(table.act(path, "draw", args, name))


def discard_hand(path: Path, code: str, player: str | None = None, reason: str | None = None) -> Report:
    """A card leaves a player's hand for the discard pile (card text made
    them discard it); the card is shown, so it is named."""
    card = resolve(code)
    state, _, _ = _current(path)
    name = Board(state).name(player) if player else state.active_player.name
    args: dict[str, Any] = {"player": name, "card": card["id"], "_card": card}
    if reason:
        args["reason"] = reason
    return _report(table.act(path, "discard-hand", args, name, (code,)))


def simple(path: Path, name: str, args: dict[str, Any], actor: str | None = None) -> Report:
    """ally, unally, donate, gift, discard: no dice, no cards."""
    return _report(table.act(path, name, args, actor))
