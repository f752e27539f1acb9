"""The printables that are not cards, for Culture War and the Petri dish:
score sheet, player mat, coins, quick-reference cards, rule sheets, board.

Both games are built once per module into a temp folder; every check reads
the produced PDFs (text through pypdfium2, vector geometry through pikepdf,
rasters through pypdfium2) and compares them with the sources' data and with
the referee's own rules, never with pnp's layout code.
"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
import yaml
import zxingcpp
from PIL import Image, ImageChops, ImageFilter, ImageStat

pytestmark = pytest.mark.pdf

ROOT = Path(__file__).resolve().parents[2]
CW, PD = "culture-war", "petri-dish"
MM_PER_PT = 25.4 / 72.0
TOL = 0.1  # mm
POKER = (63.5, 88.9)


# --------------------------------------------------------------------------- builds and sources

def _build(out: Path, paper: str, games: list[str]) -> Path:
    from pnp.pipeline.options import BuildOptions
    from pnp.pipeline.orchestrator import build
    from pnp.model import PAPERS

    build(ROOT, games, out, BuildOptions(paper=PAPERS[paper]))
    return out


@pytest.fixture(scope="module")
def a4(tmp_path_factory) -> Path:
    return _build(tmp_path_factory.mktemp("docs-a4"), "a4", [CW, PD])


@pytest.fixture(scope="module")
def letter(tmp_path_factory) -> Path:
    return _build(tmp_path_factory.mktemp("docs-letter"), "letter", [CW, PD])


def manifest(out: Path, game: str) -> dict:
    return json.loads((out / game / "manifest.json").read_text())


def game_yaml(game: str) -> dict:
    return yaml.safe_load((ROOT / "card_sources" / game / "game.yaml").read_text())


def document(game: str, doc_id: str) -> dict:
    return next(d for d in game_yaml(game)["documents"] if d["id"] == doc_id)


def pdf_text(path: Path, page: int | None = None) -> str:
    """The text of one page (1-based) or of the whole file, whitespace collapsed."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        pages = range(len(pdf)) if page is None else [page - 1]
        parts = []
        for i in pages:
            tp = pdf[i].get_textpage()
            parts.append(tp.get_text_range())
            tp.close()
        return re.sub(r"\s+", " ", " ".join(parts).replace("\u00ad", "")).strip()
    finally:
        pdf.close()


def page_count(path: Path) -> int:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return len(pdf)
    finally:
        pdf.close()


def render(path: Path, page: int, dpi: int) -> Image.Image:
    pdf = pdfium.PdfDocument(str(path))
    try:
        return pdf[page - 1].render(scale=dpi / 72.0).to_pil().convert("RGB")
    finally:
        pdf.close()


# --------------------------------------------------------------------------- vector geometry

def _mul(m, n):
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _apply(m, x, y):
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def stroked_paths(page: pikepdf.Page) -> list[tuple[list[list[tuple[float, float]]], bool]]:
    """Every painted path on the page, forms included: (subpaths of points in
    page mm, stroked?). Curves keep only their end points."""
    out: list = []

    def walk(stream_owner, resources, ctm):
        stack, path, sub = [], [], []
        for operands, op in pikepdf.parse_content_stream(stream_owner):
            op = str(op)
            vals = [float(v) for v in operands] if op in ("cm", "m", "l", "c", "v", "y", "re") else []
            if op == "q":
                stack.append(ctm)
            elif op == "Q":
                ctm = stack.pop()
            elif op == "cm":
                ctm = _mul(tuple(vals), ctm)
            elif op == "m":
                sub = [_apply(ctm, *vals)]
                path.append(sub)
            elif op == "l":
                sub.append(_apply(ctm, *vals))
            elif op in ("c", "v", "y"):
                sub.append(_apply(ctm, *vals[-2:]))
            elif op == "re":
                x, y, w, h = vals
                path.append([_apply(ctm, x, y), _apply(ctm, x + w, y), _apply(ctm, x + w, y + h), _apply(ctm, x, y + h)])
            elif op in ("S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n"):
                if op != "n":
                    out.append(([[(x * MM_PER_PT, y * MM_PER_PT) for x, y in s] for s in path],
                                op in ("S", "s", "B", "B*", "b", "b*")))
                path, sub = [], []
            elif op == "Do":
                xobj = resources.XObject[operands[0]]
                if xobj.get("/Subtype") == "/Form":
                    m = tuple(float(v) for v in xobj.get("/Matrix", [1, 0, 0, 1, 0, 0]))
                    walk(xobj, xobj.get("/Resources", resources), _mul(m, ctm))

    walk(page, page.obj.get("/Resources"), (1, 0, 0, 1, 0, 0))
    return out


