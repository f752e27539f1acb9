"""Tabletop Simulator export, checked against the saved-object format and by
looking at the sheets: grids, DeckIDs inside each sheet, image sizes, the
hidden slot, and QR codes decoded where DeckIDs say each card is."""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
import zxingcpp
from click.testing import CliRunner
from PIL import Image, ImageChops

from pnp.cli import main
from pnp.extras.tts import MAX_SIDE, cell_pixels, grid_for
from pnp.model import Size
from pnp.sources.qrpayload import parse_payload

pytestmark = pytest.mark.pdf

ROOT = Path(__file__).resolve().parents[2]


def export(project: Path, out: Path, game: str = "culture-war", *extra: str):
    result = CliRunner().invoke(main, ["--project", str(project), "export", game, "--shop", "tts", "--out", str(out), *extra])
    assert result.exit_code == 0, result.output
    return out / game / "shop-tts"


def local(url: str) -> Path:
    assert url.startswith("file:///"), url
    return Path(unquote(urlparse(url).path))


def many_cards(project: Path, count: int) -> None:
    deck = project / "card_sources/culture-war/anarchy.yaml"
    cards = "".join(
        f"  - id: unit-{i:03d}\n    name: Unit {i}\n    type: unit\n    quantity: {1 + i % 2}\n"
        f"    cost: 1\n    atk: {i % 5}\n    def: 1\n    unit_type: Mob\n" for i in range(count))
    deck.write_text("cards:\n" + cards)


def test_grids_never_exceed_ten_by_seven_and_keep_the_last_slot():
    assert (grid_for(1).columns, grid_for(1).rows) == (2, 1)
    assert (grid_for(9).columns, grid_for(9).rows) == (10, 1)
    assert (grid_for(10).columns, grid_for(10).rows) == (10, 2)
    assert (grid_for(69).columns, grid_for(69).rows) == (10, 7)
    with pytest.raises(ValueError):
        grid_for(70)
    w, h = cell_pixels(Size(63.5, 88.9, "poker"))
    assert 10 * w <= MAX_SIDE and 7 * h <= MAX_SIDE and w >= 400


def test_a_big_deck_splits_across_sheets_that_follow_the_format(mini_project, tmp_path):
    many_cards(mini_project, 75)
    folder = export(mini_project, tmp_path / "out", "culture-war", "--deck", "anarchy")
    saved = json.loads((folder / "anarchy.json").read_text())
    (deck,) = saved["ObjectStates"]
    assert deck["Name"] == "DeckCustom"
    assert sorted(deck["CustomDeck"]) == ["1", "2"]
    copies = sum(1 + i % 2 for i in range(75))
    assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"]) == copies
    back = Image.open(folder / "anarchy-back.png")
    for key, sheet in deck["CustomDeck"].items():
        assert sheet["NumWidth"] <= 10 and sheet["NumHeight"] <= 7 and sheet["BackIsHidden"] is True
        image = Image.open(local(sheet["FaceURL"]))
        assert image.width <= MAX_SIDE and image.height <= MAX_SIDE
        w, h = image.width // sheet["NumWidth"], image.height // sheet["NumHeight"]
        assert (image.width, image.height) == (w * sheet["NumWidth"], h * sheet["NumHeight"])
        assert back.size == (w, h) and local(sheet["BackURL"]) == folder / "anarchy-back.png"
        hidden = sheet["NumWidth"] * sheet["NumHeight"] - 1
        x, y = (hidden % sheet["NumWidth"]) * w, (hidden // sheet["NumWidth"]) * h
        assert ImageChops.difference(image.crop((x, y, x + w, y + h)), back.convert("RGB")).getbbox() is None
    for card_id, card in zip(deck["DeckIDs"], deck["ContainedObjects"]):
        sheet = deck["CustomDeck"][str(card_id // 100)]
        assert card["CardID"] == card_id
        assert card_id % 100 < sheet["NumWidth"] * sheet["NumHeight"] - 1, "a card in the hidden slot"
        assert list(card["CustomDeck"]) == [str(card_id // 100)]


def test_cards_sit_where_their_deck_ids_say(mini_project, tmp_path):
    folder = export(mini_project, tmp_path / "out")
    (deck,) = json.loads((folder / "anarchy.json").read_text())["ObjectStates"]
    seen = set()
    for card in deck["ContainedObjects"]:
        card_id, payload = card["GMNotes"].split("\n")
        parsed = parse_payload(payload)
        assert parsed.card_id == card_id and parsed.copy >= 1
        sheet = deck["CustomDeck"][str(card["CardID"] // 100)]
        image = Image.open(local(sheet["FaceURL"]))
        w, h = image.width // sheet["NumWidth"], image.height // sheet["NumHeight"]
        slot = card["CardID"] % 100
        cell = image.crop(((slot % sheet["NumWidth"]) * w, (slot // sheet["NumWidth"]) * h,
                           (slot % sheet["NumWidth"] + 1) * w, (slot // sheet["NumWidth"] + 1) * h))
        codes = zxingcpp.read_barcodes(cell.resize((w * 2, h * 2)))
        assert [parse_payload(c.text).card_id for c in codes] == [card_id], card["Nickname"]
        seen.add(card_id)
    assert seen == {"test-recruit", "test-brawler", "test-squat", "test-shield"}
    recruits = [c for c in deck["ContainedObjects"] if c["Nickname"] == "Test Recruit"]
    assert len(recruits) == 2 and len({c["GMNotes"] for c in recruits}) == 2


def test_url_base_rewrites_every_image_url(mini_project, tmp_path):
    folder = export(mini_project, tmp_path / "out", "culture-war", "--url-base", "https://example.org/cw/")
    text = (folder / "culture-war.json").read_text()
    assert "file://" not in text
    (deck,) = json.loads((folder / "anarchy.json").read_text())["ObjectStates"]
    assert deck["CustomDeck"]["1"]["FaceURL"] == "https://example.org/cw/anarchy-sheet-1.png"


@pytest.fixture(scope="module")
def petri(tmp_path_factory):
    out = tmp_path_factory.mktemp("tts-petri")
    return export(ROOT, out, "petri-dish")


def test_tokens_become_tiles_and_boards_a_board(petri):
    saved = json.loads((petri / "petri-dish.json").read_text())
    objects = saved["ObjectStates"]
    board = next(o for o in objects if o["Name"] == "Custom_Board")
    image = Image.open(local(board["CustomImage"]["ImageURL"]))
    assert max(image.size) <= MAX_SIDE and abs(image.width / image.height - board["CustomImage"]["WidthScale"]) < 0.01
    bags = [o for o in objects if o["Name"] == "Bag"]
    assert bags
    tiles = [t for bag in bags for t in bag["ContainedObjects"]]
    assert len(tiles) >= 32 and all(t["Name"] == "Custom_Tile" for t in tiles)
    assert all(local(t["CustomImage"]["ImageURL"]).is_file() for t in tiles)
