"""The non-card printables of Debate and Political Divide & Conquer: the forum
board, markers, mats, score pad, rule sheets and quick-reference cards.

Everything is measured in the built PDFs (content streams, extracted text,
rasters), against physical truths written out here (a poker card is
63.5 x 88.9 mm) and against the sources' own data (house-rule defaults,
the starting fortitude the board is printed for).
"""
from __future__ import annotations

import json
import math
import re
import shutil
from decimal import Decimal
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
import yaml
import zxingcpp
from PIL import Image, ImageChops, ImageStat

pytestmark = pytest.mark.pdf

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("debate", "divide-and-conquer")
POKER_W, POKER_H = 63.5, 88.9
MM_PER_PT = 25.4 / 72.0
DPI = 100

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def mat_mul(m: Matrix, n: Matrix) -> Matrix:
    """m then n (a `cm` operand m makes the new CTM m x CTM)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


# --------------------------------------------------------------------------- builds

def _project(dest: Path) -> Path:
    """These two games alone, with the real templates, so other games' work in
    progress cannot interfere."""
    shutil.copytree(ROOT / "templates", dest / "templates")
    for game in GAMES:
        shutil.copytree(ROOT / "card_sources" / game, dest / "card_sources" / game)
    return dest


def _build(tmp: Path, paper: str) -> Path:
    from pnp.pipeline.options import BuildOptions
    from pnp.pipeline.orchestrator import build
    from pnp.model import PAPERS

    project = _project(tmp / "project")
    out = tmp / "out"
    build(project, list(GAMES), out, BuildOptions(paper=PAPERS[paper]))
    return out


@pytest.fixture(scope="module")
def a4(tmp_path_factory) -> Path:
    return _build(tmp_path_factory.mktemp("docs-a4"), "a4")


@pytest.fixture(scope="module")
def a3(tmp_path_factory) -> Path:
    return _build(tmp_path_factory.mktemp("docs-a3"), "a3")


def manifest(out: Path, game: str) -> dict:
    return json.loads((out / game / "manifest.json").read_text())


def file_entry(out: Path, game: str, name: str) -> dict:
    return next(f for f in manifest(out, game)["files"] if f["file"] == name)


def game_yaml(game: str) -> dict:
    return yaml.safe_load((ROOT / "card_sources" / game / "game.yaml").read_text())


def document(game: str, doc_id: str) -> dict:
    return next(d for d in game_yaml(game)["documents"] if d["id"] == doc_id)


def pdf_text(path: Path) -> str:
    """All pages' text, with minus signs as ASCII and whitespace collapsed."""
    pdf = pdfium.PdfDocument(str(path))
    parts = []
    for page in pdf:
        tp = page.get_textpage()
        parts.append(tp.get_text_range())
        tp.close()
    pdf.close()
    text = " ".join(parts).replace("\u2212", "-").replace("\u00ad", "")
    return re.sub(r"\s+", " ", text)


def page_texts(path: Path) -> list[str]:
    pdf = pdfium.PdfDocument(str(path))
    out = []
    for page in pdf:
        tp = page.get_textpage()
        out.append(tp.get_text_range())
        tp.close()
    pdf.close()
    return out


# --------------------------------------------------------------------------- rule sheets

@pytest.mark.parametrize("game", GAMES)
def test_rule_sheet_states_every_house_rule_default(a4, game):
    text = pdf_text(a4 / game / "rules-rules.pdf")
    rules = document(game, "rules")["data"]["house_rules"]
    assert rules, "the rule sheet's data lists its house rules"
    for rule in rules:
        assert rule["name"] in text, rule["name"]
        assert str(rule["default"]) in text, f"{rule['name']}: default {rule['default']!r} not on the sheet"
    # how to change them: the referee's command, and the generic key form
    assert f"referee new {game}" in text
    assert "--house-rule KEY=VALUE" in text
    assert "referee games" in text


