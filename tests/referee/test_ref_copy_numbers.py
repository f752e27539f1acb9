"""Every printed copy by its number, in every game (issue 25).

A QR code names one printed copy (PNP:CARD-ID:REVISION:COPY): one physical
card, which cannot be in two places. In each game with printed cards the
same copy entered into two places is refused, naming the copy and where it
is; `referee card` answers for the copy scanned. Petri Dish has no card a
command takes. A property test plays random commands with random copies and
checks the referee against its own model of where each copy lies.
"""
from __future__ import annotations

import json
import random

import click
import pytest

from referee.cards.index import load_index, project_root
from referee.model import GameSlug

INDEX = load_index(project_root())


def qr(card_id: str, copy: int) -> str:
    return f"PNP:{card_id.upper()}:{INDEX.cards[card_id].revision}:{copy}"


def card_json(table, code: str) -> dict:
    return json.loads(table.run(["card", code, "--json"]).output)


def assert_refused_naming_the_copy(table, line: str, *words: str) -> None:
    out = table.fail(line).output
    for w in ("rule: printed copies", *words):
        assert w in out, f"{w!r} not in {out!r}"


# ---- the same copy in two places, game by game -----------------------------------------


def test_divide_and_conquer_one_copy_cannot_go_on_a_group_twice(table):
    table.run("new divide-and-conquer --player Ann --player Bo --player Cy --player Di --seed 1")
    table.run("recruit dc-left-prestige-media")
    one, two = qr("dc-asset-viral-hashtag", 1), qr("dc-asset-viral-hashtag", 2)
    table.run(f"attach {one} g1")
    assert_refused_naming_the_copy(table, f"attach {one} g1", "copy 1 of Viral Hashtag (dc-asset-viral-hashtag)",
                                   "already on Prestige Media Conglomerate (g1) in Ann's base")
    found = card_json(table, two)
    assert found["copy"] == 2 and found["copy_on_table"] == []  # copy 2 is free
    table.run(f"attach {two} g1")  # the other printed copy may follow
    assert card_json(table, one)["copy_on_table"] == ["on Prestige Media Conglomerate (g1) in Ann's base"]
    text = table.run(["card", two]).output
    assert "this copy (copy 2): on Prestige Media Conglomerate (g1) in Ann's base" in text


def test_divide_and_conquer_one_copy_named_twice_in_one_team_is_refused(table):
    table.run("new divide-and-conquer --player Ann --player Bo --player Cy --player Di --seed 1")
    table.run("unaffiliate dc-left-prestige-media")
    table.run("attack g1 --intent take-over --by Bo")
    one = qr("dc-asset-viral-hashtag", 1)
    assert_refused_naming_the_copy(table, f"team --attach {one}=g1 --attach {one}=g1",
                                   "copy 1 of Viral Hashtag (dc-asset-viral-hashtag) is named twice")


def test_debate_one_copy_of_a_device_cannot_be_in_two_threads(table):
    table.run("new debate --player Ana:Lincoln --player Ben:Carter --seed 1 --house-rule starting-crowd=0")
    one, two = qr("deb-revisit-the-record", 1), qr("deb-revisit-the-record", 2)
    table.run("argue deb-shouting-match-1 1")
    table.run(f"device {one} 1")
    table.run("argue deb-talking-over-you-1 2")
    assert_refused_naming_the_copy(table, f"device {one} 2", "copy 1 of Revisit the Record (deb-revisit-the-record)",
                                   "already in Ana's thread 1")
    table.run(f"device {two} 2")
    assert card_json(table, one)["copy_on_table"] == ["Ana's thread 1"]
    assert card_json(table, two)["copy_on_table"] == ["Ana's thread 2"]


def test_culture_war_a_copy_is_one_card_of_its_owners_deck(table):
    """Two players of one faction each own a printed deck: each has a copy 1."""
    table.run("new culture-war --player bo:technocracy --player ann:technocracy --seed 4 "
              "--house-rule first-player=seating")
    table.run("capital bo +30")
    one = qr("technocracy-data-intern", 1)
    table.run(f"deploy {one}")
    table.run("resolve")
    assert_refused_naming_the_copy(table, f"deploy {one}", "bo's copy 1 of Data Intern (technocracy-data-intern)",
                                   "already in play as #5")
    assert card_json(table, one)["copy_on_table"] == ["bo's copy: in play as #5"]
    table.run("end-turn")
    table.run("capital ann +30")
    table.run(f"deploy {one}")  # ann's own copy 1
    assert sorted(card_json(table, one)["copy_on_table"]) == ["ann's copy: in play as #6", "bo's copy: in play as #5"]


