"""Culture War as text: the table under `status`, what changed, odds."""
from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from referee.rules.facts import Fact, Kind, change
from referee.games.culture_war.effects import static as effects
from referee.games.culture_war.table.board import Board
from referee.games.culture_war.table.coins import coins_text, coins_total
from referee.games.culture_war.table.pieces import slug
from referee.games.culture_war.table.phases import play_order
from referee.model import State
from referee.words.render import table

if TYPE_CHECKING:
    from fractions import Fraction

    from referee.games.culture_war.battle.odds import Odds


def long_handle(board: Board, handle: str) -> str:
    """`owner/name`, with `-k` when the owner has several of that card in play."""
    p = board.pieces[handle]
    same = [h for h, q in board.owned(p["owner"]) if slug(q) == slug(p)]
    text = f"{p['owner'].lower()}/{slug(p)}"
    return text + (f"-{same.index(handle) + 1}" if len(same) > 1 else "")


def piece_line(board: Board, handle: str) -> list[str]:
    """One row for `status`: handle, name, then what the piece is doing."""
    p = board.pieces[handle]
    if p["kind"] == "unit":
        atk, atk_parts = effects.unit_stat_parts(board, handle, "atk")
        dfn, dfn_parts = effects.unit_stat_parts(board, handle, "def")
        what = f"{effects.stat_text(atk, p['atk'], atk_parts, 'ATK')} {effects.stat_text(dfn, p['def'], dfn_parts, 'DEF')}"
        traits = [t for t in ("cyber", "hero", "cannot-attack", "immune") if effects.has_trait(board, handle, t)]
        notes = [t for t in (", ".join(traits), p.get("unit_type") or "") if t]
        if p.get("home") and p["home"] != p["owner"]:
            notes.append(f"{p['home']}'s card")
        pending = [f"{t['amount']:+d} {t['stat'].upper()} next battle ({t['source']})"
                   for t in board.f["timed"] if t["until"] == "battle" and t.get("handle") == handle]
        if p.get("attacked") == board.turn:
            pending.append("has attacked")
        extra = "; ".join([*(notes and [" ".join(notes)]), *pending])
    elif p["kind"] == "estate":
        coins = coins_total(p["coins"])
        what = f"coins {coins}/{effects.capacity(p)}"
        extra = f"makes {effects.production(p, board)}/turn" + (f"; {coins_text(p['coins'])}" if coins else "")
        if p.get("since", 0) >= board.turn:
            extra += "; new, produces next turn"
    else:
        what, extra = "Operation", ("does nothing (a Mod stops it)" if effects.disabled(p) else "")
    mods = ", ".join(m["name"] for m in p.get("mods", []))
    if mods:
        extra = (extra + "; " if extra else "") + f"mods: {mods}"
    handle_text = f"#{handle}"
    return [handle_text, p["name"], long_handle(board, handle), what, extra]


def render_lines(state: State) -> list[str]:
    board = Board(state)
    lines = [_order_line(board)]
    for name in board.seats:
        person = board.people[name]
        bank = board.bank(name)
        head = f"{name}: bank {coins_total(bank)}" + (f" ({coins_text(bank)})" if bank else "")
        if person.eliminated:
            head += " - out"
        lines.append(head)
        rows = [piece_line(board, h) for h, _ in board.owned(name)]
        if rows:
            lines.extend("  " + row for row in table(rows))
    if board.f["alliances"]:
        lines.append("alliances: " + "; ".join(" & ".join(pair) for pair in board.f["alliances"]))
    lasting = [t for t in board.f["timed"] if t["until"] == "turn"]
    for t in lasting:
        who = {"unit": f"#{t.get('handle')}", "own-units": f"{t.get('player')}'s units",
               "enemy-units": f"units against {t.get('player')}"}[t["scope"]]
        lines.append(f"this turn: {who} {t['amount']:+d} {t['stat'].upper()} ({t['source']})")
    for t in board.f.get("truce", []):
        lines.append(f"truce: {t['source']} ({t['player']}): " + ("no one attacks" if t["who"] == "everyone"
                     else f"{t['player']}'s units neither attack nor can be attacked") + f" until {t['player']}'s next turn")
    if board.f.get("no_income"):
        lines.append("no income next turn: " + ", ".join(board.f["no_income"]))
    if board.f.get("attacks"):
        lines.append(f"attacks this turn: {board.f['attacks']} (Mods, Happenings and Operations are closed)")
    return lines


