"""Tabletop Simulator export, checked against the saved-object format and by
looking at the sheets: grids, DeckIDs inside each sheet, image sizes, the
hidden slot, and QR codes decoded where DeckIDs say each card is."""
from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
import zxingcpp
from click.testing import CliRunner
from PIL import Image, ImageChops

from pnp.cli import main
from pnp.extras.ttsobjects import MAX_SIDE, _SheetKeys, bbcode, card_scale, cell_pixels, check_url_base, grid_for
from pnp.errors import PnpError
from pnp.model import CARD_PRESETS, Size
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
    assert (grid_for(69).columns, grid_for(69).rows) == (10, 7)
    with pytest.raises(ValueError):
        grid_for(70)
    w, h = cell_pixels(Size(63.5, 88.9, "poker"))
    assert 10 * w <= MAX_SIDE and 7 * h <= MAX_SIDE and w >= 400


@pytest.mark.parametrize("card", [Size(63.5, 88.9, "poker"), Size(44, 68, "mini-euro"), Size(69.85, 120.65, "tarot"),
                                  Size(88.9, 63.5, "landscape")])
def test_the_grid_gives_the_sharpest_faces_within_4096_px(card):
    """Every grid of at most 10 x 7 that holds the cards and the hidden slot, tried by
    hand: none gives larger faces than the one chosen (a 14-card deck no longer 409 px wide)."""
    for cards in range(1, 70):
        grid = grid_for(cards, card)
        w, h = grid.cell
        assert grid.slots >= cards + 1 and grid.columns <= 10 and grid.rows <= 7
        assert grid.columns * w <= MAX_SIDE and grid.rows * h <= MAX_SIDE
        assert w <= round(card.width / 25.4 * 300) + 1   # never beyond 300 dpi
        for c in range(2, 11):
            for r in range(1, 8):
                if c * r >= cards + 1:
                    dpi = min(300, 4096 * 25.4 / (c * card.width), 4096 * 25.4 / (r * card.height))
                    assert w >= int(card.width / 25.4 * dpi) - 1, (cards, c, r, grid)
    poker = grid_for(14)
    assert (poker.columns, poker.rows, poker.cell) == (5, 3, (750, 1050))


