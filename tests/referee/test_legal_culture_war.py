"""Culture War's legal moves agree with `rules.check` on random reachable
states (referee/games/culture_war/legal.py).

Random games are played from setup through the real rules, with the printed
faction decks shuffled and dealt (the hands known, as in self-play) and seeded
dice. On every state met:
(a) every concrete move generated passes `rules.check`;
(b) every action `rules.check` accepts out of a broad candidate set, built
    here from the table and not from the generator (every action name x
    cards in the hand and the Real Estate pile x every piece and player as a
    target, every attacker x every defender, every amount), is generated; an
    accepted candidate with an argument the card ignores (`--on` for a card
    that takes no target) must leave the same table as the generated one;
(c) every generated move's command line, run through the real CLI commands,
    records the same action.
"""
from __future__ import annotations

import itertools

import random
from dataclasses import replace
from typing import Any

import pytest

from helpers.legal_play import Visit, accepted, key, moves_of, play_out, report, same_after
from helpers.legal_play import parsed as parse_command
from helpers.sizes import two_sizes
from referee.rules import prompts
from referee.rules import rules_for
from referee.games.culture_war import legal
from referee.games.culture_war.table import cards as printed
from referee.games.culture_war.table.board import Board
from referee.rules.legal import CARD_PLACEHOLDER, legal_moves
from referee.model import Action, GameSlug, PlayerName, Setup, State

RULES = rules_for("culture-war")
FACTIONS = ("anarchy", "community", "technocracy", "conservative", "libertarian")
NAMES = ("ann", "bo", "cy", "di", "ed")
CORRECTIONS = ("discard-hand", "discard")  # listed only while a prompt asks for them


# ---- the physical table -----------------------------------------------------------------


def new_game(seed: int, players: int = 3, seating: bool = False) -> tuple[State, dict[str, list[str]], dict]:
    rng = random.Random(seed)
    factions = rng.sample(FACTIONS, players)
    seats = tuple((NAMES[i], factions[i]) for i in range(players))
    rules = {"first-player": "seating"} if seating else {}
    state = RULES.setup(Setup(GameSlug.CULTURE_WAR, seats, seed, house_rules=rules), ())
    decks, hands = {}, {}
    for name, faction in seats:
        deck = list(printed.deck_cards(faction))
        rng.shuffle(deck)
        hands[name] = [deck.pop() for _ in range(int(state.player(name).fields["hand"]))]
        decks[name] = deck
    return state, hands, decks


def syncer(decks: dict[str, list[str]]):
    """Keep the known hands in step with the counts the rules keep."""
    def sync(before: State, after: State, action: Action, hands: dict[str, list[str]], rng: random.Random) -> None:
        if action.name in ("play", "discard-hand") and action.args["_card"]["type"] != "real-estate":
            hand = hands[before.player(action.args["player"]).name]
            if action.args["card"] in hand:
                hand.remove(action.args["card"])
        old, new = before.fields.get("pieces", {}), after.fields.get("pieces", {})
        gone = [p for h, p in old.items() if h not in new]
        fresh: dict[str, list[str]] = {}
        for pile in ("discards", "removed"):
            for owner, entries in after.fields.get(pile, {}).items():
                was = len(before.fields.get(pile, {}).get(owner, []))
                fresh.setdefault(owner, []).extend(e.get("card") for e in entries[was:])
        for piece in gone:
            home = piece.get("home") or piece["owner"]
            if piece.get("card") in fresh.get(home, []):
                fresh[home].remove(piece["card"])
            elif home in hands and not after.player(home).eliminated:
                hands[home].append(piece["card"])  # back to the hand (a bounce)
        for p in after.players:
            count = int(p.fields.get("hand", 0))
            hand = hands[p.name]
            while len(hand) < count and decks[p.name]:
                hand.append(decks[p.name].pop())
            while len(hand) > count:
                hand.pop(rng.randrange(len(hand)))
    return sync


def chooser(rng: random.Random, state: State) -> str:
    waiting = prompts.pending(state)
    live = [p.name for p in state.players if not p.eliminated]
    if waiting and rng.random() < 0.7:
        return waiting[0].player if waiting[0].player in live else rng.choice(live)
    if rng.random() < 0.85:
        return state.active_player.name
    return rng.choice(live)


