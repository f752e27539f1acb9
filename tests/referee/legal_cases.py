"""The games the legal-move agreement test walks (tests/referee/test_legal_agreement.py).

One `Case` per game: how to seat a table, how to deal the hands the
physical table would hold (from the printed decks, consistent with what
the state knows), and a broad candidate set of actions built without the
generator: every action name the player could type crossed with plausible
argument values read off the cards, the board and the players. A game
whose `referee/games/<game>/legal.py` does not exist yet is skipped; add
its Case here (Culture War and Divide & Conquer go in the same way).
"""
from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from referee.model import Action, GameSlug, PlayerName, State

Deal = Callable[[Any, State, random.Random], "Mapping[PlayerName, Sequence[str]] | None"]
Candidates = Callable[[Any, State, str, "Mapping[PlayerName, Sequence[str]] | None"], Iterable[Action]]
# Whether the rulebook refuses an action `check` accepts, for a reason only the
# hands show (the referee cannot see them): (state, action, hands, generated) -> bool.
HandRule = Callable[[State, Action, Any, Sequence[Action]], bool]


@dataclass(frozen=True)
class Case:
    slug: GameSlug
    players: tuple[tuple[str, str | None], ...]
    deal: Deal
    candidates: Candidates
    walks: int = 3  # random games from setup
    steps: int = 40  # actions per walk
    hand_rule: HandRule | None = None
    # The choice an action makes, where the order its cards are named in only
    # sets labels (M1, M2) or a pile's order that the generator lists one way of:
    # (state, action) -> a key; None: actions are compared as they are.
    choice: Callable[[State, Action], Any] | None = None
    sample: int | None = None  # try at most this many candidates per state and player (a seeded sample)
    house_rules: Mapping[str, str] = field(default_factory=dict)


def act(name: str, args: Mapping[str, Any], actor: str | None) -> Action:
    return Action(name, {k: v for k, v in args.items() if v is not None}, PlayerName(actor) if actor else None)


def shared_candidates(state: State, player: str) -> list[Action]:
    """end-turn, resolve of every prompt number with every answer word, by the player."""
    from referee.rules import prompts  # lazy: only the game being walked

    out = [act("end-turn", {}, player)]
    numbers = {p.number for p in prompts.pending(state)} | {None, 1, 2}
    answers = {a for p in prompts.pending(state) for a in p.choices} | {"done", "skip", None, "keep"}
    out += [act("resolve", {"prompt": n, "answer": a}, player) for n in numbers for a in answers]
    return out


# ---- Petri dish ------------------------------------------------------------------------------


def petri_candidates(rules: Any, state: State, player: str, hands: Any) -> list[Action]:
    from referee.games.petri_dish.geometry import POINTS  # lazy: only the game being walked

    board = state.fields["board"]
    germs = [p for p in POINTS if board.get(p)]  # a germ of either colour
    out = [act("place", {"at": p}, player) for p in POINTS]
    out += [act("grow", {"at": p}, player) for p in POINTS]
    out += [act(verb, {"from": a, "onto": b}, player) for verb in ("move", "divide") for a in germs for b in POINTS]
    out += [act("pass", {}, player), act("claim-draw", {}, player)]
    return out + shared_candidates(state, player)


PETRI = Case(GameSlug.PETRI_DISH, (("Ann", "white"), ("Bo", "black")), deal=lambda r, s, g: None,
             candidates=petri_candidates, walks=2, steps=40)


# ---- Debate -----------------------------------------------------------------------------------

_DEBATE: dict[str, Any] = {}


def _debate_cards() -> dict[str, Any]:
    """Every debate card as the commands record it, and the starter decks."""
    if not _DEBATE:
        from referee.cards.index import load_index, project_root  # lazy: only the game being walked
        from referee.games.debate.cards import entry, starter_deck  # lazy: only the game being walked

        index = load_index(project_root())
        _DEBATE["cards"] = {c.id: entry(c.id, c.name, c.type, c.fields, c.quantity)
                            for c in index.cards.values() if c.game == "debate"
                            and c.type in ("argument", "rhetorical-device", "potus")}
        _DEBATE["starters"] = {x: [c["id"] for c in starter_deck(x)] for x in ("a", "b")}
    return _DEBATE


def debate_deal(rules: Any, state: State, rng: random.Random) -> dict[PlayerName, list[str]]:
    """Each hand: the cards the referee saw go back into it, and the rest dealt
    from the player's deck (the named one, else starter deck A for the first
    seat and B for the second), less its copies in the forum, the discard pile
    and the hand's seen cards."""
    from referee.games.debate.piles import copy_places  # lazy: only the game being walked

    data = _debate_cards()
    hands: dict[PlayerName, list[str]] = {}
    for seat, p in enumerate(state.players):
        pile = state.fields["piles"][p.name]
        deck = [c["id"] for c in pile["deck"]] if pile["named"] else data["starters"]["ab"[seat]]
        pool = []
        for cid in dict.fromkeys(deck):
            free = deck.count(cid) - len(copy_places(state.fields, cid, p.name))
            pool += [cid] * max(0, free)
        unseen = max(0, pile["hand"] - len(pile["seen"]))
        hands[PlayerName(p.name)] = list(pile["seen"]) + rng.sample(pool, min(unseen, len(pool)))
    return hands


