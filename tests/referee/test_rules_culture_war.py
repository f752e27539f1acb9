"""Culture War rules beyond the scenario files: exact odds, what `battle`
prints, seeded dice, replays, handles, card codes, help text."""
from __future__ import annotations

import json
import re
from fractions import Fraction
from itertools import product

import pytest
from helpers.sizes import two_sizes

from referee.rules import rules_for
from referee.games.culture_war import legal
from referee.games.culture_war.table.board import Board
from referee.games.culture_war.table.payments import pay_for
from referee.games.culture_war.table.pieces import find_piece
from referee.games.culture_war.battle.odds import odds
from referee.model import Action, GameSlug, Setup
from referee.table.store import db
from referee.table.store import events as log

SEATING = "--house-rule first-player=seating"


def new(table, players="--player ann:anarchy --player bo:technocracy", extra=SEATING, seed=1):
    table.run(f"new culture-war {players} --seed {seed} {extra}")


def state_of(table):
    conn = db.open_table(table.db)
    try:
        last = log.last_event(conn)
        return log.state_at(conn, rules_for("culture-war"), last.head)[0]
    finally:
        conn.close()


def by_hand(atk: int, dfn: int):
    """One exchange, ties rerolled: (win, lose, lose with the attacker's die a 1) among non-ties."""
    pairs = [(a, d) for a, d in product(range(1, 7), repeat=2) if a + atk != d + dfn]
    n = len(pairs)
    win = Fraction(sum(a + atk > d + dfn for a, d in pairs), n)
    crit = Fraction(sum(a == 1 and a + atk < d + dfn for a, d in pairs), n)
    return win, 1 - win, crit


# ---- odds -------------------------------------------------------------------


def test_base_unit_against_base_unit_is_even_with_a_sixth_of_critical_failures(table):
    new(table)
    o = odds(state_of(table), "2", "4")
    assert (o.kill, o.fail, o.critical, o.counter_kill) == (Fraction(1, 2), Fraction(1, 2), Fraction(1, 6), Fraction(1, 12))
    # ann: -2 for each failure, -5 when the counter-attack kills; bo: -5 for each kill
    assert o.expected == {"ann": Fraction(-1) - Fraction(5, 12), "bo": Fraction(-5, 2)}
    assert o.swing == Fraction(13, 12)


@pytest.mark.parametrize("card, defender_def", [
    ("anarchy-window-smasher", 0), ("anarchy-masked-rioter", 0), ("anarchy-leaderless-crowd", 0),
])
def test_odds_match_the_dice_worked_out_by_hand(table, card, defender_def):
    new(table)
    table.run("capital ann +5")
    table.run(f"deploy {card}")
    state = state_of(table)
    unit = state.fields["pieces"]["5"]
    o = odds(state, "5", "4")
    win, lose, crit = by_hand(unit["atk"], defender_def)
    counter_win, _, _ = by_hand(0, unit["def"])  # the recruit's ATK 0 against the attacker's DEF
    if card == "anarchy-leaderless-crowd":  # when it would die, a 5 or 6 keeps it alive
        counter_win *= Fraction(2, 3)
    assert (o.kill, o.fail, o.critical) == (win, lose, crit)
    assert o.counter_kill == crit * counter_win
    assert o.expected["bo"] == -5 * win
    assert o.expected["ann"] == -2 * lose - 5 * crit * counter_win
    assert o.kill + o.fail == 1


def test_hero_odds_use_the_hero_numbers(table):
    new(table)
    table.run("capital ann +10")
    table.run("deploy anarchy-comrade-nobody")  # Hero, ATK 4 DEF 1
    o = odds(state_of(table), "5", "4")
    win, lose, crit = by_hand(4, 0)
    counter_win, _, _ = by_hand(0, 1)
    assert o.expected["bo"] == -10 * win  # a Hero's kill costs 10
    assert o.expected["ann"] == -4 * lose - 10 * crit * counter_win  # fails 4; losing the Hero 10


def test_odds_count_card_effects_and_declined_counter_attacks(table):
    new(table)
    table.run("capital ann +5")
    table.run("capital bo +5")
    table.run("battle 2 4 --window --dice 3,3")  # the dice shown: the battle waits
    table.run("play technocracy-predictive-dodge --by bo --on 4")  # +2 DEF in this battle
    state = state_of(table)
    o = odds(state, "2", "4", counter=False)
    win, lose, crit = by_hand(0, 2)
    assert (o.kill, o.fail, o.critical, o.counter_kill) == (win, lose, crit, 0)
    assert o.expected == {"ann": -2 * lose, "bo": -5 * win}


