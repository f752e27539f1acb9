"""Culture War's dealer and evaluation (referee/games/culture_war/selfplay.py):
the printed faction decks dealt by copy, hands followed through the game,
a short seeded game per agent, and the faults self-play found."""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import pytest
import yaml

from referee.errors import RefereeError
from referee.rules import rules_for
from referee.games.culture_war import selfplay
from referee.model import Action, GameSlug, PlayerName, Setup
from referee.simulate.play import Outcome, play_game
from referee.simulate.runner import make_plan

try:
    from yaml import CSafeLoader as Loader
except ImportError:  # no libyaml
    from yaml import SafeLoader as Loader  # type: ignore[assignment]

ROOT = Path(__file__).resolve().parents[2]
RULES = rules_for("culture-war")
FACTIONS = ("anarchy", "community", "technocracy", "conservative", "libertarian")


@lru_cache(maxsize=None)
def deck_file(faction: str) -> tuple[dict, ...]:
    """A faction deck as its YAML prints it (read here, not through the card index)."""
    data = yaml.load((ROOT / "card_sources" / "culture-war" / f"{faction}.yaml").read_text(), Loader=Loader)
    return tuple(data["cards"])


def printed(faction: str) -> Counter:
    """Every printed copy of a faction deck but the Real Estate."""
    return Counter({c["id"]: int(c.get("quantity") or 1) for c in deck_file(faction) if c["type"] != "real-estate"})


def base_unit(faction: str) -> str:
    return next(c["id"] for c in deck_file(faction) if "base" in (c.get("traits") or []))


def new_table(players: int = 3, seed: int = 5, seating: bool = False):
    seats = tuple((f"P{i + 1}", FACTIONS[(seed + i) % 5]) for i in range(players))
    rules = {"first-player": "seating"} if seating else {}
    state = RULES.setup(Setup(GameSlug.CULTURE_WAR, seats, seed, house_rules=rules), ())
    return state, selfplay.deal(RULES, state, random.Random(seed))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_deal_is_the_printed_decks_by_copy(players):
    state, dealer = new_table(players)
    for p in state.players:
        held, pile, out = dealer.held[p.name], dealer.pile[p.name], dealer.out[p.name]
        copies = [*held, *pile, *out]
        assert Counter(c for c, _ in copies) == printed(p.faction)  # every printed copy, once
        assert len(set(copies)) == len(copies)
        for card_id, number in copies:
            assert 1 <= number <= printed(p.faction)[card_id]
        assert len(held) == 5 == p.fields["hand"] and len(pile) == p.fields["draw_pile"]
        assert out == [(base_unit(p.faction), 1)]  # the Base Unit is in play
    assert dealer.violations(state) == []
    assert dict(dealer.hands()) == {PlayerName(p.name): tuple(c for c, _ in dealer.held[p.name])
                                    for p in state.players}


def test_another_seed_deals_other_hands():
    _, a = new_table(seed=5)
    _, b = new_table(seed=6)
    assert a.hands() != b.hands()


def test_the_dealer_follows_a_play_and_the_next_turns_draw():
    state, dealer = new_table(seed=5)
    state = RULES.apply(state, Action("rolloff", {"rolls": 3}), (6, 1, 1))  # P1 goes first
    name = state.active_player.name
    unit = next(c for c in dealer.hands()[name] if selfplay.card(c)["type"] == "unit"
                and int(selfplay.card(c).get("cost") or 0) <= 1)
    action = Action("play", {"player": name, "card": unit, "_card": selfplay.card(unit)}, PlayerName(name))
    after = RULES.apply(state, action, (3,) * len(RULES.dice_needed(state, action)))
    dealer.after(state, action, after)
    assert len(dealer.hands()[name]) == 4 and dealer.violations(after) == []
    state = after
    for _ in range(3):  # around the table: P1's second turn begins with a draw
        end = Action("end-turn", {}, PlayerName(state.active_player.name))
        after = RULES.apply(state, end, (3,) * len(RULES.dice_needed(state, end)))
        dealer.after(state, end, after)
        state = after
    assert state.active_player.name == name and len(dealer.hands()[name]) == 5
    assert dealer.violations(state) == []


def test_a_wrong_count_is_a_violation():
    state, dealer = new_table()
    dealer.held["P1"].append(dealer.pile["P1"].pop())
    problems = dealer.violations(state)
    assert any("P1 holds 6 cards, the table counts 5" in p for p in problems)
    assert any("P1's draw pile" in p for p in problems)


def test_a_random_discard_answered_done_takes_cards_from_the_dealt_hand():
    state, dealer = new_table()
    prompt = {"number": 1, "player": "P2", "card_id": "anarchy-botnet-swarm", "card": "Botnet Swarm",
              "moment": "played", "text": "P2 discards 1 card at random", "enter": "referee resolve 1 done",
              "commands": [], "choices": [], "data": {"discard": {"player": "P2", "count": 1, "counted": True},
                                                     "free": True}}
    asked = state.__class__(**{**state.__dict__, "fields": {**state.fields, "prompts": [prompt], "prompt_next": 2}})
    answer = Action("resolve", {"prompt": 1, "answer": "done"}, PlayerName("P2"))
    after = RULES.apply(asked, answer, ())
    dealer.after(asked, answer, after)
    assert len(dealer.held["P2"]) == 4 == after.player("P2").fields["hand"]
    assert dealer.violations(after) == []


