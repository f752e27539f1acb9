"""The debate rules: rounding, crowd scaling, round end, abilities, setup,
and the starting fortitude house rule checked against seeded matches.
Phases, piles and printed copies: test_rules_debate_piles.py."""
from __future__ import annotations

import functools
import json
import random
from fractions import Fraction

import pytest

from referee.cards import lookup
from referee.cards.index import load_index, project_root
from referee.errors import RefereeError, RuleViolation
from helpers.cardcache import once
from referee.rules import rules_for
from referee.games.debate import cards as dcards
from referee.games.debate import forum as fm
from referee.model import Action, GameSlug, Setup

RULES = rules_for("debate")


@once  # the card sources do not change while the tests run (helpers/cardcache.py)
def card(card_id: str) -> dict:
    return dcards.from_lookup(lookup(card_id))


@functools.lru_cache(maxsize=1)
def _tactics() -> tuple[str, ...]:
    index = load_index(project_root())
    return tuple(sorted(c.id for c in index.cards.values()
                        if c.game == "debate" and c.type in ("argument", "rhetorical-device")))


def tactics() -> list[str]:
    return list(_tactics())


def deck_of(ids, avoid=()) -> list[str]:
    """A 15-card deck holding `ids`, filled up with tactics not in `avoid`."""
    fill = [t for t in tactics() if t not in ids and t not in avoid]
    return [*ids, *fill[:15 - len(ids)]]


def start(*players: str, crowd: int = 0, fortitude: int | None = None, decks=None, house=None):
    """A table; `decks` maps a player to the cards their deck must hold
    (filled up to 15 with cards the other deck does not use)."""
    rules = {"starting-crowd": str(crowd), **(house or {})}
    if fortitude is not None:
        rules["starting-fortitude"] = str(fortitude)
    pairs = tuple((p.split(":")[0], p.split(":")[1] if ":" in p else None) for p in players)
    state = RULES.setup(Setup(GameSlug.DEBATE, pairs, 1, house_rules=rules), ())
    wanted = dict(decks or {})
    built: dict[str, list[str]] = {}
    for name, ids in wanted.items():
        others = [i for n, d in wanted.items() if n != name for i in d] + [i for d in built.values() for i in d]
        built[name] = deck_of(list(ids), others)
        state = step(state, "deck", player=name, _deck=[card(i) for i in built[name]])
    return state


def step(state, name, actor=None, **args):
    action = Action(name, args, actor)
    RULES.check(state, action)
    return RULES.apply(state, action, ())


def play(state, name, player, card_id, thread, **opts):
    return step(state, name, player, player=player, thread=thread, card=card_id, _card=card(card_id), **opts)


def advance(state, phase: str):
    """`next` until PHASE, showing a hand without arguments where phase one asks for one."""
    while state.fields["phase"] != phase:
        try:
            RULES.check(state, Action("end-turn", {}))
        except RuleViolation:
            state = step(state, "no-argument", player=state.active_player.name)
        state = step(state, "end-turn")
    return state


def finish(state):
    """Through the rest of the round, then round end."""
    return step(advance(state, "potus-window"), "round-end")


# ---- rounding and the crowd ---------------------------------------------------


@pytest.mark.parametrize("value, expected", [
    (Fraction(17, 2), 9), (Fraction(-17, 2), -9), (Fraction(9, 2), 5), (Fraction(-9, 2), -5),
    (Fraction(81, 10), 8), (Fraction(99, 10), 10), (Fraction(-81, 10), -8), (Fraction(7, 1), 7),
    (Fraction(1, 2), 1), (Fraction(-1, 2), -1), (Fraction(49, 100), 0), (Fraction(0), 0),
])
def test_halves_round_away_from_zero(value, expected):
    assert fm.half_away(value) == expected


def test_half_away_differs_from_pythons_round_on_even_halves():
    assert fm.half_away(Fraction(9, 2)) == 5 and round(Fraction(9, 2)) == 4
    assert fm.half_away(Fraction(5, 2)) == 3 and round(2.5) == 2


def test_the_rulebooks_crowd_calculation_at_plus_ten():
    # 9 - (9 x .1) = 8.1 ~ 8 for the 9/5 BF argument; 9 x 1.1 = 9.9 ~ 10 for the 9/6 GF one
    assert fm.crowd_factor(10, "bf") == Fraction(9, 10)
    assert fm.crowd_factor(10, "gf") == Fraction(11, 10)
    assert 9 * fm.crowd_factor(10, "bf") == Fraction(81, 10)
    assert fm.crowd_strength(9, 10, "bf") == 8
    assert fm.crowd_strength(9, 10, "gf") == 10
    shouting, socratic = card("deb-shouting-match-2"), card("deb-socratic-questioning-2")
    assert (shouting["alignment"], shouting["strength"], shouting["cost"]) == ("bf", 9, 5)
    assert (socratic["alignment"], socratic["strength"], socratic["cost"]) == ("gf", 9, 6)


