"""15 Minute Cold War: the odds (exact fractions), hidden cards, purity of the
rules, the draw pile turning over, card codes, help text and replay.

The game's rules at the table are covered by the scenario files
tests/referee/scenarios/cold-war-*.yaml; these tests check what a scenario
cannot express."""
from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.games.cold_war.cli import COMMANDS
from referee.errors import RefereeError, RuleViolation
from referee.rules import rules_for
from referee.games.cold_war import cards as carddata
from referee.games.cold_war.odds import odds
from referee.games.cold_war.view import odds_text
from referee.games.cold_war.visible import visible_state
from referee.model import Action, GameSlug, Setup, State

RULES = rules_for("cold-war")
ANN = "cold-wm-kitchen cold-wm-forward-base cold-wm-tank-battalion cold-wm-joint-brass cold-wm-proxy-war"
BO = "cold-vk-orbit-dog cold-vk-state-ballet cold-vk-fortress-line cold-vk-air-defence cold-vk-marshal"
CY = "cold-al-codebreakers cold-al-broadcaster cold-al-home-fleet cold-al-commandos cold-al-armoured-regt"
# the three cards each player discards at setup (9 drawn, 6 placed, 3 discarded)
ANN_OUT = ["cold-wm-vice-president", "cold-wm-snoop-director", "cold-wm-rapid-deploy"]
BO_OUT = ["cold-vk-five-year-plan", "cold-vk-metro-palace", "cold-vk-ideologist"]
CY_OUT = ["cold-al-coastal-guns", "cold-al-channel-garrison", "cold-al-island-outpost"]


def discards(ids: list[str]) -> str:
    return " ".join(f"--discard {c}" for c in ids)


def new(*players: str, **house: str) -> State:
    pairs = tuple(tuple(p.split(":")) for p in players)
    return RULES.setup(Setup(GameSlug.COLD_WAR, pairs, 1, None, {k.replace("_", "-"): v for k, v in house.items()}), ())


def step(state: State, name: str, actor: str | None = None, **args) -> State:
    """Check and apply one action; when it opens an answer window, its target
    answers none (these tests are not about answers: test_rules_cold_war_answers.py is)."""
    action = Action(name, args, actor)
    RULES.check(state, action)
    state = RULES.apply(state, action, ())
    pending = state.fields.get("pending")
    if pending:
        none = Action("answer", {}, pending["target"])
        RULES.check(state, none)
        state = RULES.apply(state, none, ())
    return state


def three_player_table() -> State:
    """Ann (Westmark), Bo (Vostokia), Cy (Albion), set up and started; Ann to play."""
    s = new("Ann:westmark", "Bo:vostokia", "Cy:albion")
    s = step(s, "setup", player="Ann", cards=ANN.split() + ["cold-wm-radar-line"], discard=ANN_OUT)
    s = step(s, "setup", player="Bo", cards=BO.split() + ["cold-vk-motor-rifles"], discard=BO_OUT)
    s = step(s, "setup", player="Cy", cards=CY.split() + ["cold-al-highlanders"], discard=CY_OUT)
    return step(s, "start")


def with_cy_fallen() -> State:
    """Ann's Triad clears Cy's defence, Bo beats Cy's bare Leader (150)."""
    s = step(three_player_table(), "triad", target="Cy",
             cards=["cold-wm-liberty-silo", "cold-wm-deep-sub", "cold-wm-bomber-wing"])
    s = step(s, "attack", target="Cy", at="L", cards=["cold-vk-tank-column"])
    s = step(s, "discard", cards=["cold-vk-paratroops"])
    return step(s, "end-turn")


# ---- the Fallen Leader odds ----------------------------------------------------------


@pytest.mark.parametrize("country", ["westmark", "albion", "vostokia", "grauberg"])
def test_a_fresh_pile_gives_the_appendix_odds_for_every_country(country):
    s = new(f"P:{country}", "Q:" + ("albion" if country != "albion" else "westmark"))
    result = odds(s, "P")
    assert result.total == 24 and result.source == "a fresh pile"
    assert result.chance("lend") == Fraction(5, 24)
    assert result.chance("attack") == Fraction(11, 24)
    assert result.chance("nothing") == Fraction(8, 24)
    assert sum(result.chance(k) for k in ("lend", "attack", "nothing")) == 1
    assert [round(float(result.chance(k)) * 100, 1) for k in ("lend", "attack", "nothing")] == [20.8, 45.8, 33.3]