def debate_candidates(rules: Any, state: State, player: str, hands: Any) -> list[Action]:
    from referee.games.debate import cards as dcards  # lazy: only the game being walked

    data = _debate_cards()
    held = list(hands[PlayerName(player)]) if hands else []
    devices = sorted({d["id"] for slots in state.fields["forum"].values() for s in slots if s for d in s["devices"]})
    discard = sorted(set(state.fields["piles"][player]["discard"]))
    threads = list(range(1, 8))
    out: list[Action] = []
    for cid in dict.fromkeys(held):
        card = data["cards"][cid]
        verb = "argue" if card["kind"] == "argument" else "device"
        for thread in threads:
            base = {"player": player, "thread": thread, "card": cid, "_card": card}
            out += [act("argue", base, player), act("device", base, player)]  # either verb, whatever the card
            out += [act(verb, {**base, "back": b}, player) for b in discard]
            if verb == "device":
                out += [act(verb, {**base, "target": t}, player) for t in threads]
                out += [act(verb, {**base, "toward": t}, player) for t in ("mob", "citizen")]
                out += [act(verb, {**base, "target": t, "device": d}, player) for t in threads for d in devices]
    picks: list[dict[str, Any]] = [{}, *({"target": t} for t in threads), {"toward": "mob"}, {"toward": "citizen"},
                                   *({"back": b} for b in discard),
                                   *({"target": t, "device": d} for t in threads for d in devices),
                                   *({"target": t, "to": u} for t in threads for u in threads),
                                   *({"target": t, "device": d, "to": u} for t in threads for d in devices
                                     for u in threads)]
    out += [act("ability", {"player": player, **p}, player) for p in picks]
    out += [act("no-argument", {"player": player}, player), act("round-end", {}, None)]
    for cid, card in data["cards"].items():
        if card["kind"] == "potus":
            out.append(act("potus", {"player": player, "card": cid, "_card": card}, None))
    for letter in dcards.STARTERS:
        out.append(act("deck", {"player": player, "_deck": dcards.starter_deck(letter)}, None))
    return out + shared_candidates(state, player)


def debate_hand_rule(state: State, action: Action, hands: Any, generated: Sequence[Action]) -> bool:
    """Phase one asks an argument of a debater whose hand holds one: `no-argument`
    is refused then, though `check` cannot see the hand."""
    return hands is not None and action.name == "no-argument" and any(g.name == "argue" for g in generated)


DEBATE = Case(GameSlug.DEBATE, (("Ann", "deb-lincoln"), ("Bo", "deb-truman")), deal=debate_deal,
              candidates=debate_candidates, walks=2, steps=35, hand_rule=debate_hand_rule)


# ---- Cold War ------------------------------------------------------------------------------------


def cold_war_deal(rules: Any, state: State, rng: random.Random) -> dict[PlayerName, list[str]]:
    """Each hand from the printed deck, as the state allows it: in the setup
    phase the 9 cards drawn (from the unseen ones); a standing Leader's hand,
    the cards the referee knows plus the rest from the unseen ones; a Fallen
    Leader's, the card on top of the draw pile."""
    hands: dict[PlayerName, list[str]] = {}
    for p in state.players:
        desk = state.fields["desks"][p.name]
        unseen = list(desk["unseen"])
        if state.fields.get("phase") == "setup" and not desk["set_up"]:
            hand = rng.sample(unseen, min(9, len(unseen)))
        elif desk["fallen"]:
            hand = rng.sample(unseen, 1) if desk["draw"] and unseen else list(desk["order"][:1])
        else:
            hidden = max(0, desk["hand"] - len(desk["known"]))
            hand = list(desk["known"]) + rng.sample(unseen, min(hidden, len(unseen)))
        hands[PlayerName(p.name)] = hand
    return hands


