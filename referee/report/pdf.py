"""Drawing a MatchReport (referee/report.py) as a PDF with ReportLab alone:
platypus for the text and tables, reportlab.graphics LinePlot for the charts.

The project's Roboto Condensed is embedded, and every text goes through
referee/pdf_text.py's Ink, so a name in any script prints (Arabic joined and
right to left, Chinese, emoji ...; a character no font has prints as U+FFFD
and the report says so). `draw` writes only the file it is given;
`write_report` builds a table's report and draws it into memory, then
`write_pdf` puts it in place at once.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Callable

from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, Line
from reportlab.graphics.widgets.markers import makeMarker
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from pnp.write import replace_file
from referee.errors import RefereeError
from referee.report.pdf_text import Ink, fonts
from referee.report import MatchReport, build, chance_text, default_out

PALETTE = (colors.HexColor("#1f77b4"), colors.HexColor("#d62728"), colors.HexColor("#2ca02c"),
           colors.HexColor("#ff7f0e"), colors.HexColor("#9467bd"), colors.HexColor("#8c564b"),
           colors.HexColor("#e377c2"), colors.HexColor("#17becf"))
CROWD = colors.HexColor("#555555")


def draw(report: MatchReport, out: Path | BinaryIO) -> tuple[str, ...]:
    """Draw `report` into `out`; returns the warnings (characters no font has)."""
    regular, bold = fonts()
    ink = Ink(regular, names=tuple(name for name, _ in report.players))
    body = ParagraphStyle("body", fontName=regular, fontSize=9.5, leading=12)
    small = ParagraphStyle("small", parent=body, fontSize=8.5, leading=10.5)
    h1 = ParagraphStyle("h1", parent=body, fontName=bold, fontSize=17, leading=21, spaceAfter=2 * mm)
    h2 = ParagraphStyle("h2", parent=body, fontName=bold, fontSize=12.5, leading=16, spaceBefore=4 * mm,
                        spaceAfter=1.5 * mm)

    def para(text: str, style: ParagraphStyle = body) -> Paragraph:
        """A paragraph of plain `text`, each character in a font that has it."""
        return Paragraph(ink.markup(text, style.fontName), style)

    def labelled(label: str, text: str) -> Paragraph:
        return Paragraph(f"<b>{label}:</b> {ink.markup(text)}", body)

    def table(rows: list[list], widths: list[float], header: bool = True) -> Table:
        cells = [[c if isinstance(c, Paragraph) else para(str(c), small) for c in row] for row in rows]
        t = Table(cells, colWidths=widths, repeatRows=1 if header else 0)
        style = [("VALIGN", (0, 0), (-1, -1), "TOP"), ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
                 ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5)]
        if header:
            style.append(("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")))
        t.setStyle(TableStyle(style))
        return t

    width = A4[0] - 30 * mm
    story: list = [para(f"{report.title}: match report", h1)]
    story.append(para((f"Table {report.path.name}; {report.events} events in the log, "
                             f"{report.actions} actions in effect"
                             + (f" ({report.undone} undone)" if report.undone else "")
                             + f"; turn {report.turn}, round {report.round}; "
                             f"from {report.started[:16].replace('T', ' ')} to {report.last[:16].replace('T', ' ')}"),
                      small))

    story.append(para("Players and result", h2))
    word = report.faction_word
    players = "; ".join(f"{n}" + (f" ({word} {f})" if f else "") for n, f in report.players)
    story.append(labelled("Players", players))
    winner = report.winner if report.winner else "no winner yet"
    story.append(labelled("Winner", winner))
    if report.result not in (winner, f"{winner} wins"):
        story.append(labelled("Result", report.result))
    notes_at = len(story)  # where a note on characters no font has goes, once all is set
    story.append(Spacer(1, 2 * mm))
    rows = [["Place", "Player", "Standing", "Out"]]
    rows += [[s.place, s.player + (f" ({s.faction})" if s.faction else ""), s.value, "eliminated" if s.eliminated else ""]
             for s in report.standings]
    story.append(table(rows, [14 * mm, 45 * mm, width - 84 * mm, 25 * mm]))

    for chart in report.charts:
        story.append(KeepTogether([para(chart.title, h2), _chart_drawing(chart, width, ink)]))

    story.append(para("Battles and attacks", h2))
    if report.fights:
        rows = [["Turn", "Who and what", "Chance before the dice", "Dice", "Result"]]
        for f in report.fights:
            rows.append([f.turn, f.what, chance_text(f.chance), ",".join(map(str, f.dice)) or "-", f.result])
        story.append(table(rows, [11 * mm, width - 124 * mm, 32 * mm, 18 * mm, 63 * mm]))
    else:
        story.append(para("None were fought."))
    for note in report.notes:
        story.append(para(note, small))
    story.append(para("Luck", h2))
    story.append(para("For each player: the sum of their chances to win each contest decided by dice (what they "
                      "could expect), against the contests they won.", small))
    for luck in report.luck:
        story.append(para(luck.text()))

    story.append(para("Key moments", h2))
    if report.moments:
        story.append(table([["Turn", "What happened"]] + [[m.turn, m.text] for m in report.moments],
                           [14 * mm, width - 14 * mm]))
    else:
        story.append(para("None yet."))

    story.append(para("House rules in force", h2))
    if report.house_rules:
        rows = [["Rule", "Value", "", "What it means"]]
        for r in report.house_rules:
            value = "computed" if r.value is None else r.value
            rows.append([r.key, value, "set for this table" if r.set_for_table else "default", r.help])
        story.append(table(rows, [35 * mm, 20 * mm, 24 * mm, width - 79 * mm]))
    else:
        story.append(para("This game has no house rules."))

    if ink.note():
        story.insert(notes_at, para(ink.note(), small))
    doc = SimpleDocTemplate(out if not isinstance(out, Path) else str(out), pagesize=A4, leftMargin=15 * mm, rightMargin=15 * mm, topMargin=15 * mm,
                            bottomMargin=15 * mm, title=f"{report.title}: match report", author="referee")
    doc.build(story, onFirstPage=_footer(regular), onLaterPages=_footer(regular))
    return ink.warnings()


def _footer(font: str):
    def paint(canvas, doc) -> None:
        canvas.saveState()
        canvas.setFont(font, 7.5)
        canvas.drawRightString(A4[0] - 15 * mm, 8 * mm, f"page {doc.page}")
        canvas.restoreState()
    return paint


def _chart_drawing(chart, width: float, ink: Ink) -> Drawing:
    font = ink.font
    height = 62 * mm
    d = Drawing(width, height)
    plot = LinePlot()
    plot.x, plot.y = 12 * mm, 10 * mm
    plot.width, plot.height = width - 50 * mm, height - 16 * mm
    series = [s for s in chart.series if s.points]
    plot.data = [list(s.points) for s in series] or [[(0, 0)]]
    xs = [x for s in series for x, _ in s.points] or [0]
    ys = [y for s in series for _, y in s.points] or [0]
    plot.xValueAxis.valueMin, plot.xValueAxis.valueMax = 0, max(1, max(xs))
    low, high = min(0, min(ys)), max(0, max(ys))
    if chart.measure == "crowd":  # the whole track, as the title says, so the crowd's place on it shows
        limit = max(30, abs(low), abs(high))
        low, high = -limit, limit
    y_step = next(n for n in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 10 ** 9)
                  if n * 6 >= high - low)
    plot.yValueAxis.valueMin = (low // y_step) * y_step
    plot.yValueAxis.valueMax = max(-(-high // y_step) * y_step, plot.yValueAxis.valueMin + y_step)
    plot.yValueAxis.valueStep = y_step
    step = max(1, (max(xs) + 9) // 10)
    plot.xValueAxis.valueSteps = list(range(0, max(1, max(xs)) + 1, step))
    for axis in (plot.xValueAxis, plot.yValueAxis):
        axis.labels.fontName, axis.labels.fontSize = font, 7
    plot.xValueAxis.labelTextFormat = "%d"
    plot.yValueAxis.labelTextFormat = "%d"
    for i, s in enumerate(series):
        colour = CROWD if s.label == "crowd" else PALETTE[i % len(PALETTE)]
        plot.lines[i].strokeColor = colour
        plot.lines[i].strokeWidth = 1.4
        plot.lines[i].symbol = makeMarker("FilledCircle", size=3.2, fillColor=colour, strokeColor=colour)
    d.add(plot)
    d.add(ink.string(plot.x + plot.width / 2, 1.5 * mm, "turn (0: the table as set up)", 7, "middle"))
    # the legend: a swatch of each line, then its label, set run by run so a name in any script prints
    x, top = plot.x + plot.width + 6 * mm, plot.y + plot.height
    room = width - x - 8 * mm  # the text from after the swatch and gap up to the page's margin
    for i, s in enumerate(series):
        colour = CROWD if s.label == "crowd" else PALETTE[i % len(PALETTE)]
        y = top - (i + 1) * 4.2 * mm
        d.add(Line(x, y + 1 * mm, x + 5 * mm, y + 1 * mm, strokeColor=colour, strokeWidth=1.4))
        d.add(ink.string(x + 8 * mm, y, ink.fit(f"{s.label}: {s.points[-1][1]}", 8, room), 8))
    return d


@dataclass(frozen=True)
class Written:
    """A report written: where, and what it warns of (characters no font has)."""
    path: Path
    warnings: tuple[str, ...] = ()


def write_pdf(out: Path, draw_into: Callable[[BinaryIO], tuple[str, ...]], what: str = "the report") -> Written:
    """Draw a PDF in memory with `draw_into`, then replace `out` with it at
    once, so a failure never leaves half a PDF."""
    pdf = io.BytesIO()
    warnings = draw_into(pdf)
    try:
        replace_file(out, pdf.getvalue())
    except OSError as exc:
        raise RefereeError(f"cannot write {what} {out}: {exc.strerror or exc}") from None
    return Written(out, warnings)


def write_report(path: Path, out: Path | None = None) -> Written:
    """Build the report of the table at `path` and write it as a PDF to `out`
    (default: beside the table, `table-report.pdf`)."""
    report = build(path)
    out = Path(out) if out is not None else default_out(path)
    if out.is_dir():
        raise RefereeError(f"{out} is a folder; name the report file, e.g. --out {out / default_out(path).name}")
    if not out.parent.is_dir():
        raise RefereeError(f"cannot write {out}: folder {out.parent} does not exist")
    return write_pdf(out, lambda pdf: draw(report, pdf))