def crosses(page: pikepdf.Page, arm_max: float = 12.0) -> list[tuple[float, float]]:
    """Centres (page mm) of crosses: a horizontal and a vertical single-segment
    stroke, both shorter than `arm_max`, sharing their midpoint."""
    hs, vs = [], []
    for subs, stroked in stroked_paths(page):
        if not stroked or len(subs) != 1 or len(subs[0]) != 2:
            continue
        (x0, y0), (x1, y1) = subs[0]
        length = math.hypot(x1 - x0, y1 - y0)
        if not 0.5 < length < arm_max:
            continue
        mid = ((x0 + x1) / 2, (y0 + y1) / 2)
        if abs(y1 - y0) < 1e-3:
            hs.append((mid, length))
        elif abs(x1 - x0) < 1e-3:
            vs.append((mid, length))
    found = []
    for (hx, hy), hl in hs:
        for (vx, vy), vl in vs:
            if abs(hx - vx) < 0.02 and abs(hy - vy) < 0.02 and abs(hl - vl) < 0.02:
                found.append((hx, hy))
    return found


# --------------------------------------------------------------------------- Petri dish: the board

def board_geometry():
    data = document(PD, "dish")["data"]
    files = data["files"]
    points = {}
    for fi, f in enumerate(files):
        for rank in range(1, 9):
            # template coordinates: mm from the board's top-left corner
            points[f"{f}{rank}"] = (data["edge"] + fi * data["spacing"], data["edge"] + (8 - rank) * data["spacing"])
    return data, points


def test_board_data_is_the_referees_geometry():
    from referee.games.petri_dish import geometry

    data, points = board_geometry()
    assert set(data["removed"]) == set(geometry.REMOVED)
    assert sorted(p for p in points if p not in data["removed"]) == sorted(geometry.POINTS)
    assert len(geometry.POINTS) == 52
    areas = {a["name"]: a["points"] for a in data["prime_areas"]}
    assert areas == {k: list(v) for k, v in geometry.PRIME_AREAS.items()}
    # the rule sheet names the same areas as the board
    assert document(PD, "rules")["data"]["prime_areas"] == data["prime_areas"]


def test_measured_foodpoints_match_the_geometry(a4):
    m = manifest(a4, PD)
    entry = next(f for f in m["files"] if f["file"] == "board-dish-a3.pdf")
    (tile,) = entry["tiles"]
    ox, oy = tile["origin_mm"]
    board_h = entry["size_mm"][1]
    data, points = board_geometry()
    expected = {p: xy for p, xy in points.items() if p not in data["removed"]}
    with pikepdf.open(a4 / PD / "board-dish-a3.pdf") as pdf:
        found = crosses(pdf.pages[0])
    # page mm (y up) -> board mm from the top-left corner (y down), as in the template
    measured = [(x - ox, board_h - (y - oy)) for x, y in found]
    assert len(measured) == 52, f"found {len(measured)} crosses, want 52"
    for name, (ex, ey) in expected.items():
        near = [(x, y) for x, y in measured if abs(x - ex) <= TOL and abs(y - ey) <= TOL]
        assert len(near) == 1, f"foodpoint {name}: want one cross at ({ex}, {ey}) mm, found {near}"
    for name in data["removed"]:
        ex, ey = points[name]
        assert all(math.hypot(x - ex, y - ey) > data["spacing"] / 2 for x, y in measured), \
            f"a cross is drawn at the removed point {name}"


