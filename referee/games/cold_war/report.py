"""Cold War's part of the match report (referee/report.py): score per turn,
every attack as players saw it (a face-down defence stays unseen), a Fallen
Leader's flips with their odds, and the key moments."""
from __future__ import annotations

from typing import Sequence

from referee.errors import RefereeError
from referee.rules import visible_state
from referee.games.cold_war import desk as D
from referee.games.cold_war.odds import odds as flip_odds
from referee.model import State
from referee.report import Fight, Game, Moment, Step


class ColdWarReport(Game):
    measure = "score"
    _opened: Step | None = None  # the step whose action waits for its target's answer, told at the answer

    def values(self, state: State) -> dict[str, int]:
        return {p.name: int(p.fields.get("score", 0)) for p in state.players}

    def value_text(self, state: State, name: str) -> str:
        rounds = (state.fields.get("scores") or {}).get(name) or []
        return f"score {self.values(state)[name]}" + (f" (rounds: {' + '.join(map(str, rounds))})" if rounds else "")

    @staticmethod
    def _report(state: State) -> list[str]:
        return list(visible_state(state, ()).fields.get("report") or [])

    def fights(self, step: Step) -> list[Fight]:
        """An attack is told where it lands: at its own event, or (when it
        opened an answer window) at its target's answer, with the answer."""
        b, a, e = step.before, step.after, step.event
        if e.action in ("attack", "fallen", "special") and a.fields.get("pending"):
            self._opened = step
            return []
        if e.action == "answer":
            opened, self._opened = self._opened, None
            if opened is None:
                return []
            lines = self._report(opened.after) + self._report(a)
            return self._fight(opened.before, opened.event.seq, opened.event.action,
                               {**opened.event.args, **e.args}, lines)
        if e.action not in ("attack", "fallen", "special"):
            return []
        lines = self._report(a) if a.fields.get("step") != b.fields.get("step") else []
        return self._fight(b, e.seq, e.action, e.args, lines)

    def _fight(self, b: State, seq: int, action: str, args: dict, lines: list[str]) -> list[Fight]:
        mover = b.active_player.name
        target = _player(b, args.get("target"))
        aimed = target
        redirected = args.get("redirect") is not None and _player(b, args.get("onto")) is not None
        if redirected:  # the attack lands where the redirect sent it, not where it was aimed
            target = _player(b, args.get("onto"))
        won = any((" beats " in ln or " takes " in ln) for ln in lines)
        blocked = any(" blocks " in ln for ln in lines)
        outcome = "blocked" if blocked else ("the attack wins" if won else "the attack fails")
        if action == "attack":
            cards = args.get("cards") or []
            value = sum(int(D.card(b.fields, c).get("attack", 0)) for c in cards)
            spot = str(args.get("at") or "").upper()
            aimed_at = spot
            if redirected:
                spot = str(args.get("onto_at") or "").upper()
            defence = _public_defence(visible_state(b, ()), target, spot)
            against = f"defence {defence}" if defence is not None else "a defence not seen (face down)"
            what = f"{mover} attacks {target}'s {spot} with {value} against {against}"
            if redirected:
                what += f" (aimed at {aimed}'s {aimed_at}; {aimed} redirected it)"
            return [Fight(seq, b.turn, mover, target, what, None, won and not blocked, outcome)]
        if action == "special":
            if not any("to attack" in ln for ln in lines):
                return []
            return [Fight(seq, b.turn, mover, target, f"{mover} redeploys Military cards against {target}",
                          None, won and not blocked, outcome)]
        odds = flip_odds(b, mover)
        card = D.card(b.fields, str(args.get("card")))
        kind = card.get("fallen_draw")
        got = {"attack": f"attacks with {card.get('attack')}", "lend": "is lent to the target",
               "nothing": "does nothing"}.get(kind, str(kind))
        result = f"{card.get('name')} {got}" + (f": {outcome}" if kind == "attack" else "")
        chance = odds.chance("attack")
        what = f"{mover}'s Fallen Leader flips a card at {target} (chance it attacks)"
        return [Fight(seq, b.turn, mover, target, what, chance, kind == "attack", result,
                      sides=((mover, chance, kind == "attack"),))]

    def moments(self, step: Step) -> list[Moment]:
        b, a, e = step.before, step.after, step.event
        if a.fields.get("step") == b.fields.get("step"):
            return []
        keys = ("falls and becomes", "Nuclear Triad", "is won by", "while Fallen")
        return [Moment(e.seq, b.turn, line) for line in self._report(a) if any(k in line for k in keys)]

    def notes(self, final: State, fights: Sequence[Fight]) -> list[str]:
        return ["Cold War attacks roll no dice: an attack wins when its value reaches the defence. A defence "
                "that was face down is not shown. The only chance is a Fallen Leader's flip: its odds (the "
                "chance the flipped card attacks) make the luck lines."]


def _player(state: State, name: object) -> str | None:
    if name is None:
        return None
    try:
        return state.player(str(name)).name
    except RefereeError:
        return None


def _public_defence(view: State, target: str | None, spot: str) -> int | None:
    """The defence of `spot` on `target`'s table as every player sees it (None if any of it is face down)."""
    if target is None:
        return None
    table = (view.fields.get("tables") or {}).get(target) or {}
    if spot.startswith("S"):
        return (table.get("science") or {}).get(spot, {}).get("defence")
    if spot.startswith("M"):
        return (table.get("military") or {}).get(spot, {}).get("defence")
    if spot == "L":
        if any(m.get("defence") is None for m in (table.get("military") or {}).values()):
            return None
        stack = (table.get("leader_stack") or {}).get("defence")
        if stack is None:
            return None
        return int(stack) + sum(int(s.get("defence") or 0) for s in (table.get("science") or {}).values()) + \
            sum(int(m.get("defence") or 0) for m in (table.get("military") or {}).values())
    return None


REPORT = ColdWarReport
