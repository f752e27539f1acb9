"""Illustrations: every card of every game has one that exists, no two
differently named cards of a deck share one, `pnp list --json` names it,
the credit is kept, and the art is really drawn on the card."""
from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import yaml
from click.testing import CliRunner

from pnp.cli import main
from pnp.model import GAME_SLUGS
from pnp.sources.loader import load_sources

ROOT = Path(__file__).resolve().parents[2]
ART = ROOT / "templates" / "art"


def run(project: Path, *args: str):
    return CliRunner().invoke(main, ["--project", str(project), *args])


@pytest.fixture(scope="module")
def sources():
    return load_sources(ROOT)


ART_GAMES = [g for g in GAME_SLUGS if (ROOT / "card_sources" / g / "art.yaml").is_file()]


def test_every_game_has_art():
    assert ART_GAMES == list(GAME_SLUGS)


@pytest.mark.parametrize("game", ART_GAMES)
def test_every_card_has_art_that_exists_and_no_deck_shares_it_between_names(sources, game):
    for deck in sources.games[game].decks:
        by_art = defaultdict(set)
        for card in deck.cards:
            art = card.fields.get("art")
            assert art, f"{card.id} has no illustration"
            assert (ROOT / art).is_file(), f"{card.id}: {art} is missing"
            by_art[art].add(card.name)
        shared = {art: names for art, names in by_art.items() if len(names) > 1}
        assert not shared, f"{game}/{deck.id}: {shared}"


def test_every_vendored_icon_is_used_and_credited(sources):
    used = {Path(c.fields["art"]).name for g in sources.games.values() for c in g.cards if "art" in c.fields}
    on_disk = {p.name for p in ART.glob("*.svg")}
    assert on_disk == used, f"unused: {sorted(on_disk - used)}; missing: {sorted(used - on_disk)}"
    credits = (ART / "ATTRIBUTION.md").read_text()
    assert "CC BY 3.0" in credits and "game-icons.net" in credits
    for name in used:
        row = next((l for l in credits.splitlines() if l.startswith(f"| `{Path(name).stem}` |")), None)
        assert row is not None and row.split("|")[2].strip(), f"{name} has no author in ATTRIBUTION.md"
    assert "game-icons.net" in (ROOT / "README.md").read_text()


def test_list_json_names_each_cards_art_from_the_project_root():
    result = CliRunner().invoke(main, ["--project", str(ROOT), "list", "cold-war", "--json"])
    rows = json.loads(result.output)
    assert rows and all(r["art"].startswith("templates/art/") and r["art"].endswith(".svg") for r in rows)


def mini_art(project: Path, mapping: dict[str, str]) -> Path:
    path = project / "card_sources/culture-war/art.yaml"
    path.write_text(yaml.safe_dump({"cards": mapping}))
    return path


ICONS = sorted(p.stem for p in ART.glob("*.svg"))[:6]
MINI = ["test-recruit", "test-brawler", "test-squat", "test-shield"]


def test_art_problems_are_one_line_each_naming_file_line_and_card(mini_project):
    mini_art(mini_project, {"test-recruit": ICONS[0], "test-brawler": ICONS[0], "test-squat": "no-such-icon",
                            "nobody": ICONS[1]})
    result = run(mini_project, "validate")
    assert result.exit_code != 0 and "Traceback" not in result.output
    out = result.output
    assert "art.yaml:" in out
    assert "test-brawler: Test Brawler shares its illustration" in out
    assert "test-squat: no illustration templates/art/no-such-icon.svg" in out
    assert "nobody: no card with this id in the game" in out
    assert "test-shield: no illustration: give it one in art.yaml" in out


def _panel(pdf: Path):
    doc = pdfium.PdfDocument(pdf)
    image = doc[0].render(scale=2).to_pil().convert("L")
    return image


@pytest.mark.pdf
def test_the_chosen_icon_is_what_the_card_shows(mini_project, tmp_path):
    """Two builds differing only in one card's icon differ on that card's art panel, and only there."""
    mapping = dict(zip(MINI, ICONS))
    mini_art(mini_project, mapping)
    assert run(mini_project, "build", "--out", str(tmp_path / "a")).exit_code == 0
    mini_art(mini_project, {**mapping, "test-recruit": ICONS[5]})
    assert run(mini_project, "build", "--out", str(tmp_path / "b")).exit_code == 0
    a = _panel(tmp_path / "a/culture-war/deck-anarchy.pdf")
    b = _panel(tmp_path / "b/culture-war/deck-anarchy.pdf")
    from PIL import ImageChops

    box = ImageChops.difference(a, b).getbbox()
    assert box is not None, "changing the icon changed nothing on the page"
    manifest = json.loads((tmp_path / "a/culture-war/manifest.json").read_text())
    recruits = [c["front"]["trim_mm"] for c in manifest["cards"] if c["id"] == "test-recruit" and c["front"]["page"] == 1]
    assert recruits
    scale = 2 / 25.4 * 72                       # pixels per mm at scale 2
    page_h = a.height / scale                   # mm
    x0 = min(t[0] for t in recruits) * scale
    x1 = max(t[2] for t in recruits) * scale
    top = (page_h - max(t[3] for t in recruits)) * scale
    bottom = (page_h - min(t[1] for t in recruits)) * scale
    left, upper, right, lower = box
    assert x0 - 1 <= left and right <= x1 + 1 and top - 1 <= upper and lower <= bottom + 1, (box, (x0, top, x1, bottom))
