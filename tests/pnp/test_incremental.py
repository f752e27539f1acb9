"""Incremental builds: an unchanged build writes nothing; each kind of input
change rebuilds exactly the outputs that depend on it."""
import json
from pathlib import Path

import pytest

from pnp.pipeline.options import BuildOptions
from pnp.pipeline.orchestrator import build
from pnp.model import PAPERS

pytestmark = pytest.mark.pdf

DECK = "card_sources/culture-war/anarchy.yaml"
GAME = "card_sources/culture-war/game.yaml"


@pytest.fixture
def two_decks(mini_project: Path) -> Path:
    """The mini project with a second deck and a board document."""
    game = mini_project / GAME
    text = game.read_text()
    text += """  - id: second
    name: Second
    file: second.yaml
    back: back
    color: "#2e7d4f"
    icon: community
documents:
  - id: mat
    kind: page
    name: Test mat
    template: testmat
"""
    game.write_text(text)
    second = (mini_project / DECK).read_text().replace("id: test-", "id: second-")
    (mini_project / "card_sources/culture-war/second.yaml").write_text(second)
    (mini_project / "templates/culture-war/testmat.xml.j2").write_text(
        '<card><rect x="0" y="0" w="{{ size.w }}" h="20" fill="#cccccc"/>'
        '<text x="5" y="5" w="100" h="10" style="rules">{{ doc.name }}</text></card>\n')
    return mini_project


def stamps(out: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in (out / "culture-war").glob("*.pdf")}


def rebuilt(project: Path, out: Path, **kw) -> set[str]:
    report = build(project, None, out, BuildOptions(**kw))
    return {f.path.name for f in report.files}


def test_first_build_then_nothing(two_decks, tmp_path):
    out = tmp_path / "out"
    assert rebuilt(two_decks, out) == {"deck-anarchy.pdf", "deck-second.pdf", "page-mat.pdf"}
    before = stamps(out)
    manifest = (out / "culture-war/manifest.json").read_bytes()
    assert rebuilt(two_decks, out) == set()
    assert stamps(out) == before
    assert (out / "culture-war/manifest.json").read_bytes() == manifest


@pytest.mark.parametrize("change, expected", [
    # one card's text: only its deck
    (lambda p: _sub(p / DECK, '"Loud."', '"Louder."'), {"deck-anarchy.pdf"}),
    # a template only units use: both decks (both have units), not the mat
    (lambda p: _sub(p / "templates/culture-war/unit.xml.j2", "ATK</text>", "ATTACK</text>"),
     {"deck-anarchy.pdf", "deck-second.pdf"}),
    # the back template: both decks
    (lambda p: _sub(p / "templates/culture-war/back.xml.j2", "CULTURE WAR", "CULTURE WARS"),
     {"deck-anarchy.pdf", "deck-second.pdf"}),
    # the mat's own template: only the mat
    (lambda p: _sub(p / "templates/culture-war/testmat.xml.j2", "#cccccc", "#bbbbbb"), {"page-mat.pdf"}),
    # a style every output reads: everything
    (lambda p: _sub(p / "templates/style.yaml", "ink: \"#1d1d1d\"", "ink: \"#111111\""),
     {"deck-anarchy.pdf", "deck-second.pdf", "page-mat.pdf"}),
    # a deck's entry in the game file: only that deck
    (lambda p: _sub(p / GAME, '#2e7d4f', '#2e7d50'), {"deck-second.pdf"}),
])
def test_each_change_rebuilds_exactly_its_dependents(two_decks, tmp_path, change, expected):
    out = tmp_path / "out"
    rebuilt(two_decks, out)
    change(two_decks)
    assert rebuilt(two_decks, out) == expected
    assert rebuilt(two_decks, out) == set()


def test_build_options_and_force(two_decks, tmp_path):
    out = tmp_path / "out"
    rebuilt(two_decks, out)
    assert rebuilt(two_decks, out, paper=PAPERS["letter"]) == {"deck-anarchy.pdf", "deck-second.pdf", "page-mat.pdf"}
    report = build(two_decks, None, out, BuildOptions(paper=PAPERS["letter"]), force=True)
    assert len(report.files) == 3


