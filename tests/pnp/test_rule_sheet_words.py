"""Rule sheets are written for players: no developer words in the printed
text, and one 50 mm check bar per page (the footer's)."""
from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.model import GAME_SLUGS

pytestmark = pytest.mark.pdf

ROOT = Path(__file__).resolve().parents[2]
DEVELOPER_WORDS = ["`", "yaml", ".md", "card_sources", "templates/", "none yet", "-like", "rulebook",
                   "this project", "pnp build", "rebuild", "TODO", "_"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("rules")
    result = CliRunner().invoke(main, ["--project", str(ROOT), "build", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def sheets(built):
    return {game: pdfium.PdfDocument(next((built / game).glob("rules-*.pdf"))) for game in GAME_SLUGS}


def test_every_board_carries_its_title(built):
    from pnp.sources.loader import load_sources

    sources = load_sources(ROOT)
    boards = 0
    for game in sources.games.values():
        for doc in game.documents:
            if doc.kind.value != "board":
                continue
            pdf = pdfium.PdfDocument(built / game.slug / f"board-{doc.id}.pdf")
            text = " ".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf))).lower()
            assert game.name.split(": ")[-1].lower() in text, f"{game.slug} board {doc.id} has no title"
            boards += 1
    assert boards >= 2


@pytest.mark.parametrize("game", GAME_SLUGS)
def test_no_developer_words(sheets, game):
    doc = sheets[game]
    text = "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    found = {w: text[max(0, m.start() - 40):m.end() + 40].replace("\n", " ")
             for w in DEVELOPER_WORDS for m in [re.search(re.escape(w), text, re.I)] if m}
    assert not found, found


@pytest.mark.parametrize("game", GAME_SLUGS)
def test_one_check_bar_per_page(sheets, game):
    doc = sheets[game]
    for i in range(len(doc)):
        text = doc[i].get_textpage().get_text_range()
        labels = re.findall(r"50 mm(?: ·|:| at 100% scale)", text)  # each drawn bar's label
        assert len(labels) == 1, f"{game} page {i + 1}: {len(labels)} scale bars"


def test_the_quick_reference_cards_share_one_look(built):
    """Every game's reference card: the same dark title bar reading QUICK REFERENCE and the game."""
    import json

    from pnp.sources.loader import load_sources

    sources = load_sources(ROOT)
    for slug in GAME_SLUGS:
        manifest = json.loads((built / slug / "manifest.json").read_text())
        card = next(c for c in manifest["cards"] if c["deck"] == "reference")
        doc = pdfium.PdfDocument(built / slug / card["file"])
        page = doc[card["front"]["page"] - 1]
        x0, y0, x1, y1 = card["front"]["trim_mm"]
        height = page.get_height() * 25.4 / 72
        s = 200 / 25.4
        image = page.render(scale=200 / 72).to_pil().convert("RGB")
        bar = image.getpixel((round((x1 - 5) * s), round((height - y1 + 3.5) * s)))  # the title bar, past its words
        assert max(abs(a - b) for a, b in zip(bar, (0x2B, 0x2B, 0x2B))) <= 6, (slug, bar)
        text = page.get_textpage().get_text_bounded(*(v * 72 / 25.4 for v in (x0, y1 - 12, x1, y1)))
        assert "QUICK REFERENCE" in text and sources.games[slug].name.split(": ")[-1] in text.replace("\r\n", " "), (slug, text)
