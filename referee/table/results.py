"""What an action hands back to the command line: the row it appended and
the states either side of it. (Apart from views.py, so that `status`, which
plays nothing, does not build these classes at startup.)"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.rules.facts import Fact
from referee.model import Event, State


@dataclass(frozen=True)
class ActResult:
    """One appended row and the states either side of it."""

    event: Event
    before: State
    after: State
    warnings: tuple[str, ...] = ()
    undone: Event | None = None  # for undo/redo: the action undone or redone
    facts: tuple[Fact, ...] | None = None  # what a new action did, told as it was played (None: not known)


@dataclass(frozen=True)
class RollResult:
    """A logged roll; its row carries the dice, kept dice and total."""

    event: Event

    def to_json(self) -> dict[str, Any]:
        args = self.event.args
        return {
            "expr": args["expr"],
            "dice": list(self.event.dice),
            "kept": list(args["kept"]),
            "total": args["total"],
            "seq": self.event.seq,
        }
