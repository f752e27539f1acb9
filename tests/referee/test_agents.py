"""The agent ladder (issue 35): heuristic (the default), search, cheat and
random; the loop guard; bad agent input; and the agents' own-view-only rule."""
from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.errors import RefereeError
from referee.model import Action, GameSlug, PlayerName
from referee.rules import rules_for
from referee.simulate.agents import AgentKind
from referee.simulate.seats import make_agent
from referee.simulate.guard import IDLE_CAP, Guard
from referee.simulate.play import Outcome, Seat, _decide, play_game
from referee.simulate.runner import make_plan


def test_the_default_agent_is_the_heuristic():
    plan = make_plan("petri-dish", None, (), (), 1)
    assert set(plan.agents) == {AgentKind.HEURISTIC}


@pytest.mark.parametrize("args, says", [
    (["--agent", "greedy"], "unknown agent 'greedy'; choose one of: heuristic, search, cheat, random"),
    (["--agent", "search", "--budget", "0"], "--budget must be 1 or more, not 0"),
])
def test_bad_agent_input_is_one_clear_error_and_writes_nothing(tmp_path, args, says):
    out = tmp_path / "games.json"
    result = CliRunner().invoke(cli, ["simulate", "petri-dish", "--games", "1", "--json", str(out), *args])
    assert result.exit_code != 0
    assert says in result.output and "Traceback" not in result.output
    assert not out.exists()


def test_the_guard_never_offers_an_undo_of_this_turn_s_move():
    rules = rules_for(GameSlug.CULTURE_WAR)
    plan = make_plan("culture-war", 2, (), ("random",), 1, seed=3)
    from referee.simulate.play import setup_of

    state = rules.setup(setup_of(plan.config(0)), (6, 1))
    guard = Guard(GameSlug.CULTURE_WAR)
    me = PlayerName(state.active_player.name)
    ally = Action("ally", {"players": [me, "P2" if me == "P1" else "P1"]})
    unally = Action("unally", {"players": [me]})
    assert guard.allow(state, me)(unally)
    guard.record(state, me, ally)
    assert not guard.allow(state, me)(unally)  # undoes the ally
    assert guard.allow(state, me)(Action("end-turn", {}))
    for _ in range(IDLE_CAP):
        guard.record(state, me, ally)
    assert not guard.allow(state, me)(ally)  # a bounded number of moves that change nothing


def test_cold_war_s_guard_refuses_breaking_a_stack_formed_this_turn():
    rules = rules_for(GameSlug.COLD_WAR)
    plan = make_plan("cold-war", 2, (), ("random",), 1, seed=3)
    from referee.simulate.play import setup_of

    state = rules.setup(setup_of(plan.config(0)), ())
    guard = Guard(GameSlug.COLD_WAR)
    me = PlayerName("P1")
    guard.record(state, me, Action("regroup", {"player": me, "stacks": [["M1", "M2", "M3"]], "break": []}))
    assert not guard.allow(state, me)(Action("regroup", {"player": me, "stacks": [], "break": ["M1"]}))


@pytest.mark.parametrize("game, players", [("culture-war", 2), ("culture-war", 5), ("cold-war", 2),
                                           ("petri-dish", 2), ("divide-and-conquer", 4)])
def test_random_players_no_longer_toggle_for_ever(game, players):
    # the guard narrows even the random agent: no turn runs to the action cap on ally/unally or regroups
    plan = make_plan(game, players, (), ("random",), 1, seed=5, turn_cap=6)
    record = play_game(plan.config(0))
    assert record.actions < 6 * 60


def test_the_heuristic_plays_culture_war_as_a_person_would():
    plan = make_plan("culture-war", 3, (), ("heuristic",), 1, seed=1, keep=1)
    record = play_game(plan.config(0))
    assert record.outcome is Outcome.WIN
    names = [s.action.name for s in record.steps]
    assert not {"ally", "unally", "donate", "gift"} & set(names)  # never gives life or coins to a rival
    assert names.count("battle") > 10 and names.count("play") > 10  # deploys and fights
    ends = [i for i, n in enumerate(names) if n == "end-turn"]
    assert max(b - a for a, b in zip([0, *ends], ends)) < 20  # every turn ends within a few moves
    assert play_game(plan.config(0)) == record  # seeded


@pytest.mark.parametrize("kind", ["heuristic", "search"])
def test_an_agent_s_choice_does_not_depend_on_another_player_s_hand(kind):
    # Cold War twins: the same table with the defender's answering Specials swapped for other cards
    from tests.referee.test_selfplay_cold_war_answers import RULES, _replayed, _twins

    _, real, other, _, defender, (config, record, at) = _twins()
    state, _ = _replayed(record, config, at - 1)  # the attacker about to attack, before the answer window
    seats = tuple(Seat(p.name, p.faction, AgentKind(kind)) for p in state.players)
    index = {s.name: i for i, s in enumerate(seats)}
    chosen = []
    for hands in (real, other):
        agents = [make_agent(AgentKind(kind), budget=4) for _ in seats]
        rngs = [random.Random(i) for i in range(len(seats))]
        player, move, _ = _decide(RULES, state, hands, seats, index, agents, rngs, Guard(GameSlug.COLD_WAR))
        chosen.append((player, move.action))
    assert chosen[0] == chosen[1] and chosen[0][0] != defender


