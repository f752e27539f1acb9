"""The pnp command line, wired end to end."""
import json
import os
import subprocess
import sys

from click.testing import CliRunner
import pytest

from pnp.cli import main


def run(*args, cwd=None):
    runner = CliRunner()
    old = os.getcwd()
    try:
        if cwd:
            os.chdir(cwd)
        return runner.invoke(main, list(args), catch_exceptions=False)
    finally:
        os.chdir(old)


@pytest.mark.pdf
def test_build_finds_the_project_from_a_subfolder(mini_project, tmp_path):
    sub = mini_project / "card_sources" / "culture-war"
    out = tmp_path / "elsewhere"
    result = run("build", "--out", str(out), cwd=sub)
    assert result.exit_code == 0, result.output
    assert (out / "culture-war" / "deck-anarchy.pdf").read_bytes().startswith(b"%PDF")
    assert "built 1 files" in result.output and "5 cards" in result.output


def test_project_option_points_elsewhere(mini_project, tmp_path):
    result = run("--project", str(mini_project), "validate", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert "1 games, 4 cards" in result.output


def test_no_project_is_a_clear_error(tmp_path):
    result = run("validate", cwd=tmp_path)
    assert result.exit_code != 0
    assert "no pnp project found" in result.output
    assert "Traceback" not in result.output


def test_validation_error_exit_code_and_message(mini_project):
    deck = mini_project / "card_sources/culture-war/anarchy.yaml"
    deck.write_text(deck.read_text().replace("atk: 2", "atk: two"))
    result = run("--project", str(mini_project), "build")
    assert result.exit_code == 1
    assert "card_sources/culture-war/anarchy.yaml:" in result.output
    assert "test-brawler: atk must be a whole number" in result.output
    assert "Traceback" not in result.output
    assert not (mini_project / "output" / "culture-war").exists()


def test_unknown_game(mini_project):
    result = run("--project", str(mini_project), "build", "chess")
    assert result.exit_code != 0 and "unknown game chess" in result.output


def test_list_json_has_every_source_field(mini_project):
    result = run("--project", str(mini_project), "list", "culture-war", "--json")
    rows = json.loads(result.output)
    brawler = next(r for r in rows if r["id"] == "test-brawler")
    assert brawler["atk"] == 2 and brawler["traits"] == ["hero"] and brawler["deck"] == "anarchy"
    assert brawler["flavor"] == "Loud." and len(brawler["revision"]) == 6


def test_list_table(mini_project):
    result = run("--project", str(mini_project), "list")
    assert "test-shield" in result.output and "cost=1" in result.output
    assert "4 cards, 5 copies" in result.output


def test_help_has_examples():
    for command in ([], ["build"], ["validate"], ["list"]):
        result = run(*command, "--help")
        assert result.exit_code == 0
        assert "Examples:" in result.output


def test_python_dash_m_pnp(mini_project):
    proc = subprocess.run([sys.executable, "-m", "pnp", "--project", str(mini_project), "validate"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "ok:" in proc.stdout


@pytest.mark.pdf
def test_layout_and_paper_options_reach_the_manifest(mini_project, tmp_path):
    result = run("--project", str(mini_project), "build", "--paper", "letter", "--layout", "gutterfold",
                 "--out", str(tmp_path / "o"))
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "o/culture-war/manifest.json").read_text())
    (entry,) = manifest["files"]
    assert (entry["paper"], entry["layout"]) == ("letter", "gutterfold")
    assert len(manifest["cards"]) == 5