@pytest.mark.parametrize("game", GAMES)
def test_rule_sheet_names_every_referee_house_rule_with_its_default(a4, game):
    """Whatever keys the referee offers for the game, the sheet states them."""
    from referee.rules import rules_for

    text = pdf_text(a4 / game / "rules-rules.pdf")
    declared = {r["key"] for r in document(game, "rules")["data"]["house_rules"] if r["key"]}
    for key, rule in rules_for(game).house_rules.items():
        assert key in declared, f"referee house rule {key!r} is missing from {game}'s rules data"
        shown = f"{key}={rule.default}" if rule.default is not None else key
        assert shown in text, f"{shown!r} not on the {game} rule sheet"
    for key in declared:
        assert key in rules_for(game).house_rules, f"the sheet names {key!r}, which the referee does not know"


def test_debate_rule_sheet_holds_the_binding_decisions_and_worked_examples(a4):
    text = pdf_text(a4 / "debate" / "rules-rules.pdf")
    fort = document("debate", "forum")["data"]["fortitude_start"]
    for needle in (
        f"Starting fortitude {fort}",              # the table row
        "half away from zero", "8.5 becomes 9",   # rounding, with the example
        "full strength",                           # an unblocked argument
        "-10 to +10", "crowd-spread=10",           # the starting crowd
        "10 - 6 = 4",                              # overage 10 vs 6
        "9 - 0.9 = 8.1", "9 + 0.9 = 9.9",          # 9/5 BF -> 8, 9/6 GF -> 10 at +10
        "-7", "-9", "-10", "-8",                   # the crowd walk
        "referee",
    ):
        assert needle in text, needle


def test_divide_and_conquer_rule_sheet_holds_its_examples(a4):
    text = pdf_text(a4 / "divide-and-conquer" / "rules-rules.pdf")
    for needle in ("3 + 3 - 1 = 5", "2 + 1 + 4 + 3 = 10", "3 + 2 + 5 = 10", "a tie goes to the defender",
                   "15 - 2 = 13", "17 - 4 = 13", "more cards in", "referee"):
        assert needle in text, needle


# --------------------------------------------------------------------------- the forum board

def _form(pdf: pikepdf.Pdf) -> pikepdf.Object:
    forms = [xo for xo in pdf.pages[0].Resources.XObject.values() if xo.get("/Subtype") == "/Form"]
    assert len(forms) == 1, "the board is drawn once, as one form, and placed on every tile"
    return forms[0]


def _stroked_rects(stream_owner) -> list[tuple[float, float, float, float]]:
    """Every stroked `re` rectangle in a content stream, in mm (x0, y0, x1, y1)."""
    ctm = IDENTITY
    stack, pending, out = [], [], []
    for operands, operator in pikepdf.parse_content_stream(stream_owner):
        op = str(operator)
        args = [float(v) for v in operands if isinstance(v, (int, float, Decimal))]
        if op == "q":
            stack.append(ctm)
        elif op == "Q":
            ctm = stack.pop()
        elif op == "cm":
            ctm = mat_mul(tuple(args), ctm)
        elif op == "re":
            x, y, w, h = args
            (ax, ay), (bx, by) = apply(ctm, x, y), apply(ctm, x + w, y + h)
            pending.append(tuple(v * MM_PER_PT for v in (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))))
        elif op in ("S", "s", "B", "B*", "b", "b*"):      # stroked: keep
            out += pending
            pending = []
        elif op in ("f", "F", "f*", "n"):                 # filled only, or a clip path: drop
            pending = []
    return out


def test_forum_has_14_thread_slots_that_hold_a_poker_card(a4):
    with pikepdf.open(a4 / "debate" / "board-forum.pdf") as pdf:
        rects = _stroked_rects(_form(pdf))
    slots = [r for r in rects if 60 <= r[2] - r[0] <= 80 and 85 <= r[3] - r[1] <= 110]
    assert len(slots) == 14, slots
    for x0, y0, x1, y1 in slots:
        assert x1 - x0 >= POKER_W and y1 - y0 >= POKER_H, (x1 - x0, y1 - y0)
    rows = sorted({round(s[1], 1) for s in slots})
    cols = sorted({round(s[0], 1) for s in slots})
    assert len(rows) == 2 and len(cols) == 7, (rows, cols)
    # neighbours do not overlap: each card can lie flat in its own slot
    ordered = sorted(slots)
    for a, b in zip(ordered, ordered[1:]):
        if abs(a[1] - b[1]) < 0.1:
            assert b[0] >= a[2], (a, b)


