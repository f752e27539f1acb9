"""Culture War's turn structure as named phases, and which actions each allows.

Before anyone plays, a roll-off settles the first player (unless the table
plays in seating order). Then every turn runs through the rulebook's four
steps:

    resource collection   draw a card, Real Estate makes coins (automatic as
                          a turn begins; nothing on a player's first turn)
    card deployment       buy Real Estate, deploy units, play events
    combat                the first attack closes deployment: from then on
                          only Flash events may be played
    end of turn           `end-turn`; play passes on and the next turn's
                          resource collection happens at once

Resource collection and the end of a turn are done inside `end-turn`, so
the phase a table can be *in* is roll-off, card deployment, combat, or
game over. Every refusal here names the phase and the rule. The
scorekeeper's corrections (`life`, `capital`) are not play: they are
accepted in every phase, the roll-off included.
"""
from __future__ import annotations

from enum import Enum
from typing import Any, Mapping, Sequence

from referee.errors import RuleViolation, UnknownPlayer
from referee.model import Action, State

ROLL_OFF_RULE = "the first player is decided by a roll-off"
TIMING = {
    "unit": "units are deployed on your own turn, before your first attack",
    "real-estate": "Real Estate is bought on your own turn, before your first attack",
    "mod": "Mods are played on your own turn, before your first attack",
    "happening": "Happenings are played on your own turn, before your first attack",
    "operation": "Operations are played on your own turn, before your first attack",
}
KIND_WORDS = {"unit": "unit", "real-estate": "real-estate", "mod": "mod", "flash": "flash",
              "happening": "happening", "operation": "operation"}


class Phase(str, Enum):
    ROLL_OFF = "roll-off"
    COLLECTION = "resource collection"
    DEPLOYMENT = "card deployment"
    COMBAT = "combat"
    END = "end of turn"
    OVER = "game over"


# Before the roll-off only the roll-off itself, the scorekeeper's corrections
# of the score sheet (life, capital: they play nothing) and a declared winner
# (an override the core asks --force for) are accepted. Everything else waits.
BEFORE_PLAY = frozenset({"rolloff", "life", "capital", "win"})


def phase_of(state: State) -> Phase:
    if state.finished:
        return Phase.OVER
    if not state.fields.get("order", {}).get("settled", True):
        return Phase.ROLL_OFF
    return Phase.COMBAT if state.fields.get("attacks") else Phase.DEPLOYMENT


def describe(state: State) -> str:
    """The phase as `status` shows it, with whose turn it is."""
    phase = phase_of(state)
    if state.fields.get("window"):
        return f"after the dice ({state.active_player.name}'s battle waits: Flashes, then settle)"
    if phase in (Phase.DEPLOYMENT, Phase.COMBAT):
        return f"{phase.value} ({state.active_player.name}'s turn {state.turn})"
    return phase.value


def _who(state: State, action: Action) -> str:
    """The player an action is by, for the words of a refusal."""
    args: Mapping[str, Any] = action.args
    for key in ("player", "from"):
        value = args.get(key)
        if isinstance(value, str):
            try:
                return state.player(value).name
            except UnknownPlayer:
                break
    if action.name == "battle":
        piece = state.fields.get("pieces", {}).get(str(args.get("attacker", "")).lstrip("#"))
        if piece:
            return piece["owner"]
    if action.actor:
        try:
            return state.player(action.actor).name
        except UnknownPlayer:
            pass
    return state.active_player.name


VERBS = {"play": "play", "battle": "play", "end-turn": "end a turn", "draw": "draw",
         "discard-hand": "discard", "life": "change LIFE", "capital": "change Capital",
         "ally": "ally", "unally": "end an alliance", "donate": "donate", "gift": "give Capital",
         "discard": "discard"}


def check_phase(state: State, action: Action) -> None:
    """Refuse an action the phase does not allow, naming the phase and the rule."""
    phase = phase_of(state)
    if phase is Phase.OVER:
        return  # the generic check says the game is over
    if phase is Phase.ROLL_OFF:
        if action.name in BEFORE_PLAY:
            return
        order = state.fields["order"]
        who = _who(state, action)
        verb = VERBS.get(action.name, "act")
        raise RuleViolation(
            ROLL_OFF_RULE,
            f"{phase.value} phase: {who} cannot {verb} yet: {', '.join(order['contenders'])} roll off for "
            "the first player first (referee rolloff), or start with --house-rule first-player=seating")
    if action.name == "rolloff":
        return  # its own check explains why there is nothing to roll
    if action.name == "play":
        _check_timing(state, action, phase)


def _check_timing(state: State, action: Action, phase: Phase) -> None:
    card = action.args.get("_card") or {}
    kind = card.get("type")
    if kind not in TIMING:
        return  # a Flash: any time, by anyone
    name = _who(state, action)
    active = state.active_player.name
    what = f"{card.get('name')} ({KIND_WORDS[kind]})"
    if name != active:
        raise RuleViolation(TIMING[kind], f"{phase.value} phase of {active}'s turn: {name} cannot play {what} "
                                          f"now: it is {active}'s turn")
    if phase is Phase.COMBAT:
        raise RuleViolation(TIMING[kind], f"{phase.value} phase: {name} has already attacked this turn, "
                                          f"so {what} comes too late")


def play_order(seats: Sequence[str], first: str) -> list[str]:
    """Seats from the first player round the table (the order --player gave)."""
    k = list(seats).index(first)
    return list(seats[k:]) + list(seats[:k])
