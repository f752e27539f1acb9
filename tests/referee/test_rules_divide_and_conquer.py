"""Divide & Conquer: the deck and draw count, values and scoring, attack
odds, card references. The copy-conservation property test is in
test_rules_divide_and_conquer_props.py."""
from __future__ import annotations

from fractions import Fraction

import pytest

from referee.cards import lookup
from referee.cards.index import load_index, project_root
from referee.errors import RefereeError, RuleViolation
from referee.rules import rules_for
from referee.games.divide_and_conquer import battle, events, zones
from referee.games.divide_and_conquer import cards as dcards
from referee.model import Action, GameSlug, Setup

from tests.referee.conftest import Table

RULES = rules_for("divide-and-conquer")
PLAYERS = ("Ana", "Ben", "Cy", "Dee")


def card(card_id: str) -> dict:
    return dcards.from_lookup(lookup(card_id))


def start(deck: int | None = 60, players=PLAYERS):
    house = {"deck-size": str(deck)} if deck is not None else {}
    return RULES.setup(Setup(GameSlug.DIVIDE_AND_CONQUER, tuple((p, None) for p in players), 1, house_rules=house), ())


def step(state, name, dice=(), **args):
    action = Action(name, args, None)
    RULES.check(state, action)
    return RULES.apply(state, action, dice)


def play(state, name, card_id, **args):
    return step(state, name, player=state.active_player.name, card=card_id, _card=card(card_id), **args)


# ---- the deck -------------------------------------------------------------------------


def test_the_default_deck_is_every_playable_copy_in_the_card_sources():
    index = load_index(project_root())
    size = sum(c.quantity for c in index.cards.values()
               if c.game == "divide-and-conquer" and c.type in ("group", "asset", "deficit", "event"))
    for count in (4, 8):
        state = start(None, [f"P{i}" for i in range(count)])
        assert state.house_rules["deck-size"] == size
        assert state.fields["deck"] == size - 6 * count - 1  # dealt 6 each; the first turn draws one
        assert [p.fields["hand"] for p in state.players] == [7] + [6] * (count - 1)


def test_the_printed_deck_size_is_the_card_sources_total():
    index = load_index(project_root())
    assert dcards.PRINTED_DECK == sum(c.quantity for c in index.cards.values()
                                      if c.game == "divide-and-conquer" and c.type in dcards.PLAYABLE)
    assert RULES.house_rules["deck-size"].maximum == dcards.PRINTED_DECK


@pytest.mark.parametrize("size", [20, 23, 109, 500, -3])
def test_a_deck_size_outside_the_printed_deck_is_refused(size):
    with pytest.raises(RefereeError, match=f"'deck-size' must be from 24 to 108, not {size}"):
        start(size)


def test_a_deck_too_small_to_deal_to_everyone_is_refused():
    with pytest.raises(RuleViolation, match="a deck of 40 cards cannot deal 6 to 8 players"):
        start(40, [f"P{i}" for i in range(8)])
    assert start(48, [f"P{i}" for i in range(8)]).fields["deck"] == 0


def test_a_cut_deck_sets_the_rest_aside_and_every_card_is_counted():
    state = start(60)
    f = state.fields
    hands = sum(p.fields["hand"] for p in state.players)
    assert f["set_aside"] == 48 and f["deck"] + hands + f["set_aside"] == dcards.PRINTED_DECK


def test_every_house_rule_has_a_range_or_choices():
    for key, rule in RULES.house_rules.items():
        assert rule.choices or (rule.minimum is not None and rule.maximum is not None), key
    with pytest.raises(RefereeError, match="one of drawer-plays, game-ends"):
        RULES.house_rules["last-card-by-event"].parse("sometimes")


def test_with_no_card_left_to_draw_the_game_ends_after_the_first_turn():
    state = start(24)
    assert state.fields["deck"] == 0 and state.players[0].fields["hand"] == 6
    state = play(state, "recruit", "dc-left-prestige-media")
    assert state.fields["over"] and state.winner == "Ana"


# ---- values, scores, odds ----------------------------------------------------------------


def group(influence, *attached, wing="left"):
    return {"ref": "g1", "id": "x", "name": "X", "wing": wing, "influence": influence,
            "attached": [{"id": f"a{i}", "name": f"A{i}", "type": t, "modifier": m, "ability": a}
                         for i, (t, m, a) in enumerate(attached)]}


def test_values_by_role():
    g = group(3, ("asset", 3, "plain"), ("deficit", -1, "plain"), ("asset", 3, "defence-only"),
              ("asset", 3, "attack-only"), ("deficit", -3, "defence-only"))
    assert zones.value(g) == 5
    assert zones.value(g, "defence") == 5 + 3 - 3
    assert zones.value(g, "attack") == 5 + 3
    gagged = group(3, ("asset", 3, "plain"), ("asset", 0, "defends-all"), ("deficit", 0, "cancels-assets"),
                   ("deficit", -1, "plain"))
    assert zones.value(gagged) == 2 and not zones.has(gagged, "defends-all")