def test_deleted_output_is_rebuilt_and_manifest_stays_whole(two_decks, tmp_path):
    out = tmp_path / "out"
    rebuilt(two_decks, out)
    (out / "culture-war/deck-second.pdf").unlink()
    _sub(two_decks / DECK, '"Loud."', '"Louder."')
    assert rebuilt(two_decks, out) == {"deck-anarchy.pdf", "deck-second.pdf"}
    manifest = json.loads((out / "culture-war/manifest.json").read_text())
    assert {f["file"] for f in manifest["files"]} == {"deck-anarchy.pdf", "deck-second.pdf", "page-mat.pdf"}
    assert len(manifest["cards"]) == 10


def test_removed_deck_removes_its_pdf(two_decks, tmp_path):
    out = tmp_path / "out"
    rebuilt(two_decks, out)
    game = two_decks / GAME
    game.write_text(game.read_text().split("  - id: second")[0] + "documents:" + game.read_text().split("documents:")[1])
    rebuilt(two_decks, out)
    assert not (out / "culture-war/deck-second.pdf").exists()


def _sub(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1))


def test_an_unchanged_game_is_trusted_for_its_ids_until_one_clashes(mini_project, tmp_path):
    """A rebuild reads only the changed game; the other is checked against the
    ids its last build recorded, and a clash still names both places."""
    import shutil

    from pnp.errors import ValidationFailed
    from pnp.sources import loader as sources

    shutil.copytree(mini_project / "card_sources/culture-war", mini_project / "card_sources/second-war")
    shutil.copytree(mini_project / "templates/culture-war", mini_project / "templates/second-war")
    other = mini_project / "card_sources/second-war/anarchy.yaml"
    other.write_text(other.read_text().replace("id: test-", "id: other-"))
    out = tmp_path / "out"
    build(mini_project, None, out, BuildOptions())
    read: list[str] = []
    real = sources._load_game
    sources._load_game = lambda base, slug, *a: read.append(slug) or real(base, slug, *a)
    try:
        deck = mini_project / DECK
        deck.write_text(deck.read_text().replace("atk: 2", "atk: 3"))
        assert rebuilt(mini_project, out) == {"deck-anarchy.pdf"}
        assert read == ["culture-war"]  # second-war was not read again
        deck.write_text(deck.read_text().replace("id: test-squat", "id: other-squat"))
        read.clear()
        with pytest.raises(ValidationFailed) as failed:
            build(mini_project, None, out, BuildOptions())
        assert "second-war" in read
        message = str(failed.value)
        assert "duplicate id 'other-squat'" in message and "second-war/anarchy.yaml" in message
    finally:
        sources._load_game = real


def test_an_edit_to_any_module_of_pnp_changes_the_code_hash(tmp_path, monkeypatch):
    """pnp's code counts in every output's key: a module in any subpackage
    counts, not only the top-level ones (an edit to it rebuilds everything)."""
    import shutil

    from pnp.pipeline import incremental

    copy = tmp_path / "pnp"
    shutil.copytree(incremental.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(incremental, "PACKAGE", copy)

    def digest() -> str:
        monkeypatch.setattr(incremental, "_code_digest", None)
        incremental.forget_files()
        return incremental.code_digest()

    assert set(incremental.code_files()) >= set(copy.rglob("*.py"))
    before = digest()
    packages = sorted({p.parent for p in copy.rglob("*.py") if p.parent != copy})
    assert len(packages) >= 6  # sources, faces, layout, render, build, extras
    for package in packages:
        module = sorted(package.glob("*.py"))[-1]
        original = module.read_bytes()
        module.write_bytes(original + b"\n# edited\n")
        assert digest() != before, f"an edit to {module.relative_to(tmp_path)} left the code hash as it was"
        module.write_bytes(original)
        assert digest() == before
