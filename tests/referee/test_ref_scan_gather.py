"""Scan-first input: a command that takes several cards, typed without them,
gathers them one scan per line, each checked at once, until a blank line."""
from __future__ import annotations

import json

from referee.cards import lookup
from pnp.sources.qrpayload import format_payload

from test_rules_cold_war import ANN, ANN_OUT


def test_setup_cards_are_scanned_one_by_one(table):
    table.run("new cold-war --player Ann:westmark --player Bo:vostokia --seed 2")
    cards = ANN.split() + ["cold-wm-radar-line"]
    first = lookup(cards[0]).card
    lines = [f"setup Ann {' '.join(f'--discard {c}' for c in ANN_OUT)}",
             first.fields["code"].lower(),                                   # a short code, any case
             format_payload(cards[1], lookup(cards[1]).card.revision, 1),     # a scanned QR code
             "anarchy-window-smasher",                                        # another game's card: not added
             *cards[2:],
             "",                                                              # a blank line runs it
             "status --json"]
    result = table.run(["scan"], input="\n".join(lines) + "\n")
    out = result.output
    assert "setup: scan its cards one per line" in out
    # a setup may lay any of its cards face down: scan mode names none of them, not even in its echo
    assert "+ a card (1 so far" in out and "+ a card (5 so far" in out
    assert lines[2] not in out and f"> {lines[1]}" not in out  # the scanned lines are not echoed either
    assert "not added" in out and "culture-war card" in out
    assert "Ann sets up: 1 Science & Culture face up, 4 face down in Military" in out
    status = json.loads(out[out.index('{\n'):])
    assert status["phase"] == "setup" and "waiting for: Bo" in out


def test_a_card_with_every_copy_on_the_table_is_refused_at_once(table):
    table.run("new cold-war --player Ann:westmark --player Bo:vostokia --seed 2")
    cards = ANN.split() + ["cold-wm-radar-line"]
    table.run(["setup", "Ann", *cards, *[x for c in ANN_OUT for x in ("--discard", c)]])
    result = table.run(["scan"], input=f"setup Bo\n{cards[0]}\ncancel\n")
    assert "not added" in result.output and "already on the table" in result.output
    assert "dropped: setup Bo" in result.output