def test_mixed_decks_are_refused_with_the_reason():
    seats = (("P1", "anarchy"), ("P2", "community"))
    state = RULES.setup(Setup(GameSlug.CULTURE_WAR, seats, 1, house_rules={"decks": "mixed"}), ())
    with pytest.raises(RefereeError, match="mixed"):
        selfplay.deal(RULES, state, random.Random(1))


def test_an_action_with_missing_arguments_is_refused_not_a_crash():
    # found by --check: its mutants give one action another's arguments
    state, _ = new_table()
    for action in (Action("gift", {"attacker": "1", "defender": "2"}, PlayerName("P1")),
                   Action("play", {"prompt": 1}, PlayerName("P1")),
                   Action("discard-hand", {"card": "x"}, PlayerName("P1"))):
        with pytest.raises(RefereeError):
            RULES.check(state, action)


def test_the_evaluation_prefers_life_and_board():
    state, _ = new_table()
    base = selfplay.evaluate(state, PlayerName("P1"))
    hurt = state.with_player(state.player("P1").__class__(**{**state.player("P1").__dict__,
                                                              "life": state.player("P1").life - 10}))
    assert selfplay.evaluate(hurt, PlayerName("P1")) < base
    won = state.__class__(**{**state.__dict__, "winner": PlayerName("P1")})
    assert selfplay.evaluate(won, PlayerName("P1")) == selfplay.WIN
    assert selfplay.evaluate(won, PlayerName("P2")) == -selfplay.WIN


@pytest.mark.parametrize("agent,cap", [("random", 8), ("heuristic", 2), ("search", 2)])
def test_a_short_seeded_game_per_agent(agent, cap):
    plan = make_plan("culture-war", 3, (), (agent,), 1, seed=3, turn_cap=cap, budget=3)
    first = play_game(plan.config(0))
    assert first.actions > 0 and first.outcome in (Outcome.WIN, Outcome.CAPPED)
    assert first.turns >= 2  # turns were ended: the agent did not loop inside one
    if agent == "random":
        assert any(first.cards_played)
    assert play_game(plan.config(0)) == first  # seeded: the same game again


def test_a_whole_random_game_ends_in_a_win():
    plan = make_plan("culture-war", 3, (), ("random",), 1, seed=1)
    record = play_game(plan.config(0))
    assert record.outcome is Outcome.WIN and record.winner is not None


def test_a_player_out_on_their_own_turn_has_it_ended_by_anyone():
    # found by self-play: P2 went out in their own turn and no one could end it (an endless ally/unally loop)

    from referee.rules.legal import legal_moves

    seats = (("P1", "anarchy"), ("P2", "community"), ("P3", "technocracy"))
    state = RULES.setup(Setup(GameSlug.CULTURE_WAR, seats, 1, house_rules={"first-player": "seating"}), ())
    state = replace(state, active=1)
    state = state.with_player(replace(state.player("P2"), life=0, eliminated=True))
    for name in ("P1", "P3"):
        ends = [m for m in legal_moves(RULES, state, PlayerName(name)) if m.action and m.action.name == "end-turn"]
        assert [(m.action.actor, m.command) for m in ends] == [(None, "end-turn")]
    after = RULES.apply(state, ends[0].action, ())
    assert after.active_player.name == "P3"


def _asked_to_discard(card_id: str, card: str, text: str, enter: str):
    """A new table on which card text asks P1 to discard one card (a counted discard), and its dealer."""
    state, dealer = new_table(seating=True)
    prompt = {"number": 1, "player": "P1", "card_id": card_id, "card": card, "moment": "played", "text": text,
              "enter": enter, "commands": [], "choices": [],
              "data": {"discard": {"player": "P1", "count": 1, "counted": True}, "free": True}}
    return replace(state, fields={**state.fields, "prompts": [prompt], "prompt_next": 2}), dealer


def test_a_discard_prompt_is_answered_by_naming_cards_from_the_known_hand():
    from referee.rules.legal import legal_moves

    asked, dealer = _asked_to_discard("technocracy-data-harvest", "Data Harvest", "P1 discards 1 card",
                                      "referee resolve 1 CARD")
    answers = [m.action.args["answer"] for m in legal_moves(RULES, asked, PlayerName("P1"), dealer.hands())
               if m.action is not None and m.action.name == "resolve"]
    assert set(dealer.hands()["P1"]) <= set(answers) and "done" in answers
    named = Action("resolve", {"prompt": 1, "answer": dealer.hands()["P1"][0]}, PlayerName("P1"))
    after = RULES.apply(asked, named, ())
    dealer.after(asked, named, after)
    assert len(dealer.held["P1"]) == 4 and dealer.violations(after) == []
    assert after.fields["discards"]["P1"][-1]["card"] == named.args["answer"]


def test_a_discard_at_random_is_not_the_players_choice():
    from referee.rules.legal import legal_moves

    asked, dealer = _asked_to_discard("anarchy-botnet-swarm", "Botnet Swarm",
                                      "P1 discards 1 card at random (Botnet Swarm)", "referee resolve 1 done")
    answers = {m.action.args["answer"] for m in legal_moves(RULES, asked, PlayerName("P1"), dealer.hands())
               if m.action is not None and m.action.name == "resolve"}
    assert "done" in answers and not answers & set(dealer.hands()["P1"])
