"""Self-play (`referee simulate`): the statistics, the plan's refusals, and
whole runs of the Petri dish checked as a designer would use them: the JSON
adds up, a kept game replays to the same end, the PDF reads."""
from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.errors import RefereeError
from referee.simulate import stats
from referee.rules import rules_for
from referee.simulate.play import Outcome, play_game, setup_of
from referee.simulate.runner import make_plan
from referee.simulate.session import simulate

ROOT = Path(__file__).resolve().parents[2]


# ---- statistics ---------------------------------------------------------------------

def test_wilson_matches_its_formula_and_known_values():
    # Wilson's interval for 5 of 10 is 0.2366..0.7634 (z = 1.96), as statistics tables give it
    r = stats.wilson(5, 10)
    assert r.low == pytest.approx(0.2366, abs=1e-4) and r.high == pytest.approx(0.7634, abs=1e-4)
    # 0 of 20: the lower bound is 0 and the upper z^2/(n+z^2)
    r = stats.wilson(0, 20)
    assert r.low == 0 and r.high == pytest.approx(1.96 ** 2 / (20 + 1.96 ** 2), abs=1e-3)


def test_wilson_covers_the_true_rate_about_95_percent_of_the_time():
    rng = random.Random(4)
    p, n, trials = 0.3, 200, 2000
    covered = 0
    for _ in range(trials):
        hits = sum(rng.random() < p for _ in range(n))
        r = stats.wilson(hits, n)
        covered += r.low <= p <= r.high
    assert 0.93 <= covered / trials <= 0.97


def test_two_proportion_test():
    same = stats.difference(50, 100, 50, 100)
    assert same.p_value == pytest.approx(1.0) and not same.significant
    # 40/100 v 60/100: pooled p=0.5, se=sqrt(0.5*0.5*0.02)=0.0707, z=2.83, p=0.0047
    d = stats.difference(40, 100, 60, 100)
    assert d.delta == pytest.approx(0.2) and d.p_value == pytest.approx(math.erfc(2.8284 / math.sqrt(2)), rel=1e-3)
    assert d.significant


def test_games_for_a_one_point_margin():
    # the figure: a rate near 1/2 known to +/- 1 point takes about 9,600 games
    assert 9_500 <= stats.games_for_margin(0.01) <= 9_700


# ---- the plan refuses what cannot run --------------------------------------------------

@pytest.mark.parametrize("args, words", [
    (["chess"], "unknown game"),
    (["petri-dish", "--agent", "clever"], "unknown agent"),
    (["petri-dish", "--faction", "green", "--faction", "white"], "colour"),
    (["petri-dish", "--players", "3"], "exactly 2 players"),
    (["petri-dish", "--games", "0"], "--games must be 1 or more"),
    (["petri-dish", "--jobs", "999"], "--jobs must be 1 to"),
    (["petri-dish", "--agent", "random", "--agent", "random", "--agent", "heuristic"], "one --agent for every seat"),
    (["petri-dish", "--house-rule", "areas-to-win=9"], "areas-to-win"),
])
def test_bad_input_is_one_clear_error_and_writes_nothing(tmp_path, args, words):
    out = tmp_path / "r.json"
    result = CliRunner().invoke(cli, ["simulate", *args, "--json", str(out)])
    assert result.exit_code != 0
    assert words in result.output
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


# ---- whole runs ------------------------------------------------------------------------

def test_a_game_ends_as_the_rules_say():
    plan = make_plan("petri-dish", None, (), ("random",), 1, seed=3, turn_cap=400)
    record = play_game(plan.config(0))
    assert record.outcome in (Outcome.WIN, Outcome.DRAW, Outcome.CAPPED)
    if record.outcome is Outcome.WIN:
        assert record.winner in (0, 1)
    assert record.actions >= record.turns - 1  # the dish counts every action as a turn


def test_one_job_is_exactly_reproducible_and_two_jobs_play_the_same_games(tmp_path):
    plan1 = make_plan("petri-dish", None, (), ("random",), 12, seed=20, turn_cap=120)
    plan2 = make_plan("petri-dish", None, (), ("random",), 12, seed=20, turn_cap=120, jobs=2)
    a = simulate(plan1, tmp_path / "a.json")
    b = simulate(plan1, tmp_path / "b.json")
    c = simulate(plan2, tmp_path / "c.json")
    games = [json.loads((tmp_path / f"{n}.json").read_text())["games"] for n in "abc"]
    assert games[0] == games[1]
    assert sorted(games[2], key=lambda g: g["seed"]) == games[0]
    assert a.tally.to_json() == c.tally.to_json()
    assert b.tally.games == 12


