"""Divide & Conquer's part of the match report (referee/report.py): net
influence per turn, every attack with its chance, and the take-overs."""
from __future__ import annotations

from referee.games.divide_and_conquer import battle
from referee.model import State
from referee.report import Fight, Game, Moment, Step


class DivideAndConquerReport(Game):
    measure = "net influence"

    def values(self, state: State) -> dict[str, int]:
        return {p.name: int(p.fields.get("net", 0)) for p in state.players}

    def sort_key(self, state: State, name: str) -> tuple:
        p = state.player(name)
        return (int(p.fields.get("net", 0)), int(p.fields.get("cards", 0)))

    def value_text(self, state: State, name: str) -> str:
        f = state.player(name).fields
        return (f"net influence {f.get('net', 0)} (left {f.get('left', 0)}, right {f.get('right', 0)}; "
                f"{f.get('cards', 0)} cards in base)")

    def fights(self, step: Step) -> list[Fight]:
        if step.event.action != "fight":
            return []
        b, a, e = step.before, step.after, step.event
        attack, last = b.fields.get("attack"), a.fields.get("last_attack")
        if not attack or not last:
            return []
        a_inf, _, d_inf, _ = battle.totals(b.fields)
        chance = battle.odds(a_inf, d_inf)
        won = bool(last["won"])
        whose = {"player": f"{attack['defender']}'s", "unaffiliated": "the unaffiliated",
                 "own": "their own"}.get(attack["kind"], "")
        what = (f"{attack['attacker']} attacks {whose} {last['target']} to {attack['intent']}: "
                f"influence {a_inf} against {d_inf}")
        done = ("taken over" if attack["intent"] == "take-over" else "destroyed") if won else "the attack fails"
        result = f"{last['attack']} against {last['defence']}: {done}"
        sides = [(attack["attacker"], chance, won)]
        if attack.get("defender"):
            sides.append((attack["defender"], 1 - chance, not won))
        return [Fight(e.seq, b.turn, attack["attacker"], attack.get("defender"), what, chance, won, result,
                      tuple(e.dice), tuple(sides))]

    def moments(self, step: Step) -> list[Moment]:
        b, a, e = step.before, step.after, step.event
        last = a.fields.get("last_attack")
        if e.action == "fight" and last and last.get("won"):
            verb = "takes over" if last["intent"] == "take-over" else "destroys"
            return [Moment(e.seq, b.turn, f"{last['attacker']} {verb} {last['target']}")]
        return []


REPORT = DivideAndConquerReport
