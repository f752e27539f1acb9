"""Fuzz: Divide & Conquer self-play with `--check` over FUZZ_GAMES games at
fixed seeds (default 10; `make fuzz` runs 200): every action through a real
table, undo and redo, refusals that change nothing, the dealer's hands
against the table's counts, the export replayed."""
from __future__ import annotations

import os

import pytest

from referee.simulate.play import Outcome, play_game
from referee.simulate.runner import make_plan

GAMES = int(os.environ.get("FUZZ_GAMES", "10"))


@pytest.mark.slow
def test_checked_self_play_finds_no_violation():
    # the whole printed deck (108 copies): about 2.7 s a game with --check on one core
    plan = make_plan("divide-and-conquer", None, (), ("random",), GAMES, seed=500, check=True)
    outcomes = [play_game(plan.config(i)).outcome for i in range(plan.games)]  # a violation raises
    assert all(o in (Outcome.WIN, Outcome.DRAW) for o in outcomes), outcomes
