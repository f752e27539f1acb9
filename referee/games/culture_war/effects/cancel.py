"""Cancelling a card as it is played (Letter of Complaint, Not My Problem).

A Happening or an Operation is played and carried out at once; an opponent
may answer straight away with a cancel Flash (kind `cancel`). To make that
possible, playing a Happening or an Operation keeps what the table was once
it had been paid, before its effects (`fields["cancellable"]`), until the
next action (only the answers to its own prompts keep it open: see
`rules.close_cancel`). The cancel puts that table back: every effect of the
cancelled card is gone (its stat changes, coins, draws, cards it destroyed),
an Operation leaves play for its owner's discard pile, and the cancelled
card stays paid and discarded, as printed. With nothing to cancel, or a card
of a type the Flash does not cancel, or one of the player's own, the Flash
is refused.
"""
from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, Mapping

from referee.errors import RuleViolation
from referee.games.culture_war.table.board import Board
from referee.games.culture_war.effects.static import shielded

KEY = "cancellable"
WHAT = {"happening": ("happening",), "happening-or-operation": ("happening", "operation")}
KEEP = ("prompts", "prompt_next", "next")  # never wound back: numbers stay unique


def remember(board: Board, player: str, card: Mapping[str, Any], handle: str | None) -> None:
    """A Happening or Operation has been paid: keep the table as it is now."""
    fields = json.loads(json.dumps({k: v for k, v in board.f.items() if k != KEY}))
    people = {n: {"life": p.life, "eliminated": p.eliminated, "state": dict(p.fields)}
              for n, p in board.people.items()}
    board.f[KEY] = {"player": player, "card": card.get("id"), "name": card["name"], "type": card["type"],
                    "handle": handle, "before": {"fields": fields, "people": people}}


def cancel(board: Board, effect: Mapping[str, Any], player: str, flash: Mapping[str, Any]) -> None:
    """`player` cancels the card just played with `flash`, or is refused."""
    rule = f"card text: {flash['name']}"
    wanted = WHAT[effect["what"]]
    words = " or ".join(w.capitalize() for w in wanted)
    last = board.f.get(KEY)
    if not last:
        raise RuleViolation(rule, f"{player} cannot play {flash['name']}: it cancels a {words} as an opponent "
                                  "plays it, and no card has just been played that it could cancel")
    if last["type"] not in wanted:
        raise RuleViolation(rule, f"{player} cannot play {flash['name']}: it cancels a {words}, and "
                                  f"{last['name']} is a {last['type'].capitalize()}")
    if last["player"] == player:
        raise RuleViolation(rule, f"{player} cannot play {flash['name']} on {last['name']}: it cancels an "
                                  f"opponent's card, and {last['name']} is {player}'s own")
    if last["handle"] in board.pieces:
        guard = shielded(board, last["handle"], player, "flash", targeted=True)
        if guard:
            raise RuleViolation(f"card text: {guard[0]}", f"{player} cannot cancel {last['name']}: {guard[1]}")
    before = last["before"]
    fields = json.loads(json.dumps(before["fields"]))
    for key in KEEP:
        if key in board.f:
            fields[key] = board.f[key]
        else:
            fields.pop(key, None)
    owner = last["player"]
    if last["type"] == "happening":  # paid and discarded: it stays in the discard pile
        fields["discards"].setdefault(owner, []).append({"card": last["card"], "name": last["name"],
                                                          "kind": "happening"})
    elif last["handle"] in fields["pieces"]:
        del fields["pieces"][last["handle"]]  # an Operation leaves play (to the discard pile, see zones.settle)
    board.f.clear()
    board.f.update(fields)
    for name, was in before["people"].items():
        state = dict(was["state"])
        if name == owner and "hand" in state:
            state["hand"] = max(0, int(state["hand"]) - 1)  # the cancelled card was played from the hand
        board.people[name] = replace(board.people[name], life=was["life"], eliminated=was["eliminated"],
                                     fields=state)
    board.note(f"{player} cancels {owner}'s {last['name']} ({flash['name']}): its effects are undone; "
                       f"{owner} still paid for it")
