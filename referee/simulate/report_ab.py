"""The A/B page of the balance report: side B against side A, each rate
with its interval on both sides, the p-value of the difference, and the
cards that moved most (see ab.py)."""
from __future__ import annotations

from typing import Callable

from reportlab.lib.units import mm
from reportlab.platypus import PageBreak

from referee.simulate.ab import biggest_card_changes
from referee.simulate.report_parts import pct, rate_chart, table
from referee.simulate.result import SimulationResult


def ab_story(result: SimulationResult, styles: dict, width: float, ink, para: Callable, word: str) -> list:
    comparison, against = result.comparison, result.against
    assert comparison is not None and against is not None and result.tally_b is not None
    body, small, h1, h2 = styles["body"], styles["small"], styles["h1"], styles["h2"]
    fair = result.tally.figures()["fair"]
    story: list = [PageBreak(), para("A/B: what the edit did", h1)]
    story.append(para(f"A: this project ({result.tally.games} games). B: {against.label()} "
                      f"({result.tally_b.games} games). The same seeds, seats, agents and "
                      f"{word}s on both sides; the rules code is the same.", small))
    story.append(para("Verdict", h2))
    for line in comparison.verdict():
        story.append(para("\u2022 " + line, body))
    rows = []
    for name, d in comparison.factions.items():
        rows += [(f"{name} A", d.a), (f"{name} B", d.b)]
    if rows:
        story.append(para(f"Win rate by {word}, A then B (whiskers: 95% interval)", h2))
        story.append(rate_chart(rows, fair, width, ink))
    story.append(para("Side by side", h2))
    side = [["", "A", "B", "p (B against A)"]]
    for name, d in comparison.factions.items():
        side.append([name, pct(d.a), pct(d.b), _p(d)])
    for seat, d in comparison.seats.items():
        side.append([f"seat {int(seat) + 1}", pct(d.a), pct(d.b), _p(d)])
    f = comparison.first
    side.append(["moved first", pct(f.a), pct(f.b), _p(f)])
    side.append(["mean turns", str(comparison.turns[0]), str(comparison.turns[1]), ""])
    side.append(["mean actions", str(comparison.actions[0]), str(comparison.actions[1]), ""])
    story.append(table([[para(str(c), small) for c in row] for row in side], [50 * mm, 48 * mm, 48 * mm, 24 * mm]))
    moved = [(c, v) for c, v in biggest_card_changes(comparison) if v["win"].a.n or v["win"].b.n]
    if moved:
        story.append(para("The cards that moved most", h2))
        rows_t = [["card", "plays a game A", "B", "win when played A", "B", "p"]]
        for card, v in moved:
            a, b = v["plays_per_game"]
            rows_t.append([card, f"{a:.2f}", f"{b:.2f}", pct(v["win"].a), pct(v["win"].b), _p(v["win"])])
        story.append(table([[para(str(c), small) for c in row] for row in rows_t],
                            [46 * mm, 20 * mm, 14 * mm, 36 * mm, 36 * mm, 18 * mm]))
    return story


def _p(d) -> str:
    return f"{d.p_value:.3f}" + (" *" if d.significant else "")
