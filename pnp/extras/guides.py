"""Print guides over a previewed card (`pnp preview --guides`): where the
shop's bleed ends, where the card is cut (the trim) and the safe zone inside
it, each a line of its own colour and pattern, named in a legend below."""
from __future__ import annotations

from reportlab.lib.colors import HexColor

from pnp.faces.facecheck import SAFE_ZONE_MM
from pnp.model import Size
from pnp.units import pt

BLEED_MM = 25.4 / 8          # what the shops ask for beyond the trim
LEGEND_MM = 5.0              # room under the cards for the legend
HALO = "#ffffff"
GUIDES = (                   # (name, colour, dash in mm, line width in mm)
    ("bleed", "#1f6feb", (), 0.25),
    ("trim", "#d1242f", (), 0.3),
    ("safe zone", "#1a7f37", (1.2, 0.8), 0.3),
)


def draw_guides(canvas, size: Size) -> None:
    """The three guides around a card drawn with its trim's bottom-left corner at the origin."""
    insets = {"bleed": -BLEED_MM, "trim": 0.0, "safe zone": SAFE_ZONE_MM}
    for name, colour, dash, width in GUIDES:
        inset = insets[name]
        box = (pt(inset), pt(inset), pt(size.width - 2 * inset), pt(size.height - 2 * inset))
        canvas.saveState()
        canvas.setStrokeColor(HexColor(HALO))   # a light line under each guide, so it shows on any colour
        canvas.setLineWidth(pt(width + 0.35))
        canvas.rect(*box, stroke=1, fill=0)
        canvas.setStrokeColor(HexColor(colour))
        canvas.setLineWidth(pt(width))
        canvas.setDash([pt(d) for d in dash] if dash else [])
        canvas.rect(*box, stroke=1, fill=0)
        canvas.restoreState()


def draw_legend(canvas, x: float, y: float) -> None:
    """The legend: a short line of each guide and its name, from (x, y) in mm, in Helvetica (not printed)."""
    canvas.saveState()
    canvas.setFont("Helvetica", 6.5)
    words = {"bleed": f"bleed ({BLEED_MM:.3f} mm)", "trim": "trim (the cut)",
             "safe zone": f"safe zone ({SAFE_ZONE_MM:.3f} mm inside)"}
    for name, colour, dash, width in GUIDES:
        canvas.setStrokeColor(HexColor(colour))
        canvas.setLineWidth(pt(width))
        canvas.setDash([pt(d) for d in dash] if dash else [])
        canvas.line(pt(x), pt(y + 1), pt(x + 6), pt(y + 1))
        canvas.setFillColor(HexColor("#333333"))
        canvas.drawString(pt(x + 7.5), pt(y + 0.2), words[name])
        x += 9 + canvas.stringWidth(words[name], "Helvetica", 6.5) / pt(1) + 4
    canvas.restoreState()
