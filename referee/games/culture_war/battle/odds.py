"""Exact odds of a battle, as fractions.

Every die a battle may roll (both battle dice, a reroll a card allows, a
card's survival roll, a counter-attack) is played through the very rules
`battle` uses, on copies of the table, one die at a time: a branch that needs
another die splits six ways. A tie is rolled again with the same dice as
before, so each branch that ties is left out and the rest of that exchange
renormalised. Card effects, Heroes and house rules count exactly as they
would in the battle.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from referee.games.culture_war.battle.fight import Tie, fight, opening
from referee.games.culture_war.table.board import Board
from referee.games.culture_war.table.dice import DiceShortage
from referee.games.culture_war.effects.static import unit_stat_parts


@dataclass(frozen=True)
class Odds:
    kill: Fraction
    fail: Fraction
    critical: Fraction
    counter_kill: Fraction
    expected: Mapping[str, Fraction]  # expected life change of each player involved
    attacker_owner: str
    defender_owner: str
    atk: int
    dfn: int

    @property
    def swing(self) -> Fraction:
        """Expected life change of the attacker's side minus the defender's side."""
        return self.expected[self.attacker_owner] - self.expected[self.defender_owner]


class _Prefix:
    """Dice read from a fixed list; DiceShortage past its end. `used` counts dice read."""

    def __init__(self, faces: list[int]):
        self.faces, self.used = faces, 0

    def __call__(self) -> int:
        if self.used >= len(self.faces):
            raise DiceShortage("needs another die")
        self.used += 1
        return self.faces[self.used - 1]


def _outcomes(state: Any, attacker: str, defender: str, counter: bool,
              prefix: list[int]) -> tuple[list[tuple[Fraction, Board]], dict[int, Fraction]]:
    trial = Board(state)
    trial.f["_odds"] = True
    try:
        fight(trial, attacker, defender, _Prefix(prefix), counter=counter)
        return [(Fraction(1), trial)], {}
    except Tie as tie:
        return [], {tie.start: Fraction(1)}
    except DiceShortage:
        pass
    outs: list[tuple[Fraction, Board]] = []
    ties: dict[int, Fraction] = {}
    for face in range(1, 7):
        sub, sub_ties = _outcomes(state, attacker, defender, counter, prefix + [face])
        outs += [(w / 6, b) for w, b in sub]
        for k, v in sub_ties.items():
            ties[k] = ties.get(k, Fraction(0)) + v / 6
    tied = ties.pop(len(prefix), Fraction(0))
    if tied:
        if tied == 1:
            return [], ties
        scale = 1 / (1 - tied)
        outs = [(w * scale, b) for w, b in outs]
        ties = {k: v * scale for k, v in ties.items()}
    return outs, ties


def odds(state: Any, attacker: str, defender: str, counter: bool = True) -> Odds:
    """The exact chances of a battle, and each side's expected life change,
    found by playing every branch of dice through the same rules as `battle`."""
    board = Board(state)
    p, q = board.pieces[attacker]["owner"], board.pieces[defender]["owner"]
    outcomes, _ = _outcomes(state, attacker, defender, counter, [])
    total = sum((w for w, _ in outcomes), Fraction(0)) or Fraction(1)
    kill_p = fail_p = crit_p = counter_p = Fraction(0)
    expected = {p: Fraction(0), q: Fraction(0)}
    for w, trial in outcomes:
        w = w / total
        gone = defender not in trial.pieces or trial.pieces[defender]["owner"] != q
        if gone:
            kill_p += w
        else:
            fail_p += w
        result = trial.f.get("_result") or {}
        if result.get("critical"):
            crit_p += w
        if result.get("counter_kill"):
            counter_p += w
        for name in expected:
            expected[name] += w * (trial.life(name) - (state.player(name).life or 0))
    atk, dfn = _battle_stats(state, attacker, defender)
    return Odds(kill_p, fail_p, crit_p, counter_p, expected, p, q, atk, dfn)


def _battle_stats(state: Any, attacker: str, defender: str) -> tuple[int, int]:
    """The attacker's ATK and the defender's DEF as the battle reads them: after
    its attack and defend triggers (Slam Poet's -1 DEF, Seastead Founder's +3 ATK)."""
    trial = Board(state)
    trial.f["_odds"] = True
    try:
        opening(trial, attacker, defender, _Prefix([]))
    except DiceShortage:
        trial = Board(state)  # a trigger that rolls: the printed numbers with what is always on
    if attacker not in trial.pieces or defender not in trial.pieces:
        trial = Board(state)
    return (unit_stat_parts(trial, attacker, "atk", "attack", defender)[0],
            unit_stat_parts(trial, defender, "def", "defend", attacker)[0])
