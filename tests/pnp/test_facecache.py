"""Remembered faces: a build that uses them prints the very same bytes as
one that makes every face afresh, and after one card's edit only that card
goes through its template again. A fully cold build (no cache folder yet)
remembers none: the builds after it do."""
from pathlib import Path

import pytest

from pnp.pipeline.options import BuildOptions
from pnp.pipeline.orchestrator import build
from pnp.faces.templates import TemplateSet

pytestmark = pytest.mark.pdf

DECK = "card_sources/culture-war/anarchy.yaml"


def pdfs(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((out / "culture-war").glob("*.pdf"))}


@pytest.fixture
def renders(monkeypatch) -> list[str]:
    """The templates rendered, in order (the real renderer runs)."""
    seen: list[str] = []
    real = TemplateSet.render

    def counting(self, name, context):
        seen.append(name)
        return real(self, name, context)

    monkeypatch.setattr(TemplateSet, "render", counting)
    monkeypatch.setenv("PNP_JOBS", "1")
    return seen


@pytest.fixture
def project(mini_project: Path) -> Path:
    """The mini project as after an earlier build: its cache folder is there."""
    (mini_project / ".pnp-cache").mkdir()
    return mini_project


def test_a_fully_cold_build_remembers_no_faces_and_the_next_one_does(mini_project, tmp_path, renders):
    build(mini_project, None, tmp_path / "first", BuildOptions())
    made = len(renders)
    assert (mini_project / ".pnp-cache/faces").is_dir()  # made, for the builds after it
    assert not list((mini_project / ".pnp-cache/faces").rglob("*.json"))
    renders.clear()
    build(mini_project, None, tmp_path / "second", BuildOptions())
    assert len(renders) == made
    assert (mini_project / ".pnp-cache/faces/culture-war/anarchy.json").is_file()
    renders.clear()
    build(mini_project, None, tmp_path / "third", BuildOptions())
    assert renders == []
    assert pdfs(tmp_path / "first") == pdfs(tmp_path / "second") == pdfs(tmp_path / "third")


def test_remembered_faces_print_the_same_bytes(project, tmp_path, renders, monkeypatch):
    build(project, None, tmp_path / "first", BuildOptions(), force=True)
    made = len(renders)
    assert (project / ".pnp-cache/faces/culture-war/anarchy.json").is_file()
    renders.clear()
    build(project, None, tmp_path / "again", BuildOptions(), force=True)
    assert renders == []  # every face (and the back) remembered
    monkeypatch.setenv("PNP_NO_CACHE", "1")
    build(project, None, tmp_path / "fresh", BuildOptions(), force=True)
    assert len(renders) == made
    assert pdfs(tmp_path / "again") == pdfs(tmp_path / "fresh") == pdfs(tmp_path / "first")


def test_after_one_edit_only_that_card_is_made_again(project, tmp_path, renders, monkeypatch):
    out = tmp_path / "out"
    build(project, None, out, BuildOptions())
    deck = project / DECK
    deck.write_text(deck.read_text().replace('flavor: "Loud."', 'flavor: "Very loud."'))
    renders.clear()
    build(project, None, out, BuildOptions())
    assert renders == ["unit"]  # the brawler's type
    monkeypatch.setenv("PNP_NO_CACHE", "1")
    build(project, None, tmp_path / "fresh", BuildOptions(), force=True)
    assert pdfs(out) == pdfs(tmp_path / "fresh")


def test_a_template_edit_forgets_the_faces_it_made(project, tmp_path, renders):
    out = tmp_path / "out"
    build(project, None, out, BuildOptions())
    before = pdfs(out)["deck-anarchy.pdf"]
    unit = project / "templates/culture-war/unit.xml.j2"
    unit.write_text(unit.read_text().replace("</card>", '<rect x="1" y="1" w="2" h="2" fill="#ff00ff"/></card>'))
    renders.clear()
    build(project, None, out, BuildOptions())
    assert renders.count("unit") == 2  # both unit cards of the mini deck
    assert pdfs(out)["deck-anarchy.pdf"] != before


def test_a_damaged_cache_file_is_ignored(project, tmp_path, renders):
    build(project, None, tmp_path / "first", BuildOptions(), force=True)
    (project / ".pnp-cache/faces/culture-war/anarchy.json").write_text('{"format": "pnp-faces-1", "faces": [')
    renders.clear()
    build(project, None, tmp_path / "again", BuildOptions(), force=True)
    assert renders  # made afresh
    assert pdfs(tmp_path / "again") == pdfs(tmp_path / "first")
