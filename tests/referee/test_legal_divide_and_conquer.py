"""Divide & Conquer's legal moves agree with `rules.check` on random
reachable states (referee/games/divide_and_conquer/legal.py).

Random games are played from setup through the real rules, with the printed
shared deck shuffled and dealt (the hands known, as in self-play) and seeded
dice. On the states met:
(a) every concrete move generated passes `rules.check`;
(b) every action `rules.check` accepts out of a broad candidate set, built
    here from the table (every action x every card in the hand x every group
    on the table x every player; every event with every group, attachment
    and player it could name; teams and raises of every subset of the hand's
    cards, with every base group joining and every asset or deficit on
    every card in the fight), is generated; an accepted candidate carrying
    an option its card ignores must leave the same table as the generated
    move without it;
(c) every generated move's command line, run through the real CLI commands,
    records the same action.
"""
from __future__ import annotations

import random
from itertools import combinations, product
from typing import Any

import pytest

from helpers.legal_play import Visit, accepted, key, moves_of, play_out, report, same_after
from helpers.legal_play import parsed as parse_command
from helpers.sizes import two_sizes
from referee.rules import prompts
from referee.rules import rules_for
from referee.games.divide_and_conquer import legal
from referee.games.divide_and_conquer import zones
from referee.rules.legal import CARD_PLACEHOLDER, legal_moves
from referee.model import Action, GameSlug, PlayerName, Setup, State

RULES = rules_for("divide-and-conquer")
NAMES = ("ana", "ben", "cy", "dee", "eve", "fay", "gus", "hal")


def new_game(seed: int, players: int = 4) -> tuple[State, dict[str, list[str]], list[str]]:
    rng = random.Random(seed)
    seats = tuple((NAMES[i], None) for i in range(players))
    state = RULES.setup(Setup(GameSlug.DIVIDE_AND_CONQUER, seats, seed), ())
    deck = list(legal.deck_cards())
    rng.shuffle(deck)
    hands = {}
    for p in state.players:
        hands[p.name] = [deck.pop() for _ in range(int(p.fields["hand"]))]
    return state, hands, deck


def played(action: Action) -> list[str]:
    args = action.args
    if action.name in ("event", "unaffiliate", "recruit", "attach"):
        return [args["card"]]
    if action.name in ("team", "raise"):
        return [*args.get("cards", ()), *(a["card"]["id"] for a in args.get("_attach", ()))]
    return []


def syncer(deck: list[str]):
    """Keep the known hands in step with the counts the rules keep: cards played
    leave the hand; a hand that shrank more gives cards up (to a pool the hands
    that grew take from first: a steal, a pass to the left), then the deck."""
    def sync(before: State, after: State, action: Action, hands: dict[str, list[str]], rng: random.Random) -> None:
        if action.name in ("event", "unaffiliate", "recruit", "attach", "team", "raise", "call"):
            who = before.player(action.args["player"]).name
            for cid in played(action):
                if cid in hands[who]:
                    hands[who].remove(cid)
        pool: list[str] = []
        for p in after.players:
            hand = hands[p.name]
            while len(hand) > int(p.fields.get("hand", 0)):
                pool.append(hand.pop(rng.randrange(len(hand))))
        for p in after.players:
            hand = hands[p.name]
            while len(hand) < int(p.fields.get("hand", 0)):
                hand.append(pool.pop() if pool else deck.pop())
    return sync


def chooser(rng: random.Random, state: State) -> str:
    waiting = prompts.pending(state)
    if waiting:
        return waiting[0].player
    attack = state.fields.get("attack")
    if attack and attack["stage"] == "call-or-raise":
        return attack["defender"]
    return state.active_player.name


def visits(seed: int, steps: int = 100, players: int = 4, refused: list | None = None) -> list[Visit]:
    state, hands, deck = new_game(seed, players)
    met: list[Visit] = []
    play_out(RULES, state, hands, syncer(deck), legal.dice_for, seed, steps, chooser, met.append, refused)
    return met


# ---- the candidates, built from the table (not from the generator) ------------------------------


def in_fight(attack: dict) -> list[str]:
    return [attack["target"], *(g["ref"] for g in attack["team"]), *attack["joined"],
            *(g["ref"] for g in attack["defence"])]


