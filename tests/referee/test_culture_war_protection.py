"""Culture War protections (issue 25, class 3): one rule, effects.shielded,
that every effect kind consults. Walked per card: every rules card of every
deck, played by ann at every target the rules accept, must leave bo's
protected pieces exactly as they were: their owner, coins, Mods, stats and
their place in play. A Real Estate an enemy card cannot affect still makes
its coins when that card stopped income.

The protected pieces: Real Estate with Heritage Listing (no enemy card), an
Operation with Iron-Clad Contract (no enemy card removes it), units whose
text says enemy cards cannot affect them, and an immune unit (no Mod or
Operation, for the Mods and Operations only)."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from referee.games.culture_war.table.board import Board
from referee.games.culture_war.effects import static as fx_static
from test_culture_war_effects import Walk, rules_cards

PROTECTED = {"kind": "trait", "trait": "protected"}


def _edit(walk: Walk, change) -> None:
    fields = json.loads(json.dumps(walk.state.fields))
    change(fields)
    walk.state = replace(walk.state, fields=fields)


def protected_table() -> tuple[Walk, dict[str, str]]:
    """ann to play (turn 3) against bo's protected pieces; {handle: what protects it}."""
    walk = Walk(seed=3, rich=False)
    walk.end()
    assert walk.play("bo", "conservative-heritage-listing", "3")
    assert walk.play("bo", "community-earnest-newcomer")           # costs 1: what Acqui-Hire could take
    assert walk.play("bo", "technocracy-predictive-model")         # a Cyber unit for the Cyber-only cards
    assert walk.play("bo", "libertarian-sovereign-motorist")       # immune to Mods and Operations
    assert walk.play("bo", "conservative-pension-fund")
    ops = walk.handles("bo", "operation")
    assert walk.play("bo", "libertarian-iron-clad-contract", ops[-1])
    units = walk.handles("bo", "unit")
    immune = units[-1]

    def protect(fields):
        for h in units[:-1]:
            fields["pieces"][h]["effects"].append(dict(PROTECTED))
        fields["pieces"]["3"]["coins"] = {"plain": 2}
    _edit(walk, protect)
    walk.end()
    guards = {"3": "listed", ops[-1]: "iron-clad", immune: "immune", **{h: "protected" for h in units[:-1]}}
    return walk, guards


def snapshot(walk: Walk, handles) -> dict:
    pieces = walk.state.fields["pieces"]
    return {h: (pieces[h]["owner"], pieces[h].get("coins"), [m["name"] for m in pieces[h].get("mods", [])],
                pieces[h].get("now"), pieces[h].get("adj")) if h in pieces else None for h in handles}


CARDS = rules_cards()


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c["id"])
def test_no_enemy_card_changes_a_protected_piece(card):
    walk, guards = protected_table()
    start = walk.state
    before = snapshot(walk, guards)
    targets = [None, *walk.handles("bo"), "bo"]
    for on in targets:
        walk.state = start
        if not walk.play("ann", card["id"], on):
            continue
        after = snapshot(walk, guards)
        for h, why in guards.items():
            if why == "immune" and card["type"] not in ("mod", "operation"):
                continue  # immune keeps off Mods and Operations only
            assert after[h] == before[h], f"{card['id']} --on {on} changed bo's #{h} ({why}): {before[h]} -> {after[h]}"
    if card["type"] == "mod":  # every protection here keeps an enemy Mod off
        for h in guards:
            walk.state = start
            assert not walk.play("ann", card["id"], h), f"{card['id']} was attached to bo's protected #{h}"


def test_looting_spree_takes_no_coins_from_listed_real_estate():
    """The issue's example: Looting Spree takes from the bank, never from the listed Real Estate."""
    walk, _ = protected_table()
    bank = dict(walk.state.fields["banks"]["bo"])
    assert walk.play("ann", "anarchy-looting-spree", "bo")
    assert walk.state.fields["pieces"]["3"]["coins"] == {"plain": 2}
    assert sum(walk.state.fields["banks"]["bo"].values()) == sum(bank.values()) - 2


def test_a_card_that_stops_income_does_not_stop_listed_real_estate():
    walk, _ = protected_table()
    assert walk.play("ann", "anarchy-general-strike")
    walk.end()
    assert walk.state.fields["pieces"]["3"]["coins"] == {"plain": 3}  # 2 + production 2, capacity 3


def test_the_owner_s_own_cards_still_affect_a_protected_piece():
    walk, guards = protected_table()
    board = Board(walk.state)
    assert fx_static.shielded(board, "3", "bo", "happening") is None
    assert fx_static.shielded(board, "3", "ann", "happening")[0] == "Heritage Listing"
    immune = next(h for h, why in guards.items() if why == "immune")
    assert fx_static.shielded(board, immune, "bo", "operation") is not None   # immune: its owner's too
    assert fx_static.shielded(board, immune, "ann", "happening") is None
