"""Prompts: card text a person must carry out or judge, asked at its moment.

When a card's effect cannot be applied by arithmetic ("look at the top card
of a deck", "choose a unit"), the game's rules add a Prompt to the state at
the moment the card says: played, start or end of turn, after both battle
dice, on death. The referee prints it with exactly what to enter, and the
table waits: while a prompt is pending, only its answers and the
scorekeeper's corrections are accepted (`check_waiting`).

A prompt is answered with `referee resolve [N] [ANSWER]`, or by one of the
game commands it names in `commands` (for example `target`), whose `apply`
then calls `settle`. Prompts live in `state.fields["prompts"]`, so they are
folded, undone and replayed with everything else.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, Iterable, Mapping

from referee.errors import RuleViolation
from referee.model import State

FIELD = "prompts"
NEXT = "prompt_next"
CORRECTIONS = frozenset({"life", "capital", "crowd", "resolve"})


@dataclass(frozen=True)
class Prompt:
    """One question to the table.

    number: stable per table, 1, 2, 3 ...
    player: who answers (the card's owner, usually).
    card_id / card: the card whose text this is.
    moment: when it arose, in words: "played", "start of turn", "after the dice".
    text: what the card asks, in the card's own (generated) words.
    enter: exactly what to type, e.g. "referee resolve 3 done".
    commands: game commands that answer it besides `resolve`.
    choices: the answers `resolve` accepts; empty means "done" only.
    """

    number: int
    player: str
    card_id: str
    card: str
    moment: str
    text: str
    enter: str
    commands: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()
    data: Mapping[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["commands"] = list(self.commands)
        out["choices"] = list(self.choices)
        out["data"] = dict(self.data or {})
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Prompt":
        return cls(
            int(data["number"]), data["player"], data["card_id"], data["card"], data["moment"],
            data["text"], data["enter"], tuple(data.get("commands", ())),
            tuple(data.get("choices", ())), dict(data.get("data") or {}),
        )

    def describe(self) -> str:
        """One line: who must answer, the card, its text and what to enter."""
        return (f"waiting for {self.player}: {self.card} ({self.moment}): {self.text} "
                f"Enter: {self.enter}")


def pending(state: State) -> tuple[Prompt, ...]:
    return tuple(Prompt.from_dict(p) for p in state.fields.get(FIELD, ()))


def find(state: State, number: int | None) -> Prompt:
    """The prompt numbered `number`, or the only pending one when None."""
    waiting = pending(state)
    if not waiting:
        raise RuleViolation("prompts", "nothing is waiting for an answer")
    if number is None:
        if len(waiting) > 1:
            numbers = ", ".join(str(p.number) for p in waiting)
            raise RuleViolation("prompts", f"{len(waiting)} prompts are waiting ({numbers}); name one: resolve N ...")
        return waiting[0]
    for p in waiting:
        if p.number == number:
            return p
    raise RuleViolation("prompts", f"no prompt {number} is waiting; waiting: "
                        + ", ".join(str(p.number) for p in waiting))


def ask(state: State, player: str, card_id: str, card: str, moment: str, text: str,
        enter: str | None = None, commands: Iterable[str] = (), choices: Iterable[str] = (),
        data: Mapping[str, Any] | None = None) -> State:
    """`state` with one more pending prompt. `enter` may use {n} for the
    prompt's number; by default it is `referee resolve {n} done`, or the
    choices when there are some."""
    number = int(state.fields.get(NEXT, 1))
    choices = tuple(choices)
    if enter is None:
        enter = f"referee resolve {{n}} {'|'.join(choices)}" if choices else "referee resolve {n} done"
    prompt = Prompt(number, player, card_id, card, moment, text, enter.replace("{n}", str(number)),
                    tuple(commands), choices, dict(data or {}))
    fields = dict(state.fields)
    fields[FIELD] = [*fields.get(FIELD, ()), prompt.to_dict()]
    fields[NEXT] = number + 1
    return replace(state, fields=fields)


def settle(state: State, number: int) -> State:
    """`state` without prompt `number` (it has been answered)."""
    fields = dict(state.fields)
    fields[FIELD] = [p for p in fields.get(FIELD, ()) if int(p["number"]) != number]
    if not fields[FIELD]:
        del fields[FIELD]
    return replace(state, fields=fields)


def check_waiting(state: State, action_name: str) -> None:
    """Refuse an action while a prompt waits, unless it answers one or is a
    scorekeeper's correction (life, capital, crowd)."""
    waiting = pending(state)
    if not waiting or action_name in CORRECTIONS:
        return
    if any(action_name in p.commands for p in waiting):
        return
    first = waiting[0]
    more = f" ({len(waiting) - 1} more after it)" if len(waiting) > 1 else ""
    raise RuleViolation("card text", f"{action_name} must wait: {first.describe()}{more}")


def check_answer(prompt: Prompt, answer: str | None) -> str:
    """The answer `resolve` was given, checked against the prompt's choices."""
    given = (answer or "done").strip().lower()
    if (prompt.data or {}).get("free"):
        return given  # the game checks the answer itself (check_prompt_answer)
    if prompt.choices:
        if given not in prompt.choices:
            raise RuleViolation("card text", f"prompt {prompt.number} ({prompt.card}) takes one of: "
                                + ", ".join(prompt.choices) + f"; not {given!r}")
        return given
    if given not in ("done", "skip"):
        raise RuleViolation("card text", f"prompt {prompt.number} ({prompt.card}) is answered with "
                            f"'done' once the table has carried it out; not {given!r}")
    return given
