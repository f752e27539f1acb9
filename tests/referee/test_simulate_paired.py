"""The statistics a designer acts on (issue 35): each against values worked
out by hand or printed in the method's own paper, then the paired A/B and
the one-sided findings on games whose truth is known."""
from __future__ import annotations

import math
import random

import pytest

from referee.simulate.agents import AgentKind
from referee.simulate.compare import compare
from referee.simulate.findings import findings
from referee.simulate.paired import Paired, Pairs
from referee.simulate.play import GameRecord, Outcome, Seat
from referee.simulate.sequential import State, bounds, decide, llr
from referee.simulate.stats import against_share, binomial_two_sided, fdr, normal_quantile, wilson
from referee.simulate.summary import Tally, verdict

AGENT = next(iter(AgentKind))


# ---- the formulas, by hand --------------------------------------------------------------

def test_wilson_is_clamped_at_no_hits_and_at_every_hit():
    assert wilson(0, 50).low == 0.0 and wilson(50, 50).high == 1.0
    assert not wilson(0, 50).excludes(0.0)  # an all-draw run: 0 of 50 against a fair 0 is no imbalance
    low, high = wilson(3, 10).low, wilson(3, 10).high  # 3/10: 0.1078 to 0.6032 (the textbook's value)
    assert round(low, 4) == 0.1078 and round(high, 4) == 0.6032


def test_the_sign_test_by_hand():
    # 1 success in 10 fair flips: P(<=1) = (1 + 10) / 1024, doubled
    assert binomial_two_sided(1, 10) == pytest.approx(22 / 1024)
    assert binomial_two_sided(9, 10) == pytest.approx(22 / 1024)
    assert binomial_two_sided(5, 10) == 1.0 and binomial_two_sided(0, 0) == 1.0


def test_mcnemar_on_a_table_worked_by_hand():
    # 40 pairs: 20 won on both sides, 10 on neither, 8 on A only, 2 on B only
    m = Paired(n=40, a_hits=28, b_hits=22, a_only=8, b_only=2)
    # exact: 2 * P(X <= 2 | 10, 1/2) = 2 * (1 + 10 + 45) / 1024
    assert m.p_value == pytest.approx(112 / 1024)
    assert m.delta == pytest.approx((28 - 22) / 40)  # A minus B, the rates' difference
    # the per-pair difference is +1 eight times, -1 twice: variance 10/40 - 0.15^2
    assert m.variance == pytest.approx(0.25 - 0.0225)
    assert m.a.value == pytest.approx(0.7) and m.b.value == pytest.approx(0.55)


def test_benjamini_hochberg_on_the_papers_example():
    # Benjamini and Hochberg (1995), section 4: fifteen p-values, four rejected at q = 0.05
    ps = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459,
          0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.000]
    q = fdr({f"t{i}": p for i, p in enumerate(ps)})
    assert sorted(k for k, v in q.items() if v < 0.05) == ["t0", "t1", "t2", "t3"]
    assert q["t0"] == pytest.approx(0.0015)  # 0.0001 * 15 / 1
    assert q["t3"] == pytest.approx(0.0095 * 15 / 4)
    assert q["t4"] == pytest.approx(0.0201 * 15 / 5)
    assert q["t5"] == pytest.approx(0.0298 * 15 / 7)  # rank 6 takes the smaller p_j m / j of rank 7
    assert q["t14"] == 1.0


def test_a_rate_against_its_share_and_the_normal_quantile():
    assert against_share(60, 100, 0.5) == pytest.approx(math.erfc(2 / math.sqrt(2)))  # z = 2
    assert against_share(0, 100, 0.0) == 1.0
    assert normal_quantile(0.975) == pytest.approx(1.959964, abs=1e-6)
    assert normal_quantile(0.8) == pytest.approx(0.841621, abs=1e-6)
    assert normal_quantile(0.01) == pytest.approx(-2.326348, abs=1e-6)


def test_the_sequential_ratio_by_hand():
    # 100 pairs, 10 won on A only: mean 0.1, variance 0.1 - 0.01
    m = Paired(n=100, a_hits=30, b_hits=20, a_only=10, b_only=0)
    assert llr(m, 0.05) == pytest.approx(100 * 0.05 * (0.1 - 0.025) / 0.09)
    lower, upper = bounds(1)  # alpha 0.05 over two directions, beta 0.05
    assert upper == pytest.approx(math.log(0.95 / 0.025)) and lower == pytest.approx(math.log(0.05 / 0.975))
    found = decide({"faction:left": m}, 0.05)
    assert found.state is State.DIFFERENT and found.measure == "faction:left"
    quiet = decide({"faction:left": Paired(400, 100, 100, 0, 0)}, 0.05)
    assert quiet.state is State.SAME
    early = decide({"faction:left": Paired(10, 3, 3, 0, 0)}, 0.05)
    assert early.state is State.OPEN  # ten identical pairs cannot yet clear a 5-point change


def test_the_smallest_effect_shrinks_with_the_pairs_and_never_beats_six_discordant():
    few, many = Paired(100, 50, 50, 5, 5), Paired(10000, 5000, 5000, 500, 500)
    assert many.smallest_effect() < few.smallest_effect()
    z = normal_quantile(0.975) + normal_quantile(0.8)
    assert many.smallest_effect() == pytest.approx(z * math.sqrt(0.1 / 10000))
    assert Paired(1000, 500, 500, 0, 0).smallest_effect() == pytest.approx(6 / 1000)