def test_forum_board_is_true_size_and_tiled(a4, a3):
    size = document("debate", "forum")["size"]
    a4_entry = file_entry(a4, "debate", "board-forum.pdf")
    assert a4_entry["size_mm"] == [size["width"], size["height"]]
    assert a4_entry["pages"] > 1 and min(v for v in a4_entry["overlap_mm"] if v) >= 10
    with pikepdf.open(a4 / "debate" / "board-forum.pdf") as pdf:
        x0, y0, x1, y1 = (float(v) * MM_PER_PT for v in _form(pdf).BBox)
    assert math.isclose(x1 - x0, size["width"], abs_tol=0.01) and math.isclose(y1 - y0, size["height"], abs_tol=0.01)
    # seven poker cards side by side never fit one A3 sheet, so A3 tiles too
    assert size["width"] > 420
    assert file_entry(a3, "debate", "board-forum.pdf")["pages"] > 1
    texts = page_texts(a4 / "debate" / "board-forum.pdf")
    for i, entry in enumerate(a4_entry["tiles"]):
        label = f"row {entry['row']}, column {entry['column']} of"
        assert label in texts[i], (i, texts[i][-200:])


def test_crowd_track_labels_every_step_from_minus_30_to_plus_30(a4):
    words = set(pdf_text(a4 / "debate" / "board-forum.pdf").split())
    for v in range(-30, 31):
        label = f"{v:+d}" if v else "0"
        assert label in words, label
    text = pdf_text(a4 / "debate" / "board-forum.pdf")
    assert "IRRATIONAL MOB" in text and "ENLIGHTENED CITIZEN" in text


def test_fortitude_tracks_are_sized_to_the_starting_fortitude(a4):
    data = document("debate", "forum")["data"]
    rules = document("debate", "rules")["data"]
    assert data["fortitude_start"] == rules["fortitude_start"]
    words = pdf_text(a4 / "debate" / "board-forum.pdf").split()
    top = str(data["fortitude_start"])
    assert words.count(top) >= 2, "one fortitude track per player, each reaching the start"
    assert str(data["fortitude_start"] + 1) not in words
    assert f"starts on {top}" in " ".join(words)
    # the referee, once it offers a starting-fortitude key, agrees with the board
    from referee.rules import rules_for
    for key, rule in rules_for("debate").house_rules.items():
        if "fortitude" in key:
            assert rule.default == data["fortitude_start"], (key, rule.default)
        if key == "crowd-spread":   # the bracket under the crowd track
            assert rule.default == data["crowd_spread"], (key, rule.default)
    # and so does the quick-reference card
    ref = yaml.safe_load((ROOT / "card_sources/debate/reference.yaml").read_text())["cards"][0]
    assert f"Fortitude: {top}" in " ".join(ref["numbers"])


# --------------------------------------------------------------------------- tiles reassemble

def _render(path: Path, page: int, dpi: int = DPI) -> tuple[Image.Image, float, float]:
    """Page `page` (1-based) in grey, with the page size in mm."""
    pdf = pdfium.PdfDocument(str(path))
    w_pt, h_pt = pdf[page - 1].get_size()
    image = pdf[page - 1].render(scale=dpi / 72.0).to_pil().convert("L")
    pdf.close()
    return image, w_pt * MM_PER_PT, h_pt * MM_PER_PT


