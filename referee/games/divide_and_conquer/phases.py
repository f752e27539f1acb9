"""The phases of a Divide & Conquer turn, shown by `status` and named in
refusals, with the step each phase of an attack waits for.

Outside an attack the active player is in the ACTION phase and takes one
action; an attack then goes team -> call-or-raise -> [add] -> roll (see
battle.py, which moves `fields["attack"]["stage"]` along). Once the deck has
run out and the nets have decided, the phase is "game over".
"""
from __future__ import annotations

from enum import StrEnum
from typing import Any, Mapping


class Phase(StrEnum):
    ACTION = "action"
    TEAM = "team"
    CALL_OR_RAISE = "call-or-raise"
    ADD = "add"
    ROLL = "roll"
    OVER = "game over"


def phase_of(fields: Mapping[str, Any]) -> Phase:
    """The phase of a table's fields. "game over" once the rules have ended
    the game (`result`, State.result); a winner declared by hand is not a
    phase of the game (the core shows no phase once a game is won)."""
    if fields.get("result"):
        return Phase.OVER
    attack = fields.get("attack")
    return Phase(attack["stage"]) if attack else Phase.ACTION


NEXT_STEP = {
    Phase.TEAM: "{attacker} lays the attack team (`team`)",
    Phase.CALL_OR_RAISE: "{defender} calls or raises once (`call` / `raise`)",
    Phase.ADD: "{attacker} may add once more (`team`) or roll (`fight`)",
    Phase.ROLL: "both roll a d6 (`fight`)",
}


def next_step(attack: Mapping[str, Any]) -> str:
    """Who does what next in an attack under way (a refusal and `status` say it)."""
    return NEXT_STEP[Phase(attack["stage"])].format(**attack)