def laid_candidates(state: State, name: str, hand: list[str], verb: str) -> list[Action]:
    attack = state.fields["attack"]
    me = PlayerName(name)
    groups = [c for c in hand if legal.card(c)["type"] == "group"]
    extras = [c for c in hand if legal.card(c)["type"] in ("asset", "deficit", "event")]
    base = [g["ref"] for g in state.fields["bases"][name]] if verb == "team" else []
    out = []
    for k in range(0, min(len(groups), 3) + 1):
        for chosen in dict.fromkeys(tuple(sorted(c)) for c in combinations(groups, k)):
            for j in range(0, min(len(base), 1) + 1):
                for joined in combinations(base, j):
                    targets = [*in_fight(attack), *joined, *(f"new:{i}" for i in range(len(chosen)))]
                    singles = [[]] + [[(a, t)] for a in dict.fromkeys(extras) for t in targets]
                    for attaches in singles:
                        args: dict[str, Any] = {
                            "player": name, "cards": list(chosen), "_groups": [legal.card(c) for c in chosen],
                            "attach": [f"{a}={t}" for a, t in attaches],
                            "_attach": [{"card": legal.card(a), "onto": t} for a, t in attaches]}
                        if joined:
                            args["join"] = list(joined)
                        out.append(Action(verb, args, me))
    return out


def candidates(state: State, name: str, hand: list[str]) -> list[Action]:
    me = PlayerName(name)
    players = [p.name for p in state.players]
    refs = [g["ref"] for _, gs in zones.places(state.fields) for g in gs]
    attached = sorted({a["id"] for _, gs in zones.places(state.fields) for g in gs for a in g["attached"]})
    out: list[Action] = [Action("end-turn", {}, me), Action("call", {"player": name}, me)]
    if (state.fields.get("attack") or {}).get("attacker") == name:
        out.append(Action("fight", {}))  # the attacker's roll (the CLI records no actor for it)
    for p in prompts.pending(state):
        for answer in (*p.choices, *refs, "done", "skip"):
            out.append(Action("resolve", {"prompt": p.number, "answer": answer}, me))
    for cid in dict.fromkeys(hand):
        c = legal.card(cid)
        one = {"player": name, "card": cid, "_card": c}
        out += [Action("unaffiliate", one, me), Action("recruit", one, me)]
        out += [Action("attach", {**one, "onto": r}, me) for r in refs]
        options: list[dict[str, Any]] = [{}]
        options += [{"groups": [r]} for r in refs]
        options += [{"groups": [r], "attachment": a} for r in refs for a in attached]
        options += [{"pick": p} for p in players]
        options += [{"groups": list(pair)} for pair in combinations(refs, 2)]
        if len(refs) <= 8:  # one group from each base at most: every choice of one per base
            per = [[None, *(g["ref"] for g in gs)] for gs in state.fields["bases"].values() if gs]
            options += [{"groups": [r for r in pick if r]} for pick in product(*per)]
        out += [Action("event", {**one, **o}, me) for o in options]
    for r in refs:
        for intent in ("take-over", "destroy", "steal"):
            out.append(Action("attack", {"player": name, "target": r, "intent": intent}, me))
    attack = state.fields.get("attack")
    if attack:
        out += laid_candidates(state, name, hand, "team") + laid_candidates(state, name, hand, "raise")
    return out


OPTIONAL = ("groups", "attachment", "pick")


def size(action: Action) -> int:
    """A team's or raise's size as plays.py counts it: cards laid and base groups joining."""
    return len(action.args.get("cards") or ()) + len(action.args.get("join") or ()) + len(action.args.get("attach") or ())


def beyond_listing(moves: list, action: Action) -> bool:
    """A team or raise bigger than the sizes the generator listed whole, or an
    event on everyone naming more groups than it listed, when the listing was
    cut short (plays.BUDGET): it says so on every move of that verb (or card)."""
    if action.name in ("team", "raise"):
        same = [m for m in moves if m.action is not None and m.action.name == action.name]
        big = size(action)
    elif action.name == "event":
        same = [m for m in moves if m.action is not None and m.action.args.get("card") == action.args["card"]]
        big = len(action.args.get("groups") or ())
    else:
        return False
    bounds = {m.details.get("listed_up_to") for m in same}
    assert len(bounds) <= 1, bounds
    bound = bounds.pop() if bounds else None
    return bound is not None and big > bound


