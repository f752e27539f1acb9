"""Nothing silent in the edit-build loop (issue 37, item 3): a replaced or
deleted picture (PNG, JPEG, SVG; named in art.yaml or written in a template)
rebuilds or errors; an unclosed `**keyword` is an error at its line; text
cells are trimmed; an unknown font is one error listing the fonts there are;
one card's error brings no false art.yaml lines; a header row that is not
row 1 is one error saying so; an unknown card type brings no false
quantity line."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image

from helpers.designer import CARDS, GAME, new_game, pnp, sources

MAGENTA, TEAL, ORANGE = (230, 0, 200), (0, 160, 150), (240, 120, 0)
SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
       '<rect width="10" height="10" fill="{}"/></svg>')


@pytest.fixture
def project(tmp_path) -> Path:
    (tmp_path / "p").mkdir()
    return new_game(tmp_path / "p", art_panel=True)


def _colour_share(pdf: Path, target, page: int = 0) -> float:
    """The share of the page's pixels within a small distance of `target`."""
    doc = pdfium.PdfDocument(pdf)
    try:
        image = doc[page].render(scale=30 / 72).to_pil().convert("RGB")
    finally:
        doc.close()
    pixels = image.getcolors(maxcolors=1 << 20)
    near = sum(n for n, c in pixels if all(abs(a - b) <= 14 for a, b in zip(c, target)))
    return near / (image.width * image.height)


def _rebuilt(output: str) -> str:
    """The lines of a build's report naming files it wrote (not those up to date)."""
    return "\n".join(line for line in output.splitlines() if line.startswith(("rebuilt", "wrote", "built ")) and ".pdf" in line)


