"""The agent a seat's kind makes (referee/simulate/agents.py has the kinds)."""
from __future__ import annotations

from referee.simulate.agents import Agent, AgentKind, RandomAgent


def make_agent(kind: AgentKind, budget: int = 24) -> Agent:
    if kind is AgentKind.RANDOM:
        return RandomAgent()
    if kind is AgentKind.HEURISTIC:
        from referee.simulate.heuristic import HeuristicAgent  # lazy: the games' policies, only for such a seat

        return HeuristicAgent()
    from referee.simulate.search import SearchAgent  # lazy: only a search or cheat seat needs it

    return SearchAgent(budget=budget, cheat=kind is AgentKind.CHEAT)