def agreement(visit: Visit, name: str, counts: dict[str, int]) -> None:
    state = visit.state
    moves = moves_of(visit, RULES, name)
    generated = {key(m.action): m.action for m in moves if m.action is not None}
    for action in generated.values():  # (a)
        assert accepted(RULES, state, action), f"generated but refused: {action}"
        counts["generated"] += 1
    for action in candidates(state, name, visit.hands.get(name, [])):  # (b)
        counts["candidates"] += 1
        if not accepted(RULES, state, action):
            continue
        counts["accepted"] += 1
        if key(action) in generated:
            continue
        if beyond_listing(moves, action):
            counts["beyond"] += 1
            continue
        dice = (3,) * len(RULES.dice_needed(state, action))
        present = [k for k in OPTIONAL if k in action.args]
        reduced = [Action(action.name, {k: v for k, v in action.args.items() if k not in drop}, action.actor)
                   for n in range(1, len(present) + 1) for drop in combinations(present, n)]
        assert action.name == "event" and any(
            key(bare) in generated and same_after(RULES, state, action, bare, dice) for bare in reduced), \
            f"accepted by check but not generated: {key(action)}"
        counts["redundant"] += 1


SLOW = pytest.mark.slow


@pytest.mark.parametrize("seed, players, steps", [
    pytest.param(1, 4, 15, id="1-4-15-bounded"), pytest.param(1, 4, 40, marks=SLOW), pytest.param(3, 6, 40, marks=SLOW)])
def test_generated_moves_and_check_agree_on_random_games(seed, players, steps):
    counts = {"states": 0, "generated": 0, "candidates": 0, "accepted": 0, "redundant": 0, "beyond": 0}
    refused: list = []
    for visit in visits(seed, steps=steps, players=players, refused=refused):
        counts["states"] += 1
        for p in visit.state.players:
            agreement(visit, p.name, counts)
    assert counts["generated"] > 100 * steps // 40 and counts["accepted"] > 100 * steps // 40, counts
    print(f"seed {seed}: {counts}")  # the agreement counts, for the report (pytest -s)
    assert not refused, f"checked moves the rules refused when played: {refused[:3]}"


def test_without_hands_plays_from_the_hand_are_placeholders_and_the_rest_concrete():
    state, hands, _ = new_game(5)
    name = state.active_player.name
    moves = legal_moves(RULES, state, name)
    assert {m.kind for m in moves if m.action is None} == {"event", "unaffiliate", "recruit", "attach"}
    assert all(CARD_PLACEHOLDER in m.command for m in moves if m.action is None)
    assert [m.command for m in moves if m.action is not None] == [f"end-turn --by {name}"]  # nothing on the table
    assert legal_moves(RULES, state, next(p.name for p in state.players if p.name != name)) == []
    known = legal_moves(RULES, state, name, hands)
    groups = [c for c in dict.fromkeys(hands[name]) if legal.card(c)["type"] == "group"]
    assert sorted(m.action.args["card"] for m in known if m.kind == "recruit") == sorted(groups)


# ---- (c) the command line ------------------------------------------------------------------------


def parsed(monkeypatch, state: State, command: str) -> Action:
    return parse_command(monkeypatch, "divide_and_conquer", command, _state=lambda path: state)


@two_sizes(bounded=12, full=60, name="steps")
def test_every_generated_command_line_records_the_generated_action(monkeypatch, steps):
    checked = 0
    for seed in (21,):
        for visit in visits(seed, steps=steps):
            for moves in visit.moves.values():
                for move in moves[:40]:
                    if move.action is not None:
                        assert key(parsed(monkeypatch, visit.state, move.command)) == key(move.action), move.command
                        checked += 1
    assert checked > 100 * steps // 60


if __name__ == "__main__":  # numbers for the report: moves and time per state
    print(report(lambda seed: visits(seed, steps=150, players=4 + seed % 5)))