def test_a_mob_buffs_bad_faith_and_nerfs_good_faith():
    assert fm.crowd_strength(10, -30, "bf") == 13 and fm.crowd_strength(10, -30, "gf") == 7
    assert fm.crowd_strength(5, -10, "gf") == 5  # 4.5, away from zero
    assert fm.crowd_strength(5, 10, "bf") == 5  # 4.5
    assert fm.crowd_strength(0, 30, "gf") == 0


def test_crowd_example_step_by_step_with_the_pure_rules():
    state = start("Ana", "Ben", crowd=-7, decks={"Ana": ["deb-measured-rebuttal-1", "deb-point-of-order"],
                                                 "Ben": ["deb-shouting-match-1", "deb-cheap-laugh"]})
    state = play(state, "argue", "Ana", "deb-measured-rebuttal-1", 1)
    state = step(state, "end-turn")
    state = play(state, "argue", "Ben", "deb-shouting-match-1", 1)
    state = play(state, "device", "Ben", "deb-cheap-laugh", 1)
    assert (state.crowd, state.fields["crowd_at_round_end"]) == (-9, -10)
    state = step(state, "end-turn")
    state = play(state, "device", "Ana", "deb-point-of-order", 1, target=1, device="deb-cheap-laugh")
    assert (state.crowd, state.fields["crowd_at_round_end"]) == (-9, -8)
    report = RULES.report(state)
    assert [w.amount for w in report.work] == [1]  # only Ana's device is left to work
    assert report.crowd == -8
    after = finish(state)
    assert after.crowd == -8


def test_the_crowd_is_held_between_minus_and_plus_thirty():
    state = start("Ana", "Ben", crowd=29, decks={"Ana": ["deb-common-ground-3", "deb-appeal-to-reason"]})
    state = play(state, "argue", "Ana", "deb-common-ground-3", 1)  # +2 at round end
    state = play(state, "device", "Ana", "deb-appeal-to-reason", 1)  # +2 now, +1 at round end
    assert state.crowd == 30 and state.fields["crowd_at_round_end"] == 30
    assert finish(state).crowd == 30
    low = play(start("Ana", "Ben", crowd=-30, decks={"Ana": ["deb-measured-rebuttal-1", "deb-appeal-to-fear"]}),
               "argue", "Ana", "deb-measured-rebuttal-1", 1)
    low = play(low, "device", "Ana", "deb-appeal-to-fear", 1)  # -2 now, but +1 GF crowd work later
    assert low.crowd == -30 and low.fields["crowd_at_round_end"] == -29
    with pytest.raises(RefereeError, match="from -30 to 30, not 31"):
        start("Ana", "Ben", crowd=31)


# ---- round end ---------------------------------------------------------------------


def test_overage_example_in_numbers():
    state = start("Ana", "Ben", decks={"Ana": ["deb-shouting-match-1", "deb-rehearsed-line"],
                                       "Ben": ["deb-common-ground-1"]})
    state = play(state, "argue", "Ana", "deb-shouting-match-1", 1)
    state = play(state, "device", "Ana", "deb-rehearsed-line", 1)
    state = step(state, "end-turn")
    state = play(state, "argue", "Ben", "deb-common-ground-1", 1)
    report = RULES.report(state)
    (thread,) = report.threads
    ana, ben = thread.sides
    assert (ana.printed, ana.devices, ana.total, ana.cost) == (8, 2, 10, 6)
    assert (ben.printed, ben.total, ben.cost) == (6, 6, 4)
    assert (thread.overage, thread.hits) == (4, "Ben")
    assert report.damage == {"Ana": 0, "Ben": 4} and report.costs == {"Ana": 6, "Ben": 4}


