"""Issue 36 item 9, the small things, each as a person meets it at the table."""
from __future__ import annotations

from dataclasses import replace

from referee.games.debate.view import change_lines
from referee.model import PlayerName

ANN = ("setup Ann cold-wm-rock-radio cold-wm-kitchen cold-wm-cavalry cold-wm-marines cold-wm-radar-line "
       "cold-wm-joint-brass --discard cold-wm-dream-studios --discard cold-wm-big-brain --discard cold-wm-space-agency")
BO = ("setup Bo cold-vk-orbit-dog cold-vk-state-ballet cold-vk-chess-academy cold-vk-fortress-line "
      "cold-vk-air-defence cold-vk-marshal --discard cold-vk-five-year-plan --discard cold-vk-metro-palace "
      "--discard cold-vk-ideologist")


def cold(table):
    table.run("new cold-war --player Ann:westmark --player Bo:vostokia --seed 7")
    table.run(ANN)
    table.run(BO)
    table.run("start")


def test_perft_takes_a_bounded_depth(table):
    table.run("new petri-dish --player A:white --player B:black --seed 1")
    assert table.run("perft 2").output.strip().endswith("perft 2: 2652")
    refused = table.fail("perft 9")
    assert refused.exit_code == 1 and refused.output.count("Error") == 1 and "at most 5 moves deep" in refused.output


def test_attack_help_says_an_attack_on_the_leader_stack_is_made_and_fails(table):
    cold(table)
    text = " ".join(table.run("attack --help").output.split())
    assert "refused and uses no card" not in text
    assert "fails unless it beats that whole total" in text and "never refused" in text


def test_a_cold_war_move_without_by_is_logged_under_its_player(table):
    cold(table)
    table.run("place cold-wm-supercarrier")
    table.run("attack Bo S1 cold-wm-fighter-wing")
    table.run("answer none")
    actors = [e["actor"] for e in table.log()["events"][-3:]]
    assert actors == ["Ann", "Ann", "Bo"]  # the answer is the target's
    rows = table.run("log").output.splitlines()[-3:]
    assert all("scorekeeper" not in row for row in rows) and "Bo" in rows[-1]


def test_a_triad_with_too_few_cards_is_one_clear_error(table):
    cold(table)
    refused = table.fail("triad Bo cold-wm-liberty-silo cold-wm-deep-sub")
    assert refused.exit_code == 1 and refused.output.count("Error") == 1
    assert "Ann names 2 cards; the Triad is all 3 Triad cards" in refused.output and "rule: Nuclear Triad" in refused.output


def test_cold_war_status_names_the_cards(table):
    cold(table)
    out = table.run("status").output
    assert "Rock and Roll Radio" in out and "First Dog in Orbit" in out
    assert "cold-wm-rock-radio" not in out and "cold-vk-orbit-dog" not in out


def test_the_debate_tells_how_many_tactics_are_known_and_opens_no_round_after_the_win(table):
    from referee.table import operations

    table.run("new debate --player Ana:Lincoln --player Ben:Truman --seed 12")
    out = table.run("argue deb-shouting-match-2 1 --by Ana").output
    assert "1 of Ana's 15 tactics now known" in out and "-card tactic deck" not in out
    state = operations.status(table.db).state
    won = replace(state, round=state.round + 1, winner=PlayerName("Ana"))
    lines = change_lines(state, won)
    assert lines[0] == f"round {state.round} is over; the forum is cleared"
    assert not any("opens" in line for line in lines)
    going_on = replace(state, round=state.round + 1)
    assert any(line.startswith(f"round {state.round + 1}: ") and "opens" in line
               for line in change_lines(state, going_on))
