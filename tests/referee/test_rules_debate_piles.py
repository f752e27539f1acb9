"""The debate's decks, hands, draw and discard piles, and its phases: draw
to five at round start, recycle the discard pile when the deck runs short,
a deck learned as it is played, printed copies across both decks."""
from __future__ import annotations

import pytest

from referee.errors import RuleViolation
from referee.games.debate import piles
from referee.games.debate.cards import starter_deck
from test_rules_debate import RULES, advance, card, finish, play, start, step, tactics

ARGS_A = ["deb-socratic-questioning-1", "deb-socratic-questioning-3", "deb-measured-rebuttal-1",
          "deb-measured-rebuttal-2", "deb-common-ground-2", "deb-shouting-match-2", "deb-talking-over-you-3"]


def test_drawing_recycles_the_discard_pile_only_when_the_draw_pile_runs_short():
    pile = {**piles.new_pile(), "draw": 2, "hand": 1, "discard": ["x", "y", "z"]}
    assert piles.draw(pile, 2) == 2 and pile["discard"] == ["x", "y", "z"]  # enough cards: no recycling
    assert (pile["draw"], pile["hand"]) == (0, 3)
    assert piles.draw_up(pile) == 2  # short: the discard pile becomes the new draw pile first
    assert (pile["draw"], pile["hand"], pile["discard"]) == (1, 5, [])
    empty = {**piles.new_pile(), "draw": 0, "hand": 2, "discard": []}
    assert piles.draw(empty, 3) == 0 and empty["hand"] == 2  # nothing left to draw


def test_round_start_draws_each_hand_back_up_to_five_and_recycles_when_needed():
    state = start("Ana", "Ben", fortitude=500)
    totals = []
    for _ in range(4):
        opener = state.fields["opener"]
        pool = [i for i in ARGS_A if i not in {c["id"] for c in state.fields["piles"]["Ana"]["deck"]}]
        if opener == "Ana":
            for thread, card_id in enumerate((pool or ARGS_A)[:3], start=1):
                try:
                    state = play(state, "argue", "Ana", card_id, thread)
                except RuleViolation:
                    break  # that copy is in the discard pile
        before = dict(state.fields["piles"]["Ana"])
        state = finish(state)
        after = state.fields["piles"]["Ana"]
        totals.append(after["draw"] + after["hand"] + len(after["discard"]))
        assert after["hand"] == 5
        need = 5 - before["hand"]
        if before["draw"] < need:  # recycled: the old discard pile and the forum's cards went in
            assert after["draw"] == before["draw"] + len(before["discard"]) + (15 - before["draw"] - before["hand"]
                                                                            - len(before["discard"])) - need
    assert totals == [15] * 4


def test_a_recycled_card_can_be_played_again():
    arguments = [c for c in tactics() if card(c)["kind"] == "argument" and c != "deb-shouting-match-2"]
    state = start("Ana", "Ben", fortitude=500, decks={"Ana": ["deb-shouting-match-2", *arguments[:14]]})
    state = play(state, "argue", "Ana", "deb-shouting-match-2", 1)
    with pytest.raises(RuleViolation, match=r"Shouting Match \(deb-shouting-match-2\) has 1 printed copy.*Ana's thread 1"):
        play(state, "argue", "Ana", "deb-shouting-match-2", 2)
    state = finish(state)
    assert state.fields["piles"]["Ana"]["discard"] == ["deb-shouting-match-2"]
    deck = [c["id"] for c in state.fields["piles"]["Ana"]["deck"] if c["kind"] == "argument"]
    for _ in range(12):  # Ana plays what she can each round she opens, until her discard pile is recycled
        pile = state.fields["piles"]["Ana"]
        if "deb-shouting-match-2" not in pile["discard"]:
            break
        if state.fields["opener"] == "Ana":
            free = [i for i in deck if i not in pile["discard"]][:pile["hand"]]
            for thread, card_id in enumerate(free, start=1):
                state = play(state, "argue", "Ana", card_id, thread)
        state = finish(state)
    assert "deb-shouting-match-2" not in state.fields["piles"]["Ana"]["discard"]
    if state.fields["opener"] != "Ana":
        state = finish(state)
    state = play(state, "argue", "Ana", "deb-shouting-match-2", 1)
    assert state.fields["forum"]["Ana"][0]["argument"]["id"] == "deb-shouting-match-2"


def test_a_deck_not_named_is_learned_and_never_holds_a_sixteenth_card():
    state = start("Ana", "Ben", fortitude=500)
    args = [c for c in tactics() if card(c)["kind"] == "argument"]
    played = 0
    while played < 15:
        state = advance(state, "opening") if state.fields["opener"] == "Ana" else advance(finish(state), "opening")
        for thread in range(1, 6):
            state = play(state, "argue", "Ana", args[played], thread)
            played += 1
        state = finish(state)
    assert len(state.fields["piles"]["Ana"]["deck"]) == 15
    state = advance(finish(state), "opening") if state.fields["opener"] != "Ana" else state
    with pytest.raises(RuleViolation, match=r"all 15 cards of Ana's deck have been played this match, and no free "
                                            r"copy of .* is among them"):
        play(state, "argue", "Ana", args[15], 1)


