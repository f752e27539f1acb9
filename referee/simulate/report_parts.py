"""The balance report's drawing parts: rate bars with their intervals,
length histograms and tables, shared by its pages (report_pdf.py, and the
A/B page in report_ab.py)."""
from __future__ import annotations

from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, Table, TableStyle

from referee.report.pdf_text import Ink
from referee.simulate.stats import Rate

BAR = colors.HexColor("#4c78a8")
HIGH = colors.HexColor("#d62728")
LOW = colors.HexColor("#1f77b4")
FAIR = colors.HexColor("#555555")



def rate_chart(rows: list[tuple[str, Rate]], fair: float, width: float, ink: Ink) -> Drawing:
    """Horizontal bars of win rates with their 95% intervals, and the fair
    share as a dashed line; a bar whose interval misses the line is coloured."""
    label_w, row_h = 42 * mm, 7 * mm
    plot_w = width - label_w - 28 * mm
    height = row_h * len(rows) + 9 * mm
    d = Drawing(width, height)
    font = ink.font
    top = height - 3 * mm
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        x = label_w + plot_w * tick
        d.add(Line(x, 5 * mm, x, top, strokeColor=colors.HexColor("#dddddd"), strokeWidth=0.4))
        d.add(String(x, 1.5 * mm, f"{tick:.0%}", fontName=font, fontSize=7, textAnchor="middle"))
    for i, (label, rate) in enumerate(rows):
        y = top - (i + 1) * row_h + 1.5 * mm
        colour = BAR if fair <= 0 or not rate.excludes(fair) else (HIGH if rate.value > fair else LOW)
        d.add(ink.string(label_w - 2 * mm, y + 1.2 * mm, clip(label, 28), 8, "end"))
        d.add(Rect(label_w, y, plot_w * rate.value, row_h - 3 * mm, fillColor=colour, strokeColor=None))
        mid = y + (row_h - 3 * mm) / 2
        d.add(Line(label_w + plot_w * rate.low, mid, label_w + plot_w * rate.high, mid, strokeWidth=1.2))
        for end in (rate.low, rate.high):
            d.add(Line(label_w + plot_w * end, mid - 1.2 * mm, label_w + plot_w * end, mid + 1.2 * mm, strokeWidth=1.2))
        d.add(String(label_w + plot_w + 2 * mm, y + 1.2 * mm, f"{rate.value:.1%}  n={rate.n}", fontName=font, fontSize=7.5))
    if fair <= 0:
        return d  # no game won: no fair share to draw
    x = label_w + plot_w * fair
    d.add(Line(x, 5 * mm, x, top, strokeColor=FAIR, strokeWidth=0.8, strokeDashArray=[2, 2]))
    d.add(String(x, top + 0.5 * mm, f"fair {fair:.0%}", fontName=font, fontSize=7, textAnchor="middle"))
    return d


def histogram(counts: dict[int, int], width: float, font: str, what: str) -> Drawing:
    """Game lengths as columns, grouped into at most 30 bins."""
    height = 45 * mm
    d = Drawing(width, height)
    if not counts:
        return d
    low, high = min(counts), max(counts)
    bins = min(30, high - low + 1)
    size = max(1, -(-(high - low + 1) // bins))
    totals = [0] * bins
    for value, n in counts.items():
        totals[min(bins - 1, (value - low) // size)] += n
    peak = max(totals) or 1
    left, bottom = 12 * mm, 8 * mm
    plot_w, plot_h = width - left - 4 * mm, height - bottom - 4 * mm
    col = plot_w / bins
    for i, n in enumerate(totals):
        h = plot_h * n / peak
        d.add(Rect(left + i * col + 0.3 * mm, bottom, col - 0.6 * mm, h, fillColor=BAR, strokeColor=None))
    for i in range(0, bins, max(1, bins // 6)):
        d.add(String(left + i * col + col / 2, bottom - 4 * mm, str(low + i * size), fontName=font, fontSize=7,
                     textAnchor="middle"))
    d.add(String(left + plot_w / 2, 0.5 * mm, what, fontName=font, fontSize=7.5, textAnchor="middle"))
    d.add(String(2 * mm, bottom + plot_h - 2 * mm, f"{peak}", fontName=font, fontSize=7))
    d.add(Line(left, bottom, left + plot_w, bottom, strokeWidth=0.5))
    return d


def table(cells: list[list[Paragraph]], widths: list[float]) -> Table:
    t = Table(cells, colWidths=widths, repeatRows=1)
    t.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
                           ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
                           ("TOPPADDING", (0, 0), (-1, -1), 1.2), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.2)]))
    return t


def pct(rate: Rate) -> str:
    return f"{rate.value:.0%} ({rate.low:.0%}-{rate.high:.0%}, n={rate.n})" if rate.n else "-"


def clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "\u2026"