def test_the_odds_come_from_the_card_data():
    """Counted from each card's fallen_draw in card_sources, not from constants."""
    for country, deck in carddata.countries().items():
        kinds = [c["fallen_draw"] for c in deck["cards"].values() if c["type"] != "leader"]
        assert (kinds.count("lend"), kinds.count("attack"), kinds.count("nothing")) == (5, 11, 8), country


def test_the_odds_follow_the_cards_actually_left_in_the_pile():
    s = with_cy_fallen()
    assert s.active_player.name == "Cy"
    fresh = odds(s, "Cy")
    assert (fresh.source, fresh.total) == ("draw pile", 24)
    s = step(s, "fallen", target="Ann", card="cold-al-broadcaster")  # lent: one Science card gone
    after = odds(s, "Cy")
    assert after.total == 23
    assert after.chance("lend") == Fraction(4, 23)
    assert after.chance("attack") == Fraction(11, 23)
    assert after.chance("nothing") == Fraction(8, 23)
    s = step(s, "discard", cards=["cold-wm-cavalry"])
    s = step(s, "end-turn")
    s = step(s, "discard", cards=["cold-vk-rocket-artillery"])
    s = step(s, "end-turn")
    s = step(s, "fallen", target="Bo", card="cold-al-stiff-lip")  # a Special: nothing
    third = odds(s, "Cy")
    assert (third.chance("lend"), third.chance("attack"), third.chance("nothing")) == (
        Fraction(4, 22), Fraction(11, 22), Fraction(7, 22))


def _with_pile(s: State, player: str, unseen: list[str], discard: list[str]) -> State:
    fields = copy.deepcopy(dict(s.fields))
    desk = fields["desks"][player]
    desk.update(unseen=list(unseen), draw=len(unseen), order=[], discard=list(discard))
    return State(s.game, s.players, s.turn, s.round, s.active, s.winner, s.crowd, s.house_rules, fields)


def test_an_empty_pile_turns_the_unshuffled_discard_pile_over_in_a_known_order():
    s = _with_pile(with_cy_fallen(), "Cy", [], ["cold-al-stiff-lip", "cold-al-commandos", "cold-al-broadcaster"])
    before = odds(s, "Cy")
    assert before.source == "discard pile, turned over next"
    assert before.next_card == "cold-al-stiff-lip" and before.total == 1  # the first card discarded comes up first
    assert "the next flip is" in odds_text(before, True) and "stiff-lip" in odds_text(before, True)
    with pytest.raises(RuleViolation, match="its top card is") as err:
        step(s, "fallen", target="Bo", card="cold-al-commandos")
    assert err.value.rule == "draw pile order"
    s = step(s, "fallen", target="Bo", card="cold-al-stiff-lip")
    desk = s.fields["desks"]["Cy"]
    assert desk["order"] == ["cold-al-commandos", "cold-al-broadcaster"] and desk["draw"] == 0
    assert desk["discard"] == ["cold-al-stiff-lip"] and desk["resets"] == 1
    assert "turns over" in " ".join(s.fields["report"])
    assert visible_state(s, ()).fields["tables"]["Cy"]["counts"]["discard_pile"] == 1
    assert odds(s, "Cy").next_card == "cold-al-commandos"


def test_a_fallen_player_with_nothing_to_flip_may_end_the_turn():
    s = _with_pile(with_cy_fallen(), "Cy", [], [])
    assert odds(s, "Cy").total == 0
    with pytest.raises(RuleViolation, match="no card left to flip"):
        step(s, "fallen", target="Bo", card="cold-al-stiff-lip")
    assert step(s, "end-turn").active_player.name == "Ann"