def test_scores_may_go_negative_and_net_is_the_absolute_difference():
    base = [group(1, ("deficit", -2, "plain")), group(2, wing="right"), group(3, ("deficit", 0, "flips-wing"))]
    assert zones.score(base) == {"left": -1, "right": 5, "net": 6, "cards": 5}
    assert zones.score([group(4), group(1, wing="right")])["net"] == 3


def test_ties_go_to_more_cards_in_base_and_then_a_draw():
    fields = {"bases": {"A": [group(3)], "B": [group(3, ("asset", 0, "event-immune"), wing="right")],
                        "C": [group(1)]}}
    winners, text = zones.standings(fields, ["A", "B", "C"])
    assert winners == ["B"] and "more cards" in text
    fields["bases"]["A"][0]["attached"] = [{"id": "z", "name": "Z", "type": "asset", "modifier": 0,
                                            "ability": "event-immune"}]
    winners, text = zones.standings(fields, ["A", "B", "C"])
    assert winners == ["A", "B"] and "a draw" in text


@pytest.mark.parametrize("attack, defence, chance", [
    (0, 0, Fraction(15, 36)), (8, 10, Fraction(6, 36)), (3, 0, Fraction(30, 36)),
    (0, 5, Fraction(0)), (6, 0, Fraction(1)), (1, 0, Fraction(21, 36)),
])
def test_attack_odds_need_a_strictly_higher_total(attack, defence, chance):
    assert battle.odds(attack, defence) == chance


def test_status_shows_the_attack_step_and_its_odds(table):
    table.run("new divide-and-conquer --player Ana --player Ben --player Cy --player Dee --house-rule deck-size=60")
    table.run("recruit dc-left-prestige-media")
    table.run("attack g1 --intent destroy")
    table.run("team dc-right-defence-contractor")
    out = table.run("status").output
    assert "next: Ana calls or raises once" in out
    assert "attack 6 v defence 6" in out and "chance 5/12" in out
    assert status_row(out, "Ana") == {"hand": "6", "left": "6", "right": "0", "net": "6", "cards": "1"}
    assert "  Ana:\n    g1 Prestige Media Conglomerate L6 = 6" in out


def status_row(out: str, name: str) -> dict[str, str]:
    """One player's row of the status table, by column heading."""
    lines = out.splitlines()
    heading = next(line for line in lines if line.split()[:1] == ["player"])
    row = next(line for line in lines[1:] if line.lstrip("> ").split()[:1] == [name])
    return dict(zip(heading.split()[1:], row.lstrip("> ").split()[1:]))


# ---- card codes and group references ---------------------------------------------------------


def test_qr_text_names_a_card_and_a_group_may_be_named_by_its_card(table):
    table.run("new divide-and-conquer --player Ana --player Ben --player Cy --player Dee --house-rule deck-size=60")
    media = lookup("dc-left-prestige-media").card
    table.run(f"recruit PNP:DIVIDE-AND-CONQUER:DC-LEFT-PRESTIGE-MEDIA:{media.revision}")
    table.run("attach dc-asset-offshore-trust dc-left-prestige-media")
    assert table.status()["state"]["groups"]["g1"]["value"] == 9
    table.run("recruit dc-asset-offshore-trust", ok=False)
    result = table.fail("attach dc-asset-catchy-slogan dc-right-oil-baron-club")
    assert "no dc-right-oil-baron-club group is on the table" in result.output
    result = table.fail("recruit anarchy-brick-courier")
    assert "Traceback" not in result.output


def test_an_event_on_everyone_that_touches_nobody_changes_only_hands_and_discard():
    state = start()
    state = play(state, "recruit", "dc-left-prestige-media")
    before = state.fields["bases"]
    state = play(state, "event", "dc-event-market-crash")
    assert state.fields["bases"] == before
    assert state.fields["discard"] == ["dc-event-market-crash"]


def test_export_and_replay_rebuild_the_same_table(tmp_path):
    live = Table(tmp_path / "live.db")
    live.run("new divide-and-conquer --player Ana --player Ben --player Cy --player Dee --seed 5")
    for line in ("unaffiliate dc-right-oil-baron-club", "attack g1 --intent take-over",
                 "team dc-left-environmental", "fight", "recruit dc-left-vegan-potluck"):
        live.run(line)
    out = tmp_path / "game.json"
    live.run(["export", str(out)])
    copy = Table(tmp_path / "copy.db")
    copy.run(["replay", str(out)])
    a, b = live.status(), copy.status()
    for key in ("state", "players"):
        assert a[key] == b[key]


def test_every_command_has_examples_in_its_help(table):
    table.run("new divide-and-conquer --player Ana --player Ben --player Cy --player Dee")
    for command in ("event", "unaffiliate", "recruit", "attach", "attack", "team", "raise", "call", "fight", "hand"):
        assert "Example" in table.run(f"{command} --help").output, command
    assert "deck-size=...  (default computed)" in table.run("games").output


# ---- hooks, events, refusals through the command line ----------------------------------------