def visits(seed: int, steps: int = 120, players: int = 3, seating: bool = False,
           refused: list | None = None) -> list[Visit]:
    state, hands, decks = new_game(seed, players, seating)
    met: list[Visit] = []
    play_out(RULES, state, hands, syncer(decks), legal.dice_for, seed, steps, chooser, met.append, refused)
    return met


# ---- the candidates, built from the table (not from the generator) ------------------------------


def prepared(action: Action) -> Action:
    """A rolling action as the CLI checks it, before the dice are counted."""
    if action.name in legal.ROLLING and "rolls" not in action.args:
        return Action(action.name, {**action.args, "rolls": 1}, action.actor)
    return action


def candidates(state: State, name: str, hand: list[str]) -> list[Action]:
    board = Board(state)
    me = PlayerName(name)
    players = [p.name for p in state.players]
    handles = sorted(board.pieces, key=int)
    units = [h for h in handles if board.pieces[h]["kind"] == "unit"]
    out: list[Action] = [Action("rolloff", {}), Action("end-turn", {}, me)]
    window = state.fields.get("window")
    if window and board.pieces.get(str(window["attacker"]), {}).get("owner") == name:
        out.append(Action("settle", {}, me))  # the CLI records the attacker's owner, whoever types it
    cards = [legal.card(c) for c in dict.fromkeys(hand)] + list(printed.estate_cards(None))
    for c in cards:
        for on in [None, *handles, *players]:
            args: dict[str, Any] = {"player": name, "card": c["id"], "_card": c}
            if on is not None:
                args["on"] = on
            out.append(Action("play", args, me))
    for h in units:
        out.append(Action("seize", {"player": name, "piece": h}, me))
    for a in units:  # the player's own attacks (another player's battle is theirs to list)
        owner = PlayerName(board.pieces[a]["owner"])
        if owner != name:
            continue
        for d in [*units, *players]:
            for extra in ({}, {"counter": False}):
                out.append(Action("battle", {"attacker": a, "defender": d, **extra}, owner))
                out.append(Action("window", {"attacker": a, "defender": d, **extra}, owner))
    for p in prompts.pending(state):
        for answer in (*p.choices, "done", "skip", "keep"):
            out.append(Action("resolve", {"prompt": p.number, "answer": answer}, me))
    if prompts.pending(state):
        for c in dict.fromkeys(hand):
            out.append(Action("discard-hand", {"player": name, "card": c, "_card": legal.card(c)}, me))
        for h in handles:
            if board.pieces[h]["owner"] == name:
                out.append(Action("discard", {"piece": h}))
    life, capital = board.life(name), board.capital(name)
    out.append(Action("unally", {"players": [name]}))
    rest = [p for p in players if p != name]
    for k in range(2, len(rest) + 1):  # alliances of three players or more (issue 36)
        out += [Action("ally", {"players": [name, *group]}) for group in itertools.combinations(rest, k)]
    for other in players:
        if other == name:
            continue
        out.append(Action("ally", {"players": [name, other]}))
        out.append(Action("unally", {"players": [name, other]}))
        for amount in sorted({0, 1, 2, life // 2, life - 2, life - 1, life, life + 1}):  # the edges, and one inside
            out.append(Action("donate", {"from": name, "to": other, "amount": amount}, me))
        for faction in (None, "plain", *FACTIONS):
            for amount in range(0, capital + 2):
                args = {"from": name, "to": other, "amount": amount}
                if faction:
                    args["faction"] = faction
                out.append(Action("gift", args, me))
    return out


def changes_something(state: State, action: Action) -> bool:
    """An `ally` of players already allied changes nothing but close a cancel's
    window (any action does): it is not a move."""
    if action.name != "ally":
        return True
    return RULES.apply(state, action, ()).fields.get("alliances") != state.fields.get("alliances")


def agreement(visit: Visit, name: str, counts: dict[str, int]) -> None:
    state = visit.state
    moves = moves_of(visit, RULES, name)
    generated = {key(m.action): m.action for m in moves if m.action is not None}
    for action in generated.values():  # (a)
        assert accepted(RULES, state, action, prepared), f"generated but refused: {action} at {state.turn}"
        counts["generated"] += 1
    for action in candidates(state, name, visit.hands.get(name, [])):  # (b)
        counts["candidates"] += 1
        if not accepted(RULES, state, action, prepared) or not changes_something(state, action):
            continue
        counts["accepted"] += 1
        if key(action) in generated:
            continue
        dice = (3,) * len(RULES.dice_needed(state, action))
        if any(g.name == action.name and same_after(RULES, state, action, g, dice) for g in generated.values()):
            counts["redundant"] += 1  # another spelling of a generated move (the pair of an alliance in either order)
            continue
        bare = Action(action.name, {k: v for k, v in action.args.items() if k != "on"}, action.actor)
        assert action.name == "play" and "on" in action.args and key(bare) in generated, \
            f"accepted by check but not generated: {key(action)} (phase {RULES.phase(state)}, waiting {[p.get('player') for p in state.fields.get('prompts', [])]})"
        assert same_after(RULES, state, action, bare, (3,) * len(RULES.dice_needed(state, bare))), f"--on changed the play: {key(action)}"
        counts["redundant"] += 1


# ---- the tests ----------------------------------------------------------------------------------


SLOW = pytest.mark.slow


@pytest.mark.parametrize("seed, players, steps", [
    pytest.param(1, 2, 12, id="1-2-12-bounded"), pytest.param(1, 2, 30, marks=SLOW), pytest.param(3, 4, 40, marks=SLOW)])  # more seeds: python tests/referee/test_legal_culture_war.py
def test_generated_moves_and_check_agree_on_random_games(seed, players, steps):
    counts = {"states": 0, "generated": 0, "candidates": 0, "accepted": 0, "redundant": 0}
    refused: list = []
    for i, visit in enumerate(visits(seed, steps=steps, players=players, refused=refused)):
        if i % 2:
            continue  # every other state: the test's time goes to the candidates
        counts["states"] += 1
        for p in visit.state.players:
            if not p.eliminated:
                agreement(visit, p.name, counts)
    assert counts["generated"] > 20 * steps // 30 and counts["accepted"] > 20 * steps // 30, counts
    print(f"seed {seed}: {counts}")  # the agreement counts, for the report (pytest -s)
    assert not refused, f"checked moves the rules refused when played: {refused[:3]}"


@SLOW
def test_an_alliance_of_three_is_listed_and_plays():
    """Issue 36: alliances of any size the rules allow are listed (a three-player one was never)."""
    found = []
    for visit in visits(5, steps=60):
        for name in [p.name for p in visit.state.players]:
            found += [m for m in moves_of(visit, RULES, name)
                      if m.action is not None and m.action.name == "ally" and len(m.action.args["players"]) == 3]
        if found:
            break
    assert found, "no three-player alliance listed in 60 steps"
    move = found[0]
    assert move.command == "ally " + " ".join(move.action.args["players"])


@SLOW  # six games of 150 steps: long random play
def test_the_roll_off_prompts_and_the_dice_window_are_reached():
    seen: set[str] = set()
    for seed in range(10, 16):
        for visit in visits(seed, steps=150):
            for moves in visit.moves.values():
                seen |= {m.action.name for m in moves if m.action is not None}
    assert {"rolloff", "play", "battle", "window", "settle", "end-turn"} <= seen, seen


def test_without_hands_card_plays_are_listed_by_what_they_may_cost():
    state, _, _ = new_game(7, players=2, seating=True)
    moves = legal_moves(RULES, state, state.active_player.name)
    placeholders = [m for m in moves if m.action is None]
    # a kind is listed only where a printed card of the deck plays (1 coin buys no Flash or Operation here)
    assert {m.details["type"] for m in placeholders} == {"unit", "mod", "happening"}
    unit = next(m for m in placeholders if m.details["type"] == "unit")
    assert unit.command == f"deploy {CARD_PLACEHOLDER}" and "costing up to 1" in unit.text  # 1 coin at the start
    for m in placeholders:  # each offers the printed cards the rules accept played on its target
        assert m.details["cards"], m.command
        for card_id in m.details["cards"]:
            c = legal.card(card_id)
            assert c["type"] == m.details["type"] and int(c.get("cost") or 0) <= 1
            args = {"player": state.active_player.name, "card": card_id, "_card": c}
            if m.details["on"] is not None:
                args["on"] = m.details["on"]
            RULES.check(state, Action("play", args, state.active_player.name))
    mods = [m for m in placeholders if m.details["type"] == "mod"]
    assert mods and all(" --on " in m.command and m.details["on"] in m.command for m in mods)
    other = next(p.name for p in state.players if p.name != state.active_player.name)
    theirs = legal_moves(RULES, state, other)
    assert [m for m in theirs if m.action is None] == []  # no coin: no Flash of theirs plays
    rich_other = state.with_player(replace(state.player(other), capital=3))
    rich_other = replace(rich_other, fields={**rich_other.fields, "banks": {**rich_other.fields["banks"],
                                                                           other: {"plain": 3}}})
    theirs = [m for m in legal_moves(RULES, rich_other, other) if m.action is None]
    assert theirs and {m.details["type"] for m in theirs} == {"flash"}
    assert all(m.command.endswith(f"--by {other}") for m in theirs)
    assert any(m.action is not None and m.action.name == "play" and m.action.args["_card"]["type"] == "real-estate"
               for m in moves) is False  # the second Real Estate costs 2; 1 coin buys none
    rich = state.with_player(replace(state.active_player, capital=3))
    rich = replace(rich, fields={**rich.fields, "banks": {**rich.fields["banks"],
                                                          rich.active_player.name: {"plain": 2}}})
    bought = [m for m in legal_moves(RULES, rich, rich.active_player.name)
              if m.action is not None and m.action.name == "play"]
    assert bought and all(m.command.startswith("buy ") for m in bought)


# ---- (c) the command line ------------------------------------------------------------------------


def parsed(monkeypatch, state: State, command: str) -> Action:
    return parse_command(monkeypatch, "culture_war", command, state, _current=lambda path: (state, 1, 0))


@two_sizes(bounded=((21,), 30), full=((21, 22), 60), name="seeds_steps")
def test_every_generated_command_line_records_the_generated_action(monkeypatch, seeds_steps):
    seeds, steps = seeds_steps
    checked = 0
    for seed in seeds:
        for visit in visits(seed, steps=steps):
            for name, moves in list(visit.moves.items()):
                per_kind: dict[str, int] = {}
                for move in moves:
                    if move.action is None:
                        assert CARD_PLACEHOLDER in move.command
                        continue
                    per_kind[move.action.name] = per_kind.get(move.action.name, 0) + 1
                    if per_kind[move.action.name] > 6:  # 90 donations differ only in the amount
                        continue
                    assert key(parsed(monkeypatch, visit.state, move.command)) == key(move.action), move.command
                    checked += 1
    assert checked > 200 * len(seeds) * steps // 120


if __name__ == "__main__":  # numbers for the report: moves and time per state
    print(report(lambda seed: visits(seed, steps=150)))


# ---- candidates: what self-play's random agent draws from ----------------------------------------


@two_sizes(bounded=30, full=90, name="steps")
def test_candidates_judged_are_the_legal_moves_and_generating_changes_nothing(steps):
    """The lazy candidates (each with the check it still needs, donations as
    runs) judged by `check` give exactly the legal moves, in order; the
    generator reads the table without copying it and must not change it."""
    from referee.rules.legal import judged, random_legal

    rng = random.Random(5)
    states = draws = runs = 0
    for visit in visits(31, steps=steps):
        before = visit.state.to_dict()
        for p in visit.state.players:
            if p.eliminated:
                continue
            eager = [key(m.action) for m in legal_moves(RULES, visit.state, p.name, visit.hands)]
            found = legal.candidates(RULES, visit.state, p.name, visit.hands)
            runs += sum(1 for c in found if c.size > 1)
            assert [key(m.action) for m in judged(RULES, visit.state, found)] == eager
            listed = {k for k, m in zip(eager, legal_moves(RULES, visit.state, p.name, visit.hands))
                      if m.action is not None}
            for _ in range(3):
                drawn = random_legal(RULES, visit.state, p.name, visit.hands, rng)
                assert (drawn is None) == (not listed)
                if drawn is not None:
                    assert key(drawn.action) in listed, drawn.action
                    draws += 1
        assert visit.state.to_dict() == before, f"generating moves changed the table at turn {visit.state.turn}"
        states += 1
    assert states > 40 * steps // 90 and draws > 60 * steps // 90 and runs > 0, (states, draws, runs)