def test_a_big_deck_splits_across_sheets_that_follow_the_format(mini_project, tmp_path):
    many_cards(mini_project, 75)
    folder = export(mini_project, tmp_path / "out", "culture-war", "--deck", "anarchy")
    saved = json.loads((folder / "anarchy.json").read_text())
    (deck,) = saved["ObjectStates"]
    assert deck["Name"] == "DeckCustom"
    assert len(deck["CustomDeck"]) == 2
    copies = sum(1 + i % 2 for i in range(75))
    assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"]) == copies
    back = Image.open(folder / "anarchy-back.png")
    for key, sheet in deck["CustomDeck"].items():
        # TTS: with BackIsHidden false the last slot is the hidden-card image; ours holds the back
        assert sheet["NumWidth"] <= 10 and sheet["NumHeight"] <= 7 and sheet["BackIsHidden"] is False
        image = Image.open(local(sheet["FaceURL"]))
        assert image.width <= MAX_SIDE and image.height <= MAX_SIDE
        w, h = image.width // sheet["NumWidth"], image.height // sheet["NumHeight"]
        assert (image.width, image.height) == (w * sheet["NumWidth"], h * sheet["NumHeight"])
        assert local(sheet["BackURL"]) == folder / "anarchy-back.png"
        hidden = sheet["NumWidth"] * sheet["NumHeight"] - 1
        x, y = (hidden % sheet["NumWidth"]) * w, (hidden // sheet["NumWidth"]) * h
        hidden_image = image.crop((x, y, x + w, y + h))
        assert ImageChops.difference(hidden_image, back.convert("RGB").resize((w, h))).getbbox() is None or \
            _mean_difference(hidden_image, back.convert("RGB").resize((w, h))) < 8
    # the cards are shared evenly: two sheets of the same grid, not 69 and 6
    grids = {(s["NumWidth"], s["NumHeight"]) for s in deck["CustomDeck"].values()}
    assert len(grids) == 1, grids
    for card_id, card in zip(deck["DeckIDs"], deck["ContainedObjects"]):
        sheet = deck["CustomDeck"][str(card_id // 100)]
        assert card["CardID"] == card_id
        assert card_id % 100 < sheet["NumWidth"] * sheet["NumHeight"] - 1, "a card in the hidden slot"
        assert list(card["CustomDeck"]) == [str(card_id // 100)]


def _mean_difference(a, b) -> float:
    """Mean absolute difference per channel (0-255): the hidden slot is the back drawn at the cell's size."""
    diff = ImageChops.difference(a, b).convert("L")
    return sum(i * n for i, n in enumerate(diff.histogram())) / (diff.width * diff.height)


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
    (sheet,) = deck["CustomDeck"].values()
    assert sheet["FaceURL"] == "https://example.org/cw/anarchy-sheet-1.png"


def test_url_base_needs_a_scheme_and_is_percent_encoded(mini_project, tmp_path):
    for bad in ("example.org/cw", "www.example.org", "ftp://example.org/cw", "https:///cw", "https://x.org/a?b=1"):
        with pytest.raises(PnpError, match="--url-base"):
            check_url_base(bad)
    assert check_url_base("https://example.org/my game/ü") == "https://example.org/my%20game/%C3%BC/"
    assert check_url_base("HTTPS://example.org/a%20b") == "https://example.org/a%20b/"   # kept, not encoded twice
    result = CliRunner().invoke(main, ["--project", str(mini_project), "export", "culture-war", "--shop", "tts",
                                       "--out", str(tmp_path / "out"), "--url-base", "example.org/cw"])
    assert result.exit_code != 0 and "scheme" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "out").exists()   # nothing drawn, nothing written
    folder = export(mini_project, tmp_path / "ok", "culture-war", "--url-base", "https://example.org/my cw")
    (deck,) = json.loads((folder / "anarchy.json").read_text())["ObjectStates"]
    (sheet,) = deck["CustomDeck"].values()
    assert sheet["FaceURL"] == "https://example.org/my%20cw/anarchy-sheet-1.png"


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


# --------------------------------------------------------------------------- issue 28, section 4

@pytest.fixture(scope="module")
def culture_war_mixed(tmp_path_factory):
    out = tmp_path_factory.mktemp("tts-cw")
    return export(ROOT, out, "culture-war", "--deck", "anarchy", "--deck", "community", "--deck", "reference")


def _cards(obj):
    return obj["ContainedObjects"] if obj["Name"] == "DeckCustom" else [obj]


def test_a_mixed_save_has_one_key_per_sheet_and_no_card_id_twice(culture_war_mixed):
    """Merge every deck of the save into one pile, as a player does on the table:
    every CardID still names exactly one sheet image and slot."""
    saved = json.loads((culture_war_mixed / "culture-war.json").read_text())
    decks = [o for o in saved["ObjectStates"] if o["Name"] in ("DeckCustom", "Card")]
    assert len(decks) == 3
    keys = [k for d in decks for k in (d["CustomDeck"] if d["Name"] == "DeckCustom" else {})]
    assert len(keys) == len(set(keys)), keys
    faces = {}
    for deck in decks:
        for card in _cards(deck):
            key = str(card["CardID"] // 100)
            faces.setdefault(key, set()).add(card["CustomDeck"][key]["FaceURL"])
    assert all(len(urls) == 1 for urls in faces.values()), faces
    by_sheet_and_slot = {}
    for deck in decks:
        for card in _cards(deck):
            by_sheet_and_slot.setdefault(card["CardID"], set()).add(card["GMNotes"].split("\n")[0])
    assert all(len(ids) == 1 for ids in by_sheet_and_slot.values())   # one CardID, one card
    # a deck's own file uses the same keys as the whole save
    anarchy = json.loads((culture_war_mixed / "anarchy.json").read_text())["ObjectStates"][0]
    assert anarchy["CustomDeck"] == decks[0]["CustomDeck"]


def test_our_games_number_their_sheets_apart():
    """Decks saved from two of our games can be mixed on one table: each game's
    keys start from its own base, so 50 sheets of one never meet another's."""
    ranges = []
    for slug in ("culture-war", "cold-war", "debate", "divide-and-conquer", "petri-dish"):
        keys = _SheetKeys(slug)
        ranges.append({keys.take() for _ in range(50)})
    assert sum(len(r) for r in ranges) == len(set().union(*ranges)) == 250


def test_descriptions_are_bbcode_not_our_tokens(culture_war_mixed):
    saved = json.loads((culture_war_mixed / "culture-war.json").read_text())
    texts = [c["Description"] for o in saved["ObjectStates"] if o["Name"] in ("DeckCustom", "Card")
             for c in _cards(o)]
    assert any("[b]" in t for t in texts) and any("attack" in t for t in texts)
    for text in texts:
        assert "**" not in text and not re.search(r"\{[a-z0-9-]+\}", text), text
        assert text.count("[b]") == text.count("[/b]")
    assert bbcode("**Rush**: +1 {atk} and 1 {capital}; {mystery-icon}") == \
        "[b]Rush[/b]: +1 attack and 1 capital; mystery icon"


def test_cards_go_to_hands(culture_war_mixed):
    saved = json.loads((culture_war_mixed / "culture-war.json").read_text())
    cards = [c for o in saved["ObjectStates"] if o["Name"] in ("DeckCustom", "Card") for c in _cards(o)]
    assert cards and all(c["Hands"] is True for c in cards)


def test_card_sizes_are_the_transform_scale(mini_project, tmp_path):
    assert card_scale(CARD_PRESETS["poker"]) == {"scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}
    square = card_scale(CARD_PRESETS["square"])
    assert square["scaleX"] == 1.0 and abs(square["scaleZ"] - 63.5 / 88.9) < 1e-3
    mini = card_scale(CARD_PRESETS["mini-euro"])
    assert abs(mini["scaleX"] - 44 / 63.5) < 1e-3 and abs(mini["scaleZ"] - 68 / 88.9) < 1e-3
    game = mini_project / "card_sources/culture-war/game.yaml"
    game.write_text(game.read_text().replace("  - id: anarchy\n", "  - id: anarchy\n    card_size: tarot\n"))
    folder = export(mini_project, tmp_path / "out")
    (deck,) = json.loads((folder / "anarchy.json").read_text())["ObjectStates"]
    for obj in [deck, *deck["ContainedObjects"]]:
        t = obj["Transform"]
        assert abs(t["scaleX"] - 69.85 / 63.5) < 1e-3 and abs(t["scaleZ"] - 120.65 / 88.9) < 1e-3, t
    (sheet,) = deck["CustomDeck"].values()
    image = Image.open(local(sheet["FaceURL"]))
    w, h = image.width / sheet["NumWidth"], image.height / sheet["NumHeight"]
    assert abs(w / h - 69.85 / 120.65) < 0.01   # the sheet's cells are tarot-shaped too


def test_sheets_drawn_by_workers_are_the_bytes_of_one_process(mini_project, tmp_path, monkeypatch):
    many_cards(mini_project, 75)   # two sheets, a back, and the tokens: several tasks
    monkeypatch.setenv("PNP_JOBS", "1")
    one = export(mini_project, tmp_path / "one")
    monkeypatch.setenv("PNP_JOBS", "2")
    two = export(mini_project, tmp_path / "two")
    images = sorted(p.name for p in one.glob("*.png"))
    assert "anarchy-sheet-2.png" in images
    assert images == sorted(p.name for p in two.glob("*.png"))
    assert all((one / n).read_bytes() == (two / n).read_bytes() for n in images)


def test_a_failed_export_leaves_the_last_one_and_no_staged_files(mini_project, tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_JOBS", "2")
    folder = export(mini_project, tmp_path / "out")
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    deck = mini_project / "card_sources/culture-war/anarchy.yaml"
    deck.write_text(deck.read_text().replace("+1 {atk} when", "+1 {nosuchicon} when"))
    result = CliRunner().invoke(main, ["--project", str(mini_project), "export", "culture-war", "--shop", "tts",
                                       "--out", str(tmp_path / "out")])
    assert result.exit_code != 0 and "nosuchicon" in result.output, result.output
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert [p.name for p in folder.parent.iterdir()] == ["shop-tts"]   # the staging folder is gone