def test_odds_command_prints_fractions_and_json(table):
    new(table)
    text = table.run("odds 2 4").output
    assert "1/2" in text and "1/6" in text and "1/12" in text and "50.0%" in text
    data = json.loads(table.run("odds 2 4 --json").output)
    assert data["kill"] == "1/2" and data["counter_kill"] == "1/12" and data["expected"]["bo"] == "-5/2"
    assert len(table.log()["events"]) == 1  # odds logs nothing


def test_odds_of_a_direct_attack_and_refusals(table):
    new(table)
    table.run("capital ann +5")
    table.run("deploy anarchy-comrade-nobody")  # a Hero
    table.run("battle 2 4 --dice 6,1")  # bo's only unit dies
    assert "certain, bo loses 10" in table.run("odds 5 bo").output
    assert json.loads(table.run("odds 5 bo --json").output) == {
        "attacker": "5", "defender": "bo", "direct": True, "damage": 10, "expected": {"bo": -10}}
    assert "has already attacked this turn" in table.fail("odds 2 bo").output
    assert "no unit #4" in table.fail("odds 4 2").output


# ---- the battle as printed ---------------------------------------------------


def test_battle_prints_every_roll_its_totals_and_the_consequence(table):
    new(table)
    table.run("capital ann +5")
    table.run("deploy anarchy-window-smasher")
    out = table.run("battle 5 4 --dice 1,3,1,6,4,2").output
    assert "ann's #5 Window Smasher ATK 2 against bo's #4 Technocrat Recruit DEF 0" in out
    assert "roll ann 1 + 2 = 3  vs  bo 3 + 0 = 3  -> tie, roll again" in out
    assert "roll ann 1 + 2 = 3  vs  bo 6 + 0 = 6  -> the attack fails" in out
    assert "ann loses 2 life (failed attack by #5 Window Smasher)" in out
    assert "critical failure: ann rolled a 1 and failed" in out
    assert "roll bo 4 + 0 = 4  vs  ann 2 + 0 = 2  -> the attack kills" in out
    assert "ann loses 5 life (unit killed: #5 Window Smasher), now 93" in out
    assert "100 -> 93" not in out and out.count("93") == 1  # the new total is said once
    events = table.log()["events"]
    assert events[-1]["dice"] == [1, 3, 1, 6, 4, 2] and events[-1]["args"]["rolls"] == 6


def test_seeded_battles_are_logged_die_by_die_and_replay_exactly(table, tmp_path):
    new(table, seed=424242)
    table.run("capital ann +9")
    table.run("capital bo +9")
    for line in ["deploy anarchy-masked-rioter", "battle 5 4", "end-turn", "deploy technocracy-security-robot",
                 "battle 6 2", "end-turn", "battle 5 6", "end-turn"]:
        table.run(line, ok=False)
    battles = [e for e in table.log()["events"] if e["action"] == "battle"]
    assert battles and all(len(e["dice"]) == e["args"]["rolls"] >= 2 for e in battles)
    live = table.status()
    table.run(f"export {tmp_path / 'game.json'}")
    copy = tmp_path / "copy.db"
    table.run(["replay", str(tmp_path / "game.json"), "--db", str(copy)])
    from conftest import Table

    again = Table(copy).status()
    for key in ("players", "state", "turn", "active"):
        assert again[key] == live[key]


def test_apply_is_pure_and_the_fold_from_setup_matches_the_snapshots(table):
    new(table, extra="")
    table.run("rolloff --dice 2,5")
    for line in ["capital bo +5", "deploy technocracy-data-intern --by bo", "resolve", "battle 5 2 --dice 4,1",
                 "end-turn", "capital ann +3", "deploy anarchy-window-smasher", "play anarchy-gas-mask --on 6",
                 "end-turn"]:
        table.run(line)
    conn = db.open_table(table.db)
    try:
        rules = rules_for("culture-war")
        events = log.all_events(conn)
        state = rules.setup(Setup.from_dict(events[0].args), events[0].dice)
        for e in events[1:]:
            if e.kind.value == "action":
                before = json.dumps(state.to_dict(), sort_keys=True)
                one = rules.apply(state, e.to_action(), e.dice)
                two = rules.apply(state, e.to_action(), e.dice)
                assert one == two and json.dumps(state.to_dict(), sort_keys=True) == before
                state = one
        assert state == log.state_at(conn, rules, log.last_event(conn).head)[0]
        json.dumps(state.to_dict())  # plain JSON all the way down
    finally:
        conn.close()