def test_the_rules_can_decide_until_the_deck_has_run_out():
    state = start(24)  # the deck is empty: the first turn is the last
    assert RULES.rules_can_decide(state) and RULES.phase(state) == "action"
    state = play(state, "recruit", "dc-left-prestige-media")
    assert state.winner == "Ana" and not RULES.rules_can_decide(state) and RULES.phase(state) == "game over"


def test_after_a_draw_a_winner_may_be_named_by_hand_but_not_after_a_win():
    state = start(24)
    state = step(state, "end-turn")
    assert state.fields["over"] and state.winner is None and not RULES.rules_can_decide(state)
    state = step(state, "win", player="Cy")
    assert state.winner == "Cy"
    with pytest.raises(RuleViolation, match="game over"):
        step(state, "win", player="Ana")


def test_phase_follows_the_attack_sequence():
    state = start()
    state = play(state, "recruit", "dc-left-prestige-media")
    seen = [RULES.phase(state)]
    state = step(state, "attack", player="Ben", target="g1", intent="destroy")
    seen.append(RULES.phase(state))
    state = step(state, "team", player="Ben", cards=[], _groups=[], _attach=[])
    seen.append(RULES.phase(state))
    state = step(state, "raise", player="Ana", cards=["dc-left-campus-outrage"],
                 _groups=[card("dc-left-campus-outrage")], _attach=[])
    seen.append(RULES.phase(state))
    state = step(state, "fight", (6, 1))
    seen.append(RULES.phase(state))
    assert seen == ["action", "team", "call-or-raise", "add", "action"]
    assert state.fields["phase"] == "action"


def test_events_that_take_from_a_hand_pick_another_player_as_their_cards_say():
    """The cards' own words decide which one-player events exclude the player
    who plays them: "another player" on the card, or "yourself included"."""
    index = load_index(project_root())
    one_player = [c for c in index.cards.values() if c.game == "divide-and-conquer" and c.type == "event"
                  and card(c.id).get("scope") == "one-player"]
    assert one_player
    for c in one_player:
        says_another = "another player" in (c.fields.get("text") or "")
        assert events.picks_another(card(c.id)) == says_another, c.id
        state = start()
        if says_another:
            with pytest.raises(RuleViolation, match="pick another player"):
                play(state, "event", c.id, pick="Ana")
        else:
            play(state, "event", c.id, pick="Ana")


def test_an_event_with_nothing_to_hit_says_so_when_played(table):
    table.run("new divide-and-conquer --player Ana --player Ben --player Cy --player Dee --house-rule deck-size=60")
    out = table.run("event dc-event-career-ending-scandal").output
    assert "Career-Ending Scandal has nothing to hit" in out and "does nothing and goes to the discard pile" in out
    assert "last event (Ana): Career-Ending Scandal has nothing to hit" in table.run("status").output
    assert table.status()["state"]["discard"] == ["dc-event-career-ending-scandal"]


@pytest.mark.parametrize("setting, words", [
    ("deck-size=500", "'deck-size' must be from 24 to 108, not 500"),
    ("deck-size=0", "'deck-size' must be from 24 to 108, not 0"),
    ("last-card-by-event=never", "'last-card-by-event' is one of drawer-plays, game-ends"),
])
def test_house_rule_values_out_of_range_are_refused_at_the_command_line(table, setting, words):
    result = table.fail("new divide-and-conquer --player Ana --player Ben --player Cy --player Dee "
                        f"--house-rule {setting}")
    assert words in result.output and "Traceback" not in result.output


def test_status_shows_the_phase_the_counts_and_the_cards_set_aside(table):
    table.run("new divide-and-conquer --player Ana --player Ben --player Cy --player Dee --house-rule deck-size=60")
    out = table.run("status").output
    assert "phase: action (Ana: event, unaffiliate, recruit, attach, or declare an attack)" in out
    assert [status_row(out, n)["hand"] for n in ("Ana", "Ben", "Cy", "Dee")] == ["7", "6", "6", "6"]
    assert "cards in hand" not in out and "drawn" not in out  # each count once, in the table
    assert "bases (each group: influence + assets - deficits; net = |right - left|): all empty" in out
    assert "set aside unseen (out of this game): 48 cards" in out
    table.run("recruit dc-left-prestige-media")
    table.run("attack g1 --intent destroy")
    assert "phase: team" in table.run("status").output
    assert table.status()["phase"] == "team"


def test_a_table_logged_before_these_checks_still_loads():
    """Applying (as when a logged table is folded again) skips the checks
    this version added, so an empty raise logged earlier still replays; the
    same action is refused when checked now."""
    state = start()
    state = play(state, "recruit", "dc-left-prestige-media")
    state = step(state, "attack", player="Ben", target="g1", intent="destroy")
    state = step(state, "team", player="Ben", cards=[], _groups=[], _attach=[])
    empty_raise = Action("raise", {"player": "Ana", "cards": [], "_groups": [], "_attach": []}, None)
    with pytest.raises(RuleViolation, match="a raise adds cards"):
        RULES.check(state, empty_raise)
    assert RULES.phase(RULES.apply(state, empty_raise, ())) == "add"
