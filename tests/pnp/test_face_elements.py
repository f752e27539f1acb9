"""The face elements' protocol (pnp.faces.drawable): each element says what room
its ink takes (`measure`, mm) and draws itself from an origin (`draw`), so the
face drawer knows no kind of element. Held on rasters: each element is drawn
alone on a grey card, and the ink found on the page is compared with what the
element measured, at the place its template gave it."""
from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import zxingcpp
from PIL import Image, ImageChops

from pnp.faces.drawable import Element, Surface
from pnp.faces.elements import QR, Art, Circle, Face, Icon, Line, Paint, Polygon, Rect, Text
from pnp.faces.icons import IconSet
from pnp.model import Point, Size
from pnp.render.canvas import RenderContext, draw_copy_elements, draw_face, new_canvas
from pnp.render.fonts import register_fonts
from pnp.units import pt

pytestmark = pytest.mark.pdf

ROOT = Path(__file__).resolve().parents[2]
CARD = Size(60.0, 80.0)
DPI = 600
GREY = (128, 128, 128)
FONT = "RobotoCondensed-Regular"
STYLE = {"paragraph_styles": {"rules": {"font": FONT, "size": 8}}, "colors": {}}
BLACK = Paint(fill="#000000")
PX = 25.4 / DPI  # one pixel, in mm


@pytest.fixture(scope="module")
def ctx() -> RenderContext:
    register_fonts(ROOT / "templates")
    return RenderContext(STYLE, IconSet.load(ROOT / "templates" / "icons.yaml"), FONT, bleed=0.0)


def page(ctx: RenderContext, draw) -> Image.Image:
    """A card-sized page painted grey, `draw(canvas)` over it, rasterised."""
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, CARD, ctx, "elements", None)
    canvas.setFillColorRGB(0.5, 0.5, 0.5)
    canvas.rect(0, 0, pt(CARD.width), pt(CARD.height), stroke=0, fill=1)
    draw(canvas)
    canvas.showPage()
    canvas.save()
    return pdfium.PdfDocument(buffer.getvalue())[0].render(scale=DPI / 72).to_pil().convert("RGB")


def ink_box(image: Image.Image) -> tuple[float, float, float, float]:
    """Where anything but the grey is (card mm, y down): x0, y0, x1, y1."""
    diff = ImageChops.difference(image, Image.new("RGB", image.size, GREY)).convert("L")
    box = diff.point(lambda v: 255 if v > 40 else 0).getbbox()
    assert box is not None, "nothing was drawn"
    return tuple(v * PX for v in box)


def face_ink(ctx: RenderContext, *elements) -> tuple[float, float, float, float]:
    return ink_box(page(ctx, lambda canvas: draw_face(canvas, Face(tuple(elements)), CARD, ctx)))


# Each element with where its template put it (x, y: its box's top-left, card mm, y down).
SOLID = [
    (Rect(5.0, 6.0, 20.0, 10.0, BLACK, bleed=False), (5.0, 6.0)),
    (Circle(30.0, 30.0, 8.0, BLACK), (22.0, 22.0)),
    (Polygon(((10.0, 50.0), (30.0, 45.0), (20.0, 70.0)), BLACK), (10.0, 45.0)),
    (QR(35.0, 50.0, 20.0, "ANARCHY-1"), (35.0, 50.0)),  # its white quiet zone is ink on grey
]


@pytest.mark.parametrize("el, at", SOLID, ids=lambda v: type(v).__name__ if isinstance(v, Element) else "")
def test_a_solid_element_inks_exactly_what_it_measures_where_its_template_put_it(ctx, el, at):
    size = el.measure(CARD, ctx.surface(CARD))
    x0, y0, x1, y1 = face_ink(ctx, el)
    assert (x0, y0) == pytest.approx(at, abs=2 * PX)
    assert (x1 - x0, y1 - y0) == pytest.approx((size.width, size.height), abs=2 * PX)


OUTLINED = [  # with how much of its box, along one side at least, its ink spans
    (Line(5.0, 75.0, 50.0, 60.0, Paint(stroke="#000000", stroke_width=0.3)), 0.95),
    (Icon("dice", 40.0, 5.0, 12.0, "#000000"), 0.8),
    (Art(str(ROOT / "templates" / "art" / "airplane.svg"), 8.0, 20.0, 30.0, 24.0, "#000000"), 0.5),
]


