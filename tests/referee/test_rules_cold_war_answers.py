"""Cold War's answer window (issue 36 item 1): an action aimed at a player
waits for that player's own answer, and whether it waits is decided from
public facts only, so the window's presence tells nothing hidden."""
from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from referee.errors import RuleViolation
from referee.games.cold_war import desk as D
from referee.games.cold_war import effects as E
from referee.games.cold_war import window as W
from referee.model import Action, GameSlug, PlayerName, Setup, State
from referee.rules import rules_for

RULES = rules_for(GameSlug.COLD_WAR)
ANN = ["cold-wm-rock-radio", "cold-wm-kitchen", "cold-wm-cavalry", "cold-wm-marines", "cold-wm-radar-line",
       "cold-wm-joint-brass"]
BO = ["cold-vk-orbit-dog", "cold-vk-state-ballet", "cold-vk-chess-academy", "cold-vk-fortress-line",
      "cold-vk-air-defence", "cold-vk-marshal"]


def act(state: State, name: str, actor: str | None = None, **args) -> State:
    action = Action(name, args, PlayerName(actor) if actor else None)
    RULES.check(state, action)
    return RULES.apply(state, action, ())


def table(version: str | None = None) -> State:
    s = RULES.setup(Setup(GameSlug.COLD_WAR, (("Ann", "westmark"), ("Bo", "vostokia")), 7, rules=version), ())
    s = act(s, "setup", "Ann", player="Ann", cards=ANN,
            discard=["cold-wm-dream-studios", "cold-wm-big-brain", "cold-wm-space-agency"])
    s = act(s, "setup", "Bo", player="Bo", cards=BO,
            discard=["cold-vk-five-year-plan", "cold-vk-metro-palace", "cold-vk-ideologist"])
    return act(s, "start")


def answering(state: State, player: str, kinds=("block", "redirect")) -> list[str]:
    cards = state.fields["decks"][player]["cards"]
    return [c for c, x in cards.items() if x["type"] == "special" and any(E.has(x, k) for k in kinds)]


def with_fields(state: State, edit) -> State:
    fields = copy.deepcopy(dict(state.fields))
    edit(fields)
    return replace(state, fields=fields)


def test_an_attack_waits_for_its_target_and_lands_with_the_answer():
    s = act(table(), "attack", target="Bo", at="S1", cards=["cold-wm-supercarrier"])
    assert RULES.phase(s) == "answer" and s.fields["pending"]["target"] == "Bo"
    assert len(s.fields["desks"]["Bo"]["science"]) == 3  # nothing has landed yet
    with pytest.raises(RuleViolation, match="only Bo answers it"):
        act(s, "answer", "Ann")
    with pytest.raises(RuleViolation, match="phase: answer"):
        act(s, "discard", cards=["cold-wm-airborne"])
    landed = act(s, "answer", "Bo")
    assert landed.fields["pending"] is None and len(landed.fields["desks"]["Bo"]["science"]) == 2
    blocked = act(s, "answer", "Bo", block="cold-vk-missile-ring")
    assert len(blocked.fields["desks"]["Bo"]["science"]) == 3 and "blocks" in " ".join(blocked.fields["report"])
    timed_out = act(s, "answer", "Ann", timeout=True)  # anyone records a timeout: it lands as `none`
    assert timed_out.fields["desks"] == landed.fields["desks"]
    assert "no answer from Bo in time" in timed_out.fields["report"][0]


def test_the_attacker_cannot_name_the_defender_s_card():
    with pytest.raises(RuleViolation, match="--block is Bo's answer"):
        act(table(), "attack", target="Bo", at="S1", cards=["cold-wm-supercarrier"], block="cold-vk-missile-ring")


