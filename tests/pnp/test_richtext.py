"""Our rich-text setter breaks lines where ReportLab's Paragraph would, so a
card fits (or does not) the same either way; markup it does not know is left
to the Paragraph."""
from pathlib import Path

import pytest
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph

from pnp.faces import richtext
from pnp.faces.elements import Text
from pnp.faces.textset import icon_markup, setting
from pnp.render.fonts import register_fonts

ROOT = Path(__file__).resolve().parents[2]
FONT = "RobotoCondensed-Regular"
TEXTS = [
    "Came for the free snacks. Stayed for the collapse of civilisation.",
    "<b>Burnout</b>: at the end of your turn, roll <icon name=\"die\" />. On a 1, destroy this; "
    "no one loses <icon name=\"life\" /> for it.",
    "Gain 3<icon name=\"capital\" /> and draw a card.<br />Then discard one.",
    "<font color=\"#aa0000\"><b>Flash</b></font> Play at any time, even during another player's battle.",
    "A very long word: Antidisestablishmentarianism is here.",
    "Non\u00a0breaking\u00a0spaces hold these words together on one line if they can.",
    "<i>Every pane is a statement.</i> Most of the statements are 'crash'.",
]


@pytest.fixture(scope="module", autouse=True)
def fonts():
    register_fonts(ROOT / "templates")


def reportlab_lines(markup: str, size: float, leading: float, width: float) -> int:
    style = ParagraphStyle("t", fontName=FONT, fontSize=size, leading=size * leading, splitLongWords=False)
    para = Paragraph(icon_markup(markup, size, "#000000"), style)
    para.wrap(width, 10_000)
    return len(para.blPara.lines)


@pytest.mark.parametrize("markup", TEXTS)
@pytest.mark.parametrize("width", [60.0, 95.0, 140.0, 230.0])
@pytest.mark.parametrize("size", [7.0, 8.5])
def test_lines_break_where_a_paragraph_breaks_them(markup, width, size):
    parsed = richtext.parse(markup, FONT, "#000000")
    assert parsed is not None
    ours = richtext.layout(parsed, size, 1.2, width)
    assert len(ours.lines) == reportlab_lines(markup, size, 1.2, width)
    assert ours.height == pytest.approx(len(ours.lines) * size * 1.2)
    for words, used in ours.lines[:-1]:
        assert len(words) == 1 or used <= width + 0.05 * size * len(words)  # ReportLab's space shrink


def test_forced_breaks_and_widest_word():
    parsed = richtext.parse("one<br />two<br />three", FONT, "#000000")
    assert [len(words) for words, _ in richtext.layout(parsed, 8, 1.2, 500).lines] == [1, 1, 1]
    long = richtext.layout(richtext.parse("a Antidisestablishmentarianism", FONT, "#000000"), 8, 1.2, 30)
    assert long.widest_word > 30  # the caller sees the word cannot fit, and shrinks the text


@pytest.mark.parametrize("markup", ["<u>underlined</u>", "x<super>2</super>", '<font name="Roboto-Black">x</font>',
                                    "a < b"])
def test_markup_it_does_not_know_goes_to_reportlab(markup):
    assert richtext.parse(markup, FONT, "#000000") is None


def test_justified_text_is_left_to_reportlab():
    style = {"paragraph_styles": {"rules": {"font": FONT, "size": 8}}, "colors": {}}
    text = Text(0, 0, 40, 20, "rules", "some words", align="left")
    assert setting(text, style, 8) is not None
    assert setting(Text(0, 0, 40, 20, "rules", "some words", align="justify"), style, 8) is None


def test_a_number_never_ends_a_line_apart_from_its_icon():
    """"-1 {atk}" is one unit: at every width that breaks the sentence, the
    number and its icon sit on the same line."""
    from pnp.faces.richtext import layout, parse
    from pnp.faces.templates import rich

    parsed = parse(str(rich("Your units get -1 {atk} and 2 {capital} this turn, then 10 {life}.")),
                       FONT, "#000000")
    assert parsed is not None
    seen_breaks = 0
    for width in range(20, 200, 2):
        setting = layout(parsed, 8.0, 1.2, float(width))
        seen_breaks += len(setting.lines) > 1
        for words, _ in setting.lines:
            last = words[-1].runs if words else ()
            assert not (last and not last[-1].icon and last[-1].text.rstrip("\xa0").lstrip("+-").isdigit()), (
                f"width {width}: a line ends with the number {last[-1].text!r} and its icon starts the next")
    assert seen_breaks > 20, "the widths tried must actually break the sentence"