def _board_crop(tile: dict, page_img, box_mm, shift=(0.0, 0.0)) -> Image.Image:
    """The board region `box_mm` (board mm, origin bottom-left) as this tile
    printed it, resampled onto a common 0.2 mm grid."""
    image, pw, ph = page_img
    sx, sy = image.width / pw, image.height / ph      # px per mm, per axis
    ox, oy = tile["origin_mm"]
    bx0, by0, bx1, by1 = box_mm
    step = 0.2
    size = (int((bx1 - bx0) / step), int((by1 - by0) / step))
    left = (ox + bx0 + shift[0]) * sx
    top = (ph - (oy + by1 + shift[1])) * sy
    return image.transform(size, Image.AFFINE, (step * sx, 0, left, 0, step * sy, top), resample=Image.BILINEAR)


def _pairs(tiles: list[dict]):
    by_pos = {(t["row"], t["column"]): (i + 1, t) for i, t in enumerate(tiles)}
    for (r, c), a in by_pos.items():
        for nb in ((r, c + 1), (r + 1, c)):
            if nb in by_pos:
                yield a, by_pos[nb]


@pytest.mark.parametrize("paper", ["a4", "a3"])
def test_tiled_board_overlaps_match(request, paper):
    out = request.getfixturevalue(paper)
    path = out / "debate" / "board-forum.pdf"
    tiles = file_entry(out, "debate", "board-forum.pdf")["tiles"]
    pairs = list(_pairs(tiles))
    assert pairs, "a tiled board has neighbouring tiles"
    for (pa, ta), (pb, tb) in pairs:
        wa, wb = ta["window_mm"], tb["window_mm"]
        box = (max(wa[0], wb[0]), max(wa[1], wb[1]), min(wa[2], wb[2]), min(wa[3], wb[3]))
        assert box[2] - box[0] >= 10 - 1e-6 or box[3] - box[1] >= 10 - 1e-6, box
        inner = (box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2)   # leave out the dashed tile edges
        img_a, img_b = _render(path, pa), _render(path, pb)
        crop_a, crop_b = _board_crop(ta, img_a, inner), _board_crop(tb, img_b, inner)
        assert ImageStat.Stat(crop_a).stddev[0] > 10, "the overlap shows some of the board, not blank paper"
        diff = ImageStat.Stat(ImageChops.difference(crop_a, crop_b)).mean[0]
        assert diff < 3.0, f"tiles {pa} and {pb} disagree in their overlap (mean difference {diff:.2f})"
        # the comparison can tell: the same overlap read 1.5 mm off does not match
        off = _board_crop(tb, img_b, inner, shift=(1.5, 1.5))
        assert ImageStat.Stat(ImageChops.difference(crop_a, off)).mean[0] > 2 * diff + 2


# --------------------------------------------------------------------------- every sheet, tokens, mats, pads

@pytest.mark.parametrize("game", GAMES)
def test_every_sheet_carries_the_50_mm_bar(a4, game):
    """Every page of every board, mat, pad, deck and rule sheet."""
    files = [f["file"] for f in manifest(a4, game)["files"]]
    assert any(f.startswith("rules-") for f in files) and any(f.startswith(("board-", "page-")) for f in files)
    for name in files:
        for i, text in enumerate(page_texts(a4 / game / name), start=1):
            assert "50 mm" in text, f"{game}/{name} page {i} has no 50 mm bar"


def test_markers_are_one_sided_tokens_a_hand_can_cut(a4):
    entry = file_entry(a4, "debate", "deck-tokens.pdf")
    assert entry["pages"] == 1
    cards = [c for c in manifest(a4, "debate")["cards"] if c["deck"] == "tokens"]
    ids = {c["id"] for c in cards}
    assert {"deb-crowd-marker", "deb-fortitude-gold", "deb-fortitude-navy"} <= ids
    for c in cards:
        x0, y0, x1, y1 = c["front"]["trim_mm"]
        assert 18 <= x1 - x0 <= 22 and 18 <= y1 - y0 <= 22, c
        assert c["back"] is None, "markers print one-sided"


@pytest.mark.parametrize("game, card_id", [("debate", "deb-quick-reference"),
                                           ("divide-and-conquer", "dc-quick-reference")])