def _token_diameter(out: Path) -> float:
    """The germ token's cut circle, measured on the token sheet."""
    with pikepdf.open(out / PD / "deck-germs.pdf") as pdf:
        sizes = []
        for subs, stroked in stroked_paths(pdf.pages[0]):
            pts = [p for s in subs for p in s]
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            w, h = max(xs) - min(xs), max(ys) - min(ys)
            if stroked and len(pts) == 5 and abs(w - h) < 0.01:  # m + 4 curves: a circle
                sizes.append(w)
    return max(sizes)


def test_a_stack_of_four_tokens_fits_a_point_without_touching_its_neighbours(a4):
    data, points = board_geometry()
    token = _token_diameter(a4)
    assert abs(token - data["token"]) <= TOL, f"germ token measures {token:.2f} mm, the board assumes {data['token']}"
    with pikepdf.open(a4 / PD / "board-dish-a3.pdf") as pdf:
        centres = crosses(pdf.pages[0])
    nearest = min(math.hypot(a[0] - b[0], a[1] - b[1]) for i, a in enumerate(centres) for b in centres[i + 1:])
    # stacked tokens share one footprint: neighbours keep a gap of nearest - token
    assert nearest - token >= 5.0, f"points {nearest:.2f} mm apart leave {nearest - token:.2f} mm between 20 mm tokens"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tiled_board_reassembles(paper, request):
    out = request.getfixturevalue(paper)
    entry = next(f for f in manifest(out, PD)["files"] if f["file"] == "board-dish.pdf")
    tiles = entry["tiles"]
    assert len(tiles) >= 2 and entry["pages"] == page_count(out / PD / "board-dish.pdf")
    dpi = 100
    px = dpi / 25.4
    pairs = [(a, b) for i, a in enumerate(tiles) for b in tiles[i + 1:]
             if (a["row"] == b["row"] and abs(a["column"] - b["column"]) == 1)
             or (a["column"] == b["column"] and abs(a["row"] - b["row"]) == 1)]
    assert pairs
    for a, b in pairs:
        wa, wb = a["window_mm"], b["window_mm"]
        # the shared part of the board, less 2 mm at the edges (dashed tile frames)
        box = (max(wa[0], wb[0]) + 2, max(wa[1], wb[1]) + 2, min(wa[2], wb[2]) - 2, min(wa[3], wb[3]) - 2)
        assert box[2] - box[0] >= 6 and box[3] - box[1] >= 6, f"overlap {box} too small"
        crops = []
        for t in (a, b):
            img = render(out / PD / "board-dish.pdf", t["page"], dpi)
            page_h = img.height / px
            ox, oy = t["origin_mm"]
            x0, y1 = box[0] + ox, box[3] + oy
            left, top = round(x0 * px), round((page_h - y1) * px)
            w, h = round((box[2] - box[0]) * px), round((box[3] - box[1]) * px)
            crops.append(img.crop((left, top, left + w, top + h)).filter(ImageFilter.GaussianBlur(1)))
        diff = ImageStat.Stat(ImageChops.difference(*crops).convert("L")).mean[0]
        ink = 255 - ImageStat.Stat(crops[0].convert("L")).mean[0]
        assert ink > 10, "the overlap is blank: nothing to compare"
        assert diff < 4.0, (f"{paper}: tiles {a['row'], a['column']} and {b['row'], b['column']} differ by "
                            f"{diff:.2f} grey levels on average in their overlap")


# --------------------------------------------------------------------------- Petri dish: rule sheet and reference