def test_cold_war_a_discarded_copy_cannot_attack(table):
    """Cold War prints each card once: the count of copies already names the one copy."""
    table.run("new cold-war --player Ann:westmark --player Bo:vostokia --seed 12")
    table.run("setup Ann cold-wm-kitchen cold-wm-forward-base cold-wm-tank-battalion cold-wm-joint-brass "
              "cold-wm-radar-line cold-wm-cavalry --discard cold-wm-vice-president --discard cold-wm-snoop-director "
              "--discard cold-wm-rapid-deploy")
    table.run("setup Bo cold-vk-orbit-dog cold-vk-state-ballet cold-vk-fortress-line cold-vk-air-defence "
              "cold-vk-marshal cold-vk-tank-column --discard cold-vk-five-year-plan --discard cold-vk-metro-palace "
              "--discard cold-vk-ideologist")
    table.run("start")
    one = qr("cold-wm-airborne", 1)
    table.run(f"discard {one}")
    assert_refused_naming_the_copy(table, f"attack Bo M1 {one}", "Airborne Division (cold-wm-airborne) has 1 printed copy",
                                   "in Ann's discard pile")
    assert card_json(table, one)["copy_on_table"] == ["in Ann's discard pile"]


def test_petri_dish_commands_take_no_printed_card():
    """Its printed pieces are germ tokens and a reference card: no command names one."""
    from referee.games.petri_dish.cli import COMMANDS

    for name, command in COMMANDS.items():
        for param in command.params:
            assert not (isinstance(param, click.Argument) and "card" in param.name), (name, param.name)
    assert {c.game for c in INDEX.cards.values()} >= {g.value for g in GameSlug}


# ---- property: after random accepted commands no copy is in two places ---------------


DC_GROUPS = sorted(c.id for c in INDEX.cards.values() if c.game == "divide-and-conquer" and c.type == "group")
DC_ASSETS = sorted(c.id for c in INDEX.cards.values() if c.game == "divide-and-conquer"
                   and c.type in ("asset", "deficit") and c.quantity >= 2)


@pytest.mark.parametrize("seed", [0, 1, *(pytest.param(s, marks=pytest.mark.slow) for s in range(2, 8))])
def test_random_commands_never_put_one_copy_in_two_places(table, seed):
    """Random recruits, unaffiliations, attachments and undos, each naming a
    random printed copy. The test keeps its own model: a copy put down stays
    where it went (nothing here moves a card). A command naming a copy the
    model holds must be refused; every accepted one must leave the referee's
    register equal to the model."""
    rng = random.Random(seed)
    table.run("new divide-and-conquer --player Ann --player Bo --player Cy --player Di --seed 3")
    model: dict[tuple[str, int], str] = {}  # (card, copy) -> group ref it lies at / is
    history: list[dict[tuple[str, int], str]] = []
    groups: list[str] = []
    refused = accepted = 0
    for _ in range(26):
        status = table.status()
        groups = sorted(status["state"]["groups"])
        roll = rng.random()
        if roll < 0.1 and history:
            table.run("undo")
            model = history.pop()
            continue
        if roll < 0.45 or not groups:
            cid = rng.choice(DC_GROUPS)
            copy = rng.randint(1, INDEX.cards[cid].quantity)
            line, ref = f"{rng.choice(['recruit', 'unaffiliate'])} {qr(cid, copy)}", f"g{status['state']['next_ref']}"
        else:
            cid = rng.choice(DC_ASSETS)
            copy = rng.randint(1, INDEX.cards[cid].quantity)
            ref = rng.choice(groups)
            line = f"attach {qr(cid, copy)} {ref}"
        result = table.run(line, ok=False)
        if (cid, copy) in model:
            assert result.exit_code != 0, f"{line}: copy {copy} of {cid} is already at {model[cid, copy]}"
            if "rule: printed copies" in result.output:  # (or refused first for an empty hand)
                assert f"copy {copy} of" in result.output
            refused += 1
            continue
        if result.exit_code != 0:  # refused for another reason (a hand count, all copies counted): nothing moved
            continue
        accepted += 1
        history.append(dict(model))
        model[cid, copy] = ref
        register = table.status()["copies"]
        got = {(c, int(n)): place for c, copies in register.items() for n, place in copies.items()}
        assert set(got) == set(model), line
        for (c, n), place in got.items():
            assert f"({model[c, n]})" in place or place.endswith(model[c, n]), (c, n, place, model[c, n])
            assert place in card_json(table, c)["on_table"]  # the copy's place is one of the card's places
    assert accepted >= 5 and refused + accepted >= 10, (accepted, refused)


