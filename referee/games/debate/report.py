"""The debate's part of the match report (referee/report.py): fortitude
and the crowd per turn, and each round end."""
from __future__ import annotations

from typing import Sequence

from referee.model import State
from referee.report import ChartSpec, Fight, Game, Moment, Step


class DebateReport(Game):
    measure = "fortitude"

    def values(self, state: State) -> dict[str, int]:
        return {p.name: int(p.fields.get("fortitude", 0)) for p in state.players}

    def charts(self) -> list[ChartSpec]:
        return [("Fortitude per turn", "fortitude", self.values),
                ("The crowd per turn (-30 mob .. +30 enlightened)", "crowd", lambda s: {"crowd": s.crowd or 0})]

    def value_text(self, state: State, name: str) -> str:
        p = state.player(name)
        return f"fortitude {p.fields.get('fortitude', 0)}" + (f" (POTUS {p.faction})" if p.faction else "")

    def moments(self, step: Step) -> list[Moment]:
        b, a, e = step.before, step.after, step.event
        if e.action != "round-end":
            return []
        parts = ", ".join(f"{p.name} fortitude {p.fields.get('fortitude')}" for p in a.players)
        return [Moment(e.seq, b.turn, f"round {b.round} ends: {parts}; the crowd at {a.crowd:+d}")]

    def notes(self, final: State, fights: Sequence[Fight]) -> list[str]:
        return ["Debate rolls no dice in play: no battles, so no luck lines."]


REPORT = DebateReport