def test_petri_rule_sheet_states_every_house_rule_default(a4):
    from referee.games.petri_dish.dish import REPETITIONS_FOR_DRAW
    from referee.games.petri_dish.rules import PetriDishRules

    text = pdf_text(a4 / PD / "rules-rules.pdf")
    rules = PetriDishRules.house_rules
    data = document(PD, "rules")["data"]
    to_win = rules["areas-to-win"].default
    divide = rules["large-divide-liberties"].default
    assert (data["areas_to_win"], data["large_divide"], data["repetitions"]) == (to_win, divide, REPETITIONS_FOR_DRAW)
    for key in rules:
        assert f"--house-rule {key}=" in text, f"the rule sheet does not say how to change {key}"
    assert f"the only occupant of {to_win} of the 4 prime areas" in text
    assert f"needs at least {divide} liberties before" in text          # the large-germ reading
    assert f"A large germ needs {divide} liberties before it divides" in text
    assert f"for the {REPETITIONS_FOR_DRAW}rd time with the same player to move" in text
    assert "passes right after, the game is a draw" in text
    for area in data["prime_areas"]:
        assert f"{area['name']} {', '.join(area['points'])}" in text, f"prime area {area['name']} is not listed"
    assert "referee new petri-dish" in text and "referee move" in text
    assert "file letter a to h" in text and "rank number 1 to 8" in text


def test_petri_diagrams_are_legal_positions():
    """What the rule sheet's two diagrams claim, replayed through the referee's engine."""
    from referee.games.petri_dish import engine
    from referee.games.petri_dish.geometry import INDEX, ORTHOGONAL, POINTS

    for d in document(PD, "rules")["data"]["diagrams"]:
        board = [0] * len(POINTS)
        for p, n in d["white"].items():
            board[INDEX[p]] = n
        for p, n in d["black"].items():
            board[INDEX[p]] = -n
        if "rings" in d:
            libs = {POINTS[k] for k in ORTHOGONAL[INDEX[d["of"]]] if board[k] == 0}
            assert libs == set(d["rings"]), f"{d['title']}: {d['of']} has liberties {sorted(libs)}"
        if "move" in d:
            pos = engine.Position(board=tuple(board), side=engine.WHITE, ply=10)
            action = (engine.MOVE, INDEX[d["move"][0]], INDEX[d["move"][1]])
            assert engine.refusal(pos, action) is None
            captured = {POINTS[i] for i, _ in engine.play(pos, action).captured}
            assert captured == set(d["captured"]), f"{d['title']}: the move captures {sorted(captured)}"


# --------------------------------------------------------------------------- Culture War: rule sheet, score sheet, mat, coins

def test_culture_war_rule_sheet_states_every_house_rule_default(a4):
    from referee.games.culture_war import LIFE_BY_PLAYERS, RULES

    text = pdf_text(a4 / CW / "rules-rules.pdf")
    data = document(CW, "rules")["data"]
    assert data["life"] == LIFE_BY_PLAYERS == document(CW, "score")["data"]["life"]
    for n, life in LIFE_BY_PLAYERS.items():
        assert f"{life} with {n} players" in text, f"starting LIFE {life} for {n} players is not stated"
    rules = RULES.house_rules
    assert (data["unopposed"], data["unopposed_hero"], data["starting_capital"]) == (
        rules["unopposed-damage"].default, rules["unopposed-hero-damage"].default, rules["starting-capital"].default)
    assert f"costs the player {data['unopposed']} LIFE, or {data['unopposed_hero']} if the attacker is a Hero" in text
    assert f"with {data['starting_capital']} Capital coin" in text
    for key in rules:
        assert f"--house-rule {key}=" in text, f"the rule sheet does not say how to change {key}"
    assert "referee new culture-war --life N" in text
    assert f"never below {rules['stat-floor'].default}" in text
    assert rules["counter-fail"].default == "free"        # what the sheet states
    assert "a counter-attack that fails costs nobody LIFE" in text and "--house-rule counter-fail=normal" in text
    assert rules["first-player"].default == "roll-off"
    assert "who goes first a roll-off" in text and "--house-rule first-player=seating" in text
    # the rulebook's own numbers
    for phrase in (f"its owner loses {data['kill']} LIFE", f"the attacker's owner loses {data['fail']} LIFE",
                   f"loses {data['hero_kill']} instead of {data['kill']}", f"loses {data['hero_fail']} instead of {data['fail']}"):
        assert phrase in text, phrase
    for section in ("Setting up", "Your turn", "Battle", "A worked example", "Heroes and Cyber units",
                    "Real Estate", "Alliances", "Mixed-faction decks", "House rules", "The referee"):
        assert section in text, f"no section {section!r}"


