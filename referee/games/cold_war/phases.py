"""The Cold War turn structure as a small state machine.

    setup        each player records the six cards of their setup (and may
                 regroup them); `start` ends it
    turn         a standing Leader's turn: regroup (free), up to two plays
                 (place, attack, special, challenge; a combined attack is two),
                 at least one discard, or the Nuclear Triad as the whole turn;
                 `end-turn` draws back up to 5 and passes
    fallen turn  a Fallen Leader's turn: one flip (`fallen`), then it passes
    answer       an attack, Special, Triad or Fallen Leader's attack waits for
                 its target's `answer` (window.py); nothing else is played
    over         the last round is scored; nothing more is played

Every action is checked against the phase before its own rules run; a
refusal names the phase and the rule.
"""
from __future__ import annotations

from referee.errors import RuleViolation, UnknownPlayer
from referee.games.cold_war.window import answer_hint
from referee.model import Action, State

SETUP, TURN, FALLEN, ANSWER, OVER = "setup", "turn", "fallen turn", "answer", "over"
ALLOWED = {
    SETUP: ("setup", "regroup", "start"),
    TURN: ("regroup", "place", "discard", "attack", "special", "challenge", "triad", "end-turn"),
    FALLEN: ("fallen", "end-turn"),
    ANSWER: ("answer",),
    OVER: (),
}
DOING = {
    "setup": "set up", "start": "start the round", "regroup": "regroup", "place": "build defence",
    "discard": "discard", "attack": "attack", "special": "play a Special", "challenge": "challenge Propaganda",
    "triad": "launch the Nuclear Triad", "fallen": "flip a Fallen Leader card", "end-turn": "end the turn",
    "answer": "answer",
}


def phase_of(state: State) -> str:
    f = state.fields
    if state.finished:
        return OVER
    if f.get("phase") == "setup":
        return SETUP
    if f.get("pending"):
        return ANSWER
    active = state.players[state.active].name
    return FALLEN if f["desks"][active]["fallen"] else TURN


def check(state: State, action: Action) -> None:
    """Refuse an action the phase does not allow, naming the phase and the rule."""
    phase = phase_of(state)
    if action.name in ALLOWED[phase]:
        return
    doing = DOING.get(action.name, action.name)
    rnd = state.round
    if phase == OVER:
        over = f"{state.winner} has won" if state.winner else state.result or "it is over"
        raise RuleViolation("game over", f"the game is over ({over}); undo to go back (phase: over)")
    who = _who(state, action)
    pending = state.fields.get("pending")
    if phase == ANSWER:
        raise RuleViolation("answer window", f"{who} cannot {doing} now: {answer_hint(pending)} (phase: answer)")
    if action.name == "answer":
        raise RuleViolation("answers", "nothing waits for an answer now")
    if phase == SETUP:
        raise RuleViolation("setup phase", f"{who} cannot {doing} yet: round {rnd} is in its setup phase "
                                           "(record every setup, then `start`)")
    if action.name in ("setup", "start"):
        raise RuleViolation("setup phase", f"{who} cannot {doing} now: round {rnd} is under way (phase: {phase}); "
                                           "setup happens before the round's first turn")
    active = state.players[state.active].name
    actor = state.player(action.actor).name if action.actor is not None else active
    if actor != active:
        raise RuleViolation("turn order", f"it is {active}'s turn, so {actor} cannot {doing}")
    if phase == FALLEN:
        raise RuleViolation("Fallen Leader", f"{active}'s Leader has fallen, so {active} holds no hand and cannot "
                                             f"{doing}; a Fallen Leader's turn is one flip (`fallen`) "
                                             "(phase: fallen turn)")
    raise RuleViolation("Fallen Leader", f"{active}'s Leader still stands; only a Fallen Leader flips cards "
                                         "(phase: turn)")


def _who(state: State, action: Action) -> str:
    for name in (action.actor, action.args.get("player")):
        if isinstance(name, str) and name.strip():
            try:
                return state.player(name).name
            except UnknownPlayer:  # the action's own check names it
                return name
    return state.players[state.active].name