def test_a_seeded_roll_off_rolls_until_one_player_is_highest(table):
    for seed in range(1, 30):
        table.run(f"new culture-war --player a:anarchy --player b:community --player c --seed {seed} --force")
        table.run("rolloff")
        status = table.status()
        order = status["state"]["order"]
        last = order["rounds"][-1]
        top = max(d for _, d in last)
        assert [n for n, d in last if d == top] == [order["first"]] == [status["active"]]
        dice = [d for r in order["rounds"] for _, d in r]
        assert table.log()["events"][-1]["dice"] == dice
        for earlier in order["rounds"][:-1]:  # every earlier round was a tie at the top
            high = max(d for _, d in earlier)
            assert sum(d == high for _, d in earlier) > 1


def test_typed_dice_are_checked_before_anything_is_written(table):
    new(table)
    assert "a d6 only has faces 1 to 6" in table.fail("battle 2 4 --dice 7,1").output
    assert "not enough" in table.fail("battle 2 4 --dice 3,3").output
    assert "leave out the extra" in table.fail("battle 2 4 --dice 3,1,5").output
    assert "not a die value" in table.fail("battle 2 4 --dice x").output


# ---- handles, cards, commands ---------------------------------------------------


def test_handles_by_number_hash_and_owner_name(table):
    new(table)
    table.run("capital ann +5")
    table.run("deploy anarchy-window-smasher")
    table.run("deploy anarchy-window-smasher")
    board = Board(state_of(table))
    assert find_piece(board, "5") == find_piece(board, "#5") == find_piece(board, "ann/window-smasher-1") == "5"
    assert find_piece(board, "ann/window-smasher-2") == "6"
    assert find_piece(board, "ann/anarchist") == "2"
    status = table.run("status").output
    assert re.search(r"#5\s+Window Smasher\s+ann/window-smasher-1\s+ATK 2 DEF 0", status)
    assert re.search(r"#3\s+Co-Working Hub\s+bo/co-working-hub\s+coins 1/3", status)
    assert "first player: ann (seating order)" in status


def test_a_scanned_qr_payload_plays_the_card_and_an_old_print_warns(table):
    from referee.cards import lookup

    card = lookup("anarchy-window-smasher").card
    new(table)
    table.run("capital ann +3")
    result = table.run(f"deploy PNP:CULTURE-WAR:ANARCHY-WINDOW-SMASHER:{card.revision}")
    assert "Window Smasher enters play as #5" in result.output
    result = table.run("play PNP:CULTURE-WAR:ANARCHY-GAS-MASK:000000 --on 5")
    assert "printed before the last change" in result.output
    assert table.status()["state"]["pieces"]["5"]["now"] == {"atk": 2, "def": 1}


def test_cards_of_other_games_and_unknown_cards_are_refused(table):
    new(table)
    assert "no card" in table.fail("play anarchy-no-such-card").output
    out = table.fail("deploy anarchy-gas-mask").output
    assert "is a mod card" in out and "Traceback" not in out
    assert "belongs to cold-war, but this table plays culture-war" in table.fail("play cold-al-beat-groups").output
    assert "which Culture War cannot play" in table.fail("play cw-capital-coin-1").output


COMMANDS = ["rolloff", "play", "deploy", "buy", "battle", "attack", "odds", "ally", "unally", "donate", "gift", "discard",
            "draw", "discard-hand"]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_examples(table, command):
    new(table)
    text = table.run(f"{command} --help").output
    assert "Example" in text and f"referee {command if command != 'attack' else 'battle'}" in text


def test_game_commands_are_listed_only_at_a_culture_war_table(table):
    new(table)
    assert "battle" in table.run("--help").output
    table.run("new petri-dish --player a --player b --force")
    assert "No such command 'battle'" in table.fail("battle 1 2").output


