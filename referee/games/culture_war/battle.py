"""Battles: one unit against another, or straight at a player's LIFE; and
their exact odds.

A battle (rulebook, Combat Phase):
- each side rolls a d6: the attacker adds ATK, the defender DEF; a tie is
  rolled again (every die is kept in the log);
- higher attacker total: the defender dies and its owner loses 5;
- otherwise the attack fails and the attacker's owner loses 2; if the
  deciding attacker die was a 1 it is a critical failure and the defender
  counter-attacks with the roles swapped (a 1 in the counter-attack starts
  nothing more);
- a Hero that kills costs the opponent 10, a Hero that fails costs its
  owner 4, a Hero that dies costs its owner 10 (so 10 at most, never 20).
"""
from __future__ import annotations

from typing import Any, Mapping

from referee.games.culture_war.board import Board, Dice, hero
from referee.games.culture_war.effects import trigger, unit_stat_parts

KILL, HERO_KILL = 5, 10
FAIL, HERO_FAIL = 2, 4


def kill_damage(killer: Mapping[str, Any], victim: Mapping[str, Any]) -> int:
    return HERO_KILL if hero(killer) or hero(victim) else KILL


def fail_damage(attacker: Mapping[str, Any]) -> int:
    return HERO_FAIL if hero(attacker) else FAIL


def _stat_text(total: int, base: int, parts: list[tuple[int, str]], word: str) -> str:
    if not parts:
        return f"{word} {total}"
    bits = ", ".join(f"{a:+d} {s}" for a, s in parts if a)
    return f"{word} {total} ({base} printed, {bits})" if bits else f"{word} {total}"


def exchange(board: Board, dice: Dice, attacker: str, defender: str, who: str) -> tuple[int, int, bool]:
    """Roll until the totals differ. Returns (attacker die, defender die, attacker won)."""
    a_unit, d_unit = board.pieces[attacker], board.pieces[defender]
    atk, atk_parts = unit_stat_parts(board, attacker, "atk", "attack", defender)
    dfn, dfn_parts = unit_stat_parts(board, defender, "def", "defend", attacker)
    board.notes.append(f"{who}: {board.label(attacker)} {_stat_text(atk, a_unit['atk'], atk_parts, 'ATK')} "
                       f"against {board.label(defender)} {_stat_text(dfn, d_unit['def'], dfn_parts, 'DEF')}")
    while True:
        a, d = dice(), dice()
        left, right = a + atk, d + dfn
        line = f"  roll {a_unit['owner']} {a} + {atk} = {left}  vs  {d_unit['owner']} {d} + {dfn} = {right}"
        if left == right:
            board.notes.append(line + "  -> tie, roll again")
            continue
        board.notes.append(line + ("  -> the attack kills" if left > right else "  -> the attack fails"))
        return a, d, left > right


def kill(board: Board, killer: str, victim: str) -> None:
    """`victim` dies in battle: its owner pays for it, then on-kill and on-death effects fire."""
    k, v = board.pieces[killer], board.pieces[victim]
    k_owner, v_owner = k["owner"], v["owner"]
    damage = kill_damage(k, v)
    if hero(k) and hero(v) and board.rules.get("hero-kills-hero") == "both":  # house rule: 10 for each
        damage = HERO_KILL * 2
    reason = "a Hero lost" if hero(v) else ("killed by a Hero" if hero(k) else "unit killed")
    board.remove(victim, f"killed by #{killer} {k['name']}")
    board.change_life(v_owner, -damage, f"{reason}: #{victim} {v['name']}")
    if killer in board.pieces:
        trigger(board, "on-kill", k_owner, k, v_owner)
    trigger(board, "on-death", v_owner, v, k_owner)


def fight(board: Board, attacker: str, defender: str, dice: Dice, counter: bool = True) -> None:
    """One battle, start to finish, written to `board` (notes say what happened)."""
    a_unit, d_unit = board.pieces[attacker], board.pieces[defender]
    p, q = a_unit["owner"], d_unit["owner"]
    a_unit["attacked"] = board.turn
    board.f["attacks"] = board.f.get("attacks", 0) + 1
    trigger(board, "on-attack", p, a_unit, q)
    if defender in board.pieces:
        trigger(board, "on-defend", q, d_unit, p)
    if attacker in board.pieces and defender in board.pieces:
        a, _, won = exchange(board, dice, attacker, defender, "battle")
        if won:
            kill(board, attacker, defender)
        else:
            board.change_life(p, -fail_damage(a_unit), f"failed attack by #{attacker} {a_unit['name']}")
            if a == 1 and attacker in board.pieces and defender in board.pieces:
                board.notes.append(f"critical failure: {p} rolled a 1 and failed")
                if counter:
                    _counter(board, defender, attacker, dice)
                else:
                    board.notes.append(f"{q} does not counter-attack")
    board.f["timed"] = [t for t in board.f["timed"]
                        if not (t["until"] == "battle" and t.get("handle") in (attacker, defender))]


def _counter(board: Board, attacker: str, defender: str, dice: Dice) -> None:
    a_unit = board.pieces[attacker]
    d, _, won = exchange(board, dice, attacker, defender, "counter-attack")
    if won:
        kill(board, attacker, defender)
    else:
        if board.rules.get("counter-fail") == "normal":
            board.change_life(a_unit["owner"], -fail_damage(a_unit),
                              f"failed counter-attack by #{attacker} {a_unit['name']}")
        else:
            board.notes.append("the counter-attack fails; no one loses life for it")
    if d == 1:
        board.notes.append("a 1 in a counter-attack starts no further counter-attack")


def strike(board: Board, attacker: str, target: str) -> None:
    """An attack on a player's LIFE (allowed when they have nothing to defend with)."""
    unit = board.pieces[attacker]
    p = unit["owner"]
    unit["attacked"] = board.turn
    board.f["attacks"] = board.f.get("attacks", 0) + 1
    board.notes.append(f"{board.label(attacker)} attacks {target}'s LIFE directly")
    trigger(board, "on-attack", p, unit, target)
    key = "unopposed-hero-damage" if hero(unit) else "unopposed-damage"
    board.change_life(target, -int(board.rules.get(key, 0)), f"direct attack by #{attacker} {unit['name']}")
