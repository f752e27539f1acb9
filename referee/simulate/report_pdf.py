"""The balance report as a PDF, drawn with ReportLab alone: platypus for
text and tables, reportlab.graphics for the charts.

Page one answers the designer's questions in order: the verdict (only the
findings significant at the games played), win rate per faction and per
seat with their 95% intervals against the fair share, the first player's
edge, and how long games run. Then the cards: the most and least helpful
when played, and those never or almost never played.
"""
from __future__ import annotations

from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer

from referee.report.pdf_text import Ink, fonts
from referee.report.pdf import Written, write_pdf
from referee.simulate.report_parts import histogram, pct, rate_chart, table
from referee.simulate.result import SimulationResult
from referee.simulate.summary import RARE_SHARE


def report_styles(regular: str, bold: str) -> tuple[ParagraphStyle, ParagraphStyle, ParagraphStyle, ParagraphStyle]:
    """The self-play reports' paragraph styles (balance and tune): body, small, h1, h2."""
    body = ParagraphStyle("body", fontName=regular, fontSize=9.5, leading=12)
    small = ParagraphStyle("small", parent=body, fontSize=8.5, leading=10.5)
    h1 = ParagraphStyle("h1", parent=body, fontName=bold, fontSize=17, leading=21, spaceAfter=2 * mm)
    h2 = ParagraphStyle("h2", parent=body, fontName=bold, fontSize=12.5, leading=16, spaceBefore=4 * mm,
                        spaceAfter=1.5 * mm)
    return body, small, h1, h2


def write(result: SimulationResult, path: Path) -> Written:
    return write_pdf(path, lambda pdf: draw(result, pdf), "the balance report")


def draw(result: SimulationResult, out) -> tuple[str, ...]:
    """Draw the balance report into `out`; returns the warnings (characters no font has)."""
    regular, bold = fonts()
    ink = Ink(regular, names=tuple(seat.name for seat in result.plan.seats))

    def para(text: str, style: ParagraphStyle) -> Paragraph:
        """A paragraph of plain `text`, each character in a font that has it."""
        return Paragraph(ink.markup(text, style.fontName), style)

    body, small, h1, h2 = report_styles(regular, bold)
    tally, plan = result.tally, result.plan
    figures = tally.figures()
    fair = figures["fair"]
    width = A4[0] - 30 * mm
    from referee.simulate.summary import verdict  # lazy: the summary is loaded by the session already

    story: list = [para(f"{plan.game.game_title}: balance report", h1)]
    from referee.simulate.agents_named import agents_named  # lazy: as above
    played = result.games_played
    sides = " (both sides of the A/B)" if result.tally_b is not None else ""
    asked = plan.games * (2 if result.tally_b is not None else 1)
    note = (f"{played} games{sides}" + (f" of {asked} asked (PARTIAL: stopped early)" if result.partial else "")
            + f", {len(plan.seats)} players; agents: {agents_named(plan)}; seeds {plan.seed} to "
            f"{plan.seed + max(tally.games, 1) - 1}; turn cap {plan.turn_cap}"
            + (f"; {result.seconds:.1f} s ({played / result.seconds:.1f} games/s)." if result.seconds else "."))
    story.append(para(note, small))
    story.append(para("Verdict" + (" (side A)" if result.tally_b is not None else ""), h2))
    for line in verdict(tally):
        story.append(para("\u2022 " + line, body))
    story.append(para(f"Win rate by {_faction_word(plan.game)} (bars: rate; whiskers: 95% interval; "
                      "dashed: the fair share)", h2))
    rows = [(name, rate) for name, rate in figures["factions"].items()]
    if rows:
        story.append(rate_chart(rows, fair, width, ink))
    story.append(para("Win rate by seat, and the first player", h2))
    seat_rows = [(f"seat {int(i) + 1}", r) for i, r in figures["seats"].items()] + [("moved first", figures["first"])]
    story.append(rate_chart(seat_rows, fair, width, ink))
    story.append(para("Game length", h2))
    outcomes = tally.outcomes
    story.append(para(f"{outcomes['win']} won, {outcomes['draw']} drawn, {outcomes['capped']} capped at "
                      f"turn {plan.turn_cap}, {outcomes['jam']} jammed.", small))
    story.append(histogram(dict(tally.turns), width, regular, "turns"))
    story.append(histogram(dict(tally.actions), width, regular, "actions"))
    cards = figures["cards"]
    if cards:
        story.append(para("Cards", h2))
        ranked = sorted(cards.items(), key=lambda kv: kv[1]["test"].delta, reverse=True)
        story.append(para("Its player's win rate when it is played and when not: a correlation (a player ahead "
                          "plays more cards), not what the card is worth; * marks a finding at a 5% false "
                          "discovery rate over every test of the run. To measure a card, change it and run "
                          "an A/B (--against).", small))
        from referee.simulate.findings import q_values  # lazy: as above
        q = q_values(figures)
        header = ["card", "plays", "win when played (a correlation)", "win when not", "q"]
        rows_t = [header] + [
            [card, d["plays"], pct(d["played"]), pct(d["not_played"]),
             f"{q.get('card:' + card, 1.0):.3f}" + (" *" if q.get("card:" + card, 1.0) < 0.05 else "")]
            for card, d in (ranked[:12] + ranked[-12:] if len(ranked) > 24 else ranked)
        ]
        story.append(table([[para(str(c), small) for c in row] for row in rows_t],
                           [60 * mm, 15 * mm, 38 * mm, 38 * mm, 18 * mm]))
        rare = [c for c, d in cards.items() if tally.games and d["plays"] < RARE_SHARE * tally.games]
        if rare:
            story.append(Spacer(1, 2 * mm))
            story.append(para(f"Almost never played (in under {RARE_SHARE:.0%} of games): "
                              + ", ".join(sorted(rare)), small))
    if ink.note():
        story.insert(2, para(ink.note(), small))
    if result.comparison is not None:
        from referee.simulate.report_ab import ab_story  # lazy: only an A/B run has the page
        styles = {"body": body, "small": small, "h1": h1, "h2": h2}
        story += ab_story(result, styles, width, ink, para, _faction_word(plan.game))
    SimpleDocTemplate(out, pagesize=A4, leftMargin=15 * mm, rightMargin=15 * mm, topMargin=14 * mm,
                      bottomMargin=14 * mm, title=f"{plan.game.game_title} balance report").build(story)
    return ink.warnings()


def _faction_word(game) -> str:
    from referee.rules import rules_for  # lazy: the game's word for a faction
    return rules_for(game).faction_word
