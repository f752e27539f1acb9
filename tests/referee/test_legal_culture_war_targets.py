"""Every Culture War card that takes a target is listed with each target it
may take (issue 36 item 3), with the hand known (self-play's dealer, a hand
kept on a phone) and at a physical table (`<CARD> --on TARGET`).

The targets are found by the rules, not by the generator: on a table with
pieces of every kind for three players (units, Cyber units, Real Estate
with and without coins, Operations), and again while a battle waits after
its dice (the battle Flashes), every card of the game is tried by `check`
with no `--on` and with `--on` naming each piece and each player. A target
counts where `check` accepts it and it plays differently from no target
(the rules ignore an `--on` a card does not read). Each such target must be
listed; each listed play must play; and the `<CARD>` moves the table lists
without seeing the hand must offer the card on the same targets.
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

import pytest

from helpers.legal_play import key
from helpers.legal_play import parsed as parse_command
from helpers.listed_play import play_as_listed
from referee.games.culture_war import legal
from referee.games.culture_war.table import cards as printed
from referee.games.culture_war.table.board import Board
from referee.games.culture_war.table.pieces import find_piece
from referee.model import Action, GameSlug, PlayerName, Setup, State
from referee.rules import rules_for
from referee.rules.legal import CARD_PLACEHOLDER, Move, accepts, legal_moves
from referee.table.moves import moves_view

RULES = rules_for("culture-war")
SEATS = (("ann", "anarchy"), ("bo", "technocracy"), ("cy", "conservative"))
# what each player puts in play, beyond the Base Unit and Real Estate they start with:
# a Cyber unit costing 2 (Acqui-Hire takes a unit costing 2 or less), a unit costing 3,
# an Operation, and a second Real Estate (no coins on it yet: Dumpster Fire's target)
PUT = {"ann": ("anarchy-script-kiddie", "anarchy-leaderless-crowd", "anarchy-barricades-up"),
       "bo": ("technocracy-firewall-daemon", "technocracy-security-robot", "technocracy-algorithmic-rule"),
       "cy": ("conservative-chain-email-grandpa", "conservative-decorated-veteran", "conservative-curfew")}
# named by issue 36 as refused when played as listed
NAMED = ("anarchy-leaked-group-chat", "anarchy-looting-spree", "technocracy-acqui-hire",
         "community-public-callout", "anarchy-pirate-radio-host")


def rich(state: State, coins: int = 40) -> State:
    """Every player with `coins` plain coins in the bank: no card is refused for its cost."""
    for p in state.players:
        state = state.with_player(replace(p, capital=coins))
    return replace(state, fields={**state.fields, "banks": {p.name: {"plain": coins} for p in state.players}})


def play(state: State, who: str, card_id: str, **args: Any) -> State:
    c = legal.card(card_id)
    return play_as_listed(RULES, state, Action("play", {"player": who, "card": card_id, "_card": c, **args},
                                               PlayerName(who)), 1)


@lru_cache(maxsize=1)
def tables() -> dict[str, State]:
    """`turn`: Ann's second turn, every kind of piece in play; `battle`: the
    same with Ann's battle waiting after its dice (Flashes, then settle).
    Mixed decks, so any printed card may be in any hand."""
    state = RULES.setup(Setup(GameSlug.CULTURE_WAR, SEATS, 1,
                              house_rules={"first-player": "seating", "decks": "mixed"}), ())
    for who, faction in SEATS:
        assert state.active_player.name == who
        state = rich(state)
        for card_id in (*PUT[who], printed.estate_cards(faction)[1]["id"]):
            state = play(state, who, card_id, cost=0)  # the scorekeeper's --cost: the table as set up
        state = play_as_listed(RULES, state, Action("end-turn", {}, PlayerName(who)), 1)
    state = rich(state)
    board = Board.reading(state)
    assert not state.fields.get("prompts") and state.active_player.name == "ann"
    assert {p["kind"] for p in board.pieces.values()} == {"unit", "estate", "operation"}
    attacker = find_piece(board, "ann/leaderless-crowd")
    defender = find_piece(board, "bo/security-robot")
    battle = play_as_listed(RULES, state, Action("window", {"attacker": attacker, "defender": defender},
                                                 PlayerName("ann")), 3)
    assert battle.fields.get("window")
    return {"turn": state, "battle": rich(battle)}


def action(who: str, c: Any, on: str | None) -> Action:
    return Action("play", {"player": who, "card": c["id"], "_card": c, **({"on": on} if on else {})},
                  PlayerName(who))


def rules_targets(state: State, who: str, c: Any) -> set[str | None]:
    """The targets the rules let `who` play card `c` on (None: no --on), an
    --on the card does not read left out (it plays as no target does)."""
    board = Board.reading(state)
    ok = {on for on in (None, *board.pieces, *board.live()) if accepts(RULES, state, action(who, c, on))}
    if None not in ok:
        return ok
    plain = play_as_listed(RULES, state, action(who, c, None), 5)
    return {None} | {on for on in ok if on is not None and play_as_listed(RULES, state, action(who, c, on), 5) != plain}


def plays_of(moves: list[Move], card_id: str) -> dict[str | None, Move]:
    return {m.action.args.get("on"): m for m in moves
            if m.action is not None and m.action.name == "play" and m.action.args["card"] == card_id}


def blind_of(moves: list[Move], card_id: str) -> dict[str | None, Move]:
    return {m.details.get("on"): m for m in moves if m.action is None and card_id in m.details.get("cards", ())}


@lru_cache(maxsize=1)
def every_play() -> list[tuple[str, str, str, frozenset]]:
    """(table, player, card, the targets the rules let the player play it on,
    None for no --on; empty: not now) of every card but Real Estate, by each
    player, on both tables (only Flashes while a battle waits)."""
    out = []
    cards = [c for c in printed._every_card().values() if c["type"] != "real-estate"]
    for name, state in tables().items():
        for who, _ in SEATS:
            for c in sorted(cards, key=lambda c: c["id"]):
                if name == "battle" and c["type"] != "flash":
                    continue  # only Flashes play while a battle waits
                out.append((name, who, c["id"], frozenset(rules_targets(state, who, c))))
    return out


def targeted() -> list[tuple[str, str, str, frozenset]]:
    """The plays of `every_play` on a target: the cards with a target."""
    return [play for play in every_play() if play[3] - {None}]


def test_the_cards_with_a_target_are_found_in_the_card_sources():
    cards = {card_id for _, _, card_id, _ in targeted()}
    types = {card_id: legal.card(card_id)["type"] for card_id in cards}
    aimed = [c for c, t in types.items() if t in ("flash", "happening", "unit")]
    assert len(aimed) >= 12, sorted(aimed)  # issue 36: at least 12 targeted Flashes, Happenings and units
    assert set(NAMED) <= cards
    assert {"player", "unit", "estate"} <= {kind for _, _, card_id, found in targeted() for kind in
                                            (_kind(tables()["turn"], on) for on in found if on is not None)}
    assert sum(t == "mod" for t in types.values()) >= 15  # every Mod takes its host


def _kind(state: State, on: str) -> str:
    board = Board.reading(state)
    return "player" if on in board.live() else board.pieces[on]["kind"]


@pytest.mark.parametrize("kept", [False, True], ids=["dealt", "kept-on-a-phone"])
def test_each_target_a_card_may_take_is_listed_when_the_hand_is_known(kept):
    """Self-play's dealer passes the hand to the generator; a hand kept on a
    phone reaches it through `moves_view` (`referee moves`, the phone's
    list). Either way every target is listed, each once (a battle Flash
    finds its own unit: `--on` that unit is the same move), every listed play
    plays, and a card the rules refuse now is not listed."""
    for name, who, card_id, found in every_play():
        state = tables()[name]
        if kept:
            moves = list(moves_view(state, who, [card_id]).moves)
        else:
            moves = legal_moves(RULES, state, PlayerName(who), {PlayerName(who): [card_id]})
        listed = plays_of(moves, card_id)
        assert found == set(listed), (name, who, card_id, sorted(map(str, found ^ set(listed))))  # each once
        for on, move in listed.items():
            play_as_listed(RULES, state, move.action, 7)  # refused: raises, and names the card
            if on is not None:
                assert f"--on {on}" in move.command, move.command


def test_each_target_is_listed_at_a_physical_table_and_the_line_typed_with_the_card_plays(monkeypatch):
    """The referee does not see the hand: the `<CARD>` moves offer the card
    on the same targets as the hand known, and the listed line, typed with
    the card's id where `<CARD>` stands, records the action the rules accept."""
    blind = {(name, who): legal_moves(RULES, state, PlayerName(who), None)
             for name, state in tables().items() for who, _ in SEATS}
    typed = 0
    for name, who, card_id, found in targeted():
        state = tables()[name]
        known = plays_of(legal_moves(RULES, state, PlayerName(who), {PlayerName(who): [card_id]}), card_id)
        offered = blind_of(blind[(name, who)], card_id)
        assert set(offered) == set(known), (name, who, card_id, sorted(map(str, set(offered) ^ set(known))))
        for on in sorted(offered, key=str)[:2]:  # the line typed: two targets of each card
            line = offered[on].command.replace(CARD_PLACEHOLDER, card_id)
            recorded = parse_command(monkeypatch, "culture_war", line, state, _current=lambda path: (state, 1, 0))
            assert key(recorded) == key(known[on].action), line
            typed += 1
    assert typed >= 40


