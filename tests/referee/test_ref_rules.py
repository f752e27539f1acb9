"""The generic rules as pure functions: setup, check, apply."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import RefereeError, RuleViolation, UnknownPlayer
from referee.rules import rules_for
from referee.model import Action, GameSlug, Setup


def setup(game: str, *players: str, life=None, house=None, seed=1, dice=()):
    rules = rules_for(game)
    pairs = tuple((p.split(":")[0], p.split(":")[1] if ":" in p else None) for p in players)
    return rules, rules.setup(Setup(GameSlug(game), pairs, seed, life, house or {}), dice)


def step(rules, state, name, dice=(), actor=None, **args):
    action = Action(name, args, actor)
    rules.check(state, action)
    return rules.apply(state, action, dice)


@pytest.mark.parametrize("count, life", [(2, 100), (3, 90), (4, 80), (5, 70)])
def test_culture_war_starting_life_follows_the_house_table(count, life):
    _, state = setup("culture-war", *[f"P{i}" for i in range(count)])
    assert [p.life for p in state.players] == [life] * count
    assert [p.capital for p in state.players] == [1] * count
    assert state.house_rules["starting-life"] == life


def test_life_option_and_house_rule_override_the_table():
    assert setup("culture-war", "A", "B", life=40)[1].players[0].life == 40
    assert setup("culture-war", "A", "B", house={"starting-life": "55"})[1].players[1].life == 55
    assert setup("culture-war", "A", "B", house={"starting-capital": "0"})[1].players[0].capital == 0


@pytest.mark.parametrize("game, players, words", [
    ("culture-war", ["A"], "2 to 5 players, not 1"),
    ("culture-war", ["A", "B", "C", "D", "E", "F"], "not 6"),
    ("petri-dish", ["A", "B", "C"], "exactly 2"),
    ("divide-and-conquer", ["A", "B", "C"], "4 to 8"),
    ("cold-war", ["A", "B", "C", "D", "E"], "2 to 4"),
    ("culture-war", ["A:anarchy", "B:pirates"], "'pirates' is not a faction"),
    ("petri-dish", ["A:white", "B:white"], "both players asked for white"),
    ("culture-war", ["Ana", "ana"], "two players are called"),
])
def test_bad_setups_are_refused_by_name(game, players, words):
    with pytest.raises(RefereeError, match=words):
        setup(game, *players)


def test_setup_refuses_life_where_the_game_has_none_and_unknown_house_rules():
    with pytest.raises(RuleViolation, match="keeps no life"):
        setup("debate", "A", "B", life=20, dice=(11,))
    with pytest.raises(RefereeError, match="no house rule 'speed'.*starting-life"):
        setup("culture-war", "A", "B", house={"speed": "2"})
    with pytest.raises(RefereeError, match="whole number"):
        setup("culture-war", "A", "B", house={"starting-life": "lots"})


def test_petri_dish_white_moves_first():
    _, state = setup("petri-dish", "A:black", "B")
    assert [p.faction for p in state.players] == ["black", "white"]
    assert state.active_player.name == "B"


def test_debate_crowd_starts_within_the_spread_from_its_die():
    rules = rules_for("debate")
    s = Setup(GameSlug.DEBATE, (("A", None), ("B", None)), 1)
    assert rules.setup_dice(s) == (21,)
    assert rules.setup(s, (1,)).crowd == -10
    assert rules.setup(s, (21,)).crowd == 10
    narrow = Setup(GameSlug.DEBATE, s.players, 1, house_rules={"crowd-spread": "0"})
    assert rules.setup_dice(narrow) == () and rules.setup(narrow, ()).crowd == 0


def test_life_to_zero_eliminates_and_the_last_player_standing_wins():
    rules, state = setup("culture-war", "A", "B", "C", life=10)
    state = step(rules, state, "life", player="B", by=-25)
    assert state.player("B").life == 0 and state.player("B").eliminated
    assert state.winner is None
    with pytest.raises(RuleViolation, match="B is out of the game"):
        step(rules, state, "life", player="b", by=5)
    state = step(rules, state, "life", player="C", to=0)
    assert state.winner == "A"
    with pytest.raises(RuleViolation, match="game over"):
        step(rules, state, "capital", player="A", by=1)


def test_capital_never_goes_below_zero_and_the_error_names_player_and_rule():
    rules, state = setup("culture-war", "Ana", "Ben")
    with pytest.raises(RuleViolation) as err:
        step(rules, state, "capital", player="Ben", by=-2)
    assert err.value.rule == "capital cannot go below 0"
    assert "Ben has 1 capital" in str(err.value)
    assert step(rules, state, "capital", player="Ben", by=-1).player("Ben").capital == 0


def test_end_turn_skips_eliminated_players_and_counts_rounds():
    rules, state = setup("culture-war", "A", "B", "C", house={"first-player": "seating"})
    state = step(rules, state, "life", player="B", to=0)
    state = step(rules, state, "end-turn")
    assert (state.active_player.name, state.turn, state.round) == ("C", 2, 1)
    state = step(rules, state, "end-turn")
    assert (state.active_player.name, state.turn, state.round) == ("A", 3, 2)
    with pytest.raises(RuleViolation, match="it is A's turn, so C cannot end it"):
        step(rules, state, "end-turn", actor="C")


def test_games_without_life_capital_or_crowd_refuse_them():
    rules, state = setup("cold-war", "A:vostokia", "B:westmark")
    for name, args in [("life", {"player": "A", "by": -1}), ("capital", {"player": "A", "by": 1}),
                       ("crowd", {"by": 1})]:
        with pytest.raises(RuleViolation, match=f"cold-war (keeps no|has no) {name}"):
            step(rules, state, name, **args)


def test_unknown_player_lists_the_table():
    rules, state = setup("culture-war", "Ana", "Ben")
    with pytest.raises(UnknownPlayer, match="no player called 'Cy'.*Ana, Ben"):
        step(rules, state, "life", player="Cy", by=-1)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["A", "B", "C"]), st.sampled_from(["life", "capital"]),
                          st.integers(-30, 30).filter(bool)), max_size=40))
def test_any_sequence_keeps_the_numbers_legal(moves):
    """Whatever is asked, refused actions change nothing and accepted ones keep
    capital >= 0, life >= 0, and eliminated exactly when life is 0."""
    rules, state = setup("culture-war", "A", "B", "C", life=30)
    for who, stat, amount in moves:
        action = Action(stat, {"player": who, "by": amount})
        try:
            rules.check(state, action)
        except RuleViolation:
            continue
        state = rules.apply(state, action, ())
        for p in state.players:
            assert p.capital >= 0 and p.life >= 0
            assert p.eliminated == (p.life == 0)
        standing = [p for p in state.players if not p.eliminated]
        assert (state.winner is not None) == (len(standing) == 1)


def test_crowd_moves_are_held_at_the_ends_of_the_track():
    rules, state = setup("debate", "A", "B", dice=(11,))
    assert state.crowd == 0
    state = step(rules, state, "crowd", by=-45)
    assert state.crowd == -30
    state = step(rules, state, "crowd", to=12)
    assert state.crowd == 12
    with pytest.raises(RuleViolation, match="from -30 to \\+30"):
        step(rules, state, "crowd", to=31)
