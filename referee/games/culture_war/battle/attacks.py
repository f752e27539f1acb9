"""Culture War battles as board steps (see actions.py): `battle` fights at
once; `window` rolls both dice and shows them, so Flashes can still be
played, until `settle` fights the waiting battle with those dice.
`target_of` reads and checks who attacks whom (the odds use it too).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from referee.errors import RefereeError, RuleViolation
from referee.rules.facts import Kind
from referee.games.culture_war.effects import static as effects
from referee.games.culture_war.actions import order_ready
from referee.games.culture_war.battle.fight import end_if_broken, fight, strike, target_refusal, unit_refusal
from referee.games.culture_war.table.board import Board
from referee.games.culture_war.table.dice import DiceShortage, feeder
from referee.games.culture_war.table.payments import take_coins
from referee.games.culture_war.table.pieces import find_piece
from referee.games.culture_war.effects.turn_effects import attack_banned
from referee.model import Action, State

WINDOW = "window"  # state field: a battle whose dice are shown and which waits for `settle`


def battle(board: Board, args: Mapping[str, Any], dice: Callable[[], int]) -> None:
    attacker, defender, direct = target_of(board, args)
    board.f["begun"] = True
    if not args.get("paid"):  # a battle settled after its window paid when the window opened
        pay_taxes(board, attacker, defender, direct)
    if direct:
        strike(board, attacker, defender, dice)
    else:
        fight(board, attacker, defender, dice, counter=args.get("counter", True))


def pay_taxes(board: Board, attacker: str, defender: str, direct: bool) -> None:
    """The attacker's owner pays what the defender's attack-tax cards ask."""
    owner = board.pieces[attacker]["owner"]
    foe = defender if direct else board.pieces[defender]["owner"]
    for amount, src in taxes(board, attacker, defender, direct):
        effects.trace(src.get("card"), "attack-tax")
        take_coins(board, owner, amount, f"to attack {foe} ({src['name']})")


def taxes(board: Board, attacker: str, defender: str, direct: bool) -> list[tuple[int, dict[str, Any]]]:
    """The capital the attacker's owner must pay to attack (attack-tax cards of
    the defender's), each (amount, card); refused when the coins do not cover them."""
    owner = board.pieces[attacker]["owner"]
    foe = defender if direct else board.pieces[defender]["owner"]
    due, total = [], 0
    for _, src, e in effects.statics(board, "attack-tax"):
        if src["owner"] == foe:
            amount = int(e["amount"])
            total += amount
            if board.capital(owner) < total:
                raise RuleViolation(f"card text: {src['name']}",
                                    f"{owner} must pay {amount} capital to attack {foe} ({src['name']}) "
                                    f"and has {board.capital(owner) - total + amount}")
            due.append((amount, src))
    return due


def window(board: Board, args: Mapping[str, Any], dice: Callable[[], int]) -> None:
    """Roll both battle dice and show them; the battle waits, so Flashes
    can still be played, until `settle` fights it with these dice."""
    attacker, defender, direct = target_of(board, args)
    if direct:
        raise RuleViolation("after the dice", "an attack straight at LIFE rolls no dice: fight it with `referee battle`")
    pay_taxes(board, attacker, defender, direct)  # the attack is made now: coins spent in the window cannot undo it
    rolled = [dice(), dice()]
    board.f[WINDOW] = {"attacker": attacker, "defender": defender, "counter": args.get("counter", True),
                       "dice": rolled, "paid": True}
    board.note(f"dice shown: {board.label(attacker)} rolled {rolled[0]}, {board.label(defender)} "
                       f"rolled {rolled[1]}; Flashes may be played now, then `referee settle`")
    for line in pending(board):
        board.note(f"if nothing is played: {line}")


PREVIEWED = (Kind.ROLL, Kind.CRITICAL)  # the facts a window's preview tells: the roll, a critical failure


def pending(board: Board) -> list[str]:
    """What `settle` would do now, with the dice shown (a tie, reroll or
    counter-attack that needs more dice is said to, not rolled): the facts
    of the kinds in PREVIEWED, chosen by kind, never by their words."""
    trial = board.trial()
    before = len(trial.notes)
    try:
        settle(trial, {}, feeder(()))
    except DiceShortage:
        return [f.text.strip() for f in trial.notes[before:][:2]] + ["... and it needs more dice (a tie, a reroll or a counter-attack)"]
    except RefereeError as exc:
        return [f"it would be refused: {exc}"]
    return [f.text.strip() for f in trial.notes[before:] if f.kind in PREVIEWED][:2]


def settle(board: Board, args: Mapping[str, Any], dice: Callable[[], int]) -> None:
    """The waiting battle, fought with the dice shown (and any further dice
    it needs: ties, rerolls, a counter-attack)."""
    if end_if_broken(board):  # card text took one of its units away: nothing is left to fight
        return
    window = board.f.pop(WINDOW)
    shown = iter(window["dice"])

    def both() -> int:
        return next(shown, None) or dice()

    battle(board, {"attacker": window["attacker"], "defender": window["defender"],
                   "counter": window.get("counter", True), "paid": window.get("paid", False)}, both)