def test_culture_war_rule_sheet_says_when_an_attack_tax_is_paid(a4):
    """Rules culture-war-8: an attack tax is paid as the attack is declared (with the
    referee's --window, as the dice are shown), so a Flash bought while the dice wait
    cannot leave it unpaid. The sheet and the referee's help say so."""
    import click

    from referee.cli.main import game_commands

    taxing = [c["name"] for deck in ("anarchy", "community", "technocracy", "conservative", "libertarian")
              for c in yaml.safe_load((ROOT / "card_sources" / CW / f"{deck}.yaml").read_text())["cards"]
              if any(e["kind"] == "attack-tax" for e in c.get("effects") or ())]
    assert taxing == ["Non-Aggression Pact"]  # the card the sheet names
    text = pdf_text(a4 / CW / "rules-rules.pdf")
    assert (f"When a card makes attacking its owner cost Capital ({taxing[0]}), the attacker pays as the attack "
            "is declared, before any die is rolled; a player who cannot pay may not make that attack, and coins "
            "spent later, on a Flash while the dice wait, never leave it unpaid.") in text
    commands = game_commands(CW)
    helps = {name: re.sub(r"\s+", " ", commands[name].get_help(
        click.Context(commands[name], info_name=name, terminal_width=500, max_content_width=500)))
             for name in ("battle", "settle")}
    assert f"An attack tax ({taxing[0]}) is paid now, before the dice." in helps["battle"]  # --window
    assert f"An attack tax ({taxing[0]}) was paid as the dice were shown" in helps["settle"]


def test_score_sheet_has_five_players_and_every_starting_life(a4):
    life = document(CW, "score")["data"]["life"]
    path = a4 / CW / "page-score.pdf"
    assert page_count(path) == 1
    text = pdf_text(path)
    for p in range(1, 6):
        assert f"PLAYER {p}" in text
    for n, v in life.items():
        assert text.count(f"{v} {n} pl.") == 5, f"starting LIFE {v} for {n} players is not printed in every column"
    assert "cross out" in text


def test_player_mat_names_its_zones(a4):
    text = pdf_text(a4 / CW / "page-mat.pdf")
    for zone in ("UNITS IN PLAY", "REAL ESTATE", "CAPITAL BANK", "1st: free", "2nd: costs 2", "3rd: costs 3"):
        assert zone in text


def test_coins_are_round_one_sided_and_enough(a4):
    m = manifest(a4, CW)
    coins = [c for c in m["cards"] if c["deck"] == "coins"]
    value = {"cw-capital-coin-1": 1, "cw-capital-coin-5": 5}
    assert sum(value[c["id"]] for c in coins) >= 5 * 30
    assert all(c["back"] is None for c in coins)
    for c in coins:
        x0, y0, x1, y1 = c["front"]["trim_mm"]
        assert abs(x1 - x0 - 22) <= TOL and abs(y1 - y0 - 22) <= TOL
    entry = next(f for f in m["files"] if f.get("deck") == "coins")
    assert entry["pages"] == 1


@pytest.mark.parametrize("game", [CW, PD])
def test_quick_reference_is_a_card_with_its_qr(a4, game):
    m = manifest(a4, game)
    cards = [c for c in m["cards"] if c["deck"] == "reference"]
    assert len({c["id"] for c in cards}) == 1, "the quick reference is one card"
    for c in cards:
        x0, y0, x1, y1 = c["front"]["trim_mm"]
        assert abs(x1 - x0 - POKER[0]) <= TOL and abs(y1 - y0 - POKER[1]) <= TOL
    path = a4 / game / "deck-reference.pdf"
    img = render(path, 1, 300)
    codes = zxingcpp.read_barcodes(img, formats=zxingcpp.BarcodeFormat.QRCode)
    assert sorted(code.text for code in codes) == sorted(c["qr"] for c in cards if c["front"]["page"] == 1)