def test_the_json_adds_up(tmp_path):
    plan = make_plan("petri-dish", None, (), ("random",), 30, seed=100, turn_cap=150)
    simulate(plan, tmp_path / "g.json")
    data = json.loads((tmp_path / "g.json").read_text())
    summary, games = data["summary"], data["games"]
    assert data["games_done"] == len(games) == 30 and not data["partial"]
    wins = sum(g["outcome"] == "win" for g in games)
    assert summary["outcomes"].get("win", 0) == wins
    assert sum(summary["outcomes"].values()) == 30
    by_colour = summary["win_rate_by_faction"]
    assert sum(v["hits"] for v in by_colour.values()) == wins
    decided = [g for g in games if g["outcome"] in ("win", "draw")]
    assert summary["first_player"]["n"] == len(decided)
    assert summary["first_player"]["hits"] == sum(g["winner"] == g["first"] for g in decided)
    assert summary["turns"]["n"] == 30 and summary["turns"]["max"] == max(g["turns"] for g in games)
    # both colours sit in both seats: the colours rotate game by game
    assert {g["seats"][0]["faction"] for g in games} == {"white", "black"}


def test_a_stopped_run_writes_a_partial_report(tmp_path):
    plan = make_plan("petri-dish", None, (), ("random",), 20, seed=5, turn_cap=60)
    calls = []
    result = simulate(plan, tmp_path / "g.json", interrupted=lambda: calls.append(1) or len(calls) > 4)
    data = json.loads((tmp_path / "g.json").read_text())
    assert result.partial and data["partial"] and data["games_done"] == len(data["games"]) < 20


def test_a_kept_game_replays_to_the_same_end(tmp_path):
    plan = make_plan("petri-dish", None, (), ("random",), 2, seed=11, turn_cap=300, keep=2)
    result = simulate(plan, tmp_path / "g.json", keep_dir=tmp_path / "kept")
    assert len(result.kept) == 2
    games = json.loads((tmp_path / "g.json").read_text())["games"]
    for path, game in zip(result.kept, games):
        db = tmp_path / f"{path.stem}.db"
        replayed = CliRunner().invoke(cli, ["--db", str(db), "replay", str(path)])
        assert replayed.exit_code == 0, replayed.output
        status = json.loads(CliRunner().invoke(cli, ["--db", str(db), "status", "--json"]).output)
        exported = json.loads(path.read_text())
        assert status == exported["final"]
        if game["outcome"] == "win":
            assert status["winner"] == game["seats"][game["winner"]]["name"]
        assert status["log_length"] == game["actions"] + 1


@pytest.mark.parametrize("agent, games, budget", [
    ("heuristic", 12, 1),
    pytest.param("search", 4, 8, marks=pytest.mark.slow),
])
def test_the_deciding_agents_beat_random_play(agent, games, budget):
    # the heuristic and the search agent should beat a random mover in most games
    plan = make_plan("petri-dish", None, (), (agent, "random"), games, seed=40, turn_cap=100, budget=budget)
    wins = losses = 0
    for i in range(plan.games):
        record = play_game(plan.config(i))
        if record.outcome is Outcome.WIN:  # the agents swap seats game by game: count by agent
            won = record.seats[record.winner].agent.value == agent
            wins, losses = wins + won, losses + (not won)
    assert wins > losses


@pytest.mark.pdf
def test_the_report_reads_as_a_report(tmp_path):
    import pypdfium2 as pdfium

    plan = make_plan("petri-dish", None, (), ("random",), 20, seed=2, turn_cap=100)
    simulate(plan, pdf_path=tmp_path / "r.pdf")
    pdf = pdfium.PdfDocument(str(tmp_path / "r.pdf"))
    text = pdf[0].get_textpage().get_text_range()
    for words in ("balance report", "Verdict", "Win rate by colour", "white", "black", "moved first",
                  "Game length", "20 games"):
        assert words in text, words