# ---- a card known to be in a hand (issue 25: "none of its 1 yet") -----------------------


def test_debate_a_card_returned_to_the_hand_is_known_to_be_there(table):
    """Both players saw it go back, so `card` says whose hand holds it; a
    card drawn unseen is never listed."""
    table.run("new debate --player Ana:Lincoln --player Ben:Carter --seed 1 --house-rule starting-crowd=0")
    assert card_json(table, "deb-shouting-match-1")["on_table"] == []
    table.run("argue deb-shouting-match-1 1")
    table.run("return Ana 1")
    assert card_json(table, "deb-shouting-match-1")["on_table"] == ["Ana's hand"]
    assert "on the table: Ana's hand (0 of 1 free)" in table.run("card deb-shouting-match-1").output
    table.run("argue deb-shouting-match-1 1")  # played again from the hand: the same copy
    assert card_json(table, "deb-shouting-match-1")["on_table"] == ["Ana's thread 1"]


def test_debate_a_numbered_copy_follows_its_card_to_the_hand_and_back(table):
    table.run("new debate --player Ana:Lincoln --player Ben:Carter --seed 1 --house-rule starting-crowd=0")
    one = qr("deb-revisit-the-record", 1)
    table.run("argue deb-shouting-match-1 1")
    table.run(f"device {one} 1")
    table.run("return Ana 1")
    assert card_json(table, one)["copy_on_table"] == ["Ana's hand"]
    table.run("argue deb-talking-over-you-1 2")
    table.run(f"device {one} 2")  # from the hand to thread 2: a move, not a second copy
    assert card_json(table, one)["copy_on_table"] == ["Ana's thread 2"]


def test_culture_war_a_unit_returned_to_the_hand_is_known_to_be_there(table):
    """A card (Scatter!) sends a unit back to its owner's hand in front of
    everyone: `card` says so, the count of copies keeps it, and playing it
    again takes that copy back out of the hand."""
    from dataclasses import replace

    from referee.games.culture_war.table import zones
    from referee.games.culture_war.table.cards import resolve
    from referee.games.culture_war.rules import RULES
    from referee.model import Action

    table.run("new culture-war --player ann:anarchy --player bo:technocracy --seed 4 --house-rule first-player=seating")
    table.run("capital ann +30")
    table.run("deploy anarchy-leaderless-crowd")
    table.run("deploy anarchy-leaderless-crowd")  # both printed copies in play
    before = table_state(table)
    handle, other = [h for h, p in before.fields["pieces"].items() if p.get("card") == "anarchy-leaderless-crowd"]
    pieces = {h: p for h, p in before.fields["pieces"].items() if h != handle}
    bounced = zones.settle(before, replace(before, fields={**before.fields, "pieces": pieces, "returned": [handle]}),
                           Action("end-turn", {}))
    ann = bounced.player("ann").fields
    assert ann["hand_known"] == ["anarchy-leaderless-crowd"] and ann["hand"] == before.player("ann").fields["hand"] + 1
    assert RULES.where_is(bounced, "anarchy-leaderless-crowd") == [f"ann's: in play as #{other}", "ann's: in ann's hand"]
    card = resolve("anarchy-leaderless-crowd")
    replay = Action("play", {"player": "ann", "card": card["id"], "_card": card}, "ann")
    RULES.check(bounced, replay)  # its own copy: not "already in use"
    again = RULES.apply(bounced, replay, ())
    assert again.player("ann").fields["hand_known"] == []
    assert RULES.where_is(again, card["id"]) == [f"ann's: in play as #{other}",
                                                 f"ann's: in play as #{again.fields['next'] - 1}"]


def table_state(table):
    from referee.table import operations as core

    return core.status(table.db).state


def test_scan_mode_keeps_the_copy_scanned_and_refuses_it_twice(table):
    """Scanned into a command's cards, a QR code keeps its copy number: the
    command gets the copy, a copy scanned twice or already on the table is
    not added."""
    table.run("new divide-and-conquer --player Ann --player Bo --player Cy --player Di --seed 1")
    one = qr("dc-left-celebrity-activist", 1)
    hashtag = qr("dc-asset-viral-hashtag", 1)
    table.run("unaffiliate dc-left-prestige-media")
    table.run(f"attach {hashtag} g1")
    table.run("attack g1 --intent take-over")
    out = table.run(["scan"], input=f"team\n{one}\n{one}\n{hashtag}\ndone\n", ok=False).output
    assert "copy 1 is already among this command's cards" in out
    assert "copy 1 is already on the table (on Prestige Media Conglomerate (g1) in the unaffiliated area)" in out
    assert table.status()["copies"]["dc-left-celebrity-activist"] == {"1": "Cy's attack team (g2)"}