# --------------------------------------------------------------------------- every sheet

def _my_files(out: Path) -> list[Path]:
    files = []
    for game in (CW, PD):
        for f in manifest(out, game)["files"]:
            if f.get("kind") != "deck" or f.get("deck") in ("coins", "reference", "germs"):
                files.append(out / game / f["file"])
    return files


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_sheet_carries_the_50mm_bar(paper, request):
    out = request.getfixturevalue(paper)
    files = _my_files(out)
    kinds = {p.name.split("-")[0] for p in files}
    assert {"board", "page", "rules", "deck"} <= kinds
    for path in files:
        for page in range(1, page_count(path) + 1):
            assert "50 mm" in pdf_text(path, page), f"{path.parent.name}/{path.name} page {page} has no 50 mm bar"


def _boxes(page: pikepdf.Page) -> list[tuple[float, float, float, float]]:
    out = []
    for subs, stroked in stroked_paths(page):
        for sub in subs:
            if stroked and len(sub) > 2:
                xs, ys = [p[0] for p in sub], [p[1] for p in sub]
                out.append((min(xs), min(ys), max(xs), max(ys)))
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_mat_coin_spots_are_not_under_the_real_estate_cards(paper, request):
    out = request.getfixturevalue(paper)
    with pikepdf.open(out / CW / "page-mat.pdf") as pdf:
        boxes = _boxes(pdf.pages[0])
    slots = [b for b in boxes if abs(b[2] - b[0] - POKER[0]) < 0.3 and abs(b[3] - b[1] - POKER[1]) < 0.3]
    spots = [b for b in boxes if abs(b[2] - b[0] - 20) < 0.5 and abs(b[3] - b[1] - 20) < 0.5]
    assert len(slots) == 3 and len(spots) == 9, f"{len(slots)} card slots, {len(spots)} coin spots"
    for s in spots:
        for c in slots:
            overlap = s[0] < c[2] - 0.2 and c[0] + 0.2 < s[2] and s[1] < c[3] - 0.2 and c[1] + 0.2 < s[3]
            assert not overlap, f"coin spot {s} lies under the card slot {c}"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_score_sheet_other_label_fits_its_box(paper, request):
    out = request.getfixturevalue(paper)
    path = out / CW / "page-score.pdf"
    page = pdfium.PdfDocument(str(path))[0]
    text = page.get_textpage()
    full = text.get_text_range()
    with pikepdf.open(path) as pdf:
        boxes = _boxes(pdf.pages[0])
    found = 0
    for match in re.finditer(r"\bother\b", full):
        start = match.start()
        chars = [text.get_charbox(i) for i in range(start, start + 5)]
        x0, y0 = min(c[0] for c in chars) * MM_PER_PT, min(c[1] for c in chars) * MM_PER_PT
        x1, y1 = max(c[2] for c in chars) * MM_PER_PT, max(c[3] for c in chars) * MM_PER_PT
        around = [b for b in boxes if b[0] <= x0 and x1 <= b[2] and b[1] <= y0 and y1 <= b[3]
                  and b[2] - b[0] < 15 and b[3] - b[1] < 12]
        assert around, f"'other' at {x0:.1f},{y0:.1f}-{x1:.1f},{y1:.1f} is not inside its dashed box"
        box = min(around, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
        assert min(x0 - box[0], box[2] - x1) >= 1.0, f"'other' touches its box: {x0 - box[0]:.2f}, {box[2] - x1:.2f} mm"
        found += 1
    assert found == 5, f"found {found} 'other' labels (one per player column)"