def test_quick_reference_is_a_poker_card_whose_qr_decodes(a4, game, card_id):
    cards = [c for c in manifest(a4, game)["cards"] if c["id"] == card_id]
    assert cards
    x0, y0, x1, y1 = cards[0]["front"]["trim_mm"]
    assert math.isclose(x1 - x0, POKER_W, abs_tol=0.01) and math.isclose(y1 - y0, POKER_H, abs_tol=0.01)
    image, pw, ph = _render(a4 / game / cards[0]["file"], cards[0]["front"]["page"], dpi=300)
    sx, sy = image.width / pw, image.height / ph
    x0, y0, x1, y1 = cards[0]["front"]["trim_mm"]
    codes = zxingcpp.read_barcodes(image.crop((int(x0 * sx), int((ph - y1) * sy), int(x1 * sx), int((ph - y0) * sy))))
    assert [c.text for c in codes] == [cards[0]["qr"]]
    revision = cards[0]["qr"].split(":")[2]
    assert cards[0]["qr"] == f"PNP:{card_id.upper()}:{revision}:1"


def test_table_and_player_mats_show_every_zone_the_rulebook_names(a4):
    text = pdf_text(a4 / "divide-and-conquer" / "page-table-mat.pdf") + " " + \
        pdf_text(a4 / "divide-and-conquer" / "page-player-mat.pdf")
    for zone in ("DECK", "BASE", "UNAFFILIATED", "DISCARD", "ATTACK TEAM", "DEFENCE TEAM"):
        assert zone in text, zone


def test_score_pad_has_rows_for_eight_players_and_the_three_totals(a4):
    path = a4 / "divide-and-conquer" / "page-score-pad.pdf"
    text = pdf_text(path)
    data = document("divide-and-conquer", "score-pad")["data"]
    assert data["players"] == 8
    for head in ("RIGHT-WING TOTAL", "LEFT-WING TOTAL", "NET = BIGGER - SMALLER"):
        assert text.count(head) == data["games"], head
    words = text.split()
    for n in range(1, 9):
        assert words.count(str(n)) >= data["games"], n
    # each game's block is a grid of stroked cells: 6 columns x (8 players), plus the header row
    with pikepdf.open(path) as pdf:
        rects = []
        for xo in pdf.pages[0].Resources.XObject.values():
            if xo.get("/Subtype") == "/Form":
                rects += _stroked_rects(xo)
    cells = [r for r in rects if 3 <= r[3] - r[1] <= 12 and r[2] - r[0] >= 15]
    assert len(cells) >= data["games"] * 6 * (data["players"] + 1), len(cells)


def test_divide_and_conquer_sheet_counts_the_real_deck(a4):
    """The rule sheet's deck size is the shared deck as printed."""
    copies = sum(1 for c in manifest(a4, "divide-and-conquer")["cards"] if c["deck"] == "shared")
    text = pdf_text(a4 / "divide-and-conquer" / "rules-rules.pdf")
    assert f"all {copies} cards" in text and f"({copies} cards" in text


def test_far_player_text_on_the_forum_faces_the_far_player(a4):
    """Every label meant for the far player is printed turned half round, so
    it reads from their side of the table; the near player's reads from theirs."""
    import math

    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument(str(a4 / "debate" / "board-forum.pdf"))
    far = near = 0
    for page in pdf:
        text = page.get_textpage()
        full = text.get_text_range()
        for match in re.finditer(r"far player|near player", full):
            angle = raw.FPDFText_GetCharAngle(text.raw, match.start())
            if match.group() == "far player":
                far += 1
                assert abs(angle - math.pi) < 0.01, f"'far player' label at angle {angle:.2f} rad, not turned"
            else:
                near += 1
                assert abs(angle) < 0.01 or abs(angle - 2 * math.pi) < 0.01, f"'near player' label turned ({angle:.2f})"
    assert far >= 15 and near >= 15, (far, near)
