"""Exact odds of a battle, as fractions.

Ties are rolled again until the totals differ, and the reroll has the same
dice as the first roll, so each outcome's chance is its share of the 36
pairs of dice that are not ties. The odds are found by playing every such
pair (and, after a critical failure, every counter-attack pair) through the
very rules `battle` uses, on copies of the table, so card effects, Heroes
and house rules count exactly as they would in the battle.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from referee.games.culture_war.battle import fight
from referee.games.culture_war.board import Board, DiceShortage, feeder
from referee.games.culture_war.effects import unit_stat_parts


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


def odds(state: Any, attacker: str, defender: str, counter: bool = True) -> Odds:
    """The exact chances of a battle, and each side's expected life change,
    found by playing every non-tied first exchange (and, after a critical
    failure, every counter-attack) through the same rules as `battle`."""
    board = Board(state)
    p, q = board.pieces[attacker]["owner"], board.pieces[defender]["owner"]
    first = [(a, d) for a in range(1, 7) for d in range(1, 7)]
    kill_p = fail_p = crit_p = counter_p = Fraction(0)
    expected = {p: Fraction(0), q: Fraction(0)}
    outcomes = []
    for a, d in first:
        trial = Board(state)
        try:
            fight(trial, attacker, defender, feeder([a, d]), counter=False)
        except DiceShortage:
            continue  # a tie: rerolled, so it is left out and the rest renormalised
        outcomes.append((a, d, trial))
    weight = Fraction(1, len(outcomes)) if outcomes else Fraction(0)
    probe = Board(state)
    atk = unit_stat_parts(probe, attacker, "atk", "attack", defender)[0]
    dfn = unit_stat_parts(probe, defender, "def", "defend", attacker)[0]
    for a, d, trial in outcomes:
        if defender not in trial.pieces:
            kill_p += weight
            _add(expected, state, trial, weight)
            continue
        fail_p += weight
        if a == 1 and counter and attacker in trial.pieces:
            crit_p += weight
            inner = []
            for c, e in first:
                again = Board(state)
                try:
                    fight(again, attacker, defender, feeder([a, d, c, e]), counter=True)
                except DiceShortage:
                    continue
                inner.append(again)
            sub = Fraction(1, len(inner))
            for again in inner:
                if attacker not in again.pieces:
                    counter_p += weight * sub
                _add(expected, state, again, weight * sub)
        else:
            crit_p += weight if a == 1 else 0
            _add(expected, state, trial, weight)
    return Odds(kill_p, fail_p, crit_p, counter_p, expected, p, q, atk, dfn)


def _add(expected: dict[str, Fraction], state: Any, trial: Board, weight: Fraction) -> None:
    for name in expected:
        before = state.player(name).life or 0
        expected[name] += weight * (trial.life(name) - before)
