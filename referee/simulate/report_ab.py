"""The A/B page of the balance report: what changed between B and A (pnp's
card diff), the verdict, each paired rate on B and on A with its interval,
and the cards, the changed ones first with their figures on both sides
(see compare.py). Every figure reads from B (before) to A (the edit)."""
from __future__ import annotations

from typing import Callable

from reportlab.lib.units import mm
from reportlab.platypus import PageBreak

from referee.simulate.paired import label
from referee.simulate.report_parts import pct, rate_chart, table
from referee.simulate.result import SimulationResult


def ab_story(result: SimulationResult, styles: dict, width: float, ink, para: Callable, word: str) -> list:
    comparison, against = result.comparison, result.against
    assert comparison is not None and against is not None and result.tally_b is not None
    body, small, h1, h2 = styles["body"], styles["small"], styles["h1"], styles["h2"]
    q = comparison.q_values
    story: list = [PageBreak(), para("A/B: what the edit did" + (" (PARTIAL: stopped early)" if result.partial else ""),
                                     h1)]
    story.append(para(f"B: {against.label()} ({result.tally_b.games} games). A: this project "
                      f"({result.tally.games} games). Game i is played on both sides with the same seed, seats, "
                      f"agents and {word}s: a pair. Every figure reads from B to A; a difference is A minus B, "
                      "tested within pairs (McNemar's exact test), and a finding is one at a 5% false discovery "
                      "rate (Benjamini-Hochberg's q) over every test of the run.", small))
    story.append(para("What changed (the card diff, B -> A)", h2))
    if comparison.edits:
        for edit in comparison.edits:
            story.append(para("\u2022 " + edit.line(), body))
    else:
        story.append(para("No card differs between B and A.", body))
    story.append(para("Verdict", h2))
    for line in comparison.verdict():
        if not line.startswith("changed: "):
            story.append(para("\u2022 " + line, body))
    rows = []
    for key, m in comparison.paired.items():
        if key.startswith("faction:"):
            rows += [(f"{label(key)} B", m.b), (f"{label(key)} A", m.a)]
    if rows:
        share = result.tally.figures()["fair"]
        story.append(para(f"Win rate by {word}, B then A, over every pair (whiskers: 95% interval)", h2))
        story.append(rate_chart(rows, share, width, ink))
    story.append(para("Side by side, paired", h2))
    side = [["", "B", "A", "A - B (95%)", "B only / A only", "p", "q"]]
    for key, m in comparison.paired.items():
        low, high = m.interval()
        side.append([label(key), pct(m.b), pct(m.a), f"{m.delta * 100:+.1f} ({low * 100:+.1f} to {high * 100:+.1f})",
                     f"{m.b_only} / {m.a_only}", f"{m.p_value:.3f}", _q(q[key])])
    side.append(["mean turns", str(comparison.turns[0]), str(comparison.turns[1]), "", "", "", ""])
    side.append(["mean actions", str(comparison.actions[0]), str(comparison.actions[1]), "", "", "", ""])
    story.append(table([[para(str(c), small) for c in row] for row in side],
                       [32 * mm, 33 * mm, 33 * mm, 30 * mm, 20 * mm, 16 * mm, 16 * mm]))
    edited = {e.card for e in comparison.edits}
    cards = [(c, v) for c, v in comparison.changed_first() if c in edited or v["win"].a.n or v["win"].b.n][:16]
    if cards:
        story.append(para("Cards: the changed ones first, then those that moved most", h2))
        story.append(para("Plays a game, and the win rate of its player when it is played: a correlation (a "
                          "player ahead plays more), not the card's effect. A changed card's effect is its "
                          f"{word}'s paired change above.", small))
        rows_t = [["card", "plays a game B", "A", "its player wins when played B", "A", "q"]]
        for card, v in cards:
            b, a = v["plays_per_game"]
            name = f"{card} (changed)" if card in edited else card
            rows_t.append([name, f"{b:.2f}", f"{a:.2f}", pct(v["win"].a), pct(v["win"].b),
                           _q(q.get(f"card:{card}", 1.0))])
        story.append(table([[para(str(c), small) for c in row] for row in rows_t],
                           [50 * mm, 18 * mm, 14 * mm, 36 * mm, 36 * mm, 16 * mm]))
    return story


def _q(value: float) -> str:
    return f"{value:.3f}" + (" *" if value < 0.05 else "")