def test_copies_laid_together_are_followed_each_to_its_own_group(table):
    """One command puts two copies of a card on two groups (in either
    order); after the fight both go with their groups to the base."""
    table.run("new divide-and-conquer --player Ann --player Bo --player Cy --player Di --seed 1")
    table.run("unaffiliate dc-left-prestige-media")
    table.run("next")
    table.run("attack g1 --intent take-over")
    one, two = qr("dc-asset-viral-hashtag", 1), qr("dc-asset-viral-hashtag", 2)
    table.run(f"team dc-left-celebrity-activist dc-left-renewable-energy-lobby "
              f"--attach {two}=dc-left-renewable-energy-lobby --attach {one}=dc-left-celebrity-activist")
    assert table.status()["copies"]["dc-asset-viral-hashtag"] == {
        "1": "on Celebrity Activist Circuit (g2) in Cy's attack team",
        "2": "on Renewable Energy Lobby (g3) in Cy's attack team"}
    table.run("fight --dice 6,1")
    assert table.status()["copies"]["dc-asset-viral-hashtag"] == {
        "1": "on Celebrity Activist Circuit (g2) in Cy's base", "2": "on Renewable Energy Lobby (g3) in Cy's base"}
    assert_refused_naming_the_copy(table, f"attach {two} g1", "copy 2 of Viral Hashtag",
                                   "on Renewable Energy Lobby (g3) in Cy's base")


CW_UNITS = sorted(c.id for c in INDEX.cards.values() if c.game == "culture-war" and c.deck == "anarchy"
                  and c.type == "unit" and c.quantity >= 2)


@pytest.mark.parametrize("seed", [0, *(pytest.param(s, marks=pytest.mark.slow) for s in range(1, 5))])
def test_random_culture_war_play_follows_each_owners_copies(table, seed):
    """Two players of one faction deploy random copies, discard random units
    and undo. The test's model follows each owner's copy from play to the
    discard pile; a copy the model holds is refused, and the referee's
    register matches the model after every accepted command."""
    rng = random.Random(seed)
    table.run("new culture-war --player ann:anarchy --player bo:anarchy --seed 5 --house-rule first-player=seating")
    table.run("capital ann +60")
    table.run("capital bo +60")
    model: dict[tuple[str, str, int], str] = {}  # (owner, card, copy) -> handle in play, or "discard"
    history: list[dict[tuple[str, str, int], str]] = []
    accepted = refused = 0
    for _ in range(24):
        status = table.status()
        who = status["active"]
        roll = rng.random()
        if roll < 0.1 and history:
            table.run("undo")
            model = history.pop()
            continue
        mine = [(key, h) for key, h in model.items() if key[0] == who and h != "discard"]
        if roll < 0.3 and mine:
            key, handle = rng.choice(mine)
            table.run(f"discard {handle}")
            history.append(dict(model))
            model[key] = "discard"
        elif roll < 0.85:
            cid = rng.choice(CW_UNITS)
            copy = rng.randint(1, INDEX.cards[cid].quantity)
            handle = str(status["state"]["next"])
            result = table.run(f"deploy {qr(cid, copy)}", ok=False)
            if (who, cid, copy) in model:
                assert result.exit_code != 0, f"{who}'s copy {copy} of {cid} is already at {model[who, cid, copy]}"
                if "rule: printed copies" in result.output:  # (or refused first for an empty hand)
                    assert f"copy {copy} of" in result.output
                refused += 1
                continue
            if result.exit_code != 0:  # a hand or capital ran out, or every copy is counted: nothing moved
                continue
            if table.status()["prompts"]:  # a card that asks something: not what this test is about
                table.run("undo")
                continue
            accepted += 1
            history.append(dict(model))
            model[who, cid, copy] = handle
        else:
            table.run("end-turn")
            history.append(dict(model))  # undo steps back over it too
            continue
        register = table.status()["copies"]
        got = {(k.split("/")[0], k.split("/")[1], int(n)): place for k, copies in register.items()
               for n, place in copies.items()}
        want = {key: (f"in {key[0]}'s discard pile" if h == "discard" else f"in play as #{h}")
                for key, h in model.items()}
        assert got == want
    assert accepted >= 4, (accepted, refused)
