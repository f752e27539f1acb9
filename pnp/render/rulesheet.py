"""Rule sheets: Markdown (after Jinja) typeset with ReportLab platypus in two
columns, with headings, numbered steps, tables, notes, diagrams and a footer.

The Markdown subset: `#`/`##`/`###` headings, paragraphs, `- ` bullets,
`1. ` numbered steps, `|` pipe tables (first row is the header), `> ` notes,
`**bold**`, `*italic*`, `{icon}` tokens, and `@diagram NAME WIDTH HEIGHT`
which draws templates/<game>/NAME.xml.j2 at WIDTH x HEIGHT mm.
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass, replace
from typing import Callable

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    FrameBreak,
    KeepTogether,
    NextPageTemplate,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from pnp.faces import richtext
from pnp.faces.glyphs import fallback_markup
from pnp.faces.elements import Face
from pnp.faces.templates import rich
from pnp.faces.textset import ICON_CALLBACK, icon_markup
from pnp.model import Size
from pnp.render.canvas import RenderContext, draw_face, icon_callback, scale_bar
from pnp.units import pt

MARGIN = 14.0      # mm
GUTTER = 7.0
TITLE_H = 24.0
TINTS = ("#f3efe4", "#b9b2a0")   # note and alternate-row background, table grid
_ITALIC = re.compile(r"(?<![*\w])\*(?!\*)(.+?)(?<!\*)\*(?![*\w])")


@dataclass(frozen=True)
class Fonts:
    body: str = "RobotoCondensed-Regular"
    bold: str = "RobotoCondensed-Bold"
    italic: str = "RobotoCondensed-Italic"
    heavy: str = "Roboto-Black"


class DiagramFlowable(Flowable):
    """A template drawing placed in the text flow; knows its own size."""

    def __init__(self, face: Face, size: Size, ctx: RenderContext):
        super().__init__()
        self.face, self.size, self.ctx = face, size, ctx

    def wrap(self, avail_width, avail_height):
        return pt(self.size.width), pt(self.size.height) + 4

    def draw(self):
        self.canv.saveState()
        self.canv.translate(0, 2)
        draw_face(self.canv, self.face, self.size, self.ctx)
        self.canv.restoreState()


class SetText(Flowable):
    """A paragraph set by pnp.faces.richtext instead of a ReportLab Paragraph (the
    same line breaks, a fraction of the work): wraps, splits between columns
    by whole lines (never leaving its first line alone at a column's foot),
    and draws its bullet like a Paragraph would."""

    def __init__(self, parsed, style: ParagraphStyle, icons, bullet: str | None = None, lines=None):
        super().__init__()
        self.parsed, self.style, self.icons, self.bullet = parsed, style, icons, bullet
        self.lines = lines  # a fixed set of lines: the second part of a split
        self.setting = None

    def _set(self, avail_width: float):
        s = self.style
        width = avail_width - s.leftIndent - s.rightIndent
        full = richtext.layout(self.parsed, s.fontSize, s.leading / s.fontSize, width)
        return full if self.lines is None else replace(full, lines=self.lines)

    def wrap(self, avail_width, avail_height):
        self.setting = self._set(avail_width)
        self.width, self.height = avail_width, self.setting.height
        return self.width, self.height

    def split(self, avail_width, avail_height):
        setting = self._set(avail_width)
        fits = int((avail_height + 1e-6) // setting.leading)
        if fits >= len(setting.lines):
            return [self]
        if fits < 2 and not self.style.allowOrphans:
            return []
        head, tail = setting.lines[:fits], setting.lines[fits:]
        return [SetText(self.parsed, self.style, self.icons, self.bullet, head),
                SetText(self.parsed, self.style, self.icons, None, tail)]

    def getSpaceBefore(self):
        return self.style.spaceBefore

    def getSpaceAfter(self):
        return self.style.spaceAfter

    def draw(self):
        s = self.style
        if self.bullet:
            self.canv.setFont(s.bulletFontName, s.bulletFontSize or s.fontSize)
            self.canv.setFillColor(s.textColor)
            self.canv.drawString(s.bulletIndent, self.height - s.fontSize, self.bullet)
        richtext.draw(self.canv, self.setting, s.leftIndent, self.height, self.width - s.leftIndent - s.rightIndent,
                      "left", self.icons)


def _styles(f: Fonts, accent: str) -> dict[str, ParagraphStyle]:
    ink = colors.HexColor("#1d1d1d")
    acc = colors.HexColor(accent)
    return {
        "title": ParagraphStyle("title", fontName=f.heavy, fontSize=22, leading=25, textColor=acc),
        "subtitle": ParagraphStyle("subtitle", fontName=f.body, fontSize=10, leading=12.5, textColor=ink),
        "h2": ParagraphStyle("h2", fontName=f.heavy, fontSize=12.5, leading=15, textColor=acc, spaceBefore=7, spaceAfter=3),
        "h3": ParagraphStyle("h3", fontName=f.bold, fontSize=10, leading=12.5, textColor=ink, spaceBefore=5, spaceAfter=2),
        "body": ParagraphStyle("body", fontName=f.body, fontSize=9, leading=11.6, textColor=ink, spaceAfter=4),
        "item": ParagraphStyle("item", fontName=f.body, fontSize=9, leading=11.6, textColor=ink, leftIndent=12,
                               bulletIndent=1, spaceAfter=2, bulletFontName=f.bold),
        "note": ParagraphStyle("note", fontName=f.italic, fontSize=8.6, leading=11, textColor=ink),
        "cell": ParagraphStyle("cell", fontName=f.body, fontSize=8, leading=9.8, textColor=ink),
        "head": ParagraphStyle("head", fontName=f.bold, fontSize=8, leading=9.8, textColor=colors.white),
    }


def inline(text: str, size: float, font: str | None = None) -> str:
    markup = _markup(text)
    return icon_markup(fallback_markup(markup, font) if font else markup, size, "#1d1d1d")


def _markup(text: str) -> str:
    return _ITALIC.sub(r"<i>\1</i>", str(rich(text)))


def parse(markdown: str, styles: dict[str, ParagraphStyle], accent: str,
          diagram: Callable[[str, float, float], Flowable], tints: tuple[str, str] = TINTS,
          icons=None) -> list[Flowable]:
    """Markdown subset -> flowables. The first `#` heading becomes the title block."""
    story: list[Flowable] = []
    lines = markdown.splitlines()
    i, number, para = 0, 0, []
    acc = colors.HexColor(accent)

    def p(style: str, text: str, bulletText: str | None = None) -> Flowable:
        st = styles[style]
        if icons is not None and st.alignment == TA_LEFT:
            parsed = richtext.parse(_markup(text), st.fontName, "#" + st.textColor.hexval()[2:])
            if parsed is not None:
                return SetText(parsed, st, icons, bulletText)
        return Paragraph(inline(text, st.fontSize, st.fontName), st, bulletText=bulletText)

    def cell(style: str, text: str) -> Paragraph:  # table cells stay Paragraphs: tables measure them
        return Paragraph(inline(text, styles[style].fontSize, styles[style].fontName), styles[style])

    def flush():
        if para:
            story.append(p("body", " ".join(para)))
            para.clear()

    titled = False
    while i < len(lines):
        raw = lines[i]
        line = raw.strip()
        if not line:
            flush()
            number = 0
        elif line.startswith("# ") and not titled:
            flush()
            story.append(p("title", line[2:]))
            j = i + 1
            intro = []
            while j < len(lines) and lines[j].strip() and not lines[j].startswith("#"):
                intro.append(lines[j].strip())
                j += 1
            if intro:
                story.append(p("subtitle", " ".join(intro)))
            story.append(FrameBreak())
            titled = True
            i = j
            continue
        elif line.startswith("## "):
            flush()
            story.append(CondPageBreak(pt(30)))
            story.append(p("h2", line[3:]))
        elif line.startswith("### "):
            flush()
            story.append(p("h3", line[4:]))
        elif re.match(r"^\d+\. ", line):
            flush()
            number += 1
            story.append(p("item", line.split(". ", 1)[1], bulletText=f"{number}."))
        elif line.startswith("- "):
            flush()
            story.append(p("item", line[2:], bulletText="•"))
        elif line.startswith("> "):
            flush()
            note = []
            while i < len(lines) and lines[i].strip().startswith(">"):
                note.append(lines[i].strip()[1:].strip())
                i += 1
            box = Table([[cell("note", " ".join(note))]], colWidths=["100%"])
            box.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), styles["note"].fontName),
                                     ("BACKGROUND", (0, 0), (-1, -1), colors.HexColor(tints[0])),
                                     ("LINEBEFORE", (0, 0), (0, -1), 2, acc),
                                     ("LEFTPADDING", (0, 0), (-1, -1), 6), ("RIGHTPADDING", (0, 0), (-1, -1), 5)]))
            story += [box, Spacer(1, 4)]
            continue
        elif line.startswith("|"):
            flush()
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
                if not all(re.fullmatch(r":?-{2,}:?", c) for c in cells):
                    rows.append(cells)
                i += 1
            data = [[cell("head" if r == 0 else "cell", c) for c in row] for r, row in enumerate(rows)]
            table = Table(data, repeatRows=1, hAlign="LEFT")
            table.setStyle(TableStyle([
                ("FONT", (0, 0), (-1, -1), styles["cell"].fontName),
                ("BACKGROUND", (0, 0), (-1, 0), acc),
                ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor(tints[0])]),
                ("GRID", (0, 0), (-1, -1), 0.3, colors.HexColor(tints[1])),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 2)]))
            story += [KeepTogether([table]), Spacer(1, 5)]
            continue
        elif line.startswith("@diagram "):
            flush()
            _, name, w, h = line.split()
            story.append(diagram(name, float(w), float(h)))
        else:
            para.append(line)
        i += 1
    flush()
    return story


def _footer_lines(parts: list[str], font: str, size: float, room: float) -> list[str]:
    """The footer's parts joined with " · ", onto as few lines as fit `room` (two at most)."""
    lines = [parts[0]]
    for part in parts[1:]:
        joined = f"{lines[-1]} · {part}"
        if stringWidth(joined, font, size) <= room or len(lines) == 2:
            lines[-1] = joined
        else:
            lines.append(part)
    return lines


def render_rules(title: str, markdown: str, paper: Size, ctx: RenderContext, accent: str,
                 diagram: Callable[[str, float, float], Flowable], tints: tuple[str, str] = TINTS,
                 footer_note: str = "") -> bytes:
    buffer = io.BytesIO()
    fonts = Fonts()
    W, H = pt(paper.width), pt(paper.height)
    m, g = pt(MARGIN), pt(GUTTER)
    col_w = (W - 2 * m - g) / 2
    foot = pt(10)
    title_h = pt(TITLE_H)
    first = [Frame(m, H - m - title_h, W - 2 * m, title_h, id="title", leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0),
             Frame(m, m + foot, col_w, H - 2 * m - foot - title_h, id="c1", leftPadding=0, rightPadding=0),
             Frame(m + col_w + g, m + foot, col_w, H - 2 * m - foot - title_h, id="c2", leftPadding=0, rightPadding=0)]
    later = [Frame(m, m + foot, col_w, H - 2 * m - foot, id="l1", leftPadding=0, rightPadding=0),
             Frame(m + col_w + g, m + foot, col_w, H - 2 * m - foot, id="l2", leftPadding=0, rightPadding=0)]

    def on_page(canvas, doc):
        canvas.setNamedCB(ICON_CALLBACK, icon_callback(ctx.icons))
        canvas.setViewerPreference("PrintScaling", "None")
        canvas.setTrimBox((0, 0, W, H))  # a rule sheet is used uncut
        canvas.saveState()
        canvas.setStrokeColor(colors.HexColor(accent))
        canvas.setLineWidth(0.8)
        canvas.line(m, m + foot - 4, W - m, m + foot - 4)
        canvas.setFont(fonts.body, 7.5)
        canvas.setFillColor(colors.HexColor("#5b5b5b"))
        room = W - 2 * m - pt(50) - pt(24)  # up to the check bar
        for i, line in enumerate(reversed(_footer_lines([title, *filter(None, footer_note.split(" · "))],
                                                        fonts.body, 7.5, room))):
            canvas.drawString(m, m + 2 + 9 * i, line)
        canvas.drawRightString(W - m, m + 2, f"page {doc.page}")
        canvas.restoreState()
        canvas.saveState()  # the 50 mm check bar, as on every other sheet
        canvas.translate(W - m - pt(50) - pt(16), m + 1)
        scale_bar(canvas, fonts.body)
        canvas.restoreState()

    doc = BaseDocTemplate(buffer, pagesize=(W, H), title=title, author="pnp", creator="pnp print-and-play pipeline",
                          invariant=1, initialFontName=fonts.body)
    doc.addPageTemplates([PageTemplate("first", first, onPage=on_page, autoNextPageTemplate="later"),
                          PageTemplate("later", later, onPage=on_page)])
    story = [NextPageTemplate("later")] + parse(markdown, _styles(fonts, accent), accent, diagram, tints, ctx.icons)
    doc.build(story)
    return buffer.getvalue()