def _bump(path: Path) -> None:
    """A save a few seconds later, as an editor makes it (the clock moves on)."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))


@pytest.mark.pdf
@pytest.mark.parametrize("name, save", [
    ("map.png", lambda path, colour: Image.new("RGB", (900, 600), colour).save(path)),
    ("map.jpg", lambda path, colour: Image.new("RGB", (900, 600), colour).save(path, quality=95)),
    ("map.svg", lambda path, colour: path.write_text(SVG.format("#%02x%02x%02x" % colour))),
])
def test_a_replaced_picture_rebuilds_and_a_deleted_one_errors(project, name, save):
    art = project / "templates" / "art"
    art.mkdir()
    save(art / name, MAGENTA)
    (sources(project) / "art.yaml").write_text("cards:\n" + "".join(f"  {c}: {name}\n" for c in CARDS))
    pdf = project / "output" / GAME / "deck-starter.pdf"
    assert pnp(project, "build", GAME).exit_code == 0
    assert _colour_share(pdf, MAGENTA) > 0.02 and _colour_share(pdf, TEAL) < 0.001

    save(art / name, TEAL)  # same name, same pixel size: only its content differs
    _bump(art / name)
    result = pnp(project, "build", GAME)
    assert result.exit_code == 0 and "deck-starter.pdf" in _rebuilt(result.output), result.output
    assert _colour_share(pdf, TEAL) > 0.02 and _colour_share(pdf, MAGENTA) < 0.001

    again = pnp(project, "build", GAME)  # and then it is up to date again
    assert again.exit_code == 0 and not _rebuilt(again.output), again.output

    (art / name).unlink()
    gone = pnp(project, "build", GAME)
    assert gone.exit_code == 1 and "art.yaml:2: dragon-market-scout: no illustration templates/art/" in gone.output
    assert _colour_share(pdf, TEAL) > 0.02  # the last good PDF stays


@pytest.mark.pdf
def test_a_picture_a_template_names_itself_rebuilds_when_replaced(project):
    """A picture no card names (a logo the back template draws) is noticed too."""
    art = project / "templates" / "art"
    art.mkdir()
    Image.new("RGB", (600, 600), MAGENTA).save(art / "logo.png")
    back = project / "templates" / GAME / "back.xml.j2"
    back.write_text(back.read_text().replace("</card>", '<art src="templates/art/logo.png" x="10" y="30" w="40" h="40"/>\n</card>'))
    pdf = project / "output" / GAME / "deck-starter.pdf"
    assert pnp(project, "build", GAME).exit_code == 0
    assert _colour_share(pdf, MAGENTA, page=1) > 0.02
    Image.new("RGB", (600, 600), ORANGE).save(art / "logo.png")
    _bump(art / "logo.png")
    assert pnp(project, "build", GAME).exit_code == 0
    assert _colour_share(pdf, ORANGE, page=1) > 0.02 and _colour_share(pdf, MAGENTA, page=1) < 0.001
    (art / "logo.png").unlink()
    gone = pnp(project, "build", GAME)
    assert gone.exit_code == 1 and f"templates/{GAME}/back.xml.j2:10: " in gone.output, gone.output
    assert "no illustration templates/art/logo.png" in gone.output and "internal error" not in gone.output


@pytest.mark.parametrize("deck, line", [("yaml", 16), ("csv", 3)])
def test_an_unclosed_keyword_is_an_error_at_its_line(project, deck, line):
    text = "**Steadfast: at the end of your turn, gain 1 point."
    if deck == "csv":
        _to_csv(project, [("dragon-market-scout", "Scout", "1", "Look."), ("dragon-market-builder", "Builder", "2", text)])
    else:
        path = sources(project) / "starter.yaml"
        path.write_text(path.read_text().replace("**Steady**: at the end of your turn, gain 1 point.", text))
    result = pnp(project, "validate")
    assert result.exit_code == 1, result.output
    (only,) = result.output.strip().splitlines()
    assert only.startswith(f"Error: card_sources/{GAME}/starter.{deck}:{line}: dragon-market-builder: text: unclosed bold")
    assert "'**Steadfast" in only


def test_an_unclosed_icon_token_is_an_error(project):
    path = sources(project) / "starter.yaml"
    path.write_text(path.read_text().replace("gain 1 point.", "gain 1 {point."))
    result = pnp(project, "validate")
    assert result.exit_code == 1 and "starter.yaml:16: dragon-market-builder: text: unclosed icon token" in result.output


def _to_csv(project: Path, rows, header="id,name,type,cost,text", title: str | None = None) -> Path:
    game = sources(project) / "game.yaml"
    game.write_text(game.read_text().replace("file: starter.yaml", "file: starter.csv"))
    lines = ([title] if title is not None else []) + [header]
    lines += [",".join([r[0], r[1], "card", *[f'"{v}"' for v in r[2:]]]) if len(r) > 2 else ",".join(r) for r in rows]
    path = sources(project) / "starter.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def _revisions(project: Path) -> dict[str, tuple[str, str]]:
    result = pnp(project, "list", GAME, "--json")
    assert result.exit_code == 0, result.output
    return {r["id"]: (r["name"], r["revision"]) for r in json.loads(result.output)}


def test_text_cells_are_trimmed(project):
    _to_csv(project, [("dragon-market-scout", "Kiln Master", "1", "Fire the kiln.")])
    clean = _revisions(project)
    _to_csv(project, [(" dragon-market-scout ", " Kiln Master ", " 1 ", "  Fire the kiln. ")])
    assert _revisions(project) == clean == {"dragon-market-scout": ("Kiln Master", clean["dragon-market-scout"][1])}


def test_an_unknown_font_is_one_error_listing_the_fonts(project):
    style = project / "templates" / GAME / "style.yaml"
    style.write_text(style.read_text() + "paragraph_styles:\n  title: {font: Comic-Sans, size: 11, color: white}\n")
    for command in ("validate", "build"):
        result = pnp(project, command)
        assert result.exit_code == 1 and "internal error" not in result.output, result.output
        (only,) = result.output.strip().splitlines()
        assert only.startswith(f"Error: templates/{GAME}/style.yaml:7: -: paragraph style 'title': unknown font 'Comic-Sans'")
        assert "the fonts there are: Roboto-Black, RobotoCondensed-Bold," in only


def test_one_cards_error_brings_no_false_art_lines(project):
    art = project / "templates" / "art"
    art.mkdir()
    Image.new("RGB", (900, 600), TEAL).save(art / "map.png")
    (sources(project) / "art.yaml").write_text("cards:\n" + "".join(f"  {c}: map.png\n" for c in CARDS))
    path = sources(project) / "starter.yaml"
    path.write_text(path.read_text().replace("cost: 2", "cost: two"))
    result = pnp(project, "validate")
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"Error: card_sources/{GAME}/starter.yaml:14: dragon-market-builder: cost must be a whole number >= 0, got 'two'"]
    path.write_text("cards: [unclosed\n")  # a deck that cannot be read at all: still no "no card with this id"
    result = pnp(project, "validate")
    assert result.exit_code == 1 and "no card with this id" not in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1, result.output


def test_a_header_row_that_is_not_row_1_is_one_error(project):
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "cards"
    sheet.append(["Dragon Market — card list"])
    sheet.merge_cells("A1:E1")
    sheet.append(["id", "name", "type", "cost", "text"])
    for i, card in enumerate(CARDS):
        sheet.append([card, card.split("-")[-1].title(), "card", i, "Text."])
    book.save(sources(project) / "starter.xlsx")
    game = sources(project) / "game.yaml"
    game.write_text(game.read_text().replace("file: starter.yaml", "file: starter.xlsx"))
    result = pnp(project, "validate")
    assert result.exit_code == 1
    (only,) = result.output.strip().splitlines()
    assert only.startswith(f"Error: card_sources/{GAME}/starter.xlsx:1: -: the header row ") and "is row 2" in only, only
    book["cards"].title = "Sheet1"  # no sheet named cards, and none with an id column in row 1
    book.save(sources(project) / "starter.xlsx")
    result = pnp(project, "validate")
    (only,) = result.output.strip().splitlines()
    assert "the header row " in only and "is row 2" in only, only


def test_a_csv_title_row_is_one_error(project):
    _to_csv(project, [("dragon-market-scout", "Scout", "1", "Look.")], title="My cards,,,,")
    result = pnp(project, "validate")
    (only,) = result.output.strip().splitlines()
    assert result.exit_code == 1 and only.startswith(f"Error: card_sources/{GAME}/starter.csv:1: -: the header row "), only


def test_an_unknown_card_type_brings_no_false_quantity_line(project):
    path = _to_csv(project, [], header="id,name,type,quantity,cost,text")
    path.write_text(path.read_text() + "dragon-market-scout,Scout,spell,1,1,Look.\ndragon-market-builder,Builder,card,2,2,Build.\n")
    result = pnp(project, "validate")
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"Error: card_sources/{GAME}/starter.csv:2: dragon-market-scout: unknown card type 'spell'; this game has: card"]


@pytest.mark.pdf
@pytest.mark.slow
def test_watch_rebuilds_when_a_picture_is_replaced(project, tmp_path):
    import threading
    import time

    from pnp.extras.watch import watch
    from pnp.pipeline.options import BuildOptions
    from pnp.pipeline.report import BuildReport

    art = project / "templates" / "art"
    art.mkdir()
    Image.new("RGB", (900, 600), MAGENTA).save(art / "map.png")
    (sources(project) / "art.yaml").write_text("cards:\n" + "".join(f"  {c}: map.png\n" for c in CARDS))
    out = tmp_path / "out"
    outcomes = []
    stop = threading.Event()
    thread = threading.Thread(target=watch, args=(project, [GAME], out, BuildOptions(),
                                                  lambda o, changed: outcomes.append((o, changed)), stop, 50))
    thread.start()

    def wait(n):
        end = time.monotonic() + 30
        while len(outcomes) < n:
            assert time.monotonic() < end, "watch did not react in time"
            time.sleep(0.05)
    try:
        wait(1)
        pdf = out / GAME / "deck-starter.pdf"
        assert _colour_share(pdf, MAGENTA) > 0.02
        time.sleep(0.3)
        Image.new("RGB", (900, 600), TEAL).save(art / "map.png")
        wait(2)
        report, changed = outcomes[-1]
        assert changed == ["templates/art/map.png"]
        assert isinstance(report, BuildReport) and [f.path.name for f in report.files] == ["deck-starter.pdf"], report
        assert _colour_share(pdf, TEAL) > 0.02 and _colour_share(pdf, MAGENTA) < 0.001
    finally:
        stop.set()
        thread.join(10)
    assert not thread.is_alive()


def test_converting_text_with_spaces_at_its_ends_to_a_spreadsheet_says_so(project):
    deck = sources(project) / "starter.yaml"
    deck.write_text(deck.read_text().replace('    text: "Draw a card, then', '    text: |\n      Draw a card, then')
                    .replace('pass a card to the player on your left."', 'pass a card to the player on your left.'))
    result = pnp(project, "convert", GAME, "starter", "--to", "csv")
    assert result.exit_code == 1 and not (sources(project) / "starter.csv").exists()
    assert "dragon-market-messenger: text 'Draw a card" in result.output and "a spreadsheet cell drops" in result.output


def test_an_unknown_font_in_a_template_is_one_error_at_its_line(project):
    template = project / "templates" / GAME / "card.xml.j2"
    template.write_text(template.read_text().replace("{{ card.text | rich }}", '<font name="Comic-Sans">{{ card.text | rich }}</font>'))
    result = pnp(project, "validate")
    assert result.exit_code == 1, result.output
    (only,) = result.output.strip().splitlines()
    assert only.startswith(f"Error: templates/{GAME}/card.xml.j2:13: ") and "<font name='Comic-Sans'>: unknown font; " \
        "the fonts there are: Roboto-Black," in only, only


def test_one_cards_error_brings_no_false_composition_line(mini_project):
    game = mini_project / "card_sources/culture-war/game.yaml"
    game.write_text(game.read_text() + "composition:\n  - rule: Each deck has a Base Unit\n    count: cards\n"
                                       "    where: {type: unit, traits: base, atk: 0}\n    min: 1\n")
    assert pnp(mini_project, "validate").exit_code == 0
    deck = mini_project / "card_sources/culture-war/anarchy.yaml"
    deck.write_text(deck.read_text().replace("    atk: 0\n", "    atk: zero\n", 1))
    result = pnp(mini_project, "validate")
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "Error: card_sources/culture-war/anarchy.yaml:7: test-recruit: atk must be a whole number, got 'zero'"]
    deck.write_text(deck.read_text().replace("    atk: zero\n", "    atk: 1\n", 1))  # a sound card: the rule speaks
    result = pnp(mini_project, "validate")
    assert result.exit_code == 1 and "composition rule broken in deck anarchy: Each deck has a Base Unit" in result.output
