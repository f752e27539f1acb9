"""15 Minute Cold War: copy conservation over random play (hypothesis).

Random legal play drives the rules directly: setups drawn from a random
order of each deck, then on every turn random moves (place, discard,
attack, Specials, challenges, the Triad, regrouping, Fallen Leader flips,
ending the turn), most of them refused. After every accepted action:

- every card of every country is in exactly as many places as it has
  printed copies (table, hand, draw pile, discard pile, out of the game);
- the hidden zones add up (unseen cards = unknown hand cards + shuffled pile);
- no hand holds more than 5 cards, and the turn never uses more than 2
  plays and 3 cards;
- status (without --reveal) shows no face-down card.

After every refusal the table reads exactly as before (status --json)."""
from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings, strategies as st
import pytest

from referee.errors import RefereeError
from referee.rules import rules_for, visible_state
from referee.games.cold_war import desk as D
from referee.games.cold_war import zones as Z
from referee.model import Action, GameSlug, Setup, State

RULES = rules_for("cold-war")
COUNTRIES = ("westmark", "vostokia", "albion", "grauberg")


def conserved(s: State) -> None:
    f = s.fields
    for p in s.players:
        desk, deck = f["desks"][p.name], f["decks"][p.name]
        for cid, stats in deck["cards"].items():
            if cid == deck["leader"]:
                continue
            where = Z.places(f, p.name, cid, unseen=True)
            assert len(where) == int(stats.get("quantity") or 1), (cid, where)
        assert len(desk["unseen"]) == desk["hand"] - len(desk["known"]) + desk["draw"]
        assert 0 <= desk["hand"] <= Z.HAND and desk["draw"] >= 0
        if desk["fallen"]:
            assert desk["hand"] == 0
    moves = f["moves"]
    assert moves["plays"] <= 2 and moves["plays"] + moves["discards"] <= 3


def no_face_down_shown(s: State) -> None:
    text = json.dumps(visible_state(s, ()).to_dict())
    for p in s.players:
        for cid in D.zone_cards(s.fields["desks"][p.name], "military"):
            assert cid not in text, cid


def hand_cards(s: State, name: str) -> list[str]:
    desk = s.fields["desks"][name]
    return list(desk["known"]) + (list(desk["unseen"]) if Z.hidden_in_hand(desk) > 0 else [])


def spot_tokens(s: State, name: str) -> list[str]:
    desk = s.fields["desks"][name]
    return [label for label, _, _ in D.spots(desk)] + ["L"] + [f"A{i}" for i in range(1, len(desk["assistants"]) + 1)]


def candidate(s: State, rnd: random.Random) -> Action:
    names = [p.name for p in s.players]
    me = s.players[s.active].name
    desk = s.fields["desks"][me]
    other = rnd.choice([n for n in names if n != me] or names)
    hand = hand_cards(s, me)
    theirs = hand_cards(s, other)
    kind = rnd.choice(["place", "discard", "discard", "attack", "attack", "attack", "attack", "special", "special",
                       "challenge", "triad", "regroup", "end-turn", "end-turn", "fallen", "fallen"])
    if not s.fields["moves"]["plays"] and not s.fields["moves"]["discards"] and rnd.random() < 0.15:
        kind = "triad"
    pick = (lambda pool, k=1: rnd.sample(pool, min(k, len(pool))))
    cards = s.fields["decks"][me]["cards"]
    typed = (lambda kind, pool: [c for c in pool if cards[c]["type"] == kind] if rnd.random() < 0.85 else pool)
    if kind == "place":
        return Action("place", {"card": (pick(hand) or ["x"])[0], "propaganda": rnd.random() < 0.2})
    if kind == "discard":
        return Action("discard", {"cards": pick(hand, rnd.choice([1, 1, 2]))})
    answers = {}
    if rnd.random() < 0.2 and theirs:
        answers = {rnd.choice(["block", "redirect"]): rnd.choice(theirs), "onto": rnd.choice(names),
                   "onto_at": rnd.choice(spot_tokens(s, other))}
    if kind == "attack":
        return Action("attack", {"target": other, "at": rnd.choice(spot_tokens(s, other)),
                                 "cards": pick(typed("military", hand), rnd.choice([1, 2])), **answers})
    if kind == "special":
        own = spot_tokens(s, me)
        return Action("special", {"card": (pick(typed("special", hand)) or ["x"])[0], "target": other,
                                  "at": rnd.choice(spot_tokens(s, other)), "with": pick(own, rnd.choice([1, 2])),
                                  **answers})
    if kind == "challenge":
        return Action("challenge", {"target": other, "count": rnd.randint(1, 3)})
    if kind == "triad":
        shields = pick(theirs, 2) if rnd.random() < 0.3 else []
        legs = [c for c in hand if cards[c].get("triad")]
        return Action("triad", {"target": other, "cards": pick(legs if rnd.random() < 0.9 else hand, 3),
                                "shields": shields})
    if kind == "regroup":
        spots = [lbl for lbl, _, g in D.spots(desk) if len(g) == 1]
        stacks = [lbl for lbl, _, g in D.spots(desk) if len(g) == 3]
        return Action("regroup", {"player": me, "stacks": [pick(spots, 3)] if rnd.random() < 0.7 else [],
                                  "break": pick(stacks)}, me)
    if kind == "fallen":
        how, ids = Z.next_flip(desk)
        card = ids[0] if ids and rnd.random() < 0.9 else rnd.choice(list(s.fields["decks"][me]["cards"]))
        return Action("fallen", {"target": other, "card": card, "at": rnd.choice(spot_tokens(s, other))})
    return Action("end-turn", {})


def set_up(s: State, rnd: random.Random) -> State:
    for p in s.players:
        deck = s.fields["decks"][p.name]
        for _ in range(50):
            drawn = rnd.sample(Z.fresh_pile(deck), 9)
            action = Action("setup", {"player": p.name, "cards": drawn[:6], "discard": drawn[6:]}, p.name)
            try:
                RULES.check(s, action)
            except RefereeError:
                continue
            s = RULES.apply(s, action, ())
            break
        else:
            raise AssertionError("no legal setup found")
    return RULES.apply(s, Action("start", {}), ())


def step(s: State, action: Action) -> State:
    before = json.dumps(visible_state(s, ()).to_dict(), sort_keys=True)
    try:
        RULES.check(s, action)
    except RefereeError:
        assert json.dumps(visible_state(s, ()).to_dict(), sort_keys=True) == before
        return s
    after = RULES.apply(s, action, ())
    conserved(after)
    no_face_down_shown(after)
    return after


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(2, 4), rounds=st.integers(1, 2))
def test_random_play_keeps_every_printed_copy_in_one_place(seed: int, count: int, rounds: int) -> None:
    rnd = random.Random(seed)
    players = tuple((f"P{i}", COUNTRIES[i]) for i in range(count))
    s = RULES.setup(Setup(GameSlug.COLD_WAR, players, seed, None, {"rounds": str(rounds)}), ())
    conserved(s)
    s = set_up(s, rnd)
    conserved(s)
    accepted = 0
    for _ in range(600):
        if s.fields["phase"] == "over":
            break
        if s.fields["phase"] == "setup":
            s = set_up(s, rnd)
            continue
        nxt = step(s, candidate(s, rnd))
        accepted += nxt is not s
        s = nxt
    # it really played: many accepted actions, or a match that ended (a one-round match can end quickly)
    assert accepted > 10 or (s.fields["phase"] == "over" and accepted >= 3), accepted