def test_the_window_opens_from_public_facts_only():
    """Every hand of the same size gives the same window, whatever it holds: the
    referee judges the hand count, the printed deck and the face-up discard pile."""
    s = table()
    assert W.could_answer(s.fields, "Bo", "attack")
    # the same table with another (hidden) hand and pile: the same answer
    other = with_fields(s, lambda f: f["desks"]["Bo"].update(unseen=list(reversed(f["desks"]["Bo"]["unseen"]))))
    assert W.could_answer(other.fields, "Bo", "attack")
    # no card in hand: no window, the attack lands at once
    empty = with_fields(s, lambda f: f["desks"]["Bo"].update(hand=0))
    assert not W.could_answer(empty.fields, "Bo", "attack")
    landed = act(empty, "attack", target="Bo", at="S1", cards=["cold-wm-supercarrier"])
    assert landed.fields["pending"] is None and len(landed.fields["desks"]["Bo"]["science"]) == 2
    # every answering card face up in the discard pile: no window either
    gone = answering(s, "Bo")

    def discard_them(f):
        desk = f["desks"]["Bo"]
        for c in gone:
            desk["unseen"].remove(c)
            desk["draw"] -= 1
        desk["discard"] += gone

    public = with_fields(s, discard_them)
    assert not W.could_answer(public.fields, "Bo", "attack")
    # the Triad needs two cards in hand and both Shields possible
    assert W.could_answer(s.fields, "Bo", "triad")
    one = with_fields(s, lambda f: f["desks"]["Bo"].update(hand=1))
    assert not W.could_answer(one.fields, "Bo", "triad")


def test_a_fallen_leader_s_attack_waits_and_then_the_turn_passes():
    s = table()
    s = with_fields(s, lambda f: f["desks"]["Ann"].update(fallen=True))
    pile = s.fields["desks"]["Ann"]["unseen"]
    card = next(c for c in pile if s.fields["decks"]["Ann"]["cards"][c].get("fallen_draw") == "attack")
    waiting = act(s, "fallen", target="Bo", card=card, at="S1")
    assert waiting.fields["pending"]["kind"] == "attack" and waiting.active == s.active
    after = act(waiting, "answer", "Bo")
    assert after.fields["pending"] is None and after.players[after.active].name == "Bo"


def test_a_table_started_under_cold_war_5_keeps_inline_answers():
    s = table("cold-war-5")
    assert s.fields["answers"] == "inline"
    blocked = act(s, "attack", target="Bo", at="S1", cards=["cold-wm-supercarrier"], block="cold-vk-missile-ring")
    assert blocked.fields.get("pending") is None and "blocks" in " ".join(blocked.fields["report"])
    with pytest.raises(RuleViolation, match="nothing waits"):
        act(s, "answer", "Bo")


@pytest.mark.parametrize("version,mode", [(None, "window"), ("cold-war-6", "window"), ("cold-war-7", "window"),
                                          ("cold-war-5", "inline"), ("", "inline"), ("cold-war-1", "inline")])
def test_the_rules_version_picks_the_answers(version, mode):
    assert W.mode_for(version) == mode


def test_a_challenge_s_loser_chooses_the_propaganda_cards_that_go():
    """The target of a Propaganda challenge with more face-down cards than named (a public count)
    chooses which go, in their own answer; the challenger's command cannot choose for them."""
    s = RULES.setup(Setup(GameSlug.COLD_WAR, (("Ann", "westmark"), ("Bo", "vostokia")), 7), ())
    s = act(s, "setup", "Ann", player="Ann", cards=ANN,
            discard=["cold-wm-dream-studios", "cold-wm-big-brain", "cold-wm-space-agency"])
    s = act(s, "setup", "Bo", player="Bo", cards=BO[:3] + ["cold-vk-fortress-line", "cold-vk-air-defence"],
            propaganda=["cold-vk-marshal"],
            discard=["cold-vk-five-year-plan", "cold-vk-metro-palace", "cold-vk-ideologist"])
    s = act(s, "start")
    with pytest.raises(RuleViolation, match="--their is Bo's choice"):
        act(s, "challenge", target="Bo", count=1, their=["M1"])
    waiting = act(s, "challenge", target="Bo", count=1)
    assert waiting.fields["pending"]["kind"] == "challenge" and RULES.phase(waiting) == "answer"
    spot = next(label for label, zone, cards in D.spots(
        waiting.fields["desks"]["Bo"]) if zone == "military" and "cold-vk-marshal" in cards)
    other = next(label for label, zone, cards in D.spots(
        waiting.fields["desks"]["Bo"]) if zone == "military" and "cold-vk-marshal" not in cards)
    done = act(waiting, "answer", "Bo", their=[other, spot])  # a Military card named first is passed over
    assert "cold-vk-marshal" in done.fields["desks"]["Bo"]["discard"]
    assert len(done.fields["desks"]["Bo"]["military"]) == 2 and done.fields["pending"] is None