@pytest.mark.parametrize("el, spans", OUTLINED, ids=lambda v: type(v).__name__ if isinstance(v, Element) else "")
def test_a_drawn_shape_inks_within_what_it_measures_centred_in_it(ctx, el, spans):
    """A line's stroke may reach half its width past its ends; an icon or a
    picture keeps inside its box, centred (a picture keeps its proportions
    and sits in its panel with a margin)."""
    size = el.measure(CARD, ctx.surface(CARD))
    left = getattr(el, "x", None)
    left, top = (left, el.y) if left is not None else (min(el.x1, el.x2), min(el.y1, el.y2))
    x0, y0, x1, y1 = face_ink(ctx, el)
    slack = 0.3
    assert x0 >= left - slack and y0 >= top - slack
    assert x1 <= left + size.width + slack and y1 <= top + size.height + slack
    assert ((x0 + x1) / 2, (y0 + y1) / 2) == pytest.approx((left + size.width / 2, top + size.height / 2), abs=0.5)
    assert max((x1 - x0) / size.width, (y1 - y0) / size.height) >= spans


@pytest.mark.parametrize("align, valign", [("left", "top"), ("center", "middle"), ("right", "bottom")])
def test_text_inks_within_the_lines_it_measures(ctx, align, valign):
    """The lines' measured box, aligned in the text's box, holds every glyph,
    and the glyphs span its width (the widest line) and most of its height."""
    el = Text(5.0, 20.0, 30.0, 40.0, "rules", "Some words that run on past one line of a narrow box.",
              align=align, valign=valign, size=8.0)
    lines = el.measure(Size(el.w, el.h), ctx.surface(CARD))
    assert lines.width <= el.w and lines.height < el.h / 2
    left = el.x + {"left": 0.0, "center": (el.w - lines.width) / 2, "right": el.w - lines.width}[align]
    top = el.y + {"top": 0.0, "middle": (el.h - lines.height) / 2, "bottom": el.h - lines.height}[valign]
    x0, y0, x1, y1 = face_ink(ctx, el)
    assert left - 0.2 <= x0 and x1 <= left + lines.width + 0.2
    assert top - 0.2 <= y0 and y1 <= top + lines.height + 0.2
    assert x1 - x0 >= lines.width - 1.0 and y1 - y0 >= 0.6 * lines.height


def test_text_wraps_to_the_width_it_is_given():
    el = Text(0.0, 0.0, 50.0, 40.0, "rules", "Some words that run on past one line of a narrow box.", size=8.0)
    register_fonts(ROOT / "templates")
    surface = Surface(CARD, style=STYLE)
    wide, narrow = el.measure(Size(50.0, 40.0), surface), el.measure(Size(20.0, 40.0), surface)
    assert narrow.width <= 20.0 < wide.width
    assert narrow.height > wide.height
    assert el.measure(Size(50.0, 40.0), surface) == wide  # asked the same, it answers the same


def test_an_element_draws_from_the_origin_it_is_given(ctx):
    """The same rectangle drawn from two origins: its ink moves by their difference."""
    el = Rect(5.0, 6.0, 20.0, 10.0, BLACK, bleed=False)
    surface = ctx.surface(CARD)
    home = ink_box(page(ctx, lambda canvas: el.draw(canvas, Point(0.0, CARD.height), surface)))
    moved = ink_box(page(ctx, lambda canvas: el.draw(canvas, Point(12.0, CARD.height - 7.0), surface)))
    assert [b - a for a, b in zip(home, moved)] == pytest.approx([12.0, 7.0, 12.0, 7.0], abs=2 * PX)


@dataclass(frozen=True)
class Cross(Element):
    """A kind of element pnp has never heard of: two bars crossing in a square."""

    x: float
    y: float
    size: float

    def measure(self, avail: Size, surface: Surface) -> Size:
        return Size(self.size, self.size)

    def draw(self, canvas, origin: Point, surface: Surface) -> None:
        third = self.size / 3
        Rect(self.x, self.y + third, self.size, third, BLACK, bleed=False).draw(canvas, origin, surface)
        Rect(self.x + third, self.y, third, self.size, BLACK, bleed=False).draw(canvas, origin, surface)


def test_the_face_drawer_draws_a_kind_it_does_not_know(ctx):
    cross = Cross(10.0, 12.0, 9.0)
    assert face_ink(ctx, cross) == pytest.approx((10.0, 12.0, 19.0, 21.0), abs=2 * PX)


def test_a_printed_copy_draws_its_own_code_over_a_face_drawn_without_it(ctx):
    """`qr=False` leaves out the elements each copy draws (the QR codes); the
    copy then draws them with its own payload, which a phone reads back."""
    code, mark = QR(20.0, 30.0, 20.0, "CARD-0"), Rect(2.0, 2.0, 5.0, 5.0, BLACK, bleed=False)
    face = Face((mark, code))
    without = page(ctx, lambda canvas: draw_face(canvas, face, CARD, ctx, qr=False))
    assert ink_box(without) == pytest.approx((2.0, 2.0, 7.0, 7.0), abs=2 * PX)

    def copy(canvas):
        draw_face(canvas, face, CARD, ctx, qr=False)
        draw_copy_elements(canvas, face, CARD, ctx, "CARD-7")

    read = zxingcpp.read_barcodes(page(ctx, copy))
    assert [r.text for r in read] == ["CARD-7"]