def test_the_command_prints_the_figures(tmp_path):
    result = subprocess.run([sys.executable, "-m", "referee", "simulate", "petri-dish", "--games", "4",
                             "--turn-cap", "40", "--json", str(tmp_path / "g.json")],
                            cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "4 games of petri-dish" in result.stdout and "wrote" in result.stdout
    assert result.stderr == ""  # no progress bar when not on a terminal


def test_a_card_game_without_its_dealer_says_so(monkeypatch):
    from referee.simulate import play

    monkeypatch.setattr(play, "selfplay_module", lambda game: None)  # as before the game's dealer was built
    with pytest.raises(RefereeError, match="dealer"):
        plan = make_plan("culture-war", 3, (), ("random",), 1)
        play_game(plan.config(0))


def test_check_plays_every_action_through_a_real_table():
    plan = make_plan("petri-dish", None, (), ("random",), 2, seed=60, turn_cap=80, check=True)
    for i in range(plan.games):
        record = play_game(plan.config(i))
        assert record.actions > 0


def test_check_stops_at_a_generator_that_misses_a_move(monkeypatch):
    # a generator that never lists `pass`, which check accepts: --check must say so, with the seed
    from referee.games.petri_dish import legal as petri_legal
    from referee.simulate.play import Violation

    real = petri_legal.candidates  # what the legal moves and the random draw are both made from
    monkeypatch.setattr(petri_legal, "candidates",
                        lambda *a, **k: [c for c in real(*a, **k) if c.action is None or c.action.name != "pass"])
    plan = make_plan("petri-dish", None, (), ("random",), 1, seed=61, turn_cap=200, check=True)
    with pytest.raises(Violation, match="seed 61: check accepts pass"):
        for _ in range(20):  # the mutations are random: enough actions to try a pass
            play_game(plan.config(0))
            plan = make_plan("petri-dish", None, (), ("random",), 1, seed=61, turn_cap=200, check=True)


def _refusing_roller(monkeypatch, refuse_at: int) -> list:
    """Culture War's roller (`legal.dice_for`, which self-play plays every move through)
    refusing the `refuse_at`-th move it is handed, as a rules fault would: monkeypatched
    only to provoke the situation. Returns the moves handed to it."""
    from referee.errors import RuleViolation
    from referee.games.culture_war import legal as cw_legal
    from referee.simulate import play

    handed = []

    def dice_for(rules, state, action, die):
        handed.append(action)
        if len(handed) == refuse_at:
            raise RuleViolation("a test's refusal", f"the dice refuse {action.name}")
        return cw_legal.dice_for(rules, state, action, die)

    monkeypatch.setattr(play, "roller", lambda game: dice_for)  # agents.roller is cached: replace it where it is used
    return handed


def test_check_turns_a_refused_roll_into_a_violation_with_the_seed_and_the_actions(monkeypatch):
    from referee.simulate.play import Violation

    handed = _refusing_roller(monkeypatch, refuse_at=6)
    plan = make_plan("culture-war", 2, (), ("random",), 1, seed=7, turn_cap=50, check=True)
    with pytest.raises(Violation) as caught:
        play_game(plan.config(0))
    refused, v = handed[-1], caught.value
    # the roller was handed 5 moves before; the battles and the roll-off are drawn, not handed to it
    assert (v.game.value, v.seed) == ("culture-war", plan.config(0).seed) and len(v.steps) >= 5
    lines = str(v).splitlines()
    assert lines[0] == (f"culture-war seed {v.seed}: the roller refuses the generated move {refused.name} "
                        f"{dict(refused.args)} actor={refused.actor}: the dice refuse {refused.name} "
                        f"[rule: a test's refusal] after {len(v.steps)} actions:")
    assert lines[1:] == [f"  {i}. {s.action.name} {dict(s.action.args)} actor={s.action.actor} dice={list(s.dice)}"
                         for i, s in enumerate(v.steps, start=1)]
    # the seed and the actions listed reproduce the table the refused move was generated on
    config = replace(plan.config(0), check=False, keep=True)
    rules = rules_for(config.game)
    state = rules.setup(setup_of(config), play_game(config).setup_dice)
    for step in v.steps:
        state = rules.apply(state, step.action, step.dice)
    assert rules.check(state, refused) is None  # the rules accept the move their roller refused


def test_without_check_a_refused_roll_ends_the_game_as_a_jam_and_the_run_goes_on(monkeypatch):
    _refusing_roller(monkeypatch, refuse_at=6)
    plan = make_plan("culture-war", 2, (), ("random",), 1, seed=7, turn_cap=50, keep=1)
    record = play_game(plan.config(0))
    assert (record.outcome, record.winner) == (Outcome.JAM, None)
    assert record.actions == len(record.steps) >= 5  # the moves before the refused one were played and kept
    assert record.to_json()["outcome"] == "jam"


def test_a_generated_move_the_rules_refuse_to_play_is_a_violation_or_a_jam(monkeypatch):
    from referee.errors import RuleViolation
    from referee.simulate.play import Violation

    rules, played = rules_for("petri-dish"), []
    real = rules.apply

    def apply(state, action, dice):  # monkeypatched only to provoke a refusal of the 4th move
        played.append(action)
        if len(played) == 4:
            raise RuleViolation("a test's refusal", "not this one")
        return real(state, action, dice)

    monkeypatch.setattr(rules, "apply", apply)
    plan = make_plan("petri-dish", None, (), ("random",), 1, seed=62, turn_cap=80, check=True)
    with pytest.raises(Violation, match=r"^petri-dish seed 62: the generated move \w+ .* is refused as it is "
                                        r"played: not this one \[rule: a test's refusal\] after 3 actions:"):
        play_game(plan.config(0))
    played.clear()
    record = play_game(replace(plan.config(0), check=False))
    assert (record.outcome, record.actions) == (Outcome.JAM, 3)