def test_an_unopposed_argument_deals_its_whole_strength_and_a_column_bonus_counts_alone():
    state = start("Ana:deb-jackson", "Ben", decks={"Ana": ["deb-socratic-questioning-3", "deb-measured-rebuttal-1"]})
    state = play(state, "argue", "Ana", "deb-socratic-questioning-3", 5)
    with pytest.raises(RuleViolation, match="no argument in thread 6: there is nothing there to strengthen"):
        step(state, "ability", "Ana", player="Ana", target=6)
    state = play(state, "argue", "Ana", "deb-measured-rebuttal-1", 6)
    state = step(state, "ability", "Ana", player="Ana", target=6)
    state = step(state, "destroy", "Ben", player="Ana", thread=6)  # the column keeps its +2
    report = RULES.report(state)
    by_thread = {t.number: t for t in report.threads}
    assert by_thread[5].overage == 11 and by_thread[5].hits == "Ben"
    assert by_thread[6].overage == 2 and by_thread[6].sides[0].argument is None
    assert report.damage["Ben"] == 13 and report.costs["Ana"] == 7


def test_loaded_question_hits_the_facing_argument_at_round_end_unless_destroyed():
    state = start("Ana", "Ben", decks={"Ana": ["deb-measured-rebuttal-3"], "Ben": ["deb-loaded-question-1"]})
    state = play(state, "argue", "Ana", "deb-measured-rebuttal-3", 2)
    state = step(state, "end-turn")
    state = play(state, "argue", "Ben", "deb-loaded-question-1", 2)
    ana = RULES.report(state).threads[0].sides[0]
    assert (ana.printed, ana.ability, ana.strength) == (7, -2, 5)
    gone = step(state, "destroy", "Ana", player="Ben", thread=2)
    assert RULES.report(gone).threads[0].sides[0].strength == 7
    assert RULES.report(gone).costs["Ben"] == 0


def test_mods_never_take_an_argument_or_a_cost_below_zero():
    state = start("Ana:deb-hw-bush", "Ben:deb-truman", decks={
        "Ana": ["deb-measured-rebuttal-1"], "Ben": ["deb-talking-over-you-1", "deb-soothing-tone"]})
    state = play(state, "argue", "Ana", "deb-measured-rebuttal-1", 1)  # 4/2
    state = step(state, "ability", "Ana", player="Ana", target=1)  # cost -2 -> 0
    state = step(state, "end-turn")
    state = play(state, "argue", "Ben", "deb-talking-over-you-1", 1)
    state = play(state, "device", "Ben", "deb-soothing-tone", 1)
    state = step(state, "ability", "Ben", player="Ben", target=1)  # another -2
    ana = RULES.report(state).threads[0].sides[0]
    assert ana.ability == -5 and ana.strength == 0 and ana.cost == 0


def test_round_end_json_and_the_per_thread_breakdown(table):
    table.run("new debate --player Ana --player Ben --house-rule starting-crowd=0")
    ana = deck_of(["deb-shouting-match-1", "deb-rehearsed-line"], ["deb-common-ground-1"])
    table.run("deck Ana " + " ".join(ana))
    table.run("deck Ben " + " ".join(deck_of(["deb-common-ground-1"], ana)))
    table.run("argue deb-shouting-match-1 1")
    table.run("device deb-rehearsed-line 1")
    table.run("next")
    table.run("argue deb-common-ground-1 1")
    assert "round end comes after the POTUS window" in table.fail("round-end").output
    for _ in range(3):
        table.run("next")
    preview = json.loads(table.run("round-end --preview --json").output)
    assert preview["threads"][0]["overage"] == 4 and preview["threads"][0]["hits"] == "Ben"
    assert [s["total"] for s in preview["threads"][0]["sides"]] == [10, 6]
    assert table.status()["round"] == 1  # a preview changes nothing
    out = table.run("round-end").output
    assert "Ana     Shouting Match" in out and "-4 to Ben" in out
    assert "Ana: fortitude 60 - overage 0 - own costs 6 = 54" in out
    assert "Ben: fortitude 60 - overage 4 - own costs 4 = 52" in out
    for column in ("printed", "crowd", "potus", "ability", "devices", "total", "cost", "overage"):
        assert column in out
    assert table.status()["round"] == 2


def test_round_end_lists_cards_that_return_to_hand():
    state = start("Ana", "Ben", decks={"Ana": ["deb-steamroller-2", "deb-mic-drop"]})
    state = play(state, "argue", "Ana", "deb-steamroller-2", 1)
    state = play(state, "device", "Ana", "deb-mic-drop", 1)
    assert RULES.report(state).back_to_hand == ("Steamroller -> Ana's hand", "Mic Drop -> Ana's hand")


# ---- POTUS -------------------------------------------------------------------------


