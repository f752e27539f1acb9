"""Fuzz: whole Cold War games (two countries) self-played with --check (every invariant after
every action: the dealer's copies, the ledger, undo/redo, refusals, replay).
One-round matches, to keep the default within the suite's time;
FUZZ_GAMES sets how many (`make fuzz` runs 200)."""
from __future__ import annotations

import os

import pytest

from referee.simulate.play import Outcome, play_game
from referee.simulate.runner import make_plan

# 5 by default: a checked one-round game takes about 4 s of one core, 10 would pass the suite's ~25 s
GAMES = int(os.environ.get("FUZZ_GAMES", "5"))


@pytest.mark.slow
def test_cold_war_games_keep_every_invariant():
    plan = make_plan("cold-war", 2, (), ("random",), GAMES, seed=1000, check=True, house_rules=("rounds=1",))
    outcomes = [play_game(plan.config(i)).outcome for i in range(GAMES)]  # a Violation fails the test
    assert all(o is not Outcome.JAM for o in outcomes)
