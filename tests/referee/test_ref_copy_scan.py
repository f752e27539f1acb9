"""Each printed copy's QR code names that copy; scanning a card says where its
copies are on the table now (and only what any player may see)."""
from __future__ import annotations

import json

from pnp.sources.qrpayload import format_payload, parse_payload
from referee.cards import lookup

from test_rules_culture_war import new


def test_payloads_name_their_copy_and_older_prints_still_read():
    assert parse_payload("PNP:ANARCHY-WINDOW-SMASHER:7EBECD:2").copy == 2
    old = parse_payload("PNP:CULTURE-WAR:ANARCHY-WINDOW-SMASHER:7EBECD")
    assert (old.card_id, old.revision, old.copy, old.game) == ("anarchy-window-smasher", "7EBECD", None, "culture-war")
    assert parse_payload(format_payload("a-b", "00AA11")).copy is None
    assert parse_payload("PNP:A-B:00AA11:1234") is None


def test_a_copy_number_beyond_the_printing_is_refused(table):
    card = lookup("anarchy-window-smasher").card
    result = table.fail(["card", format_payload(card.id, card.revision, card.quantity + 1)])
    assert f"copy {card.quantity + 1}" in result.output and f"only {card.quantity}" in result.output


def test_scanning_a_card_in_play_says_where_its_copies_are(table):
    card = lookup("anarchy-window-smasher").card
    new(table)
    table.run("capital ann +3")
    before = table.run(["card", format_payload(card.id, card.revision, 1)]).output
    assert f"printed copy 1 of {card.quantity}" in before
    assert f"on the table: none of its {card.quantity} yet" in before
    table.run(f"deploy {format_payload(card.id, card.revision, 2)}")
    after = table.run(["card", format_payload(card.id, card.revision, 1)]).output
    assert "in play as #5" in after and f"({card.quantity - 1} of {card.quantity} free)" in after
    data = json.loads(table.run(["card", card.id, "--json"]).output)
    assert data["on_table"] == ["ann's: in play as #5"] and data["copy"] is None


def test_cold_war_whereabouts_hide_hands_and_face_down_identities():
    """A placed card is "on X's table" face up or face down alike; a discarded
    one is in the discard pile; a card in a hand is not on the table at all."""
    from test_rules_cold_war import ANN_OUT, three_player_table
    from referee.rules import rules_for

    rules = rules_for("cold-war")
    s = three_player_table()
    assert rules.where_is(s, "cold-wm-kitchen") == ["on Ann's table"]
    assert rules.where_is(s, ANN_OUT[0]) == ["in Ann's discard pile"]
    hand = s.fields["desks"]["Ann"]["known"]
    for cid in hand:
        assert all("hand" not in p for p in rules.where_is(s, cid))