def cold_war_candidates(rules: Any, state: State, player: str, hands: Any) -> list[Action]:
    """Every action name crossed with values read off the hands and tables:
    hand cards (and pairs of Military cards), every player, every spot label
    and card of each table, the Specials of each defender's hand."""
    from referee.games.cold_war import desk as D  # lazy: only the game being walked

    f = state.fields
    names = [p.name for p in state.players]
    held = list(dict.fromkeys(hands[PlayerName(player)])) if hands else []
    kind = {c: D.card(f, c)["type"] for h in (hands or {}).values() for c in h}

    def spots(who: str) -> list[str]:
        desk = f["desks"][who]
        out = ["L"] + [f"A{i + 1}" for i in range(len(desk["assistants"]))]
        for label, _, cards in D.spots(desk):
            out += [label] + ([f"{label}.{i + 1}" for i in range(len(cards))] if len(cards) > 1 else [])
        return out

    def answers(target: str) -> list[dict[str, Any]]:
        specials = [c for c in (hands or {}).get(PlayerName(target), ()) if kind.get(c) == "special"]
        out: list[dict[str, Any]] = [{}]
        out += [{"block": c} for c in specials]
        out += [{"redirect": c, "onto": o, "onto_at": s} for c in specials for o in names for s in spots(o)
                if not s.startswith("A") and "." not in s]
        return out

    out: list[Action] = []
    rng = random.Random(len(held) * 31 + state.turn)
    if f.get("phase") == "setup":
        for _ in range(120):
            if len(held) < 9:
                break
            cards = sorted(held)
            discard = sorted(rng.sample(cards, 3))
            rest = [c for c in cards if c not in discard]
            propaganda = sorted(c for c in rest if kind[c] != "military" and rng.random() < 0.5)
            placed = [c for c in rest if c not in propaganda]
            out.append(act("setup", {"player": player, "cards": placed or None, "propaganda": propaganda or None,
                                     "discard": discard}, player))
        out += [act("start", {"first": n}, None) for n in [*names, None]]
    labels = [s for s in spots(player) if s[0] in "SM" and "." not in s]
    out += [act("regroup", {"player": player, "break": [s]}, player) for s in labels]
    out += [act("regroup", {"player": player, "stacks": [list(t)]}, player) for t in itertools.combinations(labels, 3)]
    for cid in held:
        out += [act("place", {"card": cid}, player), act("place", {"card": cid, "propaganda": True}, player)]
    out += [act("discard", {"cards": list(ids)}, player) for k in (1, 2, 3) for ids in itertools.permutations(held, k)]
    military = [c for c in held if kind[c] == "military"]
    groups = [[c] for c in held] + [list(p) for p in itertools.permutations(military, 2)]
    for target in names:
        ans = answers(target)
        for spot in spots(target):
            out += [act("attack", {"target": target, "at": spot, "cards": g, **a}, player) for g in groups for a in ans]
            out += [act("fallen", {"target": target, "card": c, "at": spot, **a}, player) for c in held for a in ans]
            for cid in held:
                if kind[cid] == "special":
                    out += [act("special", {"card": cid, "target": target, "at": spot, **a}, player) for a in ans]
                    own = [s for s in spots(player) if s.startswith("M") and "." not in s]
                    out += [act("special", {"card": cid, "target": target, "at": spot, "with": list(w)}, player)
                            for k in (1, 2) for w in itertools.permutations(own, k)]
        for cid in held:
            out += [act("fallen", {"target": target, "card": cid}, player),
                    act("special", {"card": cid, "target": target}, player)]
        out += [act("challenge", {"target": target, "count": n}, player) for n in range(1, 8)]
        legs = [c for c in held if D.card(f, c).get("triad")]
        shields = [c for c in (hands or {}).get(PlayerName(target), ()) if kind.get(c) == "special"]
        for three in itertools.combinations(legs, 3):
            out.append(act("triad", {"target": target, "cards": list(three)}, player))
            out += [act("triad", {"target": target, "cards": list(three), "shields": list(pair)}, player)
                    for pair in itertools.combinations(shields, 2)]
    return out + shared_candidates(state, player)


def cold_war_choice(state: State, action: Action) -> Any:
    """A setup is the choice of the 3 cards discarded and of the cards that go
    face down as Propaganda (a Special placed is Propaganda whichever list names
    it); the order cards are named in only numbers the spots (and orders the 3
    setup discards, which the generator lists in id order)."""
    from referee.games.cold_war import desk as D  # lazy: only the game being walked

    if action.name != "setup":
        return None
    a = action.args
    placed = [*a.get("cards", ()), *a.get("propaganda", ())]
    hidden = {c for c in placed if c in a.get("propaganda", ()) or D.card(state.fields, c)["type"] == "special"}
    return (a.get("player"), frozenset(placed), frozenset(hidden), frozenset(a.get("discard", ())))


COLD_WAR = Case(GameSlug.COLD_WAR, (("Ann", "albion"), ("Bo", "westmark")), deal=cold_war_deal,
                candidates=cold_war_candidates, walks=2, steps=24, choice=cold_war_choice,
                sample=400)


CASES: dict[GameSlug, Case] = {c.slug: c for c in (PETRI, DEBATE, COLD_WAR)}
