"""Art and backs as a designer expects them (issue 37, item 4): a blank
picture is no picture, and cards without one are allowed; a picture may be
named in a spreadsheet column (or a card's own `art:`); the icons pnp ships
are named by icon name from any project; the back template gets the card,
for per-card and double-faced backs; the rule sheet credits only the art
used."""
from __future__ import annotations

import json
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image

from helpers.designer import CARDS, GAME, new_game, pnp, sources

TEAL = (0, 160, 150)


@pytest.fixture
def project(tmp_path) -> Path:
    folder = tmp_path / "p"
    folder.mkdir()
    return new_game(folder, art_panel=True)


def _art(project: Path) -> dict[str, str | None]:
    result = pnp(project, "list", GAME, "--json")
    assert result.exit_code == 0, result.output
    return {row["id"]: row.get("art") for row in json.loads(result.output)}


def _page_text(pdf: Path, page: int) -> str:
    doc = pdfium.PdfDocument(pdf)
    try:
        return doc[page].get_textpage().get_text_range()
    finally:
        doc.close()


def _pictures(project: Path) -> Path:
    art = project / "templates" / "art"
    art.mkdir(exist_ok=True)
    Image.new("RGB", (900, 600), TEAL).save(art / "map.png")
    return art


def test_a_blank_picture_is_no_picture_and_cards_may_have_none(project):
    _pictures(project)
    (sources(project) / "art.yaml").write_text(f"cards:\n  {CARDS[0]}: map.png\n  {CARDS[1]}:\n  {CARDS[2]}: ''\n")
    result = pnp(project, "validate")
    assert result.exit_code == 0, result.output
    assert _art(project) == {CARDS[0]: "templates/art/map.png", CARDS[1]: None, CARDS[2]: None, CARDS[3]: None}
    (sources(project) / "art.yaml").write_text("")  # an art.yaml with nothing in it yet
    assert pnp(project, "validate").exit_code == 0


def test_the_shipped_games_still_want_a_picture_on_every_card(mini_project):
    (mini_project / "card_sources/culture-war/art.yaml").write_text("cards:\n  test-recruit: anchor\n")
    result = pnp(mini_project, "validate")
    assert result.exit_code == 1 and "test-brawler: no illustration: give it one in art.yaml" in result.output


@pytest.mark.pdf
def test_a_picture_may_be_named_in_a_spreadsheet_column(project):
    _pictures(project)
    game = sources(project) / "game.yaml"
    game.write_text(game.read_text().replace("file: starter.yaml", "file: starter.csv"))
    (sources(project) / "starter.csv").write_text(
        "id,name,type,cost,art,text\n"
        f"{CARDS[0]},Scout,card,1,map.png,Look.\n"
        f"{CARDS[1]},Builder,card,2,,Build.\n"
        f"{CARDS[2]},Messenger,card,1,anchor,Run.\n")
    assert _art(project) == {CARDS[0]: "templates/art/map.png", CARDS[1]: None, CARDS[2]: "templates/art/anchor.svg"}
    result = pnp(project, "build", GAME)
    assert result.exit_code == 0, result.output
    doc = pdfium.PdfDocument(project / "output" / GAME / "deck-starter.pdf")
    image = doc[0].render(scale=30 / 72).to_pil().convert("RGB")
    doc.close()
    teal = sum(n for n, c in image.getcolors(1 << 20) if all(abs(a - b) <= 14 for a, b in zip(c, TEAL)))
    assert teal > 0.01 * image.width * image.height  # one card of the nine on the sheet shows the PNG

    (sources(project) / "starter.csv").write_text("id,name,type,cost,art\n" f"{CARDS[0]},Scout,card,1,mapp.png\n")
    result = pnp(project, "validate")
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"Error: card_sources/{GAME}/starter.csv:2: dragon-market-scout: no illustration templates/art/mapp.png; "
        "put the picture there"]


