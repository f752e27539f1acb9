"""`referee tune --pdf`: the balance search's report, drawn from its JSON
report alone (so a resumed or finished tune file draws the same pages),
with ReportLab and the balance report's parts (report_parts.py).

Page one answers in order: what to change (the proposal, what the table
should set, the patch), whether it held on fresh seeds (the verification:
before and after with 95% intervals, the paired test within pairs, the
sequential test's verdict), then the search's path and every evaluation
(which changes were tried and their estimated gap), the games and the time.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, Preformatted, SimpleDocTemplate, Spacer

from referee.report.pdf import Written, write_pdf
from referee.report.pdf_text import Ink, fonts
from referee.simulate.report_pdf import report_styles
from referee.simulate.report_parts import rate_chart, table
from referee.simulate.stats import Rate


def write(report: dict[str, Any], title: str, path: Path) -> Written:
    return write_pdf(path, lambda pdf: draw(report, title, pdf), "the tune report")


def _rate(data: dict[str, Any] | None) -> Rate | None:
    return Rate(data["hits"], data["n"], data["low"], data["high"]) if data else None


def _change(change: dict[str, Any]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in sorted(change.items())) or "unchanged cards"


def _pct(data: dict[str, Any] | None) -> str:
    return f"{data['rate']:.1%} ({data['low']:.1%} to {data['high']:.1%}, n={data['n']})" if data else "-"


def draw(report: dict[str, Any], title: str, out) -> tuple[str, ...]:
    regular, bold = fonts()
    ink = Ink(regular)

    def para(text: str, style: ParagraphStyle) -> Paragraph:
        return Paragraph(ink.markup(text, style.fontName), style)

    body, small, h1, h2 = report_styles(regular, bold)
    mono = ParagraphStyle("mono", fontName="Courier", fontSize=7.5, leading=9)
    width = A4[0] - 30 * mm
    seat = report["target"].startswith("seat")

    def name_of(key: str) -> str:
        return f"seat {int(key) + 1}" if seat and key.isdigit() else key

    story: list = [para(f"{title}: balance search", h1)]
    story.append(para(
        f"Target {report['target']} within {report['tolerance']:g} points; knobs: {', '.join(report['knobs'])}. "
        f"Agents: {report.get('agents_in_words', ', '.join(report['agents']))}; {report['players']} players"
        + (f"; factions {', '.join(report['factions'])}" if report.get("factions") else "")
        + (f"; house rules {', '.join(report['house_rules'])}" if report.get("house_rules") else "")
        + f". {report['games_played']} games played in {report['seconds']:.0f} s"
        + f" ({report['games']} a candidate on search seeds from {report['seed']})."
        + (" PARTIAL: the run was stopped; --resume goes on." if report.get("partial") else ""), small))
    proposal, ver = report.get("proposal"), report.get("verification")
    story.append(para("Proposal", h2))
    if proposal is None:
        story.append(para("None yet: the search was stopped before it ended.", body))
    else:
        story.append(para(f"{_change(proposal['change'])} (estimated {proposal['gap_points']:.1f} points from the "
                          "target on the search seeds).", body))
        for line in proposal.get("say", []):
            story.append(para("\u2022 " + line, body))
        if proposal.get("patch"):
            story.append(Spacer(1, 1.5 * mm))
            story.append(Preformatted(proposal["patch"].rstrip("\n"), mono))
    if ver is not None:
        story += _verification(ver, para, body, small, h2, width, ink, name_of)
    story.append(para("The search's path", h2))
    rows = [["step", "change", "gap (points)", "score"]] + [
        [s["what"], _change(s["change"]), f"{s['gap_points']:.1f}", f"{s['score']:.2f}"] for s in report["path"]]
    story.append(table([[para(str(c), small) for c in r] for r in rows], [28 * mm, 92 * mm, 26 * mm, 20 * mm]))
    story.append(para("Every evaluation (score = gap + 0.5 a changed knob + 0.25 a step; a candidate is pruned "
                      "when its score less two standard errors is worse than the best of its round)", h2))
    rows = [["change", "seeds from", "games", "gap (points) \u00b1 s.e.", "score", "end"]]
    for e in report["evaluations"]:
        end = "refused: " + e["refused"] if e.get("refused") else ("pruned" if e.get("pruned") else "played out")
        gap = f"{e['gap'] * 100:.1f} \u00b1 {e['se'] * 100:.1f}" if "gap" in e else "-"
        rows.append([_change(e["change"]), str(e["seed"]), str(e["count"]["games"]), gap,
                     f"{e['score']:.2f}" if "score" in e else "-", end])
    story.append(table([[para(str(c), small) for c in r] for r in rows],
                       [62 * mm, 20 * mm, 14 * mm, 28 * mm, 14 * mm, 42 * mm]))
    if ink.note():
        story.insert(2, para(ink.note(), small))
    SimpleDocTemplate(out, pagesize=A4, leftMargin=15 * mm, rightMargin=15 * mm, topMargin=14 * mm,
                      bottomMargin=14 * mm, title=f"{title} balance search").build(story)
    return ink.warnings()


def _verification(ver, para, body, small, h2, width, ink, name_of) -> list:
    out: list = [para(f"Verification on {ver['pairs']} fresh pairs (seeds {ver['seed']} on), before and after"
                      if ver["pairs"] else f"Verification: the unchanged cards on {ver['games']} fresh games "
                      f"(seeds {ver['seed']} on)", h2)]
    out.append(para(f"{ver['met'][:1].upper()}{ver['met'][1:]}. {ver['gap_points_before']:.1f} points from the "
                    f"target before, {ver['gap_points_after']:.1f} after (95% interval "
                    f"{ver['gap_interval_after'][0]:.1f} to {ver['gap_interval_after'][1]:.1f}); "
                    + (f"{ver['pairs_played_differently']} of {ver['pairs']} pairs played out differently."
                       if ver["pairs"] else "No change proposed, so no pairs: one side measured."), body))
    if ver.get("sequential_line"):
        out.append(para(f"Sequential test: {ver['sequential_line']}.", small))
    bars = []
    for key, row in ver["rates"].items():
        for when in ("before", "after") if ver["pairs"] else ("before",):
            rate = _rate(row[when])
            if rate is not None:
                bars.append((f"{name_of(key)} {when}", rate))
    if bars:
        out.append(rate_chart(bars, ver["fair_share"], width, ink))
    rows = [["", "before", "after", "after - before, within pairs (95%)", "McNemar p"]]
    for key, row in ver["rates"].items():
        p = row.get("paired")
        rows.append([name_of(key), _pct(row["before"]), _pct(row["after"]),
                     f"{p['delta']:+.1%} ({p['delta_low']:+.1%} to {p['delta_high']:+.1%}); "
                     f"{p['a_only']} won only after, {p['b_only']} only before" if p else "-",
                     f"{p['p_value']:.3g}" if p else "-"])
    out.append(table([[para(str(c), small) for c in r] for r in rows],
                     [22 * mm, 38 * mm, 38 * mm, 52 * mm, 18 * mm]))
    out.append(para(ver["test"] + "; the bars' whiskers are each rate's 95% Wilson interval, the dashed line the "
                    "fair share.", small))
    return out
