"""The baseline for `make bench`: the script a competent ReportLab user would
write by hand to print the same cards. Straightforward, not tuned.

For every deck, one PDF: the cards laid out on A4 in the deck's grid, each
page of fronts followed by a page of backs mirrored for long-edge duplex.
A front is a frame, the title (Roboto Black), a bold stats line, the rules
in a wrapped Paragraph and the flavor in italics (Roboto Condensed), the
card's QR code and its short code. The fonts are the TrueType files pnp
ships, embedded and subset as pnp embeds them. A QR code is made with the
`qrcode` package at pnp's settings (level M, fixed mask 2, no search over the
eight masks) and drawn as one path: a rectangle per dark module, one fill.

    python benchmarks/baseline_reportlab.py CARDS.json OUT_DIR

CARDS.json (written by benchmarks/run.py from a real build): {"decks": [{"file",
"name", "card_mm": [w, h], "cols", "rows", "sides", "cards": [{"name",
"stats", "body", "flavor", "code", "qr"}]}]}, one entry per printed copy.
"""
import json
import sys
from pathlib import Path

import qrcode
from qrcode.constants import ERROR_CORRECT_M
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

FONTS = Path(__file__).resolve().parents[1] / "pnp" / "assets" / "fonts"  # the fonts pnp ships with


def register_fonts() -> None:
    for name in ("Roboto-Black", "RobotoCondensed-Regular", "RobotoCondensed-Bold", "RobotoCondensed-Italic",
                 "RobotoCondensed-BoldItalic"):
        pdfmetrics.registerFont(TTFont(name, str(FONTS / f"{name}.ttf")))
    pdfmetrics.registerFontFamily("RobotoCondensed", normal="RobotoCondensed-Regular", bold="RobotoCondensed-Bold",
                                  italic="RobotoCondensed-Italic", boldItalic="RobotoCondensed-BoldItalic")


BODY = ParagraphStyle("body", fontName="RobotoCondensed-Regular", fontSize=8, leading=9.6)
FLAVOR = ParagraphStyle("flavor", fontName="RobotoCondensed-Italic", fontSize=7, leading=8.4)


def draw_qr(c: Canvas, payload: str, x: float, y: float, size: float) -> None:
    qr = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0, mask_pattern=2)
    qr.add_data(payload)
    qr.make(fit=True)
    matrix = qr.get_matrix()
    module = size / len(matrix)
    path = c.beginPath()
    for r, row in enumerate(matrix):
        for col, dark in enumerate(row):
            if dark:
                path.rect(x + col * module, y + size - (r + 1) * module, module, module)
    c.drawPath(path, stroke=0, fill=1)


def draw_front(c: Canvas, card: dict, x: float, y: float, w: float, h: float) -> None:
    pad = min(3 * mm, w / 10)
    c.setLineWidth(0.5)
    c.roundRect(x + 1 * mm, y + 1 * mm, w - 2 * mm, h - 2 * mm, 2 * mm)
    top = y + h - pad
    c.setFont("Roboto-Black", 11)
    c.drawString(x + pad, top - 10, card["name"])
    top -= 14
    if card["stats"]:
        c.setFont("RobotoCondensed-Bold", 7)
        c.drawString(x + pad, top - 7, card["stats"])
        top -= 10
    qr_size = min(15 * mm, w / 2)
    for text, style in ((card["body"], BODY), (card["flavor"], FLAVOR)):
        if text:
            p = Paragraph(text, style)
            _, ph = p.wrap(w - 2 * pad, h)
            p.drawOn(c, x + pad, top - ph)
            top -= ph + 3
    draw_qr(c, card["qr"], x + w - pad - qr_size, y + pad, qr_size)
    c.setFont("RobotoCondensed-Bold", 9)
    c.drawString(x + pad, y + pad, card["code"])


def draw_back(c: Canvas, deck: str, x: float, y: float, w: float, h: float) -> None:
    c.setLineWidth(0.5)
    c.roundRect(x + 1 * mm, y + 1 * mm, w - 2 * mm, h - 2 * mm, 2 * mm)
    c.setFont("Roboto-Black", 14)
    c.drawCentredString(x + w / 2, y + h / 2, deck)


def write_deck(deck: dict, out: Path) -> None:
    w, h = deck["card_mm"][0] * mm, deck["card_mm"][1] * mm
    cols, rows = deck["cols"], deck["rows"]
    x0, y0 = (A4[0] - cols * w) / 2, (A4[1] - rows * h) / 2
    c = Canvas(str(out), pagesize=A4)
    c.setTitle(deck["name"])
    per_page = cols * rows
    cards = deck["cards"]
    for start in range(0, len(cards), per_page):
        page = cards[start:start + per_page]
        for i, card in enumerate(page):
            draw_front(c, card, x0 + (i % cols) * w, y0 + (rows - 1 - i // cols) * h, w, h)
        c.showPage()
        if deck["sides"] == 2:
            for i in range(len(page)):  # mirrored left to right, for long-edge duplex
                draw_back(c, deck["name"], x0 + (cols - 1 - i % cols) * w, y0 + (rows - 1 - i // cols) * h, w, h)
            c.showPage()
    c.save()


def main(cards_file: str, out_dir: str) -> None:
    register_fonts()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for deck in json.loads(Path(cards_file).read_text())["decks"]:
        write_deck(deck, out / deck["file"])


if __name__ == "__main__":
    main(*sys.argv[1:3])
