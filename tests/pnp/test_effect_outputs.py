"""Generated card text where it shows: `pnp list`, `pnp validate`, the
incremental build, the referee's card index, and the printed PDF face."""
import json
import os
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from helpers.effects_fixture import DECK, EFFECTS, edit, line_of, write_effects_project
from pnp.pipeline.facecache import FaceCache
from pnp.pipeline.options import BuildOptions
from pnp.pipeline.orchestrator import build
from pnp.cli import main
from pnp.model import GAME_SLUGS
from pnp.sources.loader import load_sources

ROOT = Path(__file__).resolve().parents[2]
MM = 72 / 25.4
EFFECT_GAMES = [g for g in GAME_SLUGS if (ROOT / "card_sources" / g / "effects.yaml").is_file()]


@pytest.fixture
def fx_project(mini_project: Path) -> Path:
    return write_effects_project(mini_project)


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


# ---------------------------------------------------------------- pnp list / validate

def test_list_json_gives_every_card_coverage_effects_and_the_generated_text(fx_project):
    result = run("--project", str(fx_project), "list", "culture-war", "--json")
    assert result.exit_code == 0, result.output
    rows = {r["id"]: r for r in json.loads(result.output)}
    sources = load_sources(fx_project)
    assert {cid: r["coverage"] for cid, r in rows.items()} == {
        cid: c.coverage.value for cid, c in sources.cards.items()}
    assert rows["fx-oracle"]["coverage"] == "prompt" and rows["fx-recruit"]["coverage"] == "none"
    assert rows["fx-diver"]["text"] == "When you play this, gain 1 {capital} and each opponent loses 1 {life}."
    assert rows["fx-diver"]["effects"][0] == {"kind": "gain", "what": "capital", "amount": 1, "when": "on-play"}
    assert rows["fx-recruit"]["effects"] == []


def test_list_human_ends_with_a_count_per_deck(fx_project):
    result = run("--project", str(fx_project), "list", "culture-war")
    assert result.exit_code == 0, result.output
    last = result.output.strip().splitlines()[-1].split()
    assert last == ["anarchy", "full", "3", "prompt", "1", "none", "1", "unchecked", "0"]


def test_list_counts_unchecked_text_in_a_game_without_effects_yaml(mini_project):
    result = run("--project", str(mini_project), "list")
    assert result.output.strip().splitlines()[-1].split() == [
        "anarchy", "full", "0", "prompt", "0", "none", "1", "unchecked", "3"]


def test_validate_fails_on_hand_written_text_in_an_effects_game(fx_project):
    edit(fx_project, DECK, "    production: 1\n", "    production: 1\n    text: \"Gain 1 {life}.\"\n")
    result = run("--project", str(fx_project), "validate")
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    where = line_of(fx_project, DECK, 'text: "Gain 1')
    assert f"{DECK}:{where}: fx-squat: hand-written text in a game with effects.yaml" in result.output


def test_validate_warns_once_per_game_without_effects_yaml(mini_project):
    result = run("--project", str(mini_project), "validate")
    assert result.exit_code == 0, result.output
    warnings = [l for l in result.output.splitlines() if l.startswith("warning:")]
    assert warnings == ["warning: culture-war: 3 of 4 cards have hand-written text that nothing checks against "
                        "the referee (no card_sources/culture-war/effects.yaml)"]


def test_validate_speaks_of_the_referee_only_for_games_it_plays(mini_project):
    """A designer's own game (here the mini project renamed) has no referee:
    no warning about checking its text against one, no coverage table."""
    (mini_project / "card_sources" / "culture-war").rename(mini_project / "card_sources" / "my-game")
    (mini_project / "templates" / "culture-war").rename(mini_project / "templates" / "my-game")
    result = run("--project", str(mini_project), "validate")
    assert result.exit_code == 0, result.output
    assert "referee" not in result.output and "warning" not in result.output, result.output
    listed = run("--project", str(mini_project), "list")
    assert listed.exit_code == 0 and "4 cards" in listed.output and "coverage" not in listed.output, listed.output


def test_validate_does_not_warn_about_an_effects_game(fx_project):
    result = run("--project", str(fx_project), "validate")
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output and "ok: 1 games, 5 cards" in result.output


# ---------------------------------------------------------------- incremental build

def rebuilt(project: Path, out: Path) -> set[str]:
    return {f.path.name for f in build(project, None, out, BuildOptions()).files}


