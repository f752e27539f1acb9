"""Culture War's part of the match report (referee/report.py): life per
turn, every battle with its exact odds, and the Heroes lost."""
from __future__ import annotations

from referee.errors import RefereeError
from referee.games.culture_war.battle import odds as cw_odds
from referee.games.culture_war.battle.attacks import target_of
from referee.games.culture_war.table.board import Board
from referee.games.culture_war.table.pieces import hero
from referee.model import State
from referee.report import Fight, Game, Moment, Step


class CultureWarReport(Game):
    measure = "life"

    def values(self, state: State) -> dict[str, int]:
        return {p.name: p.life for p in state.players}

    def fights(self, step: Step) -> list[Fight]:
        if step.event.action != "battle":
            return []
        b, a, e = step.before, step.after, step.event
        board = Board(b)
        try:
            attacker, defender, direct = target_of(board, e.args)
        except RefereeError:
            return []
        unit = board.pieces[attacker]
        owner = unit["owner"]
        life = {p.name: (p.life or 0) for p in b.players}
        lost = ", ".join(f"{p.name} {int(p.life or 0) - life[p.name]:+d}" for p in a.players
                         if (p.life or 0) != life[p.name])
        life_text = f" (life: {lost})" if lost else ""
        if direct:
            return [Fight(e.seq, b.turn, owner, defender, f"{board.label(attacker)} attacks {defender}'s LIFE",
                          None, True, f"direct attack, no dice{life_text}")]
        foe = board.pieces[defender]
        odds = cw_odds.odds(b, attacker, defender, bool(e.args.get("counter", True)))
        pieces = a.fields.get("pieces") or {}
        won = defender not in pieces
        result = f"kills {foe['name']}" if won else "the attack fails"
        if attacker not in pieces:
            result += f"; {unit['name']} dies in the counter-attack"
        what = f"{board.label(attacker)} (ATK {odds.atk}) against {board.label(defender)} (DEF {odds.dfn})"
        sides = ((owner, odds.kill, won), (foe["owner"], 1 - odds.kill, not won))
        return [Fight(e.seq, b.turn, owner, foe["owner"], what, odds.kill, won, result + life_text,
                      tuple(e.dice), sides)]

    def moments(self, step: Step) -> list[Moment]:
        b, a, e = step.before, step.after, step.event
        after = a.fields.get("pieces") or {}
        out = []
        for handle, piece in sorted((b.fields.get("pieces") or {}).items(), key=lambda kv: int(kv[0])):
            if hero(piece) and handle not in after:
                out.append(Moment(e.seq, b.turn, f"{piece['owner']} loses the Hero {piece['name']} (#{handle})"
                                  + (" in battle" if e.action == "battle" else f" ({e.action})")))
        return out


REPORT = CultureWarReport
