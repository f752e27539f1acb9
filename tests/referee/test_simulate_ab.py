"""A/B self-play (`referee simulate --against`): the same plan on two
projects, compared. The comparison is tested on tallies whose truth is known;
the command on a real git revision of a project made in the test."""
from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.simulate.ab import compare
from referee.simulate.agents import AgentKind
from referee.simulate.play import GameRecord, Outcome, Seat
from referee.simulate.summary import Tally

ROOT = Path(__file__).resolve().parents[2]


def _tally(p_left_wins: float, games: int, seed: int, card_on_left: str = "") -> Tally:
    """Two-player games where "left" wins with probability p; the left seat
    plays `card_on_left` in every game when given."""
    rng = random.Random(seed)
    tally = Tally("petri-dish")
    for i in range(games):
        factions = ("left", "right") if i % 2 == 0 else ("right", "left")
        seats = tuple(Seat(f"P{j + 1}", f, AgentKind.RANDOM) for j, f in enumerate(factions))
        left = factions.index("left")
        winner = left if rng.random() < p_left_wins else 1 - left
        played = tuple((card_on_left,) if card_on_left and j == left else () for j in range(2))
        tally.add(GameRecord(i, seats, 0, Outcome.WIN, winner, 30, 60, played))
    return tally


def test_a_real_shift_is_found_and_named():
    before, after = _tally(0.5, 600, 1), _tally(0.7, 600, 2)
    result = compare(before, after)
    left = result.factions["left"]
    assert left.significant and left.delta > 0.1
    assert left.a.n == left.b.n == 600
    assert any(line.startswith("left wins") and "on B" in line for line in result.verdict())


def test_no_shift_gives_no_finding():
    result = compare(_tally(0.5, 400, 3), _tally(0.5, 400, 3))
    assert not any(d.significant for d in result.factions.values())
    assert result.verdict() == ["no clear difference between A and B at these games"]


def test_a_card_that_turned_strong_is_among_the_biggest_changes():
    from referee.simulate.ab import biggest_card_changes

    result = compare(_tally(0.5, 300, 4, "lucky-coin"), _tally(0.8, 300, 5, "lucky-coin"))
    (card, moved), *_ = biggest_card_changes(result)
    assert card == "lucky-coin" and moved["win"].significant
    assert moved["plays_per_game"] == (1.0, 1.0)


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
