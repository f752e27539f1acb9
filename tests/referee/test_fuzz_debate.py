"""Fuzz: whole debate games self-played with --check (every invariant after
every action: the dealer's copies, the ledger, undo/redo, refusals, replay).
FUZZ_GAMES sets how many (`make fuzz` runs 200)."""
from __future__ import annotations

import os

import pytest

from referee.simulate.play import Outcome, play_game
from referee.simulate.runner import make_plan

GAMES = int(os.environ.get("FUZZ_GAMES", "10"))


@pytest.mark.slow
def test_debate_games_keep_every_invariant():
    plan = make_plan("debate", None, (), ("random",), GAMES, seed=1000, check=True)
    outcomes = [play_game(plan.config(i)).outcome for i in range(GAMES)]  # a Violation fails the test
    assert all(o is not Outcome.JAM for o in outcomes)
