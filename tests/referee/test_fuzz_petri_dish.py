"""The Petri dish's self-play fuzz: random games at fixed seeds, every action
played through a real table file as well (`simulate --check`: the tables
equal, undo and redo give back the tables around an action, refused commands
change nothing, generated moves agree with check, export and replay end the
same). The suite plays FUZZ_GAMES games (10 unless set); `make fuzz` plays 200."""
from __future__ import annotations

import os

import pytest

from referee.simulate.play import Outcome, play_game
from referee.simulate.runner import make_plan

GAMES = int(os.environ.get("FUZZ_GAMES", "10"))


@pytest.mark.slow
def test_random_games_keep_every_invariant():
    plan = make_plan("petri-dish", None, (), ("random",), GAMES, seed=7_000, turn_cap=200, check=True)
    outcomes = [play_game(plan.config(i)).outcome for i in range(plan.games)]  # a Violation fails the test
    assert Outcome.JAM not in outcomes
    assert sum(o is Outcome.WIN for o in outcomes) > 0
