"""`--back common`: every faction deck prints the same neutral back, so a
mixed-faction deck gives nothing away; the normal build keeps each deck's own."""
from __future__ import annotations

import json
from pathlib import Path

import pypdfium2 as pdfium
from click.testing import CliRunner
from PIL import ImageChops
import pytest

from pnp.cli import main

pytestmark = [pytest.mark.pdf, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


def first_back(folder: Path, deck: str):
    manifest = json.loads((folder / "manifest.json").read_text())
    card = next(c for c in manifest["cards"] if c["deck"] == deck and c["back"])
    doc = pdfium.PdfDocument(folder / f"deck-{deck}.pdf")
    page = doc[card["back"]["page"] - 1]
    image = page.render(scale=150 / 72).to_pil().convert("RGB")
    height = page.get_height() * 25.4 / 72
    s = 150 / 25.4
    x0, y0, x1, y1 = card["back"]["trim_mm"]
    return image.crop((round(x0 * s), round((height - y1) * s), round(x1 * s), round((height - y0) * s)))


def test_common_backs_are_one_back_and_deck_backs_are_not(tmp_path):
    for backs in ("deck", "common"):
        result = CliRunner().invoke(main, ["--project", str(ROOT), "build", "culture-war", "--back", backs,
                                           "--out", str(tmp_path / backs)])
        assert result.exit_code == 0, result.output
    own = tmp_path / "deck" / "culture-war"
    common = tmp_path / "common" / "culture-war" / "common-back"
    assert not list(common.glob("rules-*.pdf")), "a common-back build is decks only"
    decks = ["anarchy", "community", "conservative", "libertarian", "technocracy"]
    backs = [first_back(common, d) for d in decks]
    for other in backs[1:]:
        assert ImageChops.difference(backs[0], other).getbbox() is None
    own_backs = [first_back(own, d) for d in decks]
    assert all(ImageChops.difference(own_backs[0], other).getbbox() is not None for other in own_backs[1:])