def test_odds_command_prints_exact_fractions_and_percentages(table):
    table.run("new cold-war --player Ann:westmark --player Bo:vostokia")
    text = table.run("odds Ann").output
    for words in ("5/24", "20.8%", "11/24", "45.8%", "8/24 = 1/3", "33.3%", "if it fell now"):
        assert words in text, words
    data = json.loads(table.run("odds --json").output)
    assert [d["player"] for d in data] == ["Ann", "Bo"]
    assert data[0]["odds"] == {"attack": "11/24", "lend": "5/24", "nothing": "1/3"}
    assert data[0]["percent"] == {"attack": 45.8, "lend": 20.8, "nothing": 33.3}
    assert table.fail("odds Zed").output.count("no player called 'Zed'") == 1


def test_odds_text_for_an_empty_pile():
    s = with_cy_fallen()
    assert "24 cards in the draw pile" in odds_text(odds(s, "Cy"), True)


# ---- hidden information ---------------------------------------------------------------


def test_face_down_cards_never_reach_status_unless_revealed(table):
    table.run("new cold-war --player Ann:westmark --player Bo:vostokia")
    table.run(f"setup Ann {ANN} --propaganda cold-wm-big-brain {discards(ANN_OUT)}")
    table.run(f"setup Bo {BO} cold-vk-tank-column {discards(BO_OUT)}")
    hidden = ["cold-wm-forward-base", "cold-wm-tank-battalion", "cold-wm-big-brain", "cold-wm-proxy-war"]
    plain, as_json = table.run("status").output, table.run("status --json").output
    names = {cid: card["name"] for deck in carddata.countries().values() for cid, card in deck["cards"].items()}
    for cid in hidden + ["cold-vk-fortress-line", "cold-vk-tank-column"]:
        assert cid not in plain and cid not in as_json, cid
        assert names[cid] not in plain and names[cid] not in as_json, names[cid]
    # face up stays visible, named as printed (status names cards, not ids)
    assert names["cold-wm-kitchen"] in plain and names["cold-vk-marshal"] in plain and "cold-wm-kitchen" not in plain
    assert "propaganda" not in plain.lower().replace("--reveal", "")
    mine = table.run("status --reveal Ann").output
    assert all(names[cid] in mine for cid in hidden) and "(propaganda)" in mine
    assert names["cold-vk-fortress-line"] not in mine
    both = json.loads(table.run("status --json --reveal ann --reveal Bo").output)
    assert both["state"]["revealed"] == ["Ann", "Bo"]
    assert both["state"]["tables"]["Bo"]["military"]["M3"]["cards"] == ["cold-vk-tank-column"]
    assert "decks" not in both and "desks" not in both


def test_reveal_is_refused_where_a_game_hides_nothing(table):
    table.run("new culture-war --player Ann:anarchy --player Bo:community")
    assert "no hidden cards" in table.fail("status --reveal Ann").output


def test_the_action_report_says_face_down_and_not_which_card():
    s = three_player_table()
    s = step(s, "place", card="cold-wm-big-brain", propaganda=True)
    report = " ".join(s.fields["report"])
    assert "face down" in report and "big-brain" not in report.lower() and "Brain" not in report
    assert "propaganda" not in report.lower()


# ---- the rules as pure functions --------------------------------------------------------


def test_apply_never_changes_its_input_and_stays_json():
    s = three_player_table()
    frozen = json.dumps(s.to_dict(), sort_keys=True)
    after = step(s, "attack", target="Bo", at="S1", cards=["cold-wm-cavalry", "cold-wm-marines"])
    assert json.dumps(s.to_dict(), sort_keys=True) == frozen
    assert State.from_dict(json.loads(json.dumps(after.to_dict()))) == after
    assert visible_state(after, ()).to_dict()["fields"]["tables"]["Bo"]["counts"]["science"] == 1


def test_check_refuses_exactly_what_apply_would_refuse():
    s = three_player_table()
    # a card of another country's deck (a face-down card of Ann's own, named from the hand, is taken as
    # her word since cold-war-6: refusing it would tell the table what lies face down)
    bad = Action("attack", {"target": "Bo", "at": "S1", "cards": ["cold-vk-tank-column"]})
    with pytest.raises(RuleViolation) as err:
        RULES.check(s, bad)
    with pytest.raises(RuleViolation) as applied:
        RULES.apply(s, bad, ())
    assert applied.value.rule == err.value.rule == "own deck"


def test_no_dice_are_ever_needed():
    s = three_player_table()
    assert RULES.setup_dice(Setup(GameSlug.COLD_WAR, (("A", "westmark"), ("B", "albion")), 1)) == ()
    assert RULES.dice_needed(s, Action("attack", {})) == ()