def _order_line(board: Board) -> str:
    order = board.f["order"]
    rounds = "; ".join(", ".join(f"{n} {d}" for n, d in r) for r in order["rounds"])
    if order["settled"]:
        how = f"roll-off {rounds}" if rounds else ("seating order" if order["mode"] == "seating"
                                                   else "seating order, no roll-off made")
        seats = " -> ".join(play_order(board.seats, order["first"]))
        return f"first player: {order['first']} ({how}); play goes {seats}"
    tied = f" after {rounds}" if rounds else ""
    return f"first player: not decided{tied} - roll off with `referee rolloff`: {', '.join(order['contenders'])}"


def change_facts(before: State, after: State) -> list[Fact]:
    """What changed in the game's own part of the table, a line each. A line
    about a piece entering or leaving play or its coins names the piece
    (`pieces`), so a story that told it leaves the line out (phrases.covered)."""
    b, a = Board(before), Board(after)
    out: list[Fact] = []
    for handle in sorted(set(b.pieces) | set(a.pieces), key=int):
        old, new = b.pieces.get(handle), a.pieces.get(handle)
        if old is None and new is not None:
            out.append(Fact(f"{new['owner']}: #{handle} {new['name']} in play", Kind.CHANGE, pieces=(handle,)))
        elif new is None and old is not None:
            out.append(Fact(f"{old['owner']}: #{handle} {old['name']} gone", Kind.CHANGE, pieces=(handle,)))
        elif old != new:
            assert old is not None and new is not None
            if new["kind"] == "estate" and old["coins"] != new["coins"]:
                out.append(Fact(f"{new['owner']}: #{handle} {new['name']} coins {coins_total(old['coins'])} -> "
                                f"{coins_total(new['coins'])}/{effects.capacity(new)}", Kind.CHANGE, pieces=(handle,)))
            if old.get("mods") != new.get("mods"):
                out.append(change(f"{new['owner']}: #{handle} {new['name']} mods: "
                           + (", ".join(m["name"] for m in new.get("mods", [])) or "none")))
            was, now = old.get("now") or {}, new.get("now") or {}
            if was != now:
                out.append(change(f"{new['owner']}: #{handle} {new['name']} " + ", ".join(
                    f"{k.upper()} {was.get(k)} -> {v}" for k, v in now.items() if was.get(k) != v)))
    for name in a.seats:
        if b.f["banks"].get(name, {}) != a.f["banks"].get(name, {}):
            out.append(change(f"{name}: bank {coins_total(b.f['banks'].get(name, {}))} -> "
                              f"{coins_total(a.f['banks'].get(name, {}))} ({coins_text(a.f['banks'].get(name, {}))})"))
    if b.f["order"] != a.f["order"] and a.f["order"]["settled"]:
        out.append(change(_order_line(a)))
    if b.f["alliances"] != a.f["alliances"]:
        out.append(change("alliances: " + ("; ".join(" & ".join(p) for p in a.f["alliances"]) or "none")))
    return out


def _pct(value: Fraction) -> str:
    return f"{float(value) * 100:.1f}%"


def _signed(value: Fraction) -> str:
    text = str(value) if value.denominator != 1 else str(value.numerator)
    return ("+" if value > 0 else "") + text + (f" (~{float(value):+.2f})" if value.denominator != 1 else "")


def odds_lines(state: State, attacker: str, defender: str, result: Odds | None, damage: int | None = None,
               changes: Mapping[str, int] | None = None) -> list[str]:
    board = Board(state)
    if result is None:
        line = f"{board.label(attacker)} attacks {defender}'s LIFE directly: certain, {defender} loses {damage}"
        extra = [f"{n} {v:+d}" for n, v in (changes or {}).items()]
        return [line + ("; life with card effects: " + ", ".join(extra) if extra else "")]
    lines = [
        f"{board.label(attacker)} (ATK {result.atk}) against {board.label(defender)} (DEF {result.dfn}); "
        "ties are rolled again, so each chance is among rolls that are not ties",
        f"  kill          {str(result.kill):>7}  {_pct(result.kill):>6}",
        f"  fail          {str(result.fail):>7}  {_pct(result.fail):>6}",
        f"  critical fail {str(result.critical):>7}  {_pct(result.critical):>6}   (rolled a 1 and failed)",
        f"  counter-kill  {str(result.counter_kill):>7}  {_pct(result.counter_kill):>6}"
        "   (the counter-attack kills the attacker)",
        "  expected life: " + ", ".join(f"{n} {_signed(v)}" for n, v in result.expected.items()),
        f"  expected swing for {result.attacker_owner}: {_signed(result.swing)}",
    ]
    return lines
