"""Petri dish: geometry, the generator against its own refusals, captures,
wins, and the game's commands (legal, board, status, perft, the actions)."""
from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

from referee.errors import RefereeError, RuleViolation
from referee.games.petri_dish import engine
from referee.games.petri_dish.geometry import AROUND, INDEX, ORTHOGONAL, POINTS, PRIME_AREAS, REMOVED
from referee.games.petri_dish.dish import legal_strings, position_of
from referee.games.petri_dish.rules import RULES
from referee.model import Action, GameSlug, Setup

_spec = importlib.util.spec_from_file_location(
    "petri_brute", Path(__file__).with_name("test_rules_petri_dish_brute.py"))
brute = sys.modules.setdefault("petri_brute", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(brute)  # type: ignore[union-attr]


def pos_from(text: str, mover: str = "W", passed: bool = False, **variant) -> engine.Position:
    b = brute.Brute(brute.diagram(text), mover, 20, passed)
    return brute.position_of(b, engine.Variant(**variant))


def every_candidate(pos: engine.Position):
    """Every syntactically possible action between foodpoints, plus a few far jumps."""
    yield (engine.PASS, -1, -1)
    for i in range(len(POINTS)):
        yield (engine.PLACE, -1, i)
        yield (engine.GROW, i, -1)
        for j in range(len(POINTS)):
            if j != i and (j in AROUND[i] or (i + j) % 7 == 0):
                yield (engine.MOVE, i, j)
                yield (engine.DIVIDE, i, j)


# ---- geometry ---------------------------------------------------------------


def test_the_dish_has_52_foodpoints_in_rows_of_4_6_8_8_8_8_6_4():
    assert len(POINTS) == 52 and len(set(POINTS)) == 52
    per_rank = [sum(1 for p in POINTS if p[1] == str(r)) for r in range(1, 9)]
    assert per_rank == [4, 6, 8, 8, 8, 8, 6, 4]
    assert REMOVED.isdisjoint(POINTS) and len(REMOVED) == 12
    assert set(POINTS) == set(brute.FOOD)


def test_four_prime_areas_of_six_points():
    assert len(PRIME_AREAS) == 4
    assert all(len(points) == 6 for points in PRIME_AREAS.values())
    assert [set(a) for a in PRIME_AREAS.values()] == brute.AREAS


def test_liberties_are_orthogonal_and_moves_reach_8_neighbours():
    for p in POINTS:
        assert {POINTS[k] for k in ORTHOGONAL[INDEX[p]]} == set(brute.orth(p))
        assert {POINTS[k] for k in AROUND[INDEX[p]]} == set(brute.ring(p))
    assert len(ORTHOGONAL[INDEX["d4"]]) == 4 and len(AROUND[INDEX["d4"]]) == 8
    assert {POINTS[k] for k in ORTHOGONAL[INDEX["c1"]]} == {"d1", "c2"}
    assert INDEX["b2"] in AROUND[INDEX["a3"]]  # the diagonal across a cut-off corner


# ---- generator and refusals agree ------------------------------------------------


@pytest.mark.parametrize("name", ["empty", *brute.MIDGAME])
def test_refusal_accepts_exactly_the_generated_actions(name):
    pos = brute.position_of(brute.brute_of(name))
    legal = set(engine.legal_actions(pos))
    for action in every_candidate(pos):
        why = engine.refusal(pos, action)
        assert (why is None) == (action in legal), (engine.action_text(action), why)


def test_simultaneous_captures_of_both_colours():
    # b2 (black) breathes only through c2 (b3 is white); c1 (white) only through c2 (d1 is black)
    pos = pos_from("""
          .  .  .  .
       .  .  .  .  .  .
    .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .
    .  W1 .  W1 .  .  .  .
       B1 .  .  .  .  .
          W1 B1 .  .
    """)
    move = (engine.MOVE, INDEX["d3"], INDEX["c2"])
    assert engine.refusal(pos, move) is None and move in engine.legal_actions(pos)
    out = engine.play(pos, move)
    assert sorted((POINTS[k], v) for k, v in out.captured) == [("b2", -1), ("c1", 1)]
    board = dict(zip(POINTS, out.position.board))
    assert board["b2"] == board["c1"] == 0 and board["c2"] == 1 and board["d1"] == -1
    assert out.position.reserve(engine.WHITE) == 16 - 2 and out.position.reserve(engine.BLACK) == 16 - 1


def test_the_moving_germs_liberties_count_points_freed_by_captures():
    # c2's neighbours: b2 (black, dies when c2 fills), d2 and c3 (white), c1 (black, lives on d1)
    pos = pos_from("""
          .  .  .  .
       .  .  .  .  .  .
    .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .
    .  W1 W1 W2 .  .  .  .
       B1 .  W1 .  .  .
          B1 .  .  .
    """)
    move = (engine.MOVE, INDEX["d3"], INDEX["c2"])
    why = engine.refusal(pos, move)
    assert why == ("liberties after moving",
                   "the medium germ arriving on c2 would have 1 liberty (counting 1 freed by captures) and needs 2")
    assert move not in engine.legal_actions(pos)
    # the same point with b2's other liberty open: b2 lives, and c2 would have none at all
    pos = pos_from("""
          .  .  .  .
       .  .  .  .  .  .
    .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .
    .  .  W1 W1 .  .  .  .
       B1 .  W1 .  .  .
          B1 .  .  .
    """)
    why = engine.refusal(pos, (engine.MOVE, INDEX["d3"], INDEX["c2"]))
    assert why == ("liberties after moving", "the small germ arriving on c2 would have 0 liberties and needs 1")


@pytest.mark.parametrize("swap", [False, True])
def test_a_win_for_the_side_not_moving_is_noticed(swap):
    text = brute.MIDGAME["near-win"][2]
    if swap:  # the same position with the colours exchanged
        text = text.replace("W", "x").replace("B", "W").replace("x", "B")
    pos = pos_from(text, mover="W" if swap else "B")
    out = engine.play(pos, (engine.MOVE, INDEX["g3"], INDEX["g4"]))
    assert out.position.result == (engine.BLACK if swap else engine.WHITE)
    assert engine.legal_actions(out.position) == []
    assert engine.perft(out.position, 3) == 0


def test_pass_answered_by_pass_ends_the_game():
    pos = pos_from(brute.MIDGAME["knot"][2], mover="B")
    once = engine.play(pos, (engine.PASS, -1, -1)).position
    assert once.passed and once.result is None
    twice = engine.play(once, (engine.PASS, -1, -1)).position
    assert twice.result == engine.DRAW and engine.legal_actions(twice) == []


# ---- the table rules ---------------------------------------------------------------


def new_state(*players: str, **house):
    setup = Setup(GameSlug.PETRI_DISH, tuple((p.split(":")[0], (p.split(":") + [None])[1]) for p in players),
                  1, house_rules={k.replace("_", "-"): str(v) for k, v in house.items()})
    return RULES.setup(setup, ())


def action(line: str, actor: str | None = None) -> Action:
    words = line.split()
    keys = {"place": ("at",), "grow": ("at",), "move": ("from", "onto"), "divide": ("from", "onto")}
    return Action(words[0], dict(zip(keys.get(words[0], ()), words[1:])), actor)


def play(state, *lines):
    for line in lines:
        RULES.check(state, action(line))
        state = RULES.apply(state, action(line), ())
    return state


def test_a_refusal_names_the_player_and_the_rule():
    state = play(new_state("Ann", "Bo"), "place d4", "place e4")
    with pytest.raises(RuleViolation) as err:
        RULES.check(state, action("move d4 d6"))
    assert "Ann (white)" in str(err.value) and "[rule: moves reach the 8 neighbouring points]" in str(err.value)
    with pytest.raises(RefereeError, match="not a point of the dish"):
        RULES.check(state, action("move d4 k4"))


def test_the_state_stays_plain_json_and_matches_the_engine():
    state = play(new_state("Ann", "Bo"), "place d4", "place e5", "grow d4", "move e5 f6", "divide d4 c3")
    assert json.loads(json.dumps(state.to_dict())) == state.to_dict()
    board = state.fields["board"]
    assert set(board) == set(POINTS)
    assert board["d4"] == {"owner": "white", "size": 1} and board["c3"] == {"owner": "white", "size": 1}
    assert board["f6"] == {"owner": "black", "size": 1} and board["e5"] is None
    assert [p.fields["reserve"] for p in state.players] == [14, 15]
    assert position_of(state).ply == 5 and position_of(state).side == engine.BLACK


def test_claim_draw_is_listed_only_after_the_third_occurrence():
    state = play(new_state("Ann", "Bo"), "place d4", "place e6")
    loop = ("move d4 d3", "move e6 e7", "move d3 d4", "move e7 e6")
    state = play(state, *loop)
    assert "claim-draw" not in legal_strings(state)
    state = play(state, *loop)
    assert legal_strings(state)[-1] == "claim-draw"
    state = play(state, "claim-draw")
    assert state.fields["result"].startswith("draw claimed by Ann") and legal_strings(state) == []


def test_house_rules_are_range_checked():
    with pytest.raises(RuleViolation, match="areas-to-win must be 1 to 4"):
        new_state("A", "B", areas_to_win=5)
    assert new_state("A", "B", areas_to_win=2).house_rules["areas-to-win"] == 2


# ---- the commands ------------------------------------------------------------------


def midgame(table):
    table.run("new petri-dish --player Ann --player Bo --seed 3 --force")
    for line in ("place d4", "place e5", "grow d4", "grow e5", "divide d4 c3", "move e5 e4",
                 "grow c3", "pass", "move d4 d3"):
        table.run(line)


def test_every_listed_action_is_accepted_by_its_command(table):
    midgame(table)
    listed = json.loads(table.run("legal --json").output)
    assert listed["player"] == "Bo" and listed["count"] == len(listed["actions"]) > 5
    before = table.status()
    kinds = {line.split()[0] for line in listed["actions"]}
    assert {"move", "grow", "divide", "pass"} <= kinds
    for line in listed["actions"]:
        table.run(line)
        table.run("undo")
        assert table.status()["state"]["board"] == before["state"]["board"]
    text = table.run("legal").output.splitlines()
    assert text[0] == f"Bo (black) has {len(listed['actions'])} legal actions:"
    assert [t.strip() for t in text[1:]] == listed["actions"]


def test_placements_are_listed_and_accepted_on_the_first_turns(table):
    table.run("new petri-dish --player Ann --player Bo")
    listed = json.loads(table.run("legal --json").output)["actions"]
    assert listed == [f"place {p}" for p in POINTS]
    table.run(listed[17])
    assert len(json.loads(table.run("legal --json").output)["actions"]) == 51


def test_board_is_drawn_like_the_printed_dish(table):
    midgame(table)
    lines = table.run("board").output.splitlines()
    assert re.fullmatch(r"\s+a\s+b\s+c\s+d\s+e\s+f\s+g\s+h", lines[0]) and lines[9] == lines[0]
    ranks = lines[1:9]
    assert [r.split()[0] for r in ranks] == list("87654321")
    column = {f: lines[0].index(f) for f in "abcdefgh"}
    board = table.status()["state"]["board"]
    for rank, row in zip(range(8, 0, -1), ranks):
        for f in "abcdefgh":
            cell = row[column[f]:column[f] + 2].strip()
            point = f"{f}{rank}"
            if point in REMOVED:
                assert cell == "", point  # cut-off corners stay blank
            elif board[point]:
                assert cell == board[point]["owner"][0].upper() + str(board[point]["size"]), point
            else:
                assert cell in "+*", point
    assert "reserves: white (Ann) 13, black (Bo) 14" in lines
    assert lines[-1] == "Bo (black) to play"


def test_status_json_carries_the_board_and_both_reserves(table):
    midgame(table)
    status = table.status()
    assert len(status["state"]["board"]) == 52
    occupied = {p: v for p, v in status["state"]["board"].items() if v}
    assert occupied == {"d3": {"owner": "white", "size": 1}, "c3": {"owner": "white", "size": 2},
                        "e4": {"owner": "black", "size": 2}}
    assert {p["name"]: p["state"]["reserve"] for p in status["players"]} == {"Ann": 13, "Bo": 14}
    text = table.run("status").output
    assert "reserve" in text and "prime areas: south-west white alone" in text


def test_perft_command_counts_from_the_table_position(table):
    table.run("new petri-dish --player Ann --player Bo")
    assert table.run("perft 0").output.strip() == "perft 0: 1"
    assert json.loads(table.run("perft 2 --json").output) == {"depth": 2, "nodes": brute.Brute().perft(2)}
    midgame(table)
    split = json.loads(table.run("perft 2 --split --json").output)
    state_brute = brute.Brute(
        {p: (v["owner"][0].upper(), v["size"]) for p, v in table.status()["state"]["board"].items() if v}, "B", 9)
    assert split["nodes"] == state_brute.perft(2) == sum(split["split"].values())
    assert sorted(split["split"]) == sorted(label for label, _ in state_brute.successors())
    assert "Traceback" not in table.fail("perft -1").output


def test_commands_exist_only_at_a_petri_dish_table(table):
    table.run("new debate --player A --player B --house-rule crowd-spread=0")
    result = table.fail("legal")
    assert "No such command" in result.output


@pytest.mark.parametrize("name", ["place", "move", "grow", "divide", "pass", "claim-draw", "legal",
                                  "board", "perft"])
def test_every_command_has_help_with_examples(table, name):
    table.run("new petri-dish --player A --player B")
    out = table.run(f"{name} --help").output
    assert "Examples:" in out and f"referee {name}" in out
