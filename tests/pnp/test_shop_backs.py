"""A back per card in every export (issue 37): a designer's deck whose back
template reads `card` goes to each shop and to Tabletop Simulator with each
card's own back behind its own front. The image shops get one image per
distinct back (identical backs shared, the order saying how many copies),
DriveThruCards and pdf-single each copy's own back before (or after) its
front, and TTS a sheet of backs in the fronts' grid (UniqueBack).

Each card's back is filled with its own colour (the Scout and the Messenger
share red, so their backs are one image); the tests rasterise every file and
read the colour of each back and the QR code of each front."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pypdfium2 as pdfium
import pytest
import zxingcpp
from PIL import Image

from helpers.designer import CARDS, GAME, new_game, pnp, sources
from pnp.sources.qrpayload import parse_payload

SCOUT, BUILDER, MESSENGER, WILDCARD = CARDS
COLOURS = {"red": (200, 30, 30), "green": (30, 160, 60), "blue": (40, 60, 200)}
BACK_OF = {SCOUT: "red", BUILDER: "green", MESSENGER: "red", WILDCARD: "blue"}
QUANTITY = {SCOUT: 3, BUILDER: 2, MESSENGER: 1, WILDCARD: 1}
BACK = """{% set W = size.w %}{% set H = size.h %}
<card>
<rect x="0" y="0" w="{{ W }}" h="{{ H }}" fill="{{ card.back_colour }}"/>
<rect x="4" y="4" w="{{ W - 8 }}" h="{{ H - 8 }}" r="3" stroke="white" stroke-width="0.6" bleed="false"/>
<text x="6" y="10" w="{{ W - 12 }}" h="16" style="backtitle" align="center" valign="middle">{{ game.name | upper }}</text>
</card>
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """dragon-market with a back per card: each card's `back_colour`."""
    folder = new_game(tmp_path_factory.mktemp("backs"))
    (folder / "templates" / GAME / "back.xml.j2").write_text(BACK)
    game = sources(folder) / "game.yaml"
    game.write_text(game.read_text().replace("      cost: int>=0", "      cost: int>=0\n      back_colour: str"))
    deck = sources(folder) / "starter.yaml"
    text = deck.read_text()
    for card, colour in BACK_OF.items():
        r, g, b = COLOURS[colour]
        text = text.replace(f"  - id: {card}\n", f"  - id: {card}\n    back_colour: '#{r:02x}{g:02x}{b:02x}'\n")
    deck.write_text(text)
    return folder


def _exported(project: Path, shop: str) -> Path:
    result = pnp(project, "export", GAME, "--shop", shop)
    assert result.exit_code == 0, result.output
    return project / "output" / GAME / f"shop-{shop}"


