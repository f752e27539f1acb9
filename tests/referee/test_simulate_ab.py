"""A/B self-play (`referee simulate --against`): the same plan on two
projects, compared. The comparison is tested on tallies whose truth is known;
the command on a real git revision of a project made in the test. The
statistics themselves are tested in test_simulate_paired.py."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def repo_project(tmp_path: Path) -> Path:
    """A project in a git repository, with one commit."""
    project = tmp_path / "proj"
    shutil.copytree(ROOT / "card_sources" / "petri-dish", project / "card_sources" / "petri-dish")
    shutil.copytree(ROOT / "templates", project / "templates")
    git = ["git", "-C", str(project), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "cards"], check=True)
    return project


@pytest.mark.slow
def test_against_a_revision_of_the_same_cards_plays_the_same_games(repo_project, tmp_path):
    out = tmp_path / "ab.json"
    result = CliRunner().invoke(cli, ["--project", str(repo_project), "simulate", "petri-dish", "--games", "4",
                                      "--turn-cap", "40", "--against", "HEAD", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "no clear difference" in result.output
    data = json.loads(out.read_text())
    assert data["against"]["kind"] == "revision" and len(data["against"]["revision"]) == 40
    a = [{k: v for k, v in g.items() if k != "side"} for g in data["games"] if g["side"] == "A"]
    b = [{k: v for k, v in g.items() if k != "side"} for g in data["games"] if g["side"] == "B"]
    assert len(a) == len(b) == 4 and a == b
    assert data["summary"] == data["summary_b"]
    assert not Path(data["against"]["project"]).exists()  # the extracted revision is removed after the run


@pytest.mark.parametrize("given, words", [
    ("no-such-rev", "neither a project folder nor a revision"),
    ("--bad", "neither a project folder nor a revision"),
])
def test_a_bad_against_is_one_error_and_writes_nothing(repo_project, tmp_path, given, words):
    out = tmp_path / "out"
    out.mkdir()
    result = CliRunner().invoke(cli, ["--project", str(repo_project), "simulate", "petri-dish", "--games", "2",
                                      f"--against={given}", "--json", str(out / "r.json")])
    assert result.exit_code != 0 and words in result.output
    assert "Traceback" not in result.output
    assert list(out.iterdir()) == []


def test_a_folder_that_is_not_a_project_is_refused(repo_project, tmp_path):
    (tmp_path / "empty").mkdir()
    result = CliRunner().invoke(cli, ["--project", str(repo_project), "simulate", "petri-dish", "--games", "2",
                                      "--against", str(tmp_path / "empty")])
    assert result.exit_code != 0 and "not a project" in result.output


def test_keep_and_against_do_not_mix(repo_project, tmp_path):
    result = CliRunner().invoke(cli, ["--project", str(repo_project), "simulate", "petri-dish", "--games", "2",
                                      "--against", "HEAD", "--keep", "1", str(tmp_path / "kept")])
    assert result.exit_code != 0 and "--keep" in result.output
    assert not (tmp_path / "kept").exists()


def _copy(project: Path, dest: Path) -> Path:
    shutil.copytree(project / "card_sources", dest / "card_sources")
    shutil.copytree(project / "templates", dest / "templates")
    return dest


@pytest.mark.slow
def test_a_change_with_no_effect_is_shown_in_the_diff_and_finds_nothing(repo_project, tmp_path):
    """A renamed rules text (no rule reads it): the diff names the card, every
    pair plays out the same, and the sequential run stops with no finding."""
    edited = _copy(repo_project, tmp_path / "edited")
    ref = edited / "card_sources" / "petri-dish" / "reference.yaml"
    ref.write_text(ref.read_text().replace("be the only colour", "be the one colour"))
    out = tmp_path / "ab.json"
    result = CliRunner().invoke(cli, ["--project", str(edited), "simulate", "petri-dish", "--games", "10",
                                      "--turn-cap", "30", "--against", str(repo_project), "--until-decided",
                                      "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "changed: petri-quick-reference: highlight: Win: be the one colour" in result.output
    assert "0 of 10 paired games played out differently" in result.output
    assert "agents: " in result.output
    data = json.loads(out.read_text())
    comparison = data["comparison"]
    assert comparison["changed_cards"][0]["card"] == "petri-quick-reference"
    assert not any(m["found"] for m in comparison["paired"].values())
    assert comparison["sequential"]["state"] == "undecided"  # ten identical pairs cannot clear 5 points yet
    assert data["games_played"] == 20


@pytest.mark.parametrize("args, words", [
    (["--until-decided", "--against", "HEAD"], "--until-decided needs a maximum"),
    (["--until-decided", "--games", "4"], "--until-decided decides an A/B"),
    (["--effect", "0.1", "--games", "4"], "give --until-decided too"),
    (["--until-decided", "--games", "4", "--against", "HEAD", "--effect", "2"], "--effect is a change"),
])
def test_a_sequential_run_that_cannot_stop_is_one_error_and_writes_nothing(tmp_path, args, words):
    out = tmp_path / "out"
    out.mkdir()
    result = CliRunner().invoke(cli, ["simulate", "petri-dish", *args,
                                      "--json", str(out / "r.json"), "--out", str(out / "r.pdf")])
    assert result.exit_code != 0 and words in result.output, result.output
    assert "Traceback" not in result.output
    assert list(out.iterdir()) == []


@pytest.mark.slow
@pytest.mark.pdf
def test_a_stopped_ab_writes_partial_reports_that_say_so(tmp_path):
    from referee.simulate.ab import Against
    from referee.simulate.runner import make_plan
    from referee.simulate.session import simulate

    calls: list[int] = []
    plan = make_plan("petri-dish", None, (), ("random",), 12, turn_cap=20)
    result = simulate(plan, tmp_path / "ab.json", tmp_path / "ab.pdf", against=Against(str(ROOT), "project", ROOT),
                      interrupted=lambda: calls.append(1) or len(calls) > 3, here=ROOT)
    data = json.loads((tmp_path / "ab.json").read_text())
    assert result.partial and data["partial"] and data["games_played"] == len(data["games"]) < 24
    text = subprocess.run(["pdftotext", str(tmp_path / "ab.pdf"), "-"], capture_output=True, text=True).stdout
    assert "PARTIAL: stopped early" in text and "A/B: what the edit did (PARTIAL" in text


@pytest.mark.slow
def test_without_a_card_measures_it_by_intervention(tmp_path):
    """--without CARD: side B is the project less every copy of the card; the
    diff says the card is added on A, and its copy is gone after the run."""
    out = tmp_path / "wo.json"
    result = CliRunner().invoke(cli, ["simulate", "culture-war", "--players", "3", "--games", "3", "--turn-cap",
                                      "8", "--without", "anarchy-window-smasher", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "changed: anarchy-window-smasher (Window Smasher): added on A" in result.output
    data = json.loads(out.read_text())
    assert data["against"]["kind"] == "without" and not Path(data["against"]["project"]).exists()
    b_cards = {c for g in data["games"] if g["side"] == "B" for seat in g["cards_played"] for c in seat}
    assert "anarchy-window-smasher" not in b_cards


@pytest.mark.parametrize("args, words", [
    (["--without", "no-such-card"], "--without no-such-card: no card with that id"),
    (["--without", "petri-quick-reference", "--against", "HEAD"], "give one of them"),
])
def test_a_bad_without_is_one_error_and_writes_nothing(tmp_path, args, words):
    out = tmp_path / "out"
    out.mkdir()
    result = CliRunner().invoke(cli, ["simulate", "petri-dish", "--games", "2", *args, "--json", str(out / "r.json")])
    assert result.exit_code != 0 and words in result.output, result.output
    assert "Traceback" not in result.output and list(out.iterdir()) == []
