"""Amounts for life, capital, crowd, fortitude and hand: `-3`, `+3`, `=4`,
and negative settings `=-10` / `= -10` where the field may go below 0.

Where it may not (life, capital, a hand), a negative amount still parses and
the rules refuse it, naming the player and the rule; it is never called
"not an amount". Every check reads the table back with `status --json`.
"""
from __future__ import annotations

import pytest

from referee.errors import RefereeError
from referee.table.operations import parse_change


@pytest.mark.parametrize("text, change", [
    ("-3", {"by": -3}),
    ("+3", {"by": 3}),
    ("=4", {"to": 4}),
    ("=+4", {"to": 4}),
    ("= 4", {"to": 4}),
    ("=-10", {"to": -10}),
    ("= -10", {"to": -10}),
    ("  =-10  ", {"to": -10}),
    ("=\u221210", {"to": -10}),  # a typographic minus, as pasted from a document
    ("\u22123", {"by": -3}),
    ("=0", {"to": 0}),
])
def test_amounts_parse(text, change):
    assert parse_change(text, "the crowd") == change


@pytest.mark.parametrize("text", ["=--3", "+-3", "-+3", "==3", "=", "-", "=-", "--3", "lots", "+3.5", "=-3x", ""])
def test_malformed_amounts_are_not_amounts(text):
    with pytest.raises(RefereeError, match="not an amount"):
        parse_change(text, "Ann's life")


def test_a_bare_number_asks_which_was_meant():
    with pytest.raises(RefereeError, match=r"Ann's life: write \+7 to add, -7 to take away, or =7 to set it"):
        parse_change("7", "Ann's life")


# ---- the debate: the crowd and fortitude may be negative -------------------------


@pytest.fixture
def debate(table):
    table.run("new debate --player Ann --player Bo --seed 1")
    return table


@pytest.mark.parametrize("amount, crowd", [
    ("=-10", -10), ("= -10", -10), ("=\u221230", -30), ("=4", 4), ("=+4", 4), ("=0", 0), ("=30", 30),
])
def test_the_crowd_can_be_set_to_any_value_on_its_track(debate, amount, crowd):
    debate.run(["crowd", amount])
    assert debate.status()["crowd"] == crowd


def test_the_crowd_moves_by_signed_amounts_across_zero(debate):
    debate.run(["crowd", "=-10"])
    debate.run(["crowd", "-3"])
    assert debate.status()["crowd"] == -13
    debate.run(["crowd", "+3"])
    assert debate.status()["crowd"] == -10
    debate.run(["crowd", "+15"])
    assert debate.status()["crowd"] == 5
    assert debate.status()["log_length"] == 5


def test_the_crowd_cannot_be_set_off_its_track(debate):
    debate.run(["crowd", "=-10"])
    for amount, value in (("=-31", "-31"), ("= 31", "31")):
        out = debate.fail(["crowd", amount]).output
        assert "the crowd runs from -30 to +30" in out and value in out and "crowd track" in out
        assert "not an amount" not in out
    assert debate.status()["crowd"] == -10


@pytest.mark.parametrize("amount, fortitude", [("=-5", -5), ("= -5", -5), ("=0", 0), ("-61", -1), ("+3", 63),
                                               ("=4", 4)])
def test_fortitude_takes_negative_and_signed_amounts(debate, amount, fortitude):
    debate.run(["fortitude", "Ann", amount])
    players = {p["name"]: p for p in debate.status()["players"]}
    assert players["Ann"]["state"]["fortitude"] == fortitude
    assert players["Bo"]["state"]["fortitude"] == 60


def test_the_debate_keeps_no_life_even_with_a_negative_amount(debate):
    out = debate.fail(["life", "Ann", "=-5"]).output
    assert "debate keeps no life total" in out and "not an amount" not in out


# ---- Culture War: life and capital never go below 0 --------------------------------


@pytest.fixture
def culture(table):
    table.run("new culture-war --player Ann --player Bo --seed 1 --house-rule first-player=seating")
    return table


def _player(table, name):
    return {p["name"]: p for p in table.status()["players"]}[name]


def test_life_takes_signed_amounts_and_settings(culture):
    culture.run(["life", "Ann", "-3"])
    assert _player(culture, "Ann")["life"] == 97
    culture.run(["life", "Ann", "+3"])
    assert _player(culture, "Ann")["life"] == 100
    culture.run(["life", "Ann", "=4"])
    assert _player(culture, "Ann")["life"] == 4
    culture.run(["life", "Ann", "= 40"])
    assert _player(culture, "Ann")["life"] == 40
    assert _player(culture, "Bo")["life"] == 100


@pytest.mark.parametrize("amount", ["=-5", "= -5", "=\u22125"])
def test_life_cannot_be_set_below_zero_and_the_refusal_names_player_and_rule(culture, amount):
    out = culture.fail(["life", "Ann", amount]).output
    assert "Ann's life cannot be set below 0 (asked for -5)" in out
    assert "not an amount" not in out
    assert _player(culture, "Ann")["life"] == 100 and not _player(culture, "Ann")["eliminated"]


def test_capital_takes_signed_amounts_and_settings(culture):
    culture.run(["capital", "Bo", "+3"])
    assert _player(culture, "Bo")["capital"] == 4
    culture.run(["capital", "Bo", "-2"])
    assert _player(culture, "Bo")["capital"] == 2
    culture.run(["capital", "Bo", "=0"])
    assert _player(culture, "Bo")["capital"] == 0


@pytest.mark.parametrize("amount", ["=-2", "= -2"])
def test_capital_cannot_be_set_below_zero(culture, amount):
    out = culture.fail(["capital", "Bo", amount]).output
    assert "Bo's capital cannot be set below 0 (asked for -2)" in out and "not an amount" not in out
    assert _player(culture, "Bo")["capital"] == 1


def test_capital_cannot_be_taken_below_zero(culture):
    out = culture.fail(["capital", "Bo", "-5"]).output
    assert "Bo has 1 capital" in out and "capital cannot go below 0" in out
    assert _player(culture, "Bo")["capital"] == 1


def test_malformed_amounts_are_refused_without_touching_the_table(culture):
    for amount in ("=--3", "+-3", "lots"):
        out = culture.fail(["life", "Ann", amount]).output
        assert "Ann's life" in out and "is not an amount" in out
    assert _player(culture, "Ann")["life"] == 100


# ---- Divide & Conquer: a hand's count never goes below 0 ---------------------------


def test_a_hand_cannot_be_set_below_zero(table):
    table.run("new divide-and-conquer --player A --player B --player C --player D --seed 1")
    before = _player(table, "B")["state"]["hand"]
    out = table.fail(["hand", "B", "=-1"]).output
    assert "B's hand cannot be set below 0 (asked for -1)" in out and "not an amount" not in out
    table.run(["hand", "B", "=2"])
    assert _player(table, "B")["state"]["hand"] == 2 != before