def test_a_hand_kept_on_a_phone_lists_each_target_and_the_phone_plays_it(table):
    """End to end: Ann keeps her hand on her phone (`POST /p/TOKEN/hand`);
    her moves list each targeted card on each target the rules accept, and
    the phone plays them by the listed action."""
    from starlette.testclient import TestClient

    from referee.serve.app import create_app
    from referee.serve.play import Play
    from referee.serve.tokens import TokenStore
    from referee.serve.watch import TableWatch
    from referee.table import operations

    table.run("new culture-war --player ann:anarchy --player bo:community --seed 3 --house-rule first-player=seating")
    table.run("capital ann =6")  # coins enough for two of them
    hand = ["anarchy-pirate-radio-host", "anarchy-leaked-group-chat", "anarchy-looting-spree"]
    state = operations.status(table.db).state
    watch = TableWatch(table.db)
    watch.poll()
    tokens = TokenStore(table.db, watch.players())
    with TestClient(create_app(watch, tokens, poll_s=0.05, play=Play(table.db))) as client:
        ann = f"/p/{tokens.tokens['ann']}"
        assert client.post(f"{ann}/hand", json={"drew": hand}).status_code == 200
        listed = client.get(f"{ann}/moves").json()
        assert listed["hand_kept"] and not any(CARD_PLACEHOLDER in m["command"] for m in listed["moves"])
        plays = [m for m in listed["moves"] if (m["action"] or {}).get("name") == "play"]
        for card_id in hand:
            ons = {m["action"]["args"].get("on") for m in plays if m["action"]["args"]["card"] == card_id}
            found = rules_targets(state, "ann", legal.card(card_id))
            assert found - {None} and ons == found, (card_id, ons, found)
        for card_id, on in (("anarchy-pirate-radio-host", "4"), ("anarchy-leaked-group-chat", "bo")):
            move = next(m for m in plays if m["action"]["args"]["card"] == card_id and m["action"]["args"]["on"] == on)
            got = client.post(f"{ann}/act", json={"action": move["action"]})
            assert got.status_code == 200, got.text
            listed = client.get(f"{ann}/moves").json()  # the next move is listed on the table as it is now
            plays = [m for m in listed["moves"] if (m["action"] or {}).get("name") == "play"]
    log = table.log()["events"]
    assert [(e["action"], e["args"].get("card"), e["args"].get("on")) for e in log[-2:]] == \
        [("play", "anarchy-pirate-radio-host", "4"), ("play", "anarchy-leaked-group-chat", "bo")]
