"""What the scorekeeper reads: an echo says what happened in words and each
fact once; the log shows outcomes under the right turn; pipes close quietly.

Numbers come from the Culture War rulebook: a killed unit costs its owner 5
life, a failed attack costs the attacker's owner 2; Real Estate produces from
its owner's next turn, and each turn begins with a draw.
"""
from __future__ import annotations

import os
import subprocess

from conftest import PYTHON, ROOT

SEATING = "--house-rule first-player=seating"


def culture_war(table) -> None:
    table.run(f"new culture-war --player ann:anarchy --player bo:technocracy --seed 7 {SEATING}")
    table.run("capital ann +10")
    table.run("deploy anarchy-window-smasher")  # #5


def test_a_battle_echo_says_it_in_words_and_each_total_once(table):
    culture_war(table)
    out = table.run("battle 5 4 --dice 3,6").output
    first, *rest = out.splitlines()
    assert first == "#4 ann's #5 Window Smasher attacks bo's #4 Technocrat Recruit (dice 3,6)"
    assert "    roll ann 3 + 2 = 5  vs  bo 6 + 0 = 6  -> the attack fails" in rest
    assert "  ann loses 2 life (failed attack by #5 Window Smasher), now 98" in rest
    assert "100 -> 98" not in out and out.count("98") == 1


def test_paying_for_a_card_names_the_coins_once(table):
    culture_war(table)
    out = table.run("deploy anarchy-leaderless-crowd").output  # 3 from the bank
    assert "ann pays 3 for Leaderless Crowd (unit): 3 anarchy from the bank, capital now 7" in out
    assert "capital 10 -> 7" not in out
    assert "enters play as #6" in out and "#6 Leaderless Crowd in play" not in out


def test_a_new_turn_names_the_draw_and_each_production(table):
    culture_war(table)
    table.run("buy anarchy-squatted-factory")
    table.run("end-turn --dice 6")
    out = table.run("end-turn --dice 4").output
    assert out.splitlines()[0] == "#6 bo ends the turn (dice 4)"
    assert "ann draws 1 card (start of turn)" in out
    assert "ann's #1 Abandoned Warehouse produces 1" in out
    assert "Squatted Factory produces" in out
    assert "draw_pile" not in out and "hand 5 -> 6" not in out
    assert out.rstrip().endswith("turn 3 (round 2): ann to play")


def test_log_rows_sit_under_the_turn_they_were_entered_in(table):
    culture_war(table)
    table.run("battle 5 4 --dice 3,6")
    table.run("end-turn --dice 6")
    table.run("capital bo +1")
    lines = table.run("log").output.splitlines()
    turn2 = lines.index("-- turn 2: bo --")
    assert lines.index("-- turn 1: ann --") < next(i for i, line in enumerate(lines) if "ann ends the turn" in line) < turn2
    assert "capital bo +1" in lines[turn2 + 1]


def test_log_shows_a_battles_dice_and_what_it_cost(table):
    culture_war(table)
    table.run("battle 5 4 --dice 3,6")
    row = next(line for line in table.run("log").output.splitlines() if line.startswith("#4"))
    assert row.endswith("ann's #5 Window Smasher attacks bo's #4 Technocrat Recruit (dice 3,6): "
                        "3+2=5 v 6+0=6 fails; ann life -2 (98)")
    assert "attacker=" not in row and "rolls" not in row


def test_log_shows_a_divide_and_conquer_fight(table):
    table.run("new divide-and-conquer --player Ana --player Ben --player Cy --player Dee --seed 1 "
              "--house-rule deck-size=60")
    for line in ("recruit dc-left-campus-outrage", "attach dc-deficit-reply-all-disaster g1", "next", "next",
                 "attack g1 --intent destroy", "team", "fight --dice 2,2"):
        table.run(line)
    log = table.run("log").output
    assert "Ana attacks Campus Outrage Committee (g1) to destroy it" in log
    fight = next(line for line in log.splitlines() if "the attack is fought" in line)
    last = table.status()["state"]["last_attack"]
    assert f"(dice 2,2): 2+{last['attack'] - 2}={last['attack']} v 2+{last['defence'] - 2}={last['defence']}, " \
           "Campus Outrage Committee (g1) holds" in fight


def test_after_the_game_is_won_nobody_is_to_play(table):
    culture_war(table)
    out = table.run("life bo =0").output
    assert "ann wins the game" in out and "to play" not in out
    assert "won by ann" in table.run("status").output.splitlines()[0]
    assert "ann wins" in table.run("log").output.splitlines()[-1]


def test_piping_into_head_prints_no_error(tmp_path):
    db = tmp_path / "pipe.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REFEREE_DB": str(db)}
    subprocess.run([PYTHON, "-m", "referee", "new", "debate", "--player", "A", "--player", "B"],
                   env=env, check=True, capture_output=True)
    for _ in range(3):
        subprocess.run([PYTHON, "-m", "referee", "crowd", "+1"], env=env, check=True, capture_output=True)
    for command in ("log --json", "status --json", "games", "--help"):
        proc = subprocess.run(f"{PYTHON} -m referee {command} | head -c 5", shell=True, env=env,
                              capture_output=True, text=True, cwd=tmp_path)
        assert proc.stderr == "", (command, proc.stderr)
        assert len(proc.stdout) == 5


def test_cards_named_by_an_ability_read_as_printed(table):
    """A debate device's --device names a card by id; the echo names it as printed."""
    table.run("new debate --player Ana --player Ben --seed 1")
    table.run("deck Ben deb-shouting-match-1 deb-shouting-match-3 deb-talking-over-you-1 deb-talking-over-you-2 "
              "deb-slippery-slope-2 deb-loaded-question-1 deb-steamroller-2 deb-socratic-questioning-2 "
              "deb-measured-rebuttal-3 deb-common-ground-1 deb-appeal-to-fear deb-whataboutism "
              "deb-revisit-the-record deb-moving-the-goalposts deb-cheap-laugh")
    for line in ("argue deb-measured-rebuttal-1 1", "next", "argue deb-shouting-match-1 1", "device deb-cheap-laugh 1",
                 "next"):
        table.run(line)
    out = table.run("device deb-point-of-order 1 --target 1 --device deb-cheap-laugh").output
    assert out.splitlines()[0].endswith("picking thread 1, the device Cheap Laugh")