@pytest.mark.pdf
def test_editing_a_phrase_rebuilds_the_decks_and_nothing_else(fx_project, tmp_path):
    game = fx_project / "card_sources/culture-war/game.yaml"
    game.write_text(game.read_text() + "documents:\n  - id: mat\n    kind: page\n    name: Test mat\n    template: testmat\n")
    (fx_project / "templates/culture-war/testmat.xml.j2").write_text(
        '<card><text x="5" y="5" w="100" h="10" style="rules">{{ doc.name }}</text></card>\n')
    out = tmp_path / "out"
    assert rebuilt(fx_project, out) == {"deck-anarchy.pdf", "page-mat.pdf"}
    assert rebuilt(fx_project, out) == set()
    edit(fx_project, EFFECTS, "{% else %}gain{% endif %}", "{% else %}collect{% endif %}")
    assert rebuilt(fx_project, out) == {"deck-anarchy.pdf"}
    assert "collect 1" in load_sources(fx_project).cards["fx-diver"].text


def test_the_face_cache_key_follows_effects_yaml(fx_project):
    key = FaceCache(fx_project, "culture-war", "anarchy").key("unit", {"card": {"id": "x"}})
    assert key is not None
    edit(fx_project, EFFECTS, "applied: true\n  lose:", "applied: true\n  # a comment only\n  lose:")
    os.environ.pop("PNP_NO_CACHE", None)
    from pnp.pipeline.incremental import forget_files

    forget_files()
    assert FaceCache(fx_project, "culture-war", "anarchy").key("unit", {"card": {"id": "x"}}) != key


# ---------------------------------------------------------------- the referee's card index

def test_the_referee_index_holds_the_generated_text_and_the_effects(fx_project):
    from referee.cards.index import load_index

    info = load_index(fx_project).cards["fx-smasher"]
    card = load_sources(fx_project).cards["fx-smasher"]
    assert info.fields["text"] == card.text and info.fields["text"].startswith("At the end of your turn, roll {dice}")
    assert info.fields["effects"] == card.fields["effects"]


# ---------------------------------------------------------------- the printed face

def printable_words(text: str) -> str:
    """What the PDF shows as characters: no markup, no icons (drawn), no spaces."""
    text = re.sub(r"\{[^{}]*\}", "", text)
    text = re.sub(r"<[^>]*>|\*\*|\*", "", text)
    return re.sub(r"\s+", "", text)


def face_texts(out_dir: Path, game: str) -> dict[str, str]:
    """Each card id -> the text on its first printed front, whitespace removed."""
    manifest = json.loads((out_dir / game / "manifest.json").read_text())
    found: dict[str, str] = {}
    docs: dict[str, pdfium.PdfDocument] = {}
    for entry in manifest["cards"]:
        if entry["id"] in found:
            continue
        pdf = docs.setdefault(entry["file"], pdfium.PdfDocument(str(out_dir / game / entry["file"])))
        page = pdf[entry["front"]["page"] - 1]
        x0, y0, x1, y1 = (v * MM for v in entry["front"]["trim_mm"])
        tp = page.get_textpage()
        found[entry["id"]] = re.sub(r"\s+", "", tp.get_text_bounded(x0, y0, x1, y1))
        tp.close()
    return found


def assert_faces_match(project: Path, out_dir: Path, game: str) -> int:
    """Every card's text, regenerated from its effects, is what its face shows."""
    from pnp.errors import Problems
    from pnp.sources.effectcheck import load_vocabulary

    problems = Problems(project)
    vocabulary = load_vocabulary(project / "card_sources" / game / "effects.yaml", problems)
    assert not problems
    faces = face_texts(out_dir, game)
    checked = 0
    loaded = load_sources(project, [game]).games[game]
    for card in loaded.cards:
        if "effects" not in loaded.card_types[card.type].fields:
            continue
        regenerated = vocabulary.text(vocabulary.normalise(card.fields.get("effects") or []))
        assert regenerated == card.text, card.id
        assert printable_words(regenerated) in faces[card.id], (card.id, regenerated, faces[card.id])
        checked += bool(regenerated)
    return checked


@pytest.mark.pdf
def test_the_fixture_faces_print_their_generated_text(fx_project, tmp_path):
    build(fx_project, None, tmp_path / "out", BuildOptions())
    assert assert_faces_match(fx_project, tmp_path / "out", "culture-war") == 4


@pytest.fixture(scope="session")
def built_effect_games(tmp_path_factory):
    out = tmp_path_factory.mktemp("effect-games")
    if EFFECT_GAMES:
        build(ROOT, EFFECT_GAMES, out, BuildOptions())
    return out


@pytest.mark.pdf
@pytest.mark.slow
@pytest.mark.parametrize("game", EFFECT_GAMES or [pytest.param("none", marks=pytest.mark.skip("no game has effects.yaml yet"))])
def test_every_card_of_an_effects_game_prints_the_text_of_its_effects(game, built_effect_games):
    assert assert_faces_match(ROOT, built_effect_games, game) > 0