def test_house_rules_are_named_in_games(table):
    out = table.run("games").output
    for key in ("first-player", "counter-fail", "stat-floor", "unopposed-damage", "unopposed-hero-damage"):
        assert key in out
    result = table.fail("new culture-war --player a --player b --house-rule first-player=sideways")
    assert "first-player' is one of roll-off, seating" in result.output


def test_player_without_a_faction_gets_plain_starting_cards():
    rules = rules_for("culture-war")
    state = rules.setup(Setup(GameSlug.CULTURE_WAR, (("A", None), ("B", None)), 1), ())
    pieces = state.fields["pieces"]
    assert pieces["1"]["name"] == "Real Estate" and pieces["1"]["coins"] == {"plain": 1}
    assert pieces["2"]["traits"] == ["base"] and (pieces["2"]["atk"], pieces["2"]["def"]) == (0, 0)
    board = Board(state)
    pay_for(board, "A", 1, "anarchy", "a test card")  # plain coins count as any faction's own
    assert board.capital("A") == 0


def test_refusals_name_the_player_and_the_rule():
    rules = rules_for("culture-war")
    state = rules.setup(Setup(GameSlug.CULTURE_WAR, (("A", None), ("B", None)), 1), ())
    with pytest.raises(Exception) as err:
        rules.check(state, Action("battle", {"attacker": "2", "defender": "4", "rolls": 2}))
    assert err.value.rule == "the first player is decided by a roll-off" and "A cannot play yet" in str(err.value)


def test_life_to_zero_by_the_scorekeeper_also_clears_the_players_cards(table):
    new(table)
    table.run("life bo =0")
    status = table.status()
    assert status["winner"] == "ann"
    assert sorted(status["state"]["pieces"]) == ["1", "2"] and all(p["owner"] == "ann" for p in status["state"]["pieces"].values())


# ---- random play ------------------------------------------------------------------

import random  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from referee.errors import RefereeError  # noqa: E402
from referee.games.culture_war.table.cards import resolve  # noqa: E402
from referee.model import State  # noqa: E402

UNITS = ["anarchy-window-smasher", "anarchy-comrade-nobody", "anarchy-script-kiddie", "technocracy-data-intern",
         "technocracy-singularity-beta", "technocracy-delivery-drone", "anarchy-pickpocket-crew"]
OTHER = ["anarchy-gas-mask", "anarchy-barricades-up", "anarchy-riot-night", "technocracy-predictive-dodge",
         "anarchy-squatted-factory", "technocracy-server-farm", "anarchy-permanent-revolution"]


KINDS = ["deploy", "play", "battle", "battle", "end", "capital", "gift", "ally"]


@two_sizes(bounded=10, full=40, name="examples")
def test_random_play_keeps_the_table_consistent(examples):
    """Whatever is tried, refused actions are refused by name and accepted ones
    keep life >= 0, out exactly at 0 with no cards left, capital equal to the
    coins, Real Estate within capacity, and the state plain JSON."""

    @settings(max_examples=examples, deadline=None)
    @given(st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 10**9)), max_size=40))
    def random_play(moves):
        play_randomly(moves)

    random_play()


def test_random_play_really_plays():
    """The random test is only worth something if its moves get through."""
    rng = random.Random(7)
    accepted = play_randomly([(rng.choice(KINDS), rng.randrange(10**9)) for _ in range(300)])
    assert all(accepted[k] > 0 for k in ("deploy", "play", "battle", "end", "capital", "gift", "ally")), accepted