def target_of(board: Board, args: Mapping[str, Any]) -> tuple[str, str, bool]:
    """(attacker handle, defender handle or player name, is it a direct attack)."""
    attacker = find_piece(board, str(args["attacker"]), ("unit",))
    unit = board.pieces[attacker]
    owner = unit["owner"]
    order_ready(board, owner)
    label = board.label(attacker)
    if owner != board.active:
        raise RuleViolation("units attack on their owner's turn",
                            f"{label} cannot attack: it is {board.active}'s turn")
    if unit.get("attacked") == board.turn:
        raise RuleViolation("each unit attacks at most once per turn", f"{label} has already attacked this turn")
    barred = unit_refusal(board, attacker)
    if barred:
        raise RuleViolation(*barred)
    for _, src, e in effects.statics(board, "attack-limit"):
        if src["owner"] == owner and board.f.get("attacks", 0) >= int(e["max"]):
            effects.trace(src.get("card"), "attack-limit")
            raise RuleViolation(f"card text: {src['name']}",
                                f"{owner} may attack with at most {e['max']} units each turn ({src['name']})")
    text = str(args["defender"]).strip()
    if names_a_unit(text):
        defender = find_piece(board, text, ("unit",))
        foe = board.pieces[defender]
        if foe["owner"] == owner:
            raise RuleViolation("units attack the enemy",
                                f"{owner} cannot attack their own #{defender} {foe['name']}")
        truce(board, owner, foe["owner"])
        if effects.cyber(board, attacker) != effects.cyber(board, defender):
            cy, plain = (label, board.label(defender)) if effects.cyber(board, attacker) \
                else (board.label(defender), label)
            raise RuleViolation("Cyber units fight only Cyber units",
                                f"{owner} cannot attack: {cy} is a Cyber unit and {plain} is not")
        forced = target_refusal(board, attacker, defender)
        if forced:
            raise RuleViolation(*forced)
        return attacker, defender, False
    target = board.name(text)
    if target == owner:
        raise RuleViolation("units attack the enemy", f"{owner} cannot attack their own LIFE")
    if board.people[target].eliminated:
        raise RuleViolation("elimination", f"{target} is out of the game")
    truce(board, owner, target)
    theirs = [(h, p) for h, p in board.owned(target, "unit")]
    listing = ", ".join(f"#{h} {p['name']}" for h, p in theirs)
    forced = target_refusal(board, attacker, None)
    if forced:
        raise RuleViolation(*forced)
    if effects.cyber(board, attacker):
        guards = [(h, p) for h, p in theirs if effects.cyber(board, h)]
        if guards:
            raise RuleViolation("a Cyber unit attacks LIFE only when the target has no Cyber units",
                                f"{owner} cannot attack {target}'s LIFE with {label}: {target} has "
                                + ", ".join(f"#{h} {p['name']}" for h, p in guards))
    elif theirs:
        raise RuleViolation("LIFE can be attacked only when the target has no units",
                            f"{owner} cannot attack {target}'s LIFE: {target} still has {listing}")
    return attacker, target, True


def names_a_unit(defender: str) -> bool:
    """Whether a battle's defender as typed names a unit (`7`, `#7`,
    `bo/mall-walkers`) rather than a player, whose LIFE is attacked directly."""
    return defender.lstrip("#").isdigit() or "/" in defender


def truce(board: Board, owner: str, foe: str) -> None:
    source = attack_banned(board, owner, foe)
    if source:
        raise RuleViolation(f"card text: {source}", f"{owner} cannot attack {foe} now ({source})")


# ---- the checks that do not run the battle (a battle's dice decide it) -------------


def check_battle(rules: Any, state: State, action: Action) -> None:
    board = Board.reading(state)  # target_of and taxes only read
    taxes(board, *target_of(board, action.args))  # as `battle` itself refuses it


def check_window(rules: Any, state: State, action: Action) -> None:
    if state.fields.get(WINDOW):
        raise RuleViolation("after the dice", "a battle already waits to be settled: `referee settle` first")
    board = Board.reading(state)  # target_of and taxes only read
    attacker, defender, direct = target_of(board, action.args)
    if direct:  # as `window` itself refuses it
        raise RuleViolation("after the dice", "an attack straight at LIFE rolls no dice: fight it with `referee battle`")
    taxes(board, attacker, defender, direct)  # paid as the window opens, as `window` itself refuses it


def check_settle(rules: Any, state: State, action: Action) -> None:
    if not state.fields.get(WINDOW):
        raise RuleViolation("after the dice", "no battle waits to be settled (start one with `referee battle A D --window`)")