def test_propaganda_defence_comes_from_the_game_notes():
    assert carddata.propaganda_defence() == 100
    assert new("A:westmark", "B:albion").house_rules["propaganda-defence"] == 100
    assert new("A:westmark", "B:albion", propaganda_defence="120").house_rules["propaganda-defence"] == 120


def test_country_by_its_printed_name_and_unknown_actions():
    s = new("A:Albion Minor", "B:westmark")
    assert s.players[0].faction == "albion"
    with pytest.raises(RefereeError, match="no action called 'fly'"):
        RULES.check(s, Action("fly"))


# ---- the command line --------------------------------------------------------------------


def test_every_cold_war_command_has_help_with_examples(table):
    table.run("new cold-war --player Ann:westmark --player Bo:vostokia")
    for name in COMMANDS:
        text = table.run([name, "--help"]).output
        assert "Examples:" in text or "Example:" in text, name
        assert f"referee {name}" in text, name
    games = table.run("games").output
    for key in ("rounds", "first-place", "fourth-place", "fallen-bonus", "propaganda-defence", "propaganda=",
                "nuclear-triad", "challenge-cost", "leader-stack"):
        assert key in games, key
    assert "odds" in table.run("--help").output


def test_cards_can_be_given_as_scanned_qr_payloads(table):
    runner = CliRunner()
    info = json.loads(runner.invoke(cli, ["card", "cold-wm-kitchen", "--json"]).output)
    payload = f"PNP:COLD-WAR:COLD-WM-KITCHEN:{info['revision']}"
    table.run("new cold-war --player Ann:westmark --player Bo:vostokia")
    out_text = table.run(["setup", "Ann", payload, *ANN.split()[1:], "cold-wm-radar-line", *discards(ANN_OUT).split()]).output
    assert "Ann sets up" in out_text
    assert table.log()["events"][-1]["cards"]["cold-wm-kitchen"] == info["revision"]  # a face-up card's revision is logged
    assert table.status()["state"]["tables"]["Ann"]["science"]["S1"]["cards"] == ["cold-wm-kitchen"]
    stale = table.run(["setup", "Bo", "PNP:COLD-WAR:COLD-VK-ORBIT-DOG:000000", *BO.split()[1:],
                       "cold-vk-tank-column", *discards(BO_OUT).split()])
    assert "printed before the last change" in stale.output
    wrong = table.fail("attack Ann S1 anarchy-brick-courier")
    assert "Traceback" not in wrong.output


def test_refusals_name_the_player_and_the_rule_and_show_no_traceback(table):
    table.run("new cold-war --player Ann:westmark --player Bo:vostokia")
    table.run(f"setup Ann {ANN} cold-wm-radar-line {discards(ANN_OUT)}")
    table.run(f"setup Bo {BO} cold-vk-tank-column {discards(BO_OUT)}")
    table.run("start")
    out = table.fail("place cold-vk-chess-academy --by Bo").output
    assert "Bo" in out and "[rule: turn order]" in out and "Traceback" not in out
    out = table.fail("attack Bo M9 cold-wm-supercarrier").output
    assert "Bo" in out and "[rule: spots]" in out


def test_undo_says_what_was_taken_back(table):
    table.run("new cold-war --player Ann:westmark --player Bo:vostokia")
    table.run(f"setup Ann {ANN} cold-wm-radar-line {discards(ANN_OUT)}")
    out = table.run("undo").output
    assert "taken back: Ann sets up" in out
    assert table.status()["state"]["tables"]["Ann"]["set_up"] is False