def test_the_json_names_each_seat_s_agent_and_the_win_rate_by_agent(tmp_path):
    out = tmp_path / "games.json"
    result = CliRunner().invoke(cli, ["simulate", "petri-dish", "--games", "4", "--agent", "heuristic",
                                      "--agent", "random", "--turn-cap", "60", "--json", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    orders = {tuple(s["agent"] for s in g["seats"]) for g in data["games"]}
    assert orders == {("heuristic", "random"), ("random", "heuristic")}  # both seat orders
    by_agent = data["summary"]["win_rate_by_agent"]
    assert set(by_agent) == {"heuristic", "random"} and by_agent["heuristic"]["fair_share"] == 0.5
    assert "agent heuristic wins" in result.output and "the rulebook" in result.output


@pytest.mark.slow
@pytest.mark.parametrize("game, players", [("culture-war", 2), ("cold-war", 2),
                                           ("debate", 2),
                                           ("divide-and-conquer", 4), ("petri-dish", 2)])
def test_heuristic_beats_random_in_both_seat_orders(game, players):
    # a small, honest version of the bench's ladder: up to 8 games, the agents swapping seats
    choices = rules_for(GameSlug.parse(game)).faction_choices() or ()
    factions = tuple(choices[:players]) if len(choices) >= players else ()
    plan = make_plan(game, players, factions, ("heuristic", "random") * (players // 2), 8,
                     seed=11, house_rules=("rounds=1",) if game == "cold-war" else ())
    wins = {"heuristic": 0, "random": 0}
    orders = set()
    for i in range(plan.games):
        record = play_game(plan.config(i))
        orders.add(tuple(s.agent.value for s in record.seats))
        if record.outcome is Outcome.WIN:
            wins[record.seats[record.winner].agent.value] += 1
    assert len(orders) > 1  # both seat orders were played
    assert wins["heuristic"] > wins["random"]


def test_make_agent_refuses_nothing_it_knows():
    for kind in AgentKind:
        assert make_agent(kind, budget=2) is not None
    with pytest.raises(RefereeError):
        AgentKind.parse("greedy")


@pytest.mark.slow
def test_petri_dish_heuristics_play_on_while_an_area_is_open():
    # the first policy passed whenever no move raised its score; the other, seeing the same,
    # passed back, and every game between two heuristics was drawn with prime areas still open
    from referee.games.petri_dish import engine
    from referee.games.petri_dish.geometry import AREA_INDICES, INDEX, POINTS

    rules = rules_for(GameSlug.PETRI_DISH)
    plan = make_plan("petri-dish", 2, (), ("heuristic",), 3, seed=1, keep=3)
    outcomes = []
    for i in range(plan.games):
        record = play_game(plan.config(i))
        outcomes.append(record.outcome)
        from referee.simulate.play import setup_of

        state = rules.setup(setup_of(plan.config(i)), record.setup_dice)
        for n, step in enumerate(record.steps):
            if step.action.name == "pass" and n < 120 and not state.fields.get("passed"):
                board = [0] * len(POINTS)
                for name, cell in state.fields["board"].items():
                    if cell:
                        board[INDEX[name]] = cell["size"] * (1 if cell["owner"] == "white" else -1)
                alone = [any(board[k] > 0 for k in a) != any(board[k] < 0 for k in a) for a in AREA_INDICES]
                reserve = sum(engine.Position(tuple(board)).reserve(c) for c in (engine.WHITE, engine.BLACK))
                conceded = n + 2 == len(record.steps) and record.outcome is Outcome.WIN  # every move lost at once
                assert all(alone) or reserve == 0 or conceded, f"seed {record.seed}: a pass at action {n} with an area open"
            state = rules.apply(state, step.action, step.dice)
    assert Outcome.CAPPED not in outcomes
    assert Outcome.WIN in outcomes


def test_the_debater_keeps_a_device_for_its_own_later_phase():
    # phase one, first player: a device played now can be answered in the opponent's phase,
    # played in cross-examination it cannot be answered before the last word: it waits
    from referee.games.debate import policy
    from referee.games.debate.legal import card_entry
    from referee.model import Setup

    rules = rules_for(GameSlug.DEBATE)
    setup = Setup(GameSlug.DEBATE, (("Ana", "deb-lincoln"), ("Ben", "deb-jackson")), 1)
    state = rules.setup(setup, tuple(1 for _ in rules.setup_dice(setup)))
    opener = state.fields["opener"]
    play = Action("device", {"player": opener, "thread": 1, "card": "deb-soothing-tone",
                             "_card": card_entry("deb-soothing-tone")}, opener)
    draw = Action("device", {"player": opener, "thread": 1, "card": "deb-rehearsed-line",
                             "_card": card_entry("deb-rehearsed-line")}, opener)

    class Known:
        def __init__(self, action):
            self.action = action

    assert policy._acts_again(state, opener)
    assert policy._waits(state, opener, Known(play))  # played in cross-examination instead
    assert not policy._waits(state, opener, Known(draw))  # a draw is worth having while threads can open
    assert not policy._acts_again(state, [p.name for p in state.players if p.name != opener][0])
