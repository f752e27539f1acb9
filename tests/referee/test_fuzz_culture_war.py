"""Culture War self-play under `--check` (referee/simulate/audit.py): every
action played again through a real table, undone and redone, refused
mutants changing nothing, the dealer's hands and copies against the table's
counts, the export replayed. FUZZ_GAMES games (default 10) at fixed seeds,
3- and 4-player tables in turn with the factions rotating; `make fuzz` runs 200."""
from __future__ import annotations

import os

import pytest

from referee.simulate.play import Outcome, play_game
from referee.simulate.runner import make_plan

GAMES = int(os.environ.get("FUZZ_GAMES", "10"))


@pytest.mark.slow
def test_culture_war_self_play_keeps_every_invariant():
    plans = {n: make_plan("culture-war", n, (), ("random",), GAMES, seed=1000 + n, check=True) for n in (3, 4)}
    outcomes = []
    for i in range(GAMES):
        record = play_game(plans[3 + i % 2].config(i))  # a Violation names the seed and the last actions
        outcomes.append(record.outcome)
    assert Outcome.JAM not in outcomes
    assert outcomes.count(Outcome.WIN) >= GAMES // 2
