"""Words and tables for the debate: the status part, change lines and the
round-end breakdown. Pure functions from state/report to strings."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from referee.games.debate import forum as fm
from referee.games.debate import phases as ph
from referee.games.debate import piles
from referee.model import State
from referee.words.render import crowd as crowd_text
from referee.words.render import table


def _card(card: Mapping[str, Any]) -> str:
    align = f" {card['alignment'].upper()}" if card.get("alignment") else ""
    return f"{card['name']}{align} {card['strength']}/{card['cost']}"


def slot_text(slot: Any) -> str:
    if not slot:
        return "-"
    parts = [_card(slot["argument"])]
    parts += ["+ " + _card(d) for d in slot["devices"]]
    for mod in slot["mods"]:
        parts.append(f"({mod['source']}: {mod['stat']} {mod['amount']:+d})")
    return " ".join(parts)


def status_lines(state: State, report: fm.Report) -> list[str]:
    names = [p.name for p in state.players]
    f = state.fields
    lines = [f"round {state.round}: {f.get('opener')} opens" + (" (a tiebreaker round)" if f.get("tiebreaker") else "")
             + f"; now {ph.describe(state)}"]
    crowd_now = state.crowd or 0
    if report.crowd != crowd_now:
        lines.append(f"crowd at round end: {crowd_text(report.crowd)} after device and round-end crowd work")
    for name in names:
        card = (f.get("potus") or {}).get(name)
        if not card:
            lines.append(f"POTUS {name}: none (no alignment bonus)")
            continue
        used = (f.get("used") or {}).get(name) or {}
        spent = used.get("match") or used.get("round") == state.round
        lines.append(f"POTUS {name}: {card['name']}, GF {card['gf_bonus']:+d} BF {card['bf_bonus']:+d}, "
                     f"{card.get('ability')} ({card.get('uses')}{', used' if spent else ''})")
    rows = [["thread", *names, "totals", "overage"]]
    forum = f.get("forum") or {}
    shown = {t.number: t for t in report.threads}
    for i in range(fm.THREADS):
        if not any(forum[n][i] for n in names) and (i + 1) not in shown:
            continue
        t = shown.get(i + 1)
        totals = f"{t.sides[0].total} v {t.sides[1].total}" if t else "0 v 0"
        over = f"{t.hits} -{t.overage}" if t and t.hits else "-"
        rows.append([str(i + 1), *(slot_text(forum[n][i]) for n in names), totals, over])
    lines += pile_lines(state)
    for p in f.get("protected") or ():
        lines.append(f"thread {p['thread']} is protected by {p['by']} this round")
    if len(rows) > 1:
        lines.append("forum (totals as they stand, crowd and bonuses included):")
        lines += ["  " + line for line in table(rows)]
    else:
        lines.append("forum: empty")
    return lines


def pile_lines(state: State) -> list[str]:
    """Counts for every player; known cards in hand and the deck list only
    when the view holds them (status --reveal PLAYER)."""
    out = []
    for name, pile in (state.fields.get("piles") or {}).items():
        if not isinstance(pile.get("deck"), int):
            continue  # only a public view is drawn (see DebateRules.visible_state)
        discard = ", ".join(pile["discard"]) or "empty"
        out.append(f"{name}: hand {pile['hand']}, draw pile {pile['draw']}, discard pile {len(pile['discard'])}"
                   f" ({discard})")
        if "hand_known" in pile:
            known = ", ".join(pile["hand_known"]) or "none"
            out.append(f"  {name}'s hand, cards seen: {known}; deck: {', '.join(pile['deck_list'])}")
    return out


def _pile_changes(before: State, after: State, names: Sequence[str]) -> list[str]:
    """Public pile changes only: hand and draw pile counts, the discard pile."""
    out = []
    old, new = before.fields.get("piles") or {}, after.fields.get("piles") or {}
    for name in names:
        a, b = old.get(name), new.get(name)
        if not a or not b:
            continue
        if a.get("deck") != b.get("deck") and not b.get("named"):  # (a named deck's list is hidden)
            out.append(f"{len(b['deck'])} of {name}'s {piles.DECK_SIZE} tactics now known")
            continue
        counts = [f"{label} {a[key]} -> {b[key]}" for key, label in (("hand", "hand"), ("draw", "draw pile"))
                  if a[key] != b[key]]
        if len(a["discard"]) != len(b["discard"]):
            counts.append(f"discard pile {len(a['discard'])} -> {len(b['discard'])}")
        if counts:
            out.append(f"{name}: " + ", ".join(counts))
    return out


def change_lines(before: State, after: State) -> list[str]:
    out = []
    names = [p.name for p in after.players]
    if before.fields.get("phase") != after.fields.get("phase") and after.round == before.round:
        out.append(f"now {ph.describe(after)}")
    old, new = before.fields.get("forum") or {}, after.fields.get("forum") or {}
    if after.round != before.round:
        out.append(f"round {before.round} is over; the forum is cleared")
        if after.finished:  # the match is won (or drawn): no round opens
            return out + _pile_changes(before, after, names)
        if after.fields.get("tiebreaker"):
            out.append("fortitude is tied: a tiebreaker round follows")
        out.append(f"round {after.round}: {after.fields.get('opener')} opens; both draw up to 5 cards")
        return out + _pile_changes(before, after, names)
    for name in names:
        for i in range(fm.THREADS):
            a, b = (old.get(name) or [None] * 7)[i], (new.get(name) or [None] * 7)[i]
            if a != b:
                out.append(f"{name} thread {i + 1}: {slot_text(a)} -> {slot_text(b)}")
        cols_a = (before.fields.get("columns") or {}).get(name) or [0] * 7
        cols_b = (after.fields.get("columns") or {}).get(name) or [0] * 7
        for i, (x, y) in enumerate(zip(cols_a, cols_b)):
            if x != y:
                out.append(f"{name} thread {i + 1} column bonus {x:+d} -> {y:+d}")
    a, b = before.fields.get("crowd_at_round_end"), after.fields.get("crowd_at_round_end")
    if a != b and b is not None:
        out.append(f"crowd at round end {crowd_text(a or 0)} -> {crowd_text(b)}")
    if len(after.fields.get("protected") or ()) > len(before.fields.get("protected") or ()):
        p = after.fields["protected"][-1]
        out.append(f"{p['by']} protects thread {p['thread']} until round end")
    for name in names:
        a = (before.fields.get("used") or {}).get(name)
        b = (after.fields.get("used") or {}).get(name)
        if a != b:
            out.append(f"{name} used their POTUS ability")
    for name in after.fields.get("waived") or ():
        if name not in (before.fields.get("waived") or ()):
            out.append(f"{name} shows a hand without arguments: phase one may pass without one")
    return out + _pile_changes(before, after, names)


def breakdown(report: fm.Report) -> list[str]:
    """The round-end arithmetic, thread by thread."""
    lines = [f"round {report.round} end"]
    crowd_line = f"crowd {crowd_text(report.crowd_before)}"
    for work in report.work:
        crowd_line += f"; {work.label} {work.amount:+d}"
    lines.append(crowd_line + f" -> {crowd_text(report.crowd)} (this crowd scales the arguments)")
    rows = [["thread", "player", "argument", "printed", "crowd", "potus", "ability", "devices", "column",
             "total", "cost", "overage"]]
    for t in report.threads:
        for side in t.sides:
            over = f"-{t.overage} to {t.hits}" if t.hits and side.player != t.hits else ""
            rows.append([str(t.number), side.player, side.argument or "-", str(side.printed), str(side.crowd),
                         f"{side.potus:+d}", f"{side.ability:+d}", str(side.devices), f"{side.column:+d}",
                         str(side.total), str(side.cost), over])
    if len(rows) > 1:
        lines += ["  " + line for line in table(rows, {3, 4, 5, 6, 7, 8, 9, 10})]
    else:
        lines.append("  (the forum is empty)")
    for name in report.fortitude:
        lines.append(f"{name}: fortitude {report.fortitude_before[name]} - overage {report.damage[name]} "
                     f"- own costs {report.costs[name]} = {report.fortitude[name]}")
    for card in report.back_to_hand:
        lines.append(f"returns to hand: {card}")
    if report.winner:
        lines.append(f"{report.winner} wins the debate with the higher fortitude")
    elif report.tiebreaker:
        lines.append("fortitude is level with a debater at 0 or below: a tiebreaker round follows")
    return lines


def ability_note(card: Mapping[str, Any]) -> str | None:
    """A reminder for abilities done with the physical cards (what a person
    must do and confirm is a prompt instead: see moves._ask)."""
    action = card.get("action")
    count = card.get("action_count") or 1
    if action == "draw":
        return f"{card['name']}: draw {count} card{'s' if count > 1 else ''} from your deck"
    return None


def tv(state: State) -> dict:
    """What the shared screen shows beside the forum: each thread's strength
    on each side and its totals as they stand (round end's arithmetic, crowd
    and bonuses included), and the crowd round end will use (the printed
    track's marker, which players set)."""
    from referee.games.debate.actions import round_report  # lazy: the arithmetic, only for a page

    report = round_report(state)
    return {"threads": [{"thread": t.number, "sides": [{"player": s.player, "strength": s.strength,
                                                        "devices": s.devices, "column": s.column, "total": s.total}
                                                       for s in t.sides],
                         "overage": t.overage, "hits": t.hits} for t in report.threads],
            "crowd_at_round_end": report.crowd}
