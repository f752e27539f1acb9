"""A card that leaves an optional field unset (no flavor text) prints nothing
there: never the word "None"."""
from __future__ import annotations

import pypdfium2 as pdfium
import pytest
import yaml

pytestmark = pytest.mark.pdf


def test_a_card_without_flavor_prints_no_none(mini_project, tmp_path):
    from pnp.pipeline.options import BuildOptions
    from pnp.pipeline.orchestrator import build

    deck = yaml.safe_load((mini_project / "card_sources/culture-war/anarchy.yaml").read_text())
    assert any("flavor" not in card for card in deck["cards"]), "the fixture needs a card without flavor"
    out = tmp_path / "out"
    build(mini_project, ["culture-war"], out, BuildOptions())
    pdf = pdfium.PdfDocument(str(out / "culture-war" / "deck-anarchy.pdf"))
    text = " ".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    assert "Test Recruit" in text
    assert "None" not in text
