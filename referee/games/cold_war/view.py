"""What the table may see of a Cold War game, and the Fallen Leader odds.

`visible_state` swaps the rules' private bookkeeping in `State.fields` for a
public view: face-down Military cards show only how many there are, unless
their owner is named in `reveal`. `status` (text and JSON) is drawn from that
view only, so it cannot show a hidden card by mistake.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Mapping, Sequence

from referee.rules import prompts
from referee.errors import RefereeError
from referee.games.cold_war import desk as D
from referee.games.cold_war import window as W
from referee.games.cold_war import zones as Z
from referee.games.cold_war.phases import phase_of
from referee.model import State

OUTCOMES = (("lend", "is lent to the target"), ("attack", "attacks the target"), ("nothing", "does nothing"))


def reveal_names(state: State, reveal: Sequence[str]) -> list[str]:
    names: list[str] = []
    for name in reveal:
        if name.strip().lower() == "all" and not any(p.name.lower() == "all" for p in state.players):
            return [p.name for p in state.players]
        found = state.player(name).name
        if found not in names:
            names.append(found)
    return names


def visible_state(state: State, reveal: Sequence[str]) -> State:
    f = state.fields
    if "desks" not in f:  # already a public view
        return state
    shown = reveal_names(state, reveal)
    pd = int(state.house_rules["propaganda-defence"])
    tables = {p.name: _table(f, p.name, p.name in shown, pd) for p in state.players}
    totals = {p.name: sum(f["scores"][p.name]) for p in state.players}
    standings = sorted(state.players, key=lambda p: -totals[p.name])
    public = {
        "phase": phase_of(state),
        "rounds": int(state.house_rules["rounds"]),
        "moves": dict(f["moves"]),
        "revealed": shown,
        "tables": tables,
        "scores": {n: list(v) for n, v in f["scores"].items()},
        "standings": [{"player": p.name, "total": totals[p.name], "rounds": list(f["scores"][p.name])}
                      for p in standings],
        "knocked_out": list(f["knocked_out"]),
        "fallen_defeats": dict(f["fallen_defeats"]),
        "result": f.get("result"),
        "report": list(f.get("report") or []),
    }
    pending = W.waiting(f)
    if pending is not None:  # what waits for whose answer: never a face-down card
        public["pending"] = W.public(pending)
    public["names"] = _names(f, tables)
    for key in (prompts.FIELD, prompts.NEXT):  # a card's prompt names only face-up cards: it is shown to all
        if key in f:
            public[key] = copy.deepcopy(f[key])
    return replace(state, fields=public)


def _names(f: Mapping[str, Any], tables: Mapping[str, Any]) -> dict[str, str]:
    """The printed name of every card the public view shows by id (for `status`'s words)."""
    ids: set[str] = set()
    for t in tables.values():
        ids.update(t["leader_stack"]["cards"] if "leader_stack" in t else [t["leader"]["card"]])
        ids.update(t.get("lent") or [])
        ids.update(t["discard"])
        for s in t["science"].values():
            ids.update(s["cards"])
        for m in t["military"].values():
            ids.update(m["cards"] or [])
        ids.update(t["hand"].get("known") or [])
    return {cid: D.name_of(f, cid) for cid in sorted(ids)}


def _table(f: Mapping[str, Any], name: str, show: bool, pd: int) -> dict[str, Any]:
    desk, deck = f["desks"][name], f["decks"][name]
    leader = D.card(f, deck["leader"])
    out: dict[str, Any] = {
        "country": deck["country"],
        "set_up": desk["set_up"],
        "fallen": desk["fallen"],
    }
    if desk["fallen"]:
        out["leader"] = {"card": leader["id"], "name": leader.get("fallen_name", leader["name"]), "fallen": True}
        out["lent"] = list(desk["lent"])
    else:
        stack = D.leader_stack(f, name)
        out["leader"] = {"card": leader["id"], "name": leader["name"], "defence": leader.get("defence", 0),
                         "fallen": False}
        out["leader_stack"] = {"cards": stack, "defence": sum(int(D.card(f, c).get("defence", 0)) for c in stack)}
        out["assistants"] = {f"A{i}": {"card": c, "defence": D.card(f, c).get("defence", 0)}
                             for i, c in enumerate(desk["assistants"], start=1)}
    science: dict[str, Any] = {}
    military: dict[str, Any] = {}
    for label, zone, group in D.spots(desk):
        if zone == "science":
            entry = {"cards": list(group), "stack": len(group) == D.STACK,
                     "defence": D.group_defence(f, name, group, pd)}
            lent = {c: D.owner(f, c) for c in group if D.owner(f, c) != name}
            if lent:
                entry["lent_by"] = lent
            science[label] = entry
        elif show:
            military[label] = {"face_down": len(group), "stack": len(group) == D.STACK, "cards": list(group),
                               "propaganda": [c for c in group if c in desk["propaganda"]],
                               "defence": D.group_defence(f, name, group, pd)}
        else:
            military[label] = {"face_down": len(group), "stack": len(group) == D.STACK, "cards": None,
                               "defence": None}
    out["counts"] = {"science": len(D.zone_cards(desk, "science")),
                     "military": len(D.zone_cards(desk, "military")),
                     "assistants": len(desk["assistants"]),
                     "hand": int(desk["hand"]), "draw_pile": Z.pile_size(desk),
                     "discard_pile": len(desk["discard"]), "removed": len(desk["removed"])}
    out["pile"] = Z.pile_size(desk)
    out["draw_pile"] = {"cards": Z.pile_size(desk), "turned_over": int(desk["resets"]),
                        "order_known": bool(desk["order"])}
    out["hand"] = {"cards": int(desk["hand"])}
    out["removed"] = len(desk["removed"])
    if show:
        out["hand"]["known"] = list(desk["known"])
        out["hand"]["hand_or_draw_pile"] = sorted(desk["unseen"])
        out["draw_pile"]["order"] = list(desk["order"])
        out["removed_cards"] = list(desk["removed"])
    out.update(science=science, military=military, weakened=list(desk["weakened"]),
               discard=list(desk["discard"]))
    return out


# ---- text -----------------------------------------------------------------------


def render_lines(state: State) -> list[str]:
    if "desks" in state.fields:
        state = visible_state(state, ())
    f = state.fields
    rounds = f["rounds"]
    phase = {"setup": "setup phase", "turn": "turn", "fallen turn": "a Fallen Leader's turn",
             "answer": "an answer awaited", "over": "game over"}[f["phase"]]
    lines = [f"Cold War round {state.round} of {rounds}: {phase}"]
    if f.get("pending"):
        lines.append("waiting: " + W.answer_hint(f["pending"]))
    if f["phase"] == "turn":
        moves = f["moves"]
        lines.append(f"this turn: {moves['plays']} of 2 cards played, {moves['discards']} discard(s) "
                     "(one discard is required; a combined attack is 2 cards; regrouping is free)")
    names = f.get("names") or {}
    for name, t in f["tables"].items():
        lines.extend(_table_lines(name, t, name in f["revealed"], names))
    if any(f["scores"].values()):
        parts = [f"{s['player']} {s['total']} ({' + '.join(map(str, s['rounds'])) or '-'})" for s in f["standings"]]
        lines.append("standings: " + ", ".join(parts))
    if state.result:
        lines.append(f"result: {state.result}")
    hidden = [n for n in f["tables"] if n not in f["revealed"]]
    if hidden and any(t["military"] for n, t in f["tables"].items() if n in hidden):
        lines.append("face-down cards are hidden; `status --reveal PLAYER` shows that player's")
    return lines


def _table_lines(name: str, t: Mapping[str, Any], shown: bool, names: Mapping[str, str]) -> list[str]:
    def word(cid: str) -> str:
        return names.get(cid, cid)

    head = f"{name} ({t['country']})"
    if not t["set_up"]:
        return [f"{head}: setup not recorded yet; draw pile {t['pile']}"]
    if t["fallen"]:
        lines = [f"{head}: FALLEN - {t['leader']['name']}"
                 + (f", lent out: {', '.join(map(word, t['lent']))}" if t["lent"] else "")]
    else:
        stack = t["leader_stack"]
        lines = [f"{head}: Leader stack L = " + " + ".join(map(word, stack["cards"])) + f" = {stack['defence']}"]
    if t["science"]:
        lines.append("  Science & Culture: " + "; ".join(
            f"{label} {'stack ' if s['stack'] else ''}"
            + "+".join(word(c) + (f" (lent by {s['lent_by'][c]})" if c in s.get("lent_by", {}) else "")
                       for c in s["cards"])
            + f" = {s['defence']}"
            for label, s in t["science"].items()))
    if t["military"]:
        parts = []
        for label, m in t["military"].items():
            if m["cards"] is None:
                parts.append(f"{label} {'stack of 3 face down' if m['stack'] else 'face-down card'}")
            else:
                cards = "+".join(word(c) + (" (propaganda)" if c in m["propaganda"] else "") for c in m["cards"])
                parts.append(f"{label} {'stack ' if m['stack'] else ''}{cards} = {m['defence']}")
        lines.append("  Military: " + "; ".join(parts))
    if t["weakened"]:
        words = ", ".join(D.ZONE_WORDS[z] for z in t["weakened"])
        lines.append(f"  weakened until their turn (a stack of 3 lost a card): {words}")
    counts = t["counts"]
    piles = [] if t["fallen"] else [f"hand {counts['hand']}"]
    turned = t["draw_pile"]["turned_over"]
    piles.append(f"draw pile {counts['draw_pile']}" + (f" (turned over {turned}x, order known)"
                                                       if t["draw_pile"]["order_known"] else ""))
    piles.append(f"discard pile {counts['discard_pile']}" + (f" (top: {word(t['discard'][-1])})" if t["discard"] else ""))
    if counts["removed"]:
        piles.append(f"out of the game {counts['removed']}")
    lines.append("  " + "; ".join(piles))
    if shown and not t["fallen"]:
        known = t["hand"].get("known") or []
        lines.append(f"  hand: {', '.join(map(word, known)) or 'no card known'}"
                     + (f" + {counts['hand'] - len(known)} unseen" if counts["hand"] > len(known) else ""))
    return lines


# Actions whose log row ends with what came of them: whether an attack or a
# challenge succeeded, what a Special or a Fallen Leader's flip did.
OUTCOME_ACTIONS = frozenset({"attack", "challenge", "special", "fallen", "triad", "answer"})


def log_outcome(before: State, event: Any, after: State) -> list[str]:
    """The outcome a log row (and the TV's "Latest") ends with: the action's
    report as every player may read it (`after` is the public view of the
    table the action made, whose report is that action's)."""
    if getattr(event, "action", None) not in OUTCOME_ACTIONS:
        return []
    return [line.rstrip(".") for line in after.fields.get("report") or []]


def change_lines(before: State, after: State) -> list[str]:
    """What an action did, in public words; for an undo, what was undone."""
    old, new = before.fields.get("step", 0), after.fields.get("step", 0)
    if new > old:
        return list(after.fields.get("report") or [])
    if new < old:
        return ["taken back: " + line for line in before.fields.get("report") or []]
    return []


# ---- odds ---------------------------------------------------------------------


@dataclass(frozen=True)
class Odds:
    """What a Fallen Leader's next flip does, counted over real cards."""

    player: str
    source: str  # "draw pile", "draw pile, top card known", "discard pile, turned over next", "a fresh pile", "nothing"
    counts: Mapping[str, int]
    next_card: str | None = None  # the known top card, when the pile's order is known
    next_name: str | None = None

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def chance(self, outcome: str) -> Fraction:
        return Fraction(self.counts.get(outcome, 0), self.total) if self.total else Fraction(0)

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player, "source": self.source, "cards": self.total, "next_card": self.next_card,
            "counts": dict(self.counts),
            "odds": {k: str(self.chance(k)) for k, _ in OUTCOMES},
            "percent": {k: round(float(self.chance(k)) * 100, 1) for k, _ in OUTCOMES},
        }