# ---- pairs of games ---------------------------------------------------------------------

def _game(index: int, winner: int | None, turns: int = 30, outcome: Outcome = Outcome.WIN) -> GameRecord:
    factions = ("left", "right") if index % 2 == 0 else ("right", "left")
    seats = tuple(Seat(f"P{j + 1}", f, AGENT) for j, f in enumerate(factions))
    return GameRecord(index, seats, 0, outcome, winner, turns, 60, ((), ()))


def _run(p_a: float, p_b: float, shared: float, games: int, seed: int):
    """Games where "left" wins on B with p_b; on A the same game is replayed
    (same outcome) with chance `shared`, else drawn afresh with p_a."""
    rng = random.Random(seed)
    ta, tb, pairs = Tally("petri-dish"), Tally("petri-dish"), Pairs()
    for i in range(games):
        left = 0 if i % 2 == 0 else 1
        b_left = rng.random() < p_b
        same = rng.random() < shared
        a_left = b_left if same else rng.random() < p_a
        ra = _game(i, left if a_left else 1 - left, 30 if same else 31)
        rb = _game(i, left if b_left else 1 - left)
        for side, record, tally in (("B", rb, tb), ("A", ra, ta)):
            tally.add(record)
            pairs.add(side, i, record)
    return ta, tb, pairs


def test_pairs_are_counted_whichever_side_comes_first():
    pairs = Pairs()
    pairs.add("A", 0, _game(0, 0))
    pairs.add("B", 1, _game(1, 0))
    pairs.add("B", 0, _game(0, 1))
    pairs.add("A", 1, _game(1, 0))
    m = pairs.measures()
    assert pairs.pairs == 2 and pairs.differ == 1
    left = m["faction:left"]  # game 0: left (seat 1) won on A, lost on B; game 1: right won on both
    assert (left.n, left.a_only, left.b_only, left.a_hits, left.b_hits) == (2, 1, 0, 1, 0)
    assert (m["seat:0"].a_hits, m["seat:0"].b_hits) == (2, 1) and m["first"].n == 2  # seat 1 won three of four


def test_a_real_shift_is_found_read_from_b_to_a_and_named():
    ta, tb, pairs = _run(0.75, 0.5, 0.6, 600, 1)
    result = compare(ta, tb, pairs)
    left = result.paired["faction:left"]
    assert left.delta > 0.05 and result.found("faction:left")
    assert any(line.startswith("left: ") and "on B -> " in line for line in result.verdict())
    data = result.to_json()["paired"]["faction:left"]
    assert data["delta"] > 0 and data["a"]["rate"] > data["b"]["rate"]  # delta reads as the text: A minus B


def test_the_null_ab_stays_quiet_over_twenty_seeds():
    """A change with no effect: each pair's games differ at random (a third
    replayed afresh), and over 20 seeds at most 2 runs report anything."""
    false = 0
    for seed in range(20):
        ta, tb, pairs = _run(0.5, 0.5, 0.66, 400, 100 + seed)
        result = compare(ta, tb, pairs)
        false += any(result.found(k) for k in result.paired)
    assert false <= 2


def test_identical_sides_say_so_and_find_nothing():
    ta, tb, pairs = _run(0.5, 0.5, 1.0, 200, 7)
    result = compare(ta, tb, pairs)
    assert pairs.differ == 0
    assert "0 of 200 paired games played out differently" in result.verdict()
    assert not any(result.found(k) for k in result.q_values)


# ---- the one-sided verdict --------------------------------------------------------------

def test_an_all_draw_run_gives_no_verdict_and_no_fair_share_of_zero():
    tally = Tally("petri-dish")
    for i in range(40):
        tally.add(_game(i, None, outcome=Outcome.DRAW))
    lines = verdict(tally)
    assert any("no balance verdict" in line for line in lines)
    assert not any("fair 0%" in line for line in lines)
    assert tally.to_json()["fair_share"] is None


def test_a_mostly_capped_run_gives_no_verdict_and_says_why():
    tally = Tally("petri-dish")
    for i in range(30):
        tally.add(_game(i, None if i % 3 else 0, outcome=Outcome.CAPPED if i % 3 else Outcome.WIN))
    (line,) = findings(tally.games, tally.outcomes, tally.figures())
    assert line.startswith("no balance verdict: 20 of 30 games")


def test_card_lines_are_corrected_and_labelled_correlations():
    tally = Tally("petri-dish")
    rng = random.Random(3)
    for i in range(400):
        factions = ("left", "right") if i % 2 == 0 else ("right", "left")
        seats = tuple(Seat(f"P{j + 1}", f, AGENT) for j, f in enumerate(factions))
        winner = rng.randrange(2)
        played = tuple(("lucky-coin",) if j == winner and rng.random() < 0.8 else () for j in range(2))
        tally.add(GameRecord(i, seats, 0, Outcome.WIN, winner, 30, 60, played))
    lines = verdict(tally)
    card = [line for line in lines if line.startswith("lucky-coin")]
    assert card and "a correlation" in card[0] and "q=" in card[0]
    data = tally.to_json()["cards"]["lucky-coin"]
    assert data["correlation"] and data["delta"] > 0  # played minus not, as the line reads
    assert data["win_when_played"]["rate"] > data["win_when_not"]["rate"]


def test_the_report_names_the_agents():
    from referee.simulate.agents_named import agents_named
    from referee.simulate.runner import make_plan

    assert agents_named(make_plan("petri-dish", None, (), ("random",), 2)) == "random in every seat"