def colour_of(image: Image.Image) -> str:
    """The named colour nearest the middle of a back (the back's fill; CMYK pages shift it a little)."""
    w, h = image.size
    pixel = image.convert("RGB").getpixel((w // 2, h * 3 // 4))
    return min(COLOURS, key=lambda name: sum((a - b) ** 2 for a, b in zip(COLOURS[name], pixel)))


def card_on(image: Image.Image) -> str | None:
    codes = zxingcpp.read_barcodes(image)
    return parse_payload(codes[0].text).card_id if len(codes) == 1 else None


def pages(pdf: Path, dpi: int = 150) -> list[Image.Image]:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return [doc[i].render(scale=dpi / 72).to_pil().convert("RGB") for i in range(len(doc))]
    finally:
        doc.close()


def order(folder: Path) -> dict[str, dict[str, str]]:
    return {r["card_id"]: r for r in csv.DictReader(io.StringIO((folder / "order.csv").read_text()))}


@pytest.mark.pdf
@pytest.mark.parametrize("shop", ["tgc", "mpc"])
def test_image_shops_get_one_image_per_distinct_back(project, shop):
    folder = _exported(project, shop)
    rows = order(folder)
    backs = {card: rows[card]["back_files"] for card in CARDS}
    assert backs[SCOUT] == backs[MESSENGER] == "starter/starter-back-1.png"   # identical backs: one image
    assert len({backs[SCOUT], backs[BUILDER], backs[WILDCARD]}) == 3
    assert sorted(p.name for p in (folder / "starter").glob("*-back*.png")) == [
        "starter-back-1.png", "starter-back-2.png", "starter-back-3.png"]
    for card in CARDS:
        assert colour_of(Image.open(folder / backs[card])) == BACK_OF[card], card
        front = Image.open(folder / rows[card]["front_files"])
        assert card_on(front) == card
        assert rows[card]["quantity"] == str(QUANTITY[card])
    assert rows[SCOUT]["upload"] == ("upload starter/dragon-market-scout-front.png once, back "
                                     "starter/starter-back-1.png (one image behind 2 cards, 4 copies in all); "
                                     "order 3 copies")
    assert rows[BUILDER]["upload"].endswith("back starter/starter-back-2.png; order 2 copies")


@pytest.mark.pdf
def test_drivethru_puts_each_copys_own_back_before_its_front(project):
    folder = _exported(project, "drivethru")
    shown = pages(folder / "starter" / f"{GAME}-starter.pdf")
    copies = [card for card in CARDS for _ in range(QUANTITY[card])]
    assert len(shown) == 2 * len(copies)
    seen = [(colour_of(shown[i]), card_on(shown[i + 1])) for i in range(0, len(shown), 2)]
    assert seen == [(BACK_OF[card], card) for card in copies]
    assert all(card_on(shown[i]) is None for i in range(0, len(shown), 2))   # backs carry no code


@pytest.mark.pdf
def test_pdf_single_gives_each_copy_its_own_back(project):
    folder = _exported(project, "pdf-single")
    for card in CARDS:
        for n in range(1, QUANTITY[card] + 1):
            front, back = pages(folder / "starter" / f"{card}-{n}.pdf")
            assert card_on(front) == card and colour_of(back) == BACK_OF[card], (card, n)


def _local(url: str) -> Path:
    return Path(unquote(urlsplit(url).path))


@pytest.mark.pdf
def test_tts_deck_has_a_sheet_of_unique_backs(project):
    folder = _exported(project, "tts")
    saved = json.loads((folder / "starter.json").read_text())["ObjectStates"][0]
    (key, sheet), = saved["CustomDeck"].items()
    assert sheet["UniqueBack"] is True and sheet["BackIsHidden"] is True
    assert _local(sheet["BackURL"]) == folder / "starter-backs-1.png"
    assert not (folder / "starter-back.png").exists()
    faces, backs = Image.open(_local(sheet["FaceURL"])), Image.open(_local(sheet["BackURL"]))
    assert faces.size == backs.size   # the backs in the fronts' grid
    columns, rows = sheet["NumWidth"], sheet["NumHeight"]
    w, h = faces.width // columns, faces.height // rows
    cards = saved["ContainedObjects"]
    assert [c["GMNotes"].split()[0] for c in cards] == [card for card in CARDS for _ in range(QUANTITY[card])]
    for card in cards:
        slot = card["CardID"] - int(key) * 100
        box = ((slot % columns) * w, (slot // columns) * h, (slot % columns + 1) * w, (slot // columns + 1) * h)
        card_id = card["GMNotes"].split()[0]
        assert card_on(faces.crop(box)) == card_id
        assert colour_of(backs.crop(box)) == BACK_OF[card_id], card_id


@pytest.mark.pdf
def test_the_preflight_names_a_cards_own_back(project):
    """A preflight of its own lays out each card's back too (no error for the back reading `card`)."""
    _exported(project, "drivethru")
    result = pnp(project, "preflight", GAME, "--shop", "drivethru")
    assert result.exit_code == 0, result.output
