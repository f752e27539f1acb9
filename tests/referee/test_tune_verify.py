"""`referee tune`'s verification and report: a fresh paired A/B on seeds the
search never used, judged by McNemar's exact test within pairs and by
simulate's sequential test (`--until-decided`); seats by turn place; per-seat
house rules as knobs; the report as a PDF read back as text."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.simulate.agents import AgentKind
from referee.simulate.play import GameRecord, Outcome, Seat
from referee.simulate.stats import binomial_two_sided
from referee.simulate.tune.verify import VERIFY_SEED, by_place, compact, expand

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def project(tmp_path, monkeypatch):
    copy = tmp_path / "project"
    shutil.copytree(ROOT / "card_sources", copy / "card_sources")
    shutil.copytree(ROOT / "templates", copy / "templates")
    monkeypatch.setenv("REFEREE_PROJECT", str(copy))
    monkeypatch.chdir(tmp_path)
    return copy


def _record(first: int, winner: int | None) -> GameRecord:
    seats = tuple(Seat(f"P{i + 1}", f, AgentKind.HEURISTIC) for i, f in enumerate(("anarchy", "community", "technocracy")))
    return GameRecord(7, seats, first, Outcome.WIN if winner is not None else Outcome.CAPPED, winner, 20, 300,
                      (("a",), ("b", "b"), ()))


def test_by_place_makes_the_first_player_seat_one_and_keeps_who_won():
    turned = by_place(_record(first=2, winner=0))
    assert [s.faction for s in turned.seats] == ["technocracy", "anarchy", "community"]  # from the first, in order
    assert turned.first == 0 and turned.seats[turned.winner].faction == "anarchy"
    assert turned.cards_played == ((), ("a",), ("b", "b"))
    assert by_place(_record(first=0, winner=1)) == _record(first=0, winner=1)
    assert expand(compact(_record(first=1, winner=None))) == _record(first=1, winner=None)  # kept for --resume


@pytest.mark.parametrize("vary, extra, message", [
    ("house-rule:first-player-bonus=0..200", [], "'first-player-bonus' must be from 0 to 100, not 101"),
    ("house-rule:first-player-bonus=0..4", ["--house-rule", "first-player-bonus=2"], "give it one way"),
    ("house-rule:nobody=0..4", [], "debate has no house rule 'nobody'"),
])
def test_a_bad_house_rule_knob_is_one_clear_error(project, tmp_path, vary, extra, message):
    result = CliRunner().invoke(cli, ["tune", "debate", "--target", "seat=fair", "--vary", vary, *extra,
                                      "--json", str(tmp_path / "t.json")])
    assert result.exit_code != 0 and message in result.output, result.output
    assert "Traceback" not in result.output and not (tmp_path / "t.json").exists()


def test_a_house_rule_knob_steps_from_the_rules_default(project):
    from referee.simulate.tune.setup import make_spec

    spec, _ = make_spec("debate", "seat=fair", 2.0, ["house-rule:first-player-bonus=0..3"], 8, 4, 8, 12, 1, None,
                        (), (), 1, 40)
    knob = spec.knobs["house-rule:first-player-bonus"]
    assert knob.values == ("0", "1", "2", "3") and knob.now == "0"
    from referee.simulate.tune.search import Search, score
    from referee.simulate.tune.fairness import Count
    search = Search(spec, ROOT, None, None)  # neighbours only: nothing is played
    try:  # a knob given by name: every other value, the nearest first, never the default itself
        assert search.neighbours({}, Count()) == [{"house-rule:first-player-bonus": v} for v in ("1", "2", "3")]
        assert search.neighbours({"house-rule:first-player-bonus": "2"}, Count()) == [
            {"house-rule:first-player-bonus": "1"}, {"house-rule:first-player-bonus": "3"}, {}]
        assert score(spec, 0.0, {"house-rule:first-player-bonus": "3"}) == 0.5 + 3 * 0.25  # three steps
    finally:
        search.close()
    from referee.simulate.tune.run import _say
    said = _say(spec, {"house-rule:first-player-bonus": "4"})
    assert len(said) == 1 and said[0].startswith("the table should set house rule first-player-bonus=4 (more "
                                                 "fortitude for the first player")


def test_a_named_card_knob_is_searched_along_its_range_and_auto_one_step(project):
    """Window Smasher planted at ATK 6: a round tries ATK 5 down to 1 (so the printed 2 is
    reached in one round, its four steps paid in the score); auto tries one step."""
    from referee.simulate.tune.fairness import Count
    from referee.simulate.tune.search import Search, score
    from referee.simulate.tune.setup import make_spec

    deck = project / "card_sources" / "culture-war" / "anarchy.yaml"
    text = deck.read_text()
    at = text.index("id: anarchy-window-smasher")
    deck.write_text(text[:at] + text[at:].replace("atk: 2", "atk: 6", 1))
    spec, base = make_spec("culture-war", "faction=fair", 2.0, ["anarchy-window-smasher.atk=1..6"], 8, 4, 8, 12, 1, 2,
                           ("anarchy", "community"), (), 1, 40)
    search = Search(spec, base, None, None)
    try:
        assert search.neighbours({}, Count()) == [{"anarchy-window-smasher.atk": v} for v in (5, 4, 3, 2, 1)]
    finally:
        search.close()
    assert score(spec, 0.01, {"anarchy-window-smasher.atk": 2}) == pytest.approx(1 + 0.5 + 4 * 0.25)
    auto, _ = make_spec("culture-war", "faction=fair", 2.0, ["auto"], 8, 4, 8, 400, 1, 2, ("anarchy", "community"),
                        (), 1, 40)
    strong = Count(faction_games={"anarchy": 10, "community": 10}, faction_wins={"anarchy": 8, "community": 2},
                   games=10, wins=10, seat_total=20)
    search = Search(auto, base, None, None)
    try:
        tried = search.neighbours({}, strong)
    finally:
        search.close()
    smasher = [c for c in tried if "anarchy-window-smasher.atk" in c]
    assert smasher == [{"anarchy-window-smasher.atk": 5}]  # one step, the weaker way: anarchy is above its share
    from referee.simulate.tune.knobs import STRONGER
    for change in tried:  # anarchy above its share is weakened, community below it strengthened, a step each
        (name, value), = change.items()
        knob = auto.knobs[name]
        stronger = STRONGER[knob.field] * (value - knob.now)
        assert abs(value - knob.now) == 1 and (stronger < 0 if knob.faction == "anarchy" else stronger > 0), change


@pytest.mark.slow
@pytest.mark.pdf
def test_the_verification_is_paired_and_stops_once_the_sequential_test_decides(project):
    """Every anarchy unit 3 ATK stronger: anarchy's paired win rate jumps, the
    sequential test (effect 20 points) calls it before the most games, and
    the proposal fails, for it moves the game away from fair."""
    from referee.simulate.tune.engine import Engine
    from referee.simulate.tune.search import Search, State
    from referee.simulate.tune.setup import make_spec
    from referee.simulate.tune.verify import verify

    spec, base = make_spec("culture-war", "faction=fair", 2.0, ["deck:anarchy.atk=-1..+3"], 8, 10, 120, 12, 1, 2,
                           ("anarchy", "community"), (), 1, 60, until_decided=0.2)
    state = State()
    search = Search(spec, base, Engine(1), state)
    try:
        ver = verify(search, spec, {"change": {"deck:anarchy.atk": 3}})
    finally:
        search.close()
    assert ver["seed"] == 1 + VERIFY_SEED
    seq = ver["sequential"]
    assert seq["state"] == "different" and seq["measure"] == "faction:anarchy"
    assert ver["pairs"] == seq["pairs"] < 120  # stopped early, at a batch's end
    assert ver["pairs"] % 12 == 0  # the sequential test's batches: at least 10 games, at most 10 looks
    anarchy = ver["rates"]["anarchy"]["paired"]
    assert anarchy["pairs"] == ver["pairs"]
    assert anarchy["p_value"] == round(binomial_two_sided(anarchy["a_only"], anarchy["a_only"] + anarchy["b_only"]), 6)
    assert anarchy["a"]["hits"] - anarchy["b"]["hits"] == anarchy["a_only"] - anarchy["b_only"]  # within pairs
    assert anarchy["delta"] > 0 and anarchy["delta_low"] > 0
    assert not ver["passed"] and "target not met" in ver["met"]
    played = {e["seed"]: e["count"]["games"] for e in state.evaluations}
    assert set(played) == {1 + VERIFY_SEED} and sum(e["count"]["games"] for e in state.evaluations) == 2 * ver["pairs"]
    # the PDF of a proposal that was played against the unchanged cards shows both sides and the pairs
    from referee.simulate.tune import report_pdf
    report = {"target": "faction=fair", "tolerance": 2.0, "knobs": ["deck:anarchy.atk"], "agents": ["heuristic"],
              "players": 2, "factions": ["anarchy", "community"], "games_played": state.games, "seconds": 1.0,
              "games": 8, "seed": 1, "path": [], "evaluations": state.evaluations,
              "proposal": {"change": {"deck:anarchy.atk": 3}, "gap_points": 0.0, "patch": ""}, "verification": ver}
    text = _text(report_pdf.write(report, "Culture War", project.parent / "v.pdf").path)
    for words in (f"Verification on {ver['pairs']} fresh pairs", "anarchy before", "anarchy after", "community after",
                  "Target not met", "decided after", f"{anarchy['a_only']} won only after"):
        assert words in text, words


def _text(path: Path) -> str:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(path))
    try:
        return " ".join(" ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc))).split())
    finally:
        doc.close()


@pytest.mark.slow
@pytest.mark.pdf
def test_the_pdf_report_names_the_proposal_verification_path_games_and_agents(project, tmp_path):
    out, pdf = tmp_path / "t.json", tmp_path / "t.pdf"
    result = CliRunner().invoke(cli, [
        "tune", "culture-war", "--players", "2", "--faction", "anarchy", "--faction", "community",
        "--vary", "anarchy-window-smasher.atk=1..3", "--games", "8", "--batch", "4", "--verify-games", "8",
        "--turn-cap", "60", "--rounds", "1", "--json", str(out), "--pdf", str(pdf)])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    text = _text(pdf)
    assert "Culture War: balance search" in text
    assert "heuristic in every seat" in text and report["agents_in_words"] == "heuristic in every seat"
    assert f"{report['games_played']} games played" in text
    ver = report["verification"]
    heading = (f"Verification on {ver['pairs']} fresh pairs" if report["proposal"]["change"] else
               "Verification: the unchanged cards on 8 fresh games")
    for words in ("Proposal", heading, "The search's path", "Every evaluation", "anarchy before", "community before",
                  "anarchy-window-smasher.atk = 1", "anarchy-window-smasher.atk = 3"):
        assert words in text, words
    assert ver["pairs"] == (8 if report["proposal"]["change"] else 0) and "McNemar" in ver["test"]
