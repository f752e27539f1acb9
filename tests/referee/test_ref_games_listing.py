"""`referee games` shows every house rule with its default and the values it
allows, every game's house rules declare a range or choices, and `new
--house-rule` refuses a value outside them, naming the rule and the range."""
from __future__ import annotations

import pytest

from referee.rules import HouseRule, rules_for
from referee.model import GameSlug

PLAYERS = {  # a table each game accepts
    "culture-war": "--player Ann --player Bo",
    "divide-and-conquer": "--player A --player B --player C --player D",
    "petri-dish": "--player Ann --player Bo",
    "debate": "--player Ann --player Bo",
    "cold-war": "--player Ann:westmark --player Bo:vostokia",
}
ALL_RULES = [(slug.value, key, rule) for slug in GameSlug for key, rule in rules_for(slug).house_rules.items()]
IDS = [f"{game}:{key}" for game, key, _ in ALL_RULES]


def test_every_game_is_covered():
    assert set(PLAYERS) == {slug.value for slug in GameSlug}


@pytest.mark.parametrize("game, key, rule", ALL_RULES, ids=IDS)
def test_every_house_rule_declares_a_range_or_choices_its_default_fits(game, key, rule):
    assert rule.key == key
    if rule.kind is int:
        assert rule.minimum is not None and rule.maximum is not None, key
        assert rule.minimum <= rule.maximum
        if rule.default is not None:
            rule.check_range(int(rule.default))
    else:
        assert rule.choices, key
        assert rule.default in rule.choices
    assert rule.describe_range()


@pytest.mark.parametrize("game, key, rule", ALL_RULES, ids=IDS)
def test_games_lists_each_house_rule_with_default_and_allowed_values(table, game, key, rule):
    out = table.run("games").output
    section = out.split(f"{game}: ", 1)[1]
    default = "computed" if rule.default is None else rule.default
    allowed = (f"one of: {', '.join(rule.choices)}" if rule.choices
               else f"whole number {rule.minimum}..{rule.maximum}")
    assert f"  --house-rule {key}=...  (default {default}) ({allowed}) {rule.help}\n" in section + "\n"


def test_games_listing_examples(table):
    out = table.run("games").output
    assert "--house-rule unopposed-damage=...  (default 5) (whole number 0..100) life lost" in out
    assert "--house-rule first-player=...  (default roll-off) (one of: roll-off, seating)" in out
    assert "--house-rule starting-crowd=...  (default computed) (whole number -30..30)" in out
    assert "--house-rule large-divide-liberties=...  (default 3) (whole number 0..4)" in out
    assert "--house-rule areas-to-win=...  (default 3) (whole number 1..4)" in out
    assert "--house-rule stat-floor=...  (default 0) (whole number -10..0)" in out


def test_describe_words_every_kind_of_rule():
    assert HouseRule("k", 1, "h", minimum=0, maximum=10).describe() == "whole number 0..10"
    assert HouseRule("k", 1, "h", minimum=1).describe() == "whole number 1 or more"
    assert HouseRule("k", 1, "h", maximum=9).describe() == "whole number 9 or less"
    assert HouseRule("k", 1, "h").describe() == "any whole number"
    assert HouseRule("k", "a", "h", str, choices=("a", "b")).describe() == "one of: a, b"
    assert HouseRule("k", "x", "h", str).describe() == "any text"


def _refused(table, game, key, value):
    result = table.fail(f"new {game} {PLAYERS[game]} --seed 1 --house-rule {key}={value}")
    assert not table.db.exists(), "a refused house rule made a table"
    return result.output


INT_RULES = [(g, k, r) for g, k, r in ALL_RULES if r.kind is int]
CHOICE_RULES = [(g, k, r) for g, k, r in ALL_RULES if r.choices]


@pytest.mark.parametrize("game, key, rule", INT_RULES, ids=[f"{g}:{k}" for g, k, _ in INT_RULES])
def test_out_of_range_values_are_refused_naming_rule_and_range(table, game, key, rule):
    for value in (rule.minimum - 1, rule.maximum + 1):
        out = _refused(table, game, key, value)
        assert key in out and "must be" in out, out
        assert f"{rule.minimum} to {rule.maximum}" in out and f"not {value}" in out, out


@pytest.mark.parametrize("game, key, rule", INT_RULES, ids=[f"{g}:{k}" for g, k, _ in INT_RULES])
def test_a_whole_number_rule_refuses_words(table, game, key, rule):
    out = _refused(table, game, key, "lots")
    assert f"house rule {key!r} takes a whole number, not 'lots'" in out


@pytest.mark.parametrize("game, key, rule", CHOICE_RULES, ids=[f"{g}:{k}" for g, k, _ in CHOICE_RULES])
def test_a_choice_outside_the_list_is_refused_naming_the_choices(table, game, key, rule):
    out = _refused(table, game, key, "sometimes")
    assert f"house rule {key!r} is one of {', '.join(rule.choices)}, not 'sometimes'" in out


@pytest.mark.parametrize("game, key, value", [
    ("culture-war", "unopposed-damage", 0), ("culture-war", "unopposed-damage", 100),
    ("culture-war", "stat-floor", -10), ("petri-dish", "large-divide-liberties", 0),
    ("petri-dish", "large-divide-liberties", 4), ("petri-dish", "areas-to-win", 1),
    ("petri-dish", "areas-to-win", 4), ("debate", "starting-crowd", -30), ("cold-war", "leader-stack", 5),
    ("divide-and-conquer", "deck-size", 108),
])
def test_values_at_the_ends_of_a_range_are_taken(table, game, key, value):
    table.run(f"new {game} {PLAYERS[game]} --seed 1 --house-rule {key}={value}")
    assert table.status()["house_rules"][key] == value


@pytest.mark.parametrize("game, key, rule", CHOICE_RULES, ids=[f"{g}:{k}" for g, k, _ in CHOICE_RULES])
def test_every_choice_is_taken(table, game, key, rule):
    for choice in rule.choices:
        table.run(f"new {game} {PLAYERS[game]} --seed 1 --force --house-rule {key}={choice.upper()}")
        assert table.status()["house_rules"][key] == choice