def test_an_exported_game_replays_to_the_same_table(table, tmp_path):
    table.run("new cold-war --player Ann:westmark --player Bo:vostokia --seed 5")
    table.run(f"setup Ann {ANN} cold-wm-radar-line {discards(ANN_OUT)}")
    table.run(f"setup Bo {BO} cold-vk-tank-column {discards(BO_OUT)}")
    table.run("start")
    table.run("attack Bo M1 cold-wm-supercarrier")
    table.run("answer none --by Bo")
    table.run("challenge Bo 1")
    table.run("answer none --by Bo")
    table.run("discard cold-wm-cavalry")
    table.run("end-turn")
    export = tmp_path / "game.json"
    table.run(["export", str(export), "--full"])  # the scorekeeper's export keeps the face-down cards
    copy_db = tmp_path / "copy.db"
    assert CliRunner().invoke(cli, ["replay", str(export), "--db", str(copy_db)]).exit_code == 0
    ours = json.loads(table.run("status --json --reveal all").output)
    theirs = json.loads(CliRunner().invoke(cli, ["status", "--json", "--reveal", "all", "--db", str(copy_db)]).output)
    for key in ("state", "players", "turn", "active", "phase"):
        assert ours[key] == theirs[key], key


# ---- phases and who decides the match ----------------------------------------------------


def test_the_rules_decide_the_match_until_it_is_over():
    """`win PLAYER` needs --force while rules_can_decide is True (the core checks it)."""
    s = new("Ann:westmark", "Bo:vostokia", rounds="1")
    assert RULES.phase(s) == "setup" and RULES.rules_can_decide(s)
    s = step(s, "setup", player="Ann", cards=ANN.split() + ["cold-wm-radar-line"], discard=ANN_OUT)
    s = step(s, "setup", player="Bo", cards=["cold-vk-orbit-dog", "cold-vk-state-ballet", "cold-vk-fortress-line",
                                             "cold-vk-air-defence", "cold-vk-tank-column", "cold-vk-motor-rifles"],
             discard=BO_OUT)
    s = step(s, "start")
    assert RULES.phase(s) == "turn" and RULES.rules_can_decide(s)
    s = step(s, "triad", target="Bo", cards=["cold-wm-liberty-silo", "cold-wm-deep-sub", "cold-wm-bomber-wing"])
    s = step(s, "discard", cards=["cold-vk-paratroops"])
    s = step(s, "end-turn")
    assert RULES.rules_can_decide(s)  # Bo's bare Leader (200) still stands
    s = step(s, "attack", target="Bo", at="L", cards=["cold-wm-supercarrier"])
    assert s.winner == "Ann" and RULES.phase(s) == "over"
    assert not RULES.rules_can_decide(s)
    with pytest.raises(RuleViolation, match="game over") as err:
        RULES.check(s, Action("discard", {"cards": ["cold-wm-airborne"]}))
    assert "phase: over" in str(err.value)


def test_a_fallen_leaders_turn_is_its_own_phase():
    s = with_cy_fallen()
    assert s.active_player.name == "Cy" and RULES.phase(s) == "fallen turn"
    with pytest.raises(RuleViolation, match=r"\(phase: fallen turn\)"):
        RULES.check(s, Action("place", {"card": "cold-al-jet-airliner"}))
    assert RULES.phase(step(s, "fallen", target="Ann", card="cold-al-stiff-lip")) == "turn"


def test_every_house_rule_has_a_range_or_choices_and_its_default_fits():
    for key, rule in RULES.house_rules.items():
        assert rule.describe_range(), key
        value = new("A:westmark", "B:albion").house_rules[key]
        if rule.choices:
            assert value in rule.choices, key
        else:
            rule.check_range(int(value))
    with pytest.raises(RefereeError, match="leader-stack"):
        new("A:westmark", "B:albion", leader_stack="0")


def test_a_logged_action_these_rules_refuse_says_the_log_may_be_older():
    """apply() runs only after check() for a new action, so a refusal there
    comes from replaying a log (for instance one written by an earlier version)."""
    s = new("Ann:westmark", "Bo:vostokia")
    old_setup = Action("setup", {"player": "Ann", "cards": ANN.split() + ["cold-wm-radar-line"]}, "Ann")
    with pytest.raises(RuleViolation) as err:
        RULES.apply(s, old_setup, ())
    assert err.value.rule == "nine cards at setup"
    assert "replaying the table's log" in str(err.value) and RULES.version in str(err.value)


def test_an_action_with_a_hidden_card_left_out_cannot_be_replayed():
    s = three_player_table()
    masked = Action("place", RULES.public_args(Action("place", {"card": "cold-wm-cavalry"})))
    with pytest.raises(RuleViolation, match="--full") as err:
        RULES.apply(s, masked, ())
    assert err.value.rule == "hidden cards"