def test_potus_by_card_id_name_or_qr_text_and_bad_ones_are_named(table):
    truman = lookup("deb-truman").card
    table.run(f"new debate --player Ana:Lincoln --player Ben:PNP:DEBATE:DEB-TRUMAN:{truman.revision}")
    players = {p["name"]: p for p in table.status()["players"]}
    assert players["Ben"]["state"]["potus"] == "Harry S. Truman" and players["Ben"]["state"]["bf_bonus"] == truman.fields["bf_bonus"]
    assert players["Ana"]["state"]["gf_bonus"] == lookup("deb-lincoln").card.fields["gf_bonus"]
    result = table.fail("new debate --player A:Roosevelt --player B --force")
    assert "more than one POTUS" in result.output and "deb-f-roosevelt" in result.output
    result = table.fail("new debate --player A:deb-cheap-laugh --player B --force")
    assert "not a POTUS card" in result.output and "rule: POTUS" in result.output
    result = table.fail("new debate --player A:Washington --player B --force")
    assert "'Washington' is not a POTUS card" in result.output


def test_potus_can_be_chosen_until_the_first_tactic(table):
    table.run("new debate --player Ana --player Ben --house-rule starting-crowd=0")
    table.run("potus Ana deb-reagan")
    assert table.status()["state"]["potus"]["Ana"]["id"] == "deb-reagan"
    result = table.fail("potus Ben Reagan")
    assert "Ronald Reagan (deb-reagan) has 1 printed copy" in result.output and "Ana's POTUS" in result.output
    table.run("argue deb-shouting-match-2 1")
    result = table.fail("potus Ben deb-nixon")
    assert "before the first tactic" in result.output


def test_passive_kennedy_adds_crowd_work_and_cannot_be_used():
    state = start("Ana:deb-kennedy", "Ben", decks={"Ana": ["deb-measured-rebuttal-1", "deb-soothing-tone"]})
    with pytest.raises(RuleViolation, match="is passive"):
        step(state, "ability", "Ana", player="Ana")
    state = play(state, "argue", "Ana", "deb-measured-rebuttal-1", 1)
    state = play(state, "device", "Ana", "deb-soothing-tone", 1)
    assert state.fields["crowd_at_round_end"] == 2
    assert step(state, "return", player="Ana", thread=1, device="deb-soothing-tone").fields["crowd_at_round_end"] == 0


def test_johnson_takes_control_once_a_match_within_his_limit():
    state = start("Ana:deb-johnson", "Ben", decks={"Ana": ["deb-measured-rebuttal-1", "deb-measured-rebuttal-2"],
                                                   "Ben": ["deb-shouting-match-1", "deb-talking-over-you-2"]})
    state = play(state, "argue", "Ana", "deb-measured-rebuttal-1", 1)
    state = play(state, "argue", "Ana", "deb-measured-rebuttal-2", 2)
    state = step(state, "end-turn")
    state = play(state, "argue", "Ben", "deb-shouting-match-1", 1)
    state = play(state, "argue", "Ben", "deb-talking-over-you-2", 2)
    with pytest.raises(RuleViolation, match="only in their own turn or in the POTUS window"):
        step(state, "ability", "Ana", player="Ana", target=2, to=3)
    state = step(state, "end-turn")  # cross-examination: Ana's turn
    with pytest.raises(RuleViolation, match="printed strength 6 or less"):
        step(state, "ability", "Ana", player="Ana", target=1, to=3)
    with pytest.raises(RuleViolation, match="give --to THREAD"):
        step(state, "ability", "Ana", player="Ana", target=2)
    state = step(state, "ability", "Ana", player="Ana", target=2, to=3)
    assert state.fields["forum"]["Ben"][1] is None
    assert state.fields["forum"]["Ana"][2]["argument"]["id"] == "deb-talking-over-you-2"
    report = RULES.report(state)
    assert report.costs == {"Ana": 7, "Ben": 5}  # the taker pays for what counts for them
    state = finish(state)
    assert "deb-talking-over-you-2" in state.fields["piles"]["Ben"]["discard"]  # back to its owner's pile
    state = advance(state, "answer")  # round 2: Ben opens, Ana answers
    with pytest.raises(RuleViolation, match="once per match"):
        step(state, "ability", "Ana", player="Ana", target=1, to=2)