def odds(state: State, player: str) -> Odds:
    """The Fallen Leader odds for `player`. From a shuffled draw pile, the
    mix of the cards left in it; from a pile turned over from the unshuffled
    discard pile (or the discard pile about to turn over), the one known top
    card. For a standing Leader, the fresh 24-card pile they would shuffle
    on falling."""
    f = state.fields
    name = state.player(player).name
    desk, deck = f["desks"][name], f["decks"][name]
    top = None
    if desk["fallen"]:
        how, ids = Z.next_flip(desk)
        if how == "known":
            top = ids[0]
            source = "draw pile, top card known" if desk["order"] else "discard pile, turned over next"
        else:
            source = "draw pile" if how == "shuffled" else "nothing"
    else:
        ids, source = Z.fresh_pile(deck), "a fresh pile"
    counts = {k: 0 for k, _ in OUTCOMES}
    for cid in ids:
        kind = D.card(f, cid).get("fallen_draw")
        if kind not in counts:
            raise RefereeError(f"card {cid} has no fallen_draw in the card sources")
        counts[kind] += 1
    return Odds(name, source, counts, top, D.name_of(f, top) if top else None)


def odds_text(result: Odds, fallen: bool) -> str:
    if not result.total:
        return f"{result.player}: no card left to flip"
    if result.next_card is not None:
        kind = next(k for k in result.counts if result.counts[k])
        words = dict(OUTCOMES)[kind]
        return (f"{result.player} ({result.source}): the next flip is {result.next_name} ({result.next_card}), "
                f"known for certain because the discard pile is never shuffled: it {words}")
    where = (f"{result.total} cards in the {result.source}" if fallen
             else f"Leader standing; if it fell now, {result.total} cards in {result.source}")
    lines = [f"{result.player} ({where}):"]
    for key, words in OUTCOMES:
        chance = result.chance(key)
        exact = f"{result.counts[key]}/{result.total}"
        if f"{chance.numerator}/{chance.denominator}" != exact:
            exact += f" = {chance.numerator}/{chance.denominator}"
        lines.append(f"  {key:8} {exact:12} {float(chance) * 100:5.1f}%  (the flipped card {words})")
    return "\n".join(lines)