def test_the_other_deck_s_hidden_list_is_not_read_out_by_a_refusal():
    """Issue 36 item 4: Ana's named list is hidden, so a card of it that lies unseen (her
    hand or draw pile) does not refuse Ben's play of it: that refusal would tell her list
    apart from one without the card. Ben's play is his word; a copy in sight still counts."""
    state = start("Ana", "Ben", decks={"Ana": ["deb-revisit-the-record", "deb-shouting-match-1", "deb-steelman-1"]})
    assert state.fields["piles"]["Ana"]["named"]
    state = step(play(state, "argue", "Ana", "deb-steelman-1", 1), "end-turn")
    taken = play(state, "argue", "Ben", "deb-shouting-match-1", 1)  # printed once, and in Ana's list unseen
    assert [c["id"] for c in taken.fields["piles"]["Ben"]["deck"]] == ["deb-shouting-match-1"]
    # a copy in sight does refuse: Steelman 1 lies in Ana's thread 1
    with pytest.raises(RuleViolation, match=r"Steelman \(deb-steelman-1\) has 1 printed copy, and it is "
                                            r"already in use: Ana's thread 1"):
        play(state, "argue", "Ben", "deb-steelman-1", 1)
    state = play(state, "argue", "Ben", "deb-measured-rebuttal-3", 1)
    state = play(state, "device", "Ben", "deb-revisit-the-record", 1)  # the second printed copy is free
    assert [c["id"] for c in state.fields["piles"]["Ben"]["deck"]] == ["deb-measured-rebuttal-3",
                                                                       "deb-revisit-the-record"]


def test_phase_names_follow_the_round():
    state = start("Ana", "Ben", decks={"Ana": ["deb-shouting-match-2"], "Ben": ["deb-shouting-match-1"]})
    assert RULES.phase(state) == "phase one, opening (Ana)"
    state = step(play(state, "argue", "Ana", "deb-shouting-match-2", 1), "end-turn")
    assert RULES.phase(state) == "phase one, answer (Ben)"
    state = step(play(state, "argue", "Ben", "deb-shouting-match-1", 1), "end-turn")
    assert RULES.phase(state) == "cross-examination (Ana)"
    assert RULES.phase(step(state, "end-turn")) == "last word (Ben)"
    assert RULES.phase(advance(state, "potus-window")) == "POTUS window (both players)"
    assert RULES.phase(finish(state)) == "phase one, opening (Ben)"
    assert RULES.rules_can_decide(state)


def test_taking_control_sends_the_devices_left_behind_to_their_owners_discard_pile():
    state = start("Ana:deb-johnson", "Ben", decks={"Ana": ["deb-measured-rebuttal-1"],
                                                   "Ben": ["deb-talking-over-you-2", "deb-appeal-to-fear"]})
    state = step(play(state, "argue", "Ana", "deb-measured-rebuttal-1", 1), "end-turn")
    state = play(state, "argue", "Ben", "deb-talking-over-you-2", 1)
    state = step(play(state, "device", "Ben", "deb-appeal-to-fear", 1), "end-turn")
    state = step(state, "ability", "Ana", player="Ana", target=1, to=2)
    assert state.fields["piles"]["Ben"]["discard"] == ["deb-appeal-to-fear"]
    assert state.fields["forum"]["Ana"][1]["argument"]["owner"] == "Ben"
    state = finish(state)
    assert state.fields["piles"]["Ben"]["discard"] == ["deb-appeal-to-fear", "deb-talking-over-you-2"]
    assert state.fields["piles"]["Ana"]["discard"] == ["deb-measured-rebuttal-1"]


def test_a_named_deck_and_a_known_hand_stay_out_of_what_players_read(table):
    table.run("new debate --player Ana --player Ben --house-rule starting-crowd=0")
    echo = table.run("deck Ben b").output
    b_cards = [c["id"] for c in starter_deck("b")]
    table.run("argue deb-shouting-match-2 1")
    table.run("next")
    table.run("argue deb-steamroller-2 1")
    for _ in range(3):
        table.run("next")
    table.run("round-end")  # Steamroller goes back to Ben's hand: the referee knows it is there
    hidden = [c for c in b_cards if c != "deb-steamroller-2"]
    outputs = [echo, table.run("status").output, table.run("status --json").output, table.run("log").output,
               table.run("status --reveal Ana").output]
    for text in outputs:
        assert not [c for c in hidden if c in text], text
        assert "hand_known" not in text and "deck_list" not in text
    assert "Ben: hand 5, draw pile 10, discard pile 0" in table.run("status").output
    revealed = table.status(["Ben"])["state"]["piles"]["Ben"]
    assert revealed["hand_known"] == ["deb-steamroller-2"] and sorted(revealed["deck_list"]) == sorted(b_cards)