def test_eisenhower_moves_a_device_and_its_crowd_work_follows():
    state = start("Ana:deb-eisenhower", "Ben", decks={
        "Ana": ["deb-shouting-match-1", "deb-measured-rebuttal-1", "deb-rehearsed-line"]})
    state = play(state, "argue", "Ana", "deb-shouting-match-1", 1)
    state = play(state, "argue", "Ana", "deb-measured-rebuttal-1", 2)
    state = play(state, "device", "Ana", "deb-rehearsed-line", 1)
    assert state.fields["crowd_at_round_end"] == -1
    state = step(state, "ability", "Ana", player="Ana", target=1, device="deb-rehearsed-line", to=2)
    assert state.fields["crowd_at_round_end"] == 1
    assert [d["id"] for d in state.fields["forum"]["Ana"][1]["devices"]] == ["deb-rehearsed-line"]


def test_a_choose_your_direction_shift_needs_a_direction():
    state = play(start("Ana:deb-reagan", "Ben", decks={"Ana": ["deb-measured-rebuttal-1", "deb-spin-room"]}),
                 "argue", "Ana", "deb-measured-rebuttal-1", 1)
    with pytest.raises(RuleViolation, match="toward mob|citizen"):
        play(state, "device", "Ana", "deb-spin-room", 1)
    assert play(state, "device", "Ana", "deb-spin-room", 1, toward="mob").crowd == -3
    assert step(state, "ability", "Ana", player="Ana", toward="citizen").crowd == 2


def test_threads_run_from_one_to_seven():
    state = start("Ana", "Ben")
    for bad in (0, 8, "2"):
        with pytest.raises(RuleViolation, match="threads 1 to 7"):
            play(state, "argue", "Ana", "deb-shouting-match-1", bad)


# ---- setup ---------------------------------------------------------------------------


def test_the_crowd_starts_from_a_seeded_die_or_an_entered_value(table):
    setup = Setup(GameSlug.DEBATE, (("A", None), ("B", None)), 1)
    assert [RULES.setup(setup, (face,)).crowd for face in (1, 4, 11, 21)] == [-10, -7, 0, 10]
    entered = Setup(GameSlug.DEBATE, setup.players, 1, house_rules={"starting-crowd": "-7"})
    assert RULES.setup_dice(entered) == () and RULES.setup(entered, ()).crowd == -7
    seen = set()
    for seed in range(12):
        table.run(f"new debate --player A --player B --seed {seed} --force")
        crowd = table.status()["crowd"]
        assert -10 <= crowd <= 10
        seen.add(crowd)
    assert len(seen) > 3
    table.run("new debate --player A --player B --seed 3 --force")
    first = table.status()["crowd"]
    table.run("new debate --player A --player B --seed 3 --force")
    assert table.status()["crowd"] == first
    table.run("new debate --player A --player B --dice 4 --force")
    assert table.status()["crowd"] == -7


def test_starting_fortitude_is_a_named_house_rule(table):
    state = start("Ana", "Ben")
    assert [p.fields["fortitude"] for p in state.players] == [60, 60]
    assert state.house_rules["starting-fortitude"] == 60
    assert start("Ana", "Ben", fortitude=90).players[1].fields["fortitude"] == 90
    with pytest.raises(RefereeError, match="'starting-fortitude' must be from 1 to 500, not 0"):
        start("Ana", "Ben", fortitude=0)
    assert "starting-fortitude=...  (default 60)" in table.run("games").output


def test_the_first_player_bonus_is_more_fortitude_for_the_opener_of_round_one(table):
    state = start("Ana", "Ben", house={"first-player-bonus": "7"})
    assert [p.fields["fortitude"] for p in state.players] == [67, 60]
    assert state.fields["opener"] == "Ana"  # the one with the bonus opens round one
    assert [p.fields["fortitude"] for p in start("Ana", "Ben", fortitude=40).players] == [40, 40]  # default 0
    with pytest.raises(RefereeError, match="'first-player-bonus' must be from 0 to 100, not -1"):
        start("Ana", "Ben", house={"first-player-bonus": "-1"})
    assert "first-player-bonus" in table.run("games").output


def test_help_names_the_house_rule_and_gives_examples(table):
    table.run("new debate --player Ana --player Ben")
    for command in ("argue", "device", "destroy", "return", "ability", "potus", "fortitude", "round-end"):
        text = table.run(f"{command} --help").output
        assert "Example" in text, command
    assert "starting-fortitude, default 60" in table.run("fortitude --help").output
    assert "round-end" in table.run("--help").output


# ---- the starting fortitude gives 3-4 round matches ---------------------------------


def _starter(letter: str) -> list[dict]:
    index = load_index(project_root())
    return [dcards.entry(c.id, c.name, c.type, c.fields) for c in index.cards.values()
            if c.game == "debate" and letter in (c.fields.get("starter") or [])]


