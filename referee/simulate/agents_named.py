"""The agents a run seated, in words, for every report: one agent for all
seats ("heuristic in every seat"), else each seat's ("seat 1 search, seat 2
heuristic, swapping seats game by game" when the plan rotates them)."""
from __future__ import annotations

from referee.simulate.runner import Plan


def agents_named(plan: Plan) -> str:
    kinds = [getattr(a, "value", str(a)) for a in plan.agents]
    if len(set(kinds)) == 1:
        return f"{kinds[0]} in every seat"
    seats = ", ".join(f"seat {i + 1} {k}" for i, k in enumerate(kinds))
    rotated = plan.config(len(plan.factions) or 1).seats if plan.games > 1 else plan.seats
    moves = [getattr(s.agent, "value", str(s.agent)) for s in rotated] != kinds
    return seats + (" (the agents swap seats game by game)" if moves else "")
