"""Every game: a refused command changes nothing a player can read.

For each of the five games a table is opened through the command line, a
few legal moves are made, and then commands that the rules or the table
must refuse are tried in random order (hypothesis): impossible amounts, a
winner declared while the rules can still decide, a prompt answered when
none waits, a card from another game, an action out of its phase. After
each refusal `status --json` is byte-identical to before, the exit code is
non-zero and no traceback is printed.
"""
from __future__ import annotations

import shlex

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from referee.cli.main import cli

TABLES = {
    "culture-war": ("new culture-war --player Ann:anarchy --player Bo:technocracy --seed 3", []),
    "divide-and-conquer": ("new divide-and-conquer --player A --player B --player C --player D --seed 3", []),
    "debate": ("new debate --player Ann:deb-jackson --player Bo:deb-truman --seed 3", []),
    "cold-war": ("new cold-war --player Ann:westmark --player Bo:vostokia --seed 3", []),
    "petri-dish": ("new petri-dish --player Ann --player Bo --seed 3", ["place d4"]),
}
FIRST = {"culture-war": "Ann", "divide-and-conquer": "A", "debate": "Ann", "cold-war": "Ann", "petri-dish": "Ann"}

REFUSED = [
    "life {p} =-1",
    "life {p} -100000",
    "capital {p} -100000",
    "win {p}",
    "resolve 1",
    "resolve 7 done",
    "life Nobody -1",
    "life {p} +1 --card petri-dish-no-such-card",
    "deploy anarchy-window-smasher --on 99",
    "battle 99 98",
    "place z99",
    "move a1 a2",
    "round-end",
    "fight",
    "attack Bo --at L --card cold-wm-kitchen",
]


def run(runner: CliRunner, db, line: str):
    return runner.invoke(cli, ["--db", str(db), *shlex.split(line)])


@pytest.mark.parametrize("game", sorted(TABLES))
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.sampled_from(REFUSED), min_size=4, max_size=8))
def test_refusals_leave_status_json_byte_identical(game, lines, tmp_path_factory):
    runner = CliRunner()
    db = tmp_path_factory.mktemp(game) / "table.db"
    new, moves = TABLES[game]
    assert run(runner, db, new).exit_code == 0
    for move in moves:
        assert run(runner, db, move).exit_code == 0, move
    player = FIRST[game]
    for template in lines:
        line = template.format(p=player)
        before = run(runner, db, "status --json").output
        result = run(runner, db, line)
        assert "Traceback" not in result.output, (game, line, result.output)
        if result.exit_code != 0:
            assert result.output.strip(), (game, line, "a refusal must say why")
            assert run(runner, db, "status --json").output == before, (game, line)


@pytest.mark.parametrize("game", sorted(TABLES))
def test_each_game_refuses_an_impossible_amount_and_an_early_winner(game, tmp_path):
    runner = CliRunner()
    db = tmp_path / "table.db"
    new, moves = TABLES[game]
    run(runner, db, new)
    for move in moves:
        run(runner, db, move)
    before = run(runner, db, "status --json").output
    for line in ("life {p} =-1", "win {p}", "resolve 1"):
        result = run(runner, db, line.format(p=FIRST[game]))
        if game == "petri-dish" and line.startswith("life"):
            continue  # the Petri dish has no life to lose: the command may not exist there
        assert result.exit_code != 0, (game, line, result.output)
        assert "Traceback" not in result.output
    assert run(runner, db, "status --json").output == before
