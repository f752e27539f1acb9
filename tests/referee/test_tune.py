"""`referee tune`: bad input is one clear error with nothing written; a
change is written into a copy of the sources as a one-line diff and checked
by pnp's loader; a small real search reports its path and games, never
touches the project without --write, and --resume plays nothing again."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.simulate.tune.apply import Refused, write
from referee.simulate.tune.knobs import parse_vary

ROOT = Path(__file__).resolve().parents[2]
SMASHER = "anarchy-window-smasher"


@pytest.fixture
def project(tmp_path, monkeypatch):
    copy = tmp_path / "project"
    shutil.copytree(ROOT / "card_sources", copy / "card_sources")
    shutil.copytree(ROOT / "templates", copy / "templates")
    monkeypatch.setenv("REFEREE_PROJECT", str(copy))
    monkeypatch.chdir(tmp_path)
    return copy


def _sources(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted((root / "card_sources").rglob("*.yaml"))}


@pytest.mark.parametrize("vary, message", [
    ("nobody-here.atk=1..3", "no card 'nobody-here'"),
    (f"{SMASHER}.speed=1..3", "prints no number 'speed'"),
    (f"{SMASHER}.cost=-1..2", "cost of a unit is 0 or more"),
    (f"{SMASHER}.atk=4..1", "LOW <= HIGH"),
    ("deck:pirates.cost=-1..1", "no deck 'pirates'"),
    ("house-rule:starting-life=0", "starting-life"),
])
def test_bad_vary_is_one_clear_error_and_nothing_is_written(project, tmp_path, vary, message):
    before = _sources(project)
    result = CliRunner().invoke(cli, ["tune", "culture-war", "--vary", vary, "--json", str(tmp_path / "t.json")])
    assert result.exit_code != 0
    assert message in result.output, result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "t.json").exists()
    assert _sources(project) == before


@pytest.mark.parametrize("target", ["faction=0.3", "faction:pirates=0.5", "faction:anarchy=2", "colour=fair"])
def test_a_bad_target_is_one_clear_error(project, tmp_path, target):
    result = CliRunner().invoke(cli, ["tune", "culture-war", "--vary", "auto", "--target", target,
                                      "--json", str(tmp_path / "t.json")])
    assert result.exit_code != 0 and "--target" in result.output and "Traceback" not in result.output


@pytest.mark.slow
def test_a_change_is_one_line_in_a_copy_checked_by_the_loader(project, tmp_path):
    knobs = {k.name: k for k in parse_vary([f"{SMASHER}.atk=1..6", "deck:anarchy.cost=-1..1"], "culture-war",
                                           project)}
    before = _sources(project)
    work = tmp_path / "work"
    work.mkdir()
    written = write(project, work, "culture-war", knobs, {f"{SMASHER}.atk": 6})
    diff = written.diff()
    assert [line for line in diff.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")] == \
        ["-    atk: 2", "+    atk: 6"]
    assert _sources(project) == before  # the project itself is never edited
    from referee.cards.index import load_index
    from referee.simulate.sources import unpacked
    assert load_index(unpacked(written.packet)).cards[SMASHER].fields["atk"] == 6
    with pytest.raises(Refused, match="schema"):  # every anarchy cost one lower: a cost-0 card goes below 0
        write(project, work, "culture-war", knobs, {"deck:anarchy.cost": -1})


def test_auto_keeps_each_number_within_one_step_and_the_schema(project):
    knobs = {k.name: k for k in parse_vary(["auto"], "culture-war", project)}
    smasher = knobs[f"{SMASHER}.atk"]
    assert smasher.values == (1, 2, 3) and smasher.now == 2
    assert knobs[f"{SMASHER}.def"].values == (0, 1)  # DEF 0 does not go below 0
    assert all(min(k.values) >= 0 for k in knobs.values())


@pytest.mark.slow
def test_a_small_search_reports_its_path_and_resumes_without_playing(project, tmp_path):
    before = _sources(project)
    out = tmp_path / "t.json"
    args = ["tune", "culture-war", "--players", "2", "--faction", "anarchy", "--faction", "community",
            "--vary", f"{SMASHER}.atk=1..3", "--games", "8", "--batch", "4", "--verify-games", "8",
            "--turn-cap", "12", "--rounds", "1", "--json", str(out)]
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 0, first.output
    report = json.loads(out.read_text())
    played = sum(e["count"]["games"] for e in report["evaluations"])
    assert report["games_played"] == played >= 16  # the unchanged cards on search and verification seeds
    assert report["path"][0]["what"] == "unchanged cards"
    assert "verification" in report and "rates" in report["verification"]
    assert _sources(project) == before  # no --write: no change
    again = CliRunner().invoke(cli, [*args, "--resume", str(out)])
    assert again.exit_code == 0, again.output
    resumed = json.loads(out.read_text())
    assert resumed["games_played"] == played  # nothing played again
    assert resumed["evaluations"] == report["evaluations"]
    assert resumed["verification"] == report["verification"]


@pytest.mark.slow
def test_ctrl_c_keeps_every_evaluation_and_resume_goes_on(project, tmp_path, monkeypatch):
    from referee.simulate.tune import engine as engine_module
    from referee.simulate.tune.run import tune
    from referee.simulate.tune.setup import make_spec

    spec, base = make_spec("culture-war", "faction=fair", 2.0, [f"{SMASHER}.atk=1..3"], 8, 4, 8, 12, 1, 2,
                           ("anarchy", "community"), (), 3, 12)
    out = tmp_path / "t.json"
    real_play = engine_module.Engine.play
    calls = []

    def play_then_stop(self, configs, packet):  # Ctrl-C as the third batch starts
        calls.append(len(configs))
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real_play(self, configs, packet)

    monkeypatch.setattr(engine_module.Engine, "play", play_then_stop)
    stopped = tune(spec, base, out)
    assert stopped.partial
    kept = json.loads(out.read_text())
    assert kept["partial"] and kept["games_played"] == 8  # the two batches done
    monkeypatch.setattr(engine_module.Engine, "play", real_play)
    done = tune(spec, base, out, resume=out)
    assert not done.partial and "verification" in done.report
    whole = tune(spec, base, tmp_path / "whole.json")  # the same search without a stop
    assert done.report["evaluations"] == whole.report["evaluations"]
    assert done.report["games_played"] == whole.report["games_played"]