def test_a_picture_given_twice_is_one_error(project):
    _pictures(project)
    deck = sources(project) / "starter.yaml"
    deck.write_text(deck.read_text().replace("    cost: 1\n    quantity: 3\n", "    cost: 1\n    quantity: 3\n    art: map.png\n"))
    assert _art(project)[CARDS[0]] == "templates/art/map.png"
    (sources(project) / "art.yaml").write_text(f"cards:\n  {CARDS[0]}: anchor\n")
    result = pnp(project, "validate")
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"Error: card_sources/{GAME}/starter.yaml:9: dragon-market-scout: a picture is given here and in "
        f"{GAME}/art.yaml (line 2); give it in one place"]


def test_shipped_icons_are_named_by_icon_name_from_any_project(project):
    assert not (project / "templates" / "art").exists()
    (sources(project) / "art.yaml").write_text(f"cards:\n  {CARDS[0]}: anchor\n  {CARDS[1]}: spyglass\n")
    result = pnp(project, "validate")
    assert result.exit_code == 1, result.output
    (line,) = result.output.strip().splitlines()
    assert line.startswith(f"Error: card_sources/{GAME}/art.yaml:3: dragon-market-builder: no illustration "
                           "templates/art/spyglass.svg: 'spyglass' is no picture in this project and none of the ")
    assert "vendor_art" not in line and "did you mean" in line  # the wheel has no scripts/
    (sources(project) / "art.yaml").write_text(f"cards:\n  {CARDS[0]}: anchor\n  {CARDS[1]}: binoculars\n")
    assert pnp(project, "validate").exit_code == 0
    _pictures(project)  # a project with art of its own still reaches the shipped icons
    assert pnp(project, "validate").exit_code == 0
    assert _art(project)[CARDS[1]] == "templates/art/binoculars.svg"


