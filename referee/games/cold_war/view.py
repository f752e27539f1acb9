"""The words of a Cold War game: `status` drawn from the public view
(`visible.visible_state`, so it cannot show a hidden card by mistake), the
log's outcomes, what changed, and the Fallen Leader odds in words."""
from __future__ import annotations

from typing import Any, Mapping

from referee.games.cold_war import desk as D
from referee.games.cold_war import window as W
from referee.games.cold_war.odds import Odds
from referee.games.cold_war.visible import visible_state
from referee.model import State

OUTCOMES = (("lend", "is lent to the target"), ("attack", "attacks the target"), ("nothing", "does nothing"))


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
