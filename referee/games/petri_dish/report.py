"""The Petri dish's part of the match report (referee/report.py): prime
areas held and tokens on the dish per turn, and every capture."""
from __future__ import annotations

from typing import Sequence

from referee.games.petri_dish import engine
from referee.games.petri_dish.dish import BOARD_ACTIONS, action_of, position_of
from referee.games.petri_dish.geometry import POINTS, PRIME_AREAS
from referee.model import State
from referee.report import ChartSpec, Fight, Game, Moment, Step


class PetriDishReport(Game):
    measure = "prime areas"

    def values(self, state: State) -> dict[str, int]:
        return areas_held(state)

    def charts(self) -> list[ChartSpec]:
        return [("Prime areas held alone, per turn", "prime areas", areas_held),
                ("Germ tokens on the dish, per turn", "tokens", tokens_on_dish)]

    def sort_key(self, state: State, name: str) -> tuple:
        return (areas_held(state)[name], tokens_on_dish(state)[name])

    def value_text(self, state: State, name: str) -> str:
        p = state.player(name)
        return (f"{p.faction}: {areas_held(state)[name]} prime area(s) held alone, "
                f"{tokens_on_dish(state)[name]} token(s) on the dish, {p.fields.get('reserve')} in reserve")

    def moments(self, step: Step) -> list[Moment]:
        b, a, e = step.before, step.after, step.event
        if e.action not in BOARD_ACTIONS:
            return []
        mover = b.active_player
        outcome = engine.play(position_of(b), action_of(e.to_action()))
        out = []
        for point, germ in outcome.captured:
            colour = "white" if germ > 0 else "black"
            owner = next(p.name for p in b.players if p.faction == colour)
            whose = "its own" if owner == mover.name else f"{owner}'s"
            out.append(f"{mover.name} ({mover.faction}) captures {whose} {colour} germ of {abs(germ)} at {POINTS[point]}")
        old, new = areas_held(b), areas_held(a)
        for name in new:
            if new[name] != old[name]:
                out.append(f"{name} now holds {new[name]} prime area(s) alone (was {old[name]})")
        return [Moment(e.seq, b.turn, text) for text in out]

    def notes(self, final: State, fights: Sequence[Fight]) -> list[str]:
        return ["Battle for the Petri Dish has no dice: no battles with odds, so no luck lines; "
                "captures and prime areas are the key moments."]


def areas_held(state: State) -> dict[str, int]:
    """Prime areas each player holds alone (the win condition)."""
    board = state.fields.get("board") or {}
    held = {p.faction: 0 for p in state.players}
    for points in PRIME_AREAS.values():
        owners = {cell["owner"] for cell in (board.get(pt) for pt in points) if cell}
        if len(owners) == 1:
            held[owners.pop()] += 1
    return {p.name: held[p.faction] for p in state.players}


def tokens_on_dish(state: State) -> dict[str, int]:
    board = state.fields.get("board") or {}
    total = {p.faction: 0 for p in state.players}
    for cell in board.values():
        if cell:
            total[cell["owner"]] += int(cell["size"])
    return {p.name: total[p.faction] for p in state.players}


REPORT = PetriDishReport
