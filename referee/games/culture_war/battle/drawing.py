"""Culture War's actions that take as many dice as they roll: a battle (or
a battle's shown dice, or its settling) rolls ties again, and a card or a
critical failure may roll more; the seeded roll-off rolls until one player
is highest. Each is checked and played once, here, with the dice drawn as
the rules ask for them (`ledger.perform(drawn=True)`): the battle is fought
once, and the log records exactly the dice it took (typed or seeded) and
how many (`rolls`), so a replay of the recorded dice gives the same table.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.rules import dice as dicelib
from referee.errors import DiceError
from referee.rules.facts import Fact, Kind, Outcome
from referee.games.culture_war.battle.attacks import names_a_unit
from referee.games.culture_war.table.board import Board
from referee.games.culture_war.table.pieces import find_piece
from referee.games.culture_war.effects.static import freeze
from referee.model import Action, State


def canonical(board: Board, action: Action) -> Action:
    """The action as the log records it: a battle's units by handle and its
    defender a handle or a player as the table spells them, and the one
    acting the attacking unit's owner (a settle: the waiting battle's)."""
    args = dict(action.args)
    actor = action.actor
    if action.name in ("battle", "window"):
        handle = find_piece(board, str(args["attacker"]), ("unit",))
        text = str(args["defender"]).strip()
        args["attacker"] = handle
        args["defender"] = find_piece(board, text, ("unit",)) if names_a_unit(text) \
            else board.name(text)
        actor = board.pieces[handle]["owner"]
    elif action.name == "settle":
        window = board.f.get("window") or {}
        actor = board.pieces.get(str(window.get("attacker", "")), {}).get("owner")
    return replace(action, args=args, actor=actor)


def play(rules: Any, state: State, action: Action, dice: dicelib.Drawn) -> tuple[Action, State, list[Fact]]:
    """Check the action, then play it once on a Board with `dice`: the action
    with its dice counted, the state after it and its facts. Typed dice that
    run out, or are left over, are refused before anything is written."""
    action = canonical(Board.reading(state), action)  # naming the units only reads
    rules.check(state, replace(action, args={**action.args, "rolls": 1}))
    if dice.typed is not None:
        dicelib.check_entered(dice.typed, (6,) * len(dice.typed), action.name)
    spec = rules.spec(action)
    board = Board(state)
    try:
        spec.step(board, action.args, dice)
    except dicelib.OutOfDice:
        raise DiceError(_short(action.name, dice.typed or (), board.notes)) from None
    used = dice.taken
    if dice.typed is not None and len(used) != len(dice.typed):
        raise DiceError(f"{action.name} used {len(used)} dice ({','.join(map(str, used))}) "
                        f"but --dice gave {len(dice.typed)}; leave out the extra")
    action = replace(action, args={**action.args, "rolls": len(used)})
    after = freeze(board, **(spec.then(board) if spec.then else {}))
    return action, rules.settled(state, action, after), board.notes


def _short(name: str, typed: tuple[int, ...], notes: list[Fact]) -> str:
    shown = ",".join(map(str, typed))
    told = [f for f in notes if f.kind in (Kind.ROLL, Kind.CRITICAL)]  # chosen by kind, never by their words
    last = told[-1] if told else None
    why = ("the last roll is a tie, which is rolled again"
           if last is not None and last.roll is not None and last.roll.outcome is Outcome.TIE
           else "a critical failure brings a counter-attack, which rolls too"
           if last is not None and last.kind is Kind.CRITICAL else "the battle is not over")
    return f"{name}: the dice {shown} are not enough: {why}; type every die rolled, e.g. --dice {shown},4,2"