def play_randomly(moves) -> dict[str, int]:
    accepted = dict.fromkeys(KINDS, 0)
    rules = rules_for("culture-war")
    state = rules.setup(Setup(GameSlug.CULTURE_WAR, (("ann", "anarchy"), ("bo", "technocracy"), ("cy", None)), 1,
                              30, {"first-player": "seating", "starting-capital": "3"}), ())
    cards = {c: resolve(c) for c in UNITS + OTHER}
    for kind, seed in moves:
        rng = random.Random(seed)
        names = [p.name for p in state.players]
        active = state.active_player.name
        handles = list(state.fields["pieces"]) or ["1"]
        mine = [h for h, p in state.fields["pieces"].items() if p["owner"] == active and p["kind"] == "unit"]
        theirs = [h for h, p in state.fields["pieces"].items() if p["owner"] != active and p["kind"] == "unit"]
        who = active if rng.random() < 0.8 else rng.choice(names)  # mostly legal, sometimes not
        if kind == "deploy":
            code = rng.choice(UNITS)
            action = Action("play", {"player": who, "card": code, "_card": cards[code], "on": rng.choice(handles)})
        elif kind == "play":
            code = rng.choice(OTHER)
            action = Action("play", {"player": who, "card": code, "_card": cards[code],
                                     "on": rng.choice(handles + names)})
        elif kind == "battle":
            attacker = rng.choice(mine) if mine and rng.random() < 0.8 else rng.choice(handles)
            defender = rng.choice(theirs) if theirs and rng.random() < 0.7 else rng.choice(handles + names)
            action = Action("battle", {"attacker": attacker, "defender": defender})
        elif kind == "end":
            action = Action("end-turn", {})
        elif kind == "capital":
            action = Action("capital", {"player": rng.choice(names), "by": rng.randint(-3, 5) or 1})
        elif kind == "gift":
            action = Action("gift", {"from": rng.choice(names), "to": rng.choice(names), "amount": rng.randint(1, 3)})
        else:
            action = Action("ally", {"players": rng.sample(names, 2)})
        dice: list[int] = []
        try:
            rules.check(state, Action(action.name, {**action.args, "rolls": 1}))
            if kind == "battle":
                action, rolled = legal.dice_for(rules, state, action, lambda: rng.randint(1, 6))
                dice = list(rolled)
        except RefereeError as exc:
            assert str(exc)
            continue
        after = rules.apply(state, action, dice)
        assert rules.apply(state, action, dice) == after
        accepted[kind] += 1
        state = after
        for prompt in state.fields.get("prompts", []):  # a card's prompt: the table carries it out
            state = rules.apply(state, Action("resolve", {"prompt": prompt["number"], "answer": "done"}), [])
        board = Board(state)
        for p in state.players:
            assert p.life >= 0 and p.eliminated == (p.life == 0)
            assert p.capital == board.capital(p.name)
            if p.eliminated:
                assert not board.owned(p.name)
        for piece in state.fields["pieces"].values():
            if piece["kind"] == "estate":
                assert sum(piece["coins"].values()) <= piece["now"]["capacity"]
        live = [p for p in state.players if not p.eliminated]
        assert (state.winner is not None) == (len(live) == 1)
        assert State.from_dict(json.loads(json.dumps(state.to_dict()))) == state
        if state.winner:
            break
    return accepted


def test_coins_can_be_taken_from_named_places_and_the_cost_overridden(table):
    new(table)
    table.run("capital ann +2")  # bank 2, Real Estate #1 holds 1
    table.run("deploy anarchy-window-smasher --from bank")
    status = table.status()
    assert status["state"]["banks"]["ann"] == {"anarchy": 1} and status["state"]["pieces"]["1"]["coins"] == {"anarchy": 1}
    out = table.fail("deploy anarchy-masked-rioter --from 1").output
    assert "ann needs 2 capital for Masked Rioter (unit) but has 1 in #1" in out
    table.run("deploy anarchy-masked-rioter --from 1,bank")
    assert table.status()["players"][0]["capital"] == 0
    table.run("capital ann +1")
    table.run("deploy anarchy-leaderless-crowd --cost 1")  # card text the referee does not model
    assert table.status()["state"]["pieces"]["7"]["card"] == "anarchy-leaderless-crowd"
    assert "is not ann's Real Estate" in table.fail("play anarchy-gas-mask --on 7 --from 3").output


def test_an_eliminated_players_truce_ends_with_them(table):
    """A truce lasts until its player's next turn; a player who is out has none,
    so their truce ends when they go out (it used to stop every attack for good)."""
    new(table, "--player ann:anarchy --player bo:technocracy --player cy:community", seed=2)
    table.run("capital ann +10")
    table.run("deploy anarchy-window-smasher")  # #7
    table.run("end-turn")
    table.run("end-turn")
    table.run("capital cy +10")
    table.run("play community-consensus-meeting")
    assert table.status()["state"]["truce"]
    table.run("life cy =0")
    assert table.status()["state"]["truce"] == []
    table.run("end-turn")
    assert "the attack kills" in table.run("battle 7 4 --dice 5,1").output
