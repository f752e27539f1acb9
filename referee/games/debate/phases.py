"""A debate round as a small state machine with named phases.

    opening (first player) -> answer (second player)          phase one
    -> cross-examination (first player) -> last word (second)  phase two
    -> POTUS window (both) -> round end -> opening of the next round

`next` moves from one phase to the next; `round-end` is taken only in the
POTUS window. Each check here raises RuleViolation naming the phase and the
rule. Round-scoped bookkeeping lives in `State.fields`:
- `phase`: the Phase value;
- `opened`: the threads (columns) opened this round;
- `held`: name -> threads where that player had an argument this round
  (an empty one of those is an emptied thread, which may be filled again);
- `argued`: players who played an argument in phase one this round;
- `waived`: players who showed a hand without arguments this phase;
- `begun`: the first tactic, ability or pass of the match has happened.
"""
from __future__ import annotations

from enum import Enum
from typing import Any, Mapping

from referee.errors import RuleViolation
from referee.model import State


class Phase(str, Enum):
    OPENING = "opening"
    ANSWER = "answer"
    CROSS = "cross-examination"
    LAST_WORD = "last-word"
    POTUS = "potus-window"

    @property
    def title(self) -> str:
        return TITLES[self]


TITLES = {
    Phase.OPENING: "phase one, opening", Phase.ANSWER: "phase one, answer",
    Phase.CROSS: "cross-examination", Phase.LAST_WORD: "last word", Phase.POTUS: "POTUS window",
}
NEXT = {Phase.OPENING: Phase.ANSWER, Phase.ANSWER: Phase.CROSS, Phase.CROSS: Phase.LAST_WORD,
        Phase.LAST_WORD: Phase.POTUS}
PHASE_ONE = (Phase.OPENING, Phase.ANSWER)
OPENER_PHASES = (Phase.OPENING, Phase.CROSS)
THREADS_CHOICES = ("opener", "both")  # house rule open-threads


def current(fields: Mapping[str, Any]) -> Phase:
    return Phase(fields.get("phase", Phase.OPENING.value))


def second(state: State) -> str:
    names = [p.name for p in state.players]
    opener = state.fields["opener"]
    return names[1] if names[0] == opener else names[0]


def acting(state: State, phase: Phase | None = None) -> str | None:
    """Whose phase it is (None in the POTUS window: both players)."""
    phase = phase or current(state.fields)
    if phase is Phase.POTUS:
        return None
    return state.fields["opener"] if phase in OPENER_PHASES else second(state)


def describe(state: State) -> str:
    """The phase as players read it, e.g. "cross-examination (Ana)"."""
    if state.finished:
        return f"the match is over ({state.winner} won)"
    phase = current(state.fields)
    who = acting(state, phase)
    return f"{phase.title} ({who if who else 'both players'})"


def round_fields(opener: str, names: list[str]) -> dict[str, Any]:
    """Round-scoped bookkeeping at round start."""
    return {"phase": Phase.OPENING.value, "opener": opener, "opened": [], "held": {n: [] for n in names},
            "argued": [], "waived": []}


# ---- checks ------------------------------------------------------------------


def check_tactic(state: State, player: str, what: str) -> None:
    """A tactic is played by the player whose phase it is, never in the POTUS window."""
    phase = current(state.fields)
    if phase is Phase.POTUS:
        raise RuleViolation("POTUS window", f"now is the {describe(state)}: only POTUS abilities, so {player} "
                            f"cannot play {what}; `round-end` ends the round")
    who = acting(state, phase)
    if player != who:
        raise RuleViolation("turn order", f"it is {who}'s turn ({describe(state)}), so {player} cannot play "
                            f"{what} now (use `next` to pass the turn)")


def check_argument_slot(state: State, player: str, thread: int, name: str) -> None:
    """Where an argument may go in this phase (the slot is known to be empty)."""
    f = state.fields
    phase = current(f)
    held = thread in (f.get("held") or {}).get(player, [])
    if phase is Phase.ANSWER and thread not in f.get("opened", []) and not held:
        if state.house_rules.get("open-threads", "opener") == "opener":
            opened = sorted(f.get("opened", []))
            listed = (f"thread{'s' if len(opened) > 1 else ''} " + ", ".join(map(str, opened))) if opened else "none"
            raise RuleViolation("first player privilege", f"in {describe(state)} {player} answers the threads "
                                f"{f['opener']} opened ({listed}); {name} cannot open thread {thread} "
                                "(house rule open-threads=opener)")
    if phase in (Phase.CROSS, Phase.LAST_WORD) and not held:
        raise RuleViolation("cross-examination", f"no new threads in {describe(state)}: {player} may only "
                            f"refill a thread of theirs emptied this round, and thread {thread} is not one")


def check_ability(state: State, player: str, ability: str) -> None:
    """POTUS abilities are used in your own phase or in the POTUS window."""
    phase = current(state.fields)
    who = acting(state, phase)
    if who is not None and who != player:
        raise RuleViolation("POTUS timing", f"{player} can use {ability} only in their own turn or in the POTUS "
                            f"window; now it is {describe(state)}")


def check_end_turn(state: State, actor: str | None) -> None:
    phase = current(state.fields)
    who = acting(state, phase)
    if phase is Phase.POTUS:
        raise RuleViolation("round end", "the POTUS window is the last phase of the round: use `round-end`")
    if actor is not None and actor != who:
        raise RuleViolation("turn order", f"it is {who}'s turn ({describe(state)}), so {actor} cannot end it")
    if phase in PHASE_ONE and who not in state.fields.get("argued", []) and who not in state.fields.get("waived", []) \
            and can_argue(state, who):
        raise RuleViolation("one argument in phase one", f"{who} must play at least one argument in "
                            f"{describe(state)} before passing (a hand without arguments: `no-argument`)")


def can_argue(state: State, player: str) -> bool:
    """Whether PLAYER has a slot an argument may go to now. Under the first
    player's privilege the second player can only answer opened threads, so
    with none open (or all answered) phase one asks no argument of them."""
    f = state.fields
    if current(f) is not Phase.ANSWER or state.house_rules.get("open-threads", "opener") != "opener":
        return True
    return any(not f["forum"][player][t - 1] for t in f.get("opened", []))


def check_round_end(state: State) -> None:
    phase = current(state.fields)
    if phase is not Phase.POTUS:
        raise RuleViolation("round end", f"round end comes after the POTUS window; now it is {describe(state)} "
                            "(`next` moves to the next phase)")


def check_no_argument(state: State, player: str) -> None:
    phase = current(state.fields)
    if phase not in PHASE_ONE or acting(state, phase) != player:
        raise RuleViolation("one argument in phase one", f"{player} can only show a hand without arguments in "
                            f"their own phase one turn; now it is {describe(state)}")
    if player in state.fields.get("argued", []):
        raise RuleViolation("one argument in phase one", f"{player} has already played an argument this phase")
    pile = state.fields["piles"][player]
    kinds = {c["id"]: c.get("kind") for c in pile["deck"]}
    known = [i for i in pile["seen"] if kinds.get(i) == "argument"]
    if known:
        raise RuleViolation("one argument in phase one", f"{player}'s hand holds an argument the referee saw go "
                            f"back into it, so {player} must play one")
