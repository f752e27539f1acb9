"""`referee moves [PLAYER] [--json]` and the Petri dish's `legal`, on real tables."""
from __future__ import annotations

import json


def moves(table, *args) -> dict:
    return json.loads(table.run(["moves", *args, "--json"]).output)


def test_petri_dish_moves_are_the_commands_that_play_them(table):
    table.run("new petri-dish --player Ann --player Bo")
    first = moves(table)
    assert first["player"] == "Ann" and first["count"] == 52  # every foodpoint of an empty dish
    assert {m["kind"] for m in first["moves"]} == {"place"}
    assert all(m["command"] == f"place {m['action']['args']['at']}" for m in first["moves"])
    assert moves(table, "Bo")["count"] == 0  # not Bo's turn
    table.run(first["moves"][10]["command"])  # typed as listed
    assert table.status()["players"][1]["name"] == "Bo"
    after = moves(table)
    assert after["player"] == "Bo" and after["count"] < 52
    legal = json.loads(table.run("legal --json").output)
    assert legal["actions"] == [m["command"] for m in after["moves"]]
    text = table.run("moves").output
    assert text.startswith(f"Bo has {after['count']} moves:") and "referee place " in text


def test_a_finished_game_has_no_moves(table):
    table.run("new petri-dish --player Ann --player Bo")
    table.run("place d4")
    table.run("place e5")
    table.run("pass")
    table.run("pass")  # a pass answered by a pass: a draw
    assert moves(table)["game_over"] and moves(table)["count"] == 0
    assert "the game is over" in table.run("moves").output


def test_cards_in_a_hand_the_referee_cannot_see_are_listed_by_what_they_may_be(table):
    table.run("new debate --player Ann:lincoln --player Bo:truman --seed 3")
    listed = moves(table, "Ann")
    blind = [m for m in listed["moves"] if m["action"] is None]
    assert {m["kind"] for m in blind} == {"argue", "setup"}  # phase one, opening: arguments only, and a deck
    assert all("<CARD>" in m["command"] for m in blind)
    assert len([m for m in blind if m["kind"] == "argue"]) == 7  # one per thread
    own = [m for m in blind if m["kind"] == "setup"]  # a tactic deck of Ann's own choosing, its 15 cards
    assert len(own) == 1 and own[0]["command"] == "deck Ann " + " ".join(["<CARD>"] * 15)
    assert "no-argument --by Ann" in [m["command"] for m in listed["moves"]]
    shown = table.run("moves Ann").output
    assert "<CARD>: a card from the hand" in shown


def test_cold_war_setup_moves(table):
    table.run("new cold-war --player Ann:albion --player Bo:westmark --seed 1")
    listed = moves(table, "Bo")
    setup = [m for m in listed["moves"] if m["kind"] == "setup"]
    assert len(setup) == 1 and setup[0]["action"] is None and setup[0]["command"].count("<CARD>") == 9


def test_an_unknown_player_is_refused(table):
    table.run("new petri-dish --player Ann --player Bo")
    result = table.fail("moves Cy")
    assert "Cy" in result.output
