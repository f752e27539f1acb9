"""`pnp new-game`: a working game in one command, in an empty folder or
beside the games of an existing project."""
from __future__ import annotations

import json
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import zxingcpp
import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.sources.qrpayload import parse_payload


def run(folder: Path, *args: str):
    return CliRunner().invoke(main, ["--project", str(folder), *args]) if (folder / "card_sources").is_dir() \
        else _in(folder, *args)


def _in(folder: Path, *args: str):
    import os

    old = Path.cwd()
    os.chdir(folder)
    try:
        return CliRunner().invoke(main, list(args))
    finally:
        os.chdir(old)


@pytest.mark.pdf
def test_a_new_game_in_an_empty_folder_builds_at_once(tmp_path):
    result = _in(tmp_path, "new-game", "dragon-market")
    assert result.exit_code == 0, result.output
    assert "started a project" in result.output
    built = _in(tmp_path, "build")
    assert built.exit_code == 0, built.output
    out = tmp_path / "output" / "dragon-market"
    manifest = json.loads((out / "manifest.json").read_text())
    cards = manifest["cards"]
    assert {c["id"] for c in cards} == {"dragon-market-scout", "dragon-market-builder",
                                        "dragon-market-messenger", "dragon-market-wildcard"}
    assert len(cards) == 7
    pdf = pdfium.PdfDocument(out / "deck-starter.pdf")
    image = pdf[0].render(scale=300 / 72).to_pil()
    found = {parse_payload(c.text).card_id for c in zxingcpp.read_barcodes(image)}
    assert found == {c["id"] for c in cards}
    text = pdf[0].get_textpage().get_text_range()
    assert "Scout" in text and "look at the top card" in text
    with pikepdf.open(out / "deck-starter.pdf") as doc:  # pnp's own fonts, embedded
        fonts = {str(f.get("/BaseFont")) for page in doc.pages for f in page.Resources.get("/Font", {}).values()}
        assert any("Roboto" in f for f in fonts), fonts
    assert (out / "rules-rules.pdf").is_file()


def test_a_new_game_joins_an_existing_project_without_touching_it(mini_project):
    style = (mini_project / "templates" / "style.yaml").read_text()
    result = run(mini_project, "new-game", "sky-raft", "--name", "Sky Raft")
    assert result.exit_code == 0, result.output
    assert (mini_project / "templates" / "style.yaml").read_text() == style
    listed = run(mini_project, "list", "--json")
    assert listed.exit_code == 0, listed.output
    games = {row["game"] for row in json.loads(listed.output)}
    assert games == {"culture-war", "sky-raft"}


def test_a_taken_or_malformed_name_is_refused_and_nothing_is_written(mini_project):
    before = sorted(p for p in mini_project.rglob("*") if ".pnp-cache" not in p.parts)
    for bad in ("culture-war", "Dragon Market", "9lives", "a--b"):
        result = run(mini_project, "new-game", bad)
        assert result.exit_code != 0 and "Traceback" not in result.output, bad
    assert sorted(p for p in mini_project.rglob("*") if ".pnp-cache" not in p.parts) == before


def test_a_new_games_yaml_points_at_documentation_that_is_there(tmp_path):
    """The comment names a file on this machine that documents game.yaml
    (in a checkout its docs/; installed, the wheel's copy: test_install)."""
    assert _in(tmp_path, "new-game", "dragon-market").exit_code == 0
    first = (tmp_path / "card_sources" / "dragon-market" / "game.yaml").read_text().splitlines()[0]
    doc = Path(first.split("The format is in ", 1)[1].strip())
    assert doc.is_absolute() and doc.is_file(), first
    assert "card_types" in doc.read_text() and "game.yaml" in doc.read_text()