@pytest.mark.pdf
def test_a_shipped_icon_is_drawn_and_its_own_copy_wins(project, tmp_path):
    (sources(project) / "art.yaml").write_text(f"cards:\n  {CARDS[0]}: anchor\n")
    out = pnp(project, "preview", CARDS[0], "--out", str(tmp_path / "shipped.png"))
    assert out.exit_code == 0, out.output
    own = project / "templates" / "art"
    own.mkdir()
    (own / "anchor.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                                    '<circle cx="5" cy="5" r="4" fill="currentColor"/></svg>')
    assert pnp(project, "preview", CARDS[0], "--out", str(tmp_path / "own.png")).exit_code == 0
    shipped, mine = (Image.open(tmp_path / n).convert("L") for n in ("shipped.png", "own.png"))
    box = (40, 100, 370, 235)  # the art panel of the face

    def ink(image):
        return sum(1 for v in image.crop(box).tobytes() if v < 80)
    assert ink(shipped) > 2000 and ink(mine) > 2000 and shipped.crop(box).tobytes() != mine.crop(box).tobytes()


BACK = """{% set W = size.w %}{% set H = size.h %}
<card>
<rect x="0" y="0" w="{{ W }}" h="{{ H }}" fill="{{ deck.color }}"/>
<text x="5" y="10" w="{{ W - 10 }}" h="12" style="backtitle" align="center">{{ card.back_name or card.name }}</text>
</card>
"""


@pytest.mark.pdf
def test_the_back_template_gets_the_card(project, tmp_path):
    (project / "templates" / GAME / "back.xml.j2").write_text(BACK)
    game = sources(project) / "game.yaml"
    game.write_text(game.read_text().replace("      cost: int>=0", "      cost: int>=0\n      back_name: str?"))
    deck = sources(project) / "starter.yaml"
    deck.write_text(deck.read_text().replace("    name: Wildcard\n", "    name: Wildcard\n    back_name: Joker\n"))
    result = pnp(project, "build", GAME)
    assert result.exit_code == 0, result.output
    pdf = project / "output" / GAME / "deck-starter.pdf"
    fronts, backs = _page_text(pdf, 0), _page_text(pdf, 1)
    assert "Scout" in fronts
    for name in ("Scout", "Builder", "Messenger", "Joker"):  # each card's own back, the Wildcard's its back_name
        assert name in backs, backs
    assert "Wildcard" not in backs and backs.count("Scout") == 3  # one back per printed copy, each its card's
    shown = pnp(project, "preview", CARDS[3], "--out", str(tmp_path / "joker.png"))
    assert shown.exit_code == 0, shown.output
    export = pnp(project, "export", GAME, "--shop", "tgc")   # each card's own back (tests/pnp/test_shop_backs.py)
    assert export.exit_code == 0 and "starter-back-1.png" in (project / "output" / GAME / "shop-tgc" /
                                                               "order.csv").read_text(), export.output


@pytest.mark.pdf
@pytest.mark.parametrize("art, credited", [(None, False), ("map.png", False), ("anchor", True)])
def test_the_rule_sheet_credits_only_the_art_used(project, art, credited):
    if art is not None:
        _pictures(project)
        (sources(project) / "art.yaml").write_text(f"cards:\n  {CARDS[0]}: {art}\n")
    result = pnp(project, "build", GAME)
    assert result.exit_code == 0, result.output
    text = _page_text(project / "output" / GAME / "rules-rules.pdf", 0)
    assert ("game-icons.net" in text) is credited, text[-300:]


@pytest.mark.pdf
def test_the_credit_follows_the_art_in_an_incremental_build(project):
    assert pnp(project, "build", GAME).exit_code == 0
    rules = project / "output" / GAME / "rules-rules.pdf"
    assert "game-icons.net" not in _page_text(rules, 0)
    (sources(project) / "art.yaml").write_text(f"cards:\n  {CARDS[0]}: anchor\n")
    assert pnp(project, "build", GAME).exit_code == 0
    assert "game-icons.net" in _page_text(rules, 0)


SHAPES = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <circle cx="50" cy="50" r="20" fill="#f0a000"/>
  <polyline points="10,90 30,70 50,90 70,70 90,90" fill="none" stroke="#0050c0" stroke-width="4"/>
  <rect x="5" y="5" width="20" height="20" rx="4" fill="none" stroke="currentColor" stroke-width="3"/>
  <ellipse cx="80" cy="20" rx="12" ry="6" fill="#20a040"/>
  <line x1="0" y1="50" x2="25" y2="50" stroke="#c00000" stroke-width="2"/>
</svg>
"""


@pytest.mark.pdf
def test_a_designers_svg_shapes_are_drawn_and_svg_text_is_an_error(project, tmp_path):
    art = project / "templates" / "art"
    art.mkdir()
    (art / "sun.svg").write_text(SHAPES)
    (sources(project) / "art.yaml").write_text(f"cards:\n  {CARDS[0]}: sun\n")
    result = pnp(project, "preview", CARDS[0], "--out", str(tmp_path / "sun.png"))
    assert result.exit_code == 0, result.output
    face = Image.open(tmp_path / "sun.png").convert("RGB").crop((40, 100, 370, 235))  # the art panel
    colours = face.getcolors(1 << 20)
    for target in ((0xf0, 0xa0, 0x00), (0x00, 0x50, 0xc0), (0x20, 0xa0, 0x40), (0xc0, 0x00, 0x00), (0x1d, 0x1d, 0x1d)):
        near = sum(n for n, c in colours if all(abs(a - b) <= 20 for a, b in zip(c, target)))
        assert near > 12, (target, near)   # circle, polyline, ellipse, line, and the rect in currentColor (ink)
    (art / "sun.svg").write_text(SHAPES.replace("</svg>", '<text x="10" y="10">Sun</text></svg>'))
    result = pnp(project, "validate")
    assert result.exit_code == 1 and "internal error" not in result.output
    (only,) = result.output.strip().splitlines()
    assert f"templates/{GAME}/card.xml.j2:" in only and "the SVG has text ('Sun')" in only and "Object to Path" in only
