"""The baseline for `make bench`: a straightforward hand-written ReportLab
script that draws N card faces and backs, 3 x 3 on A4, backs on the page
after their fronts. Each card: a frame, a bold title, a wrapped paragraph,
a stats line and a QR code made with the `qrcode` package.

    python benchmarks/naive_reportlab.py CARDS.json OUT.pdf
"""
import json
import sys
from pathlib import Path

import qrcode
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

FONTS = Path(__file__).resolve().parents[1] / "pnp" / "assets" / "fonts"  # the fonts pnp ships with
W, H = 63.5 * mm, 88.9 * mm


def main(cards_file: str, out: str) -> None:
    cards = json.loads(Path(cards_file).read_text())
    pdfmetrics.registerFont(TTFont("Body", str(FONTS / "RobotoCondensed-Regular.ttf")))
    pdfmetrics.registerFont(TTFont("Bold", str(FONTS / "RobotoCondensed-Bold.ttf")))
    style = ParagraphStyle("body", fontName="Body", fontSize=8.5, leading=10)
    c = Canvas(out, pagesize=A4)
    x0 = (A4[0] - 3 * W) / 2
    y0 = (A4[1] - 3 * H) / 2
    for start in range(0, len(cards), 9):
        page = cards[start:start + 9]
        for i, card in enumerate(page):
            x, y = x0 + (i % 3) * W, y0 + (2 - i // 3) * H
            c.rect(x + 2 * mm, y + 2 * mm, W - 4 * mm, H - 4 * mm)
            c.setFont("Bold", 11)
            c.drawString(x + 4 * mm, y + H - 9 * mm, card["name"])
            p = Paragraph(card["text"], style)
            _, ph = p.wrap(W - 8 * mm, 40 * mm)
            p.drawOn(c, x + 4 * mm, y + H - 14 * mm - ph)
            c.setFont("Body", 8)
            c.drawString(x + 4 * mm, y + 22 * mm, card["stats"])
            qr = qrcode.QRCode(border=4)
            qr.add_data(card["qr"])
            qr.make(fit=True)
            matrix = qr.get_matrix()
            module = 15 * mm / len(matrix)
            for r, row in enumerate(matrix):
                for col, dark in enumerate(row):
                    if dark:
                        c.rect(x + W - 19 * mm + col * module, y + 4 * mm + 15 * mm - (r + 1) * module,
                               module, module, stroke=0, fill=1)
        c.showPage()
        for i, card in enumerate(page):
            x, y = x0 + (2 - i % 3) * W, y0 + (2 - i // 3) * H
            c.rect(x + 2 * mm, y + 2 * mm, W - 4 * mm, H - 4 * mm, fill=0)
            c.setFont("Bold", 14)
            c.drawCentredString(x + W / 2, y + H / 2, card["deck"])
        c.showPage()
    c.save()


if __name__ == "__main__":
    main(*sys.argv[1:3])
