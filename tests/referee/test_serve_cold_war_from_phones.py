"""A whole Cold War game played from two phones (issue 36, "done when").

Self-play (the heuristic agent at both seats, one round) decides what each
player does, as two people would; the test then plays that game on a real
table file from the players' own links only: each player keeps their hand
on their own phone (`POST /p/TOKEN/hand`, the cards the self-play dealer
put in it), picks the move from their own phone's list and posts it, and
the defender answers every attack from their own phone. Nothing is typed
at the terminal after `referee new`. The game ends as self-play's did, and
the public page never holds a card that lies face down or in a hand.
"""
from __future__ import annotations

import json
import random

from starlette.testclient import TestClient

from conftest import Table
from helpers.listed_play import self_played

from referee.rules import rules_for
from referee.rules.unseen import unseen
from referee.serve.app import create_app
from referee.serve.play import Play, RateLimit
from referee.serve.tokens import TokenStore
from referee.serve.watch import TableWatch
from referee.simulate.play import Outcome, physical_for, setup_of
from referee.table import operations as core

SEED = 4


def _dealt(config, record) -> list[dict[str, list[str]]]:
    """Each player's true hand before each step of the self-played game."""
    rules = rules_for(config.game)
    before: list[dict[str, list[str]]] = []
    with unseen():
        state = rules.setup(setup_of(config), record.setup_dice)
        physical = physical_for(rules, state, random.Random(f"deal:{config.seed}"))
        for step in record.steps:
            before.append({str(k): list(v) for k, v in (physical.hands() or {}).items()})
            after = rules.apply(state, step.action, step.dice)
            physical.after(state, step.action, after)
            state = after
    return before


def _keep(play: Play, player: str, hand: list[str]) -> None:
    """The player's phone holds `hand`: cards drawn are added, cards gone marked played."""
    kept = [c["id"] for c in play.hand(player)["cards"]]
    drew = [c for c in hand if c not in kept]
    gone = [c for c in kept if c not in hand]
    if drew or gone:
        body = {**({"drew": drew} if drew else {}), **({"played": gone} if gone else {})}
        play.hand(player, json.dumps(body).encode())


def _hidden_stays_hidden(client: TestClient, tokens: TokenStore, state, hands: dict[str, list[str]],
                         step: int) -> int:
    """No card in a hand, and no face-down card, is in the TV's state or in
    the other player's phone state; how many face-down cards their own phones show them."""
    shown = 0
    desks = state.fields["desks"]
    for player in desks:
        secret = set(hands.get(player, [])) - set(desks[player].get("known", []))
        secret |= {c for group in desks[player]["military"] for c in group["cards"]}
        others = [f"/api/p/{tokens.tokens[o]}/state" for o in desks if o != player]
        for url in ("/api/state", *others):
            seen = client.get(url).text
            leaked = sorted(c for c in secret if c in seen)
            assert not leaked, f"step {step}: {url} shows {player}'s hidden {leaked}"
        own = client.get(f"/api/p/{tokens.tokens[player]}/state").text
        shown += sum(c in own for group in desks[player]["military"] for c in group["cards"])
    return shown


def test_a_whole_cold_war_game_is_played_from_phones_and_defenders_answer_on_their_own(tmp_path):
    config, record = self_played("cold-war", 2, SEED, 150, agent="heuristic", house_rules=("rounds=1",))
    assert record.outcome is Outcome.WIN and record.winner is not None, "the self-played game must be won"
    hands = _dealt(config, record)
    seats = " ".join(f"--player {s.name}:{s.faction}" for s in config.seats)
    table = Table(tmp_path / "t.db")
    table.run(f"new cold-war {seats} --seed {SEED} --house-rule rounds=1")
    rules = rules_for("cold-war")
    watch = TableWatch(table.db)
    watch.poll()
    tokens = TokenStore(table.db, watch.players())
    roomy = RateLimit(burst=10_000, rate=10_000.0)  # two people playing fast, not a flood
    play = Play(table.db, limit=roomy, reads=roomy)
    client = TestClient(create_app(watch, tokens, poll_s=0.05, keepalive_s=0.3, play=play))
    answers = own_shown = 0
    with client:
        for i, step in enumerate(record.steps):
            state = core.status(table.db).state
            action = step.action
            mover = str(action.actor or rules.default_actor(state, action) or action.args.get("player")
                        or action.args.get("first"))  # the setup is each player's; `start` names who goes first
            _keep(play, mover, hands[i].get(mover, []))
            link = f"/p/{tokens.tokens[mover]}"
            listed = client.get(f"{link}/moves").json()["moves"]
            wanted = next((m for m in listed if m.get("action") and m["action"]["name"] == action.name
                           and all(m["action"]["args"].get(k) == v for k, v in action.args.items()
                                   if not k.startswith("_"))), None)
            assert wanted is not None, f"step {i}: {mover}'s phone does not list {action.name} {action.args}"
            got = client.post(f"{link}/act", json={"action": wanted["action"]})
            assert got.status_code == 200, f"step {i}: {got.text}"
            if action.name == "answer":
                answers += 1
            own_shown += _hidden_stays_hidden(client, tokens, core.status(table.db).state, hands[i + 1] if i + 1 < len(hands)
                                 else {}, i)
    final = core.status(table.db).state
    assert final.fields["result"] is not None and answers > 0
    assert own_shown > 0, "each player's own phone shows their face-down cards (so the check above can fail)"
    events = table.log()["events"]
    assert all(e.get("via") == "phone" or e["args"].get("_via") == "phone" for e in events[1:]), \
        "every change after `new` came from a phone"
    for e in events:
        if e["action"] == "answer":  # the target answered on their own phone, under their own name
            assert e["actor"] != events[events.index(e) - 1]["actor"]
    assert table.status()["result"].startswith(f"{record.seats[record.winner].name} wins")