def _take_back(state, name: str, c: dict, used: list) -> dict | None:
    """The card a take-back ability picks from the discard pile: the first that fits."""
    if c.get("action") != "return-from-discard":
        return None
    discard = state.fields["piles"][name]["discard"]
    fits = [u for u in used if u["id"] in discard and (c.get("target") != "own-argument" or u["kind"] == "argument")]
    return fits[0] if fits else None


def _match(seed: int, per_round: int) -> int:
    """Rounds in a match between starter decks A and B: each debater draws to
    5; in phase one the first plays up to `per_round` arguments (strongest
    first) and the second answers as many of those threads, then each plays
    every device that needs no choice; nothing more until round end."""
    rng = random.Random(seed)
    state = RULES.setup(Setup(GameSlug.DEBATE, (("A", None), ("B", None)), seed), (rng.randint(1, 21),))
    decks = {"A": _starter("a"), "B": _starter("b")}
    assert len(decks["A"]) == len(decks["B"]) == 15
    for deck in decks.values():
        rng.shuffle(deck)
    hands: dict[str, list] = {"A": [], "B": []}
    used: dict[str, list] = {"A": [], "B": []}  # discard piles
    inplay: dict[str, list] = {"A": [], "B": []}  # in the forum this round

    def draw(name: str, count: int) -> None:
        for _ in range(count):
            if not decks[name]:
                decks[name], used[name] = used[name], []
                rng.shuffle(decks[name])
            if decks[name]:
                hands[name].append(decks[name].pop())

    while state.winner is None:
        assert state.round < 40
        for name in "AB":
            draw(name, 5 - len(hands[name]))
            assert state.fields["piles"][name]["hand"] >= len(hands[name])
        opener = state.fields["opener"]
        for name in (opener, "B" if opener == "A" else "A"):
            assert state.active_player.name == name
            played = False
            for c in sorted((c for c in hands[name] if c["kind"] == "argument"), key=lambda c: -c["strength"])[:per_round]:
                free = [i for i in range(7) if not state.fields["forum"][name][i]]
                if name != opener:
                    free = [i for i in free if i + 1 in state.fields["opened"]]
                if not free:
                    break
                back = _take_back(state, name, c, used[name])
                state = step(state, "argue", name, player=name, thread=free[0] + 1, card=c["id"], _card=c,
                             back=back["id"] if back else None)
                hands[name].remove(c)
                inplay[name].append(c)
                if back:
                    used[name].remove(back)
                    hands[name].append(back)
                if c.get("action") == "draw":
                    draw(name, c.get("action_count") or 1)
                played = True
            if not played:
                try:
                    RULES.check(state, Action("end-turn", {}))
                except RuleViolation:
                    state = step(state, "no-argument", player=name)
            for c in [c for c in hands[name] if c["kind"] == "device"]:
                mine = [i for i in range(7) if state.fields["forum"][name][i]]
                back = _take_back(state, name, c, used[name])
                try:
                    state = step(state, "device", name, player=name, thread=mine[0] + 1, card=c["id"], _card=c,
                                 toward="mob", back=back["id"] if back else None)
                except (RuleViolation, IndexError):
                    continue
                hands[name].remove(c)
                inplay[name].append(c)
                if back:
                    used[name].remove(back)
                    hands[name].append(back)
                if c.get("action") == "draw":
                    draw(name, c.get("action_count") or 1)
            state = step(state, "end-turn")
        state = advance(state, "potus-window")
        state = step(state, "round-end")
        for side in "AB":  # Steamroller and Mic Drop go back to the hand, the rest to the discard pile
            for c in inplay[side]:
                (hands if c.get("action") == "return-to-hand" else used)[side].append(c)
            inplay[side] = []
    return state.round - 1


@pytest.mark.slow  # 100 whole matches for each
@pytest.mark.parametrize("per_round, least", [(3, Fraction(80, 100)), (4, Fraction(85, 100)), (7, Fraction(85, 100))])
def test_the_default_fortitude_gives_three_to_four_round_matches(per_round, least):
    """Under the first player's privilege the second debater only answers
    threads, so a table that opens just 3 threads a round runs a little
    longer (a fifth round in about 1 match in 6)."""
    rounds = [_match(seed, per_round) for seed in range(100)]
    share = Fraction(sum(1 for r in rounds if r in (3, 4)), len(rounds))
    assert share >= least, sorted(rounds)
