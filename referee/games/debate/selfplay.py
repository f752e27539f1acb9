"""Self-play's physical debate table: the two tactic decks dealt by copy,
and how a position stands for one debater (the heuristic and search agents'
evaluation).

The referee knows each debater's pile only as counts (draw pile, hand), the
face-up discard pile, the forum, and the cards it saw go back into a hand
(piles.py). The dealer holds the printed copies themselves: each debater's
15-card deck (starter deck A for the first seat, B for the second, until a
`deck` action names another), shuffled copy by copy (a copy is
`(card id, copy number)`, the number the card's QR code prints, counted over
the shared printing), and follows every copy from the draw pile to the hand,
into the forum or the discard pile (`out`), back to the hand, and shuffled
back into the draw pile when the rules reshuffle the discard pile.

After each action the dealer reconciles with the rules' state: the tactic
played leaves the hand, cards the state saw go back to the hand come out of
`out`, the copies neither in the forum nor the discard pile any more went
back into the draw pile (shuffled), and the hand draws from the top until
it holds the state's count. `violations` compares the two.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any, Mapping

from referee.rules.dealing import Copy, take
from referee.games.debate import cards as dcards
from referee.rules.legal import Hands
from referee.model import Action, PlayerName, State

WIN = 1_000_000.0


def deal(rules: Any, state: State, rng: random.Random) -> "DebateTable":
    return DebateTable(state, rng)


_STARTERS: dict[str, list[dict[str, Any]]] = {}


def _starter(letter: str) -> list[dict[str, Any]]:
    if letter not in _STARTERS:
        _STARTERS[letter] = dcards.starter_deck(letter)
    return [dict(c) for c in _STARTERS[letter]]


class DebateTable:
    """Each debater's draw pile (top = end of the list), hand and the copies
    out of both (in the forum or the discard pile)."""

    def __init__(self, state: State, rng: random.Random):
        self.rng = rng
        self.names = [p.name for p in state.players]
        self.quantity: dict[str, int] = {}
        self.decks: dict[str, list[str]] = {}
        self.draw: dict[str, list[Copy]] = {}
        self.hand: dict[str, list[Copy]] = {}
        self.out: dict[str, list[Copy]] = {}
        self.problems: list[str] = []
        for seat, name in enumerate(self.names):
            pile = state.fields["piles"][name]
            deck = pile["deck"] if pile["named"] else _starter(dcards.STARTERS[seat % 2])
            self._take_deck(name, deck, pile["hand"])

    # ---- decks ---------------------------------------------------------------------

    def _take_deck(self, name: str, deck: list[Mapping[str, Any]], hand: int) -> None:
        """NAME's deck becomes DECK, shuffled, HAND cards dealt (before any tactic is played)."""
        for card in deck:
            self.quantity[card["id"]] = int(card.get("quantity") or 1)
        self.decks[name] = [c["id"] for c in deck]
        self.draw[name], self.hand[name], self.out[name] = [], [], []
        copies = self._number(name)
        self.rng.shuffle(copies)
        self.draw[name] = copies
        self._draw(name, hand)

    def _number(self, name: str) -> list[Copy]:
        """NAME's deck as copies, numbered after the copies the other decks hold."""
        taken = {c for other in self.names if other != name for c in self._copies_of(other)}
        out: list[Copy] = []
        for card_id in self.decks[name]:
            n = 1
            while (card_id, n) in taken:
                n += 1
            taken.add((card_id, n))
            out.append((card_id, n))
        return out

    def _copies_of(self, name: str) -> list[Copy]:
        return [*self.draw.get(name, ()), *self.hand.get(name, ()), *self.out.get(name, ())]

    def _draw(self, name: str, count: int) -> None:
        for _ in range(count):
            if not self.draw[name]:
                self.problems.append(f"{name}'s draw pile ran out while the rules drew a card")
                return
            self.hand[name].append(self.draw[name].pop())

    def _overlap(self, a: str, b: str) -> bool:
        both = Counter(self.decks[a]) + Counter(self.decks[b])
        return any(n > max(1, self.quantity.get(cid, 1)) for cid, n in both.items())

    def clone(self) -> "DebateTable":
        twin = object.__new__(DebateTable)
        twin.rng, twin.names, twin.quantity, twin.decks = self.rng, self.names, self.quantity, self.decks
        twin.draw = {n: list(c) for n, c in self.draw.items()}
        twin.hand = {n: list(c) for n, c in self.hand.items()}
        twin.out = {n: list(c) for n, c in self.out.items()}
        twin.problems = []
        return twin

    # ---- the Physical protocol ---------------------------------------------------------

    def hands(self) -> Hands:
        return {PlayerName(n): tuple(cid for cid, _ in self.hand[n]) for n in self.names}

    def after(self, before: State, action: Action, after: State) -> None:
        if action.name == "deck":
            self._named(after, action)
            return
        played = None
        if action.name in ("argue", "device"):
            played = (after.player(action.args["player"]).name, str(action.args["card"]))
        for name in self.names:
            self._follow(name, before.fields["piles"][name], after.fields["piles"][name], after.fields["forum"],
                         played[1] if played and played[0] == name else None)

    def _named(self, after: State, action: Action) -> None:
        """A `deck` action: the debater plays the named deck (dealt afresh, as the rules
        draw a fresh hand); an unnamed opponent's deck holding the same copies becomes
        the other starter deck (their choice before play, as the rules allow it)."""
        name = after.player(action.args["player"]).name
        deck = list(action.args["_deck"])
        for other in self.names:
            pile = after.fields["piles"][other]
            if other == name or pile["named"]:
                continue
            both = Counter(c["id"] for c in deck) + Counter(self.decks[other])
            if any(n > max(1, int(c.get("quantity") or 1)) for c in deck for cid, n in both.items() if cid == c["id"]):
                mine = sorted(c["id"] for c in deck)
                letter = next((x for x in dcards.STARTERS if sorted(c["id"] for c in _starter(x)) != mine),
                              dcards.STARTERS[0])
                self.draw[other], self.hand[other], self.out[other] = [], [], []
                self._take_deck(name, deck, after.fields["piles"][name]["hand"])
                self._take_deck(other, _starter(letter), pile["hand"])
                if self._overlap(name, other):
                    self.problems.append(f"{name}'s named deck and {other}'s deck hold more copies than printed")
                return
        self._take_deck(name, deck, after.fields["piles"][name]["hand"])

    def _follow(self, name: str, before: Mapping[str, Any], after: Mapping[str, Any], forum: Mapping[str, Any],
                played: str | None) -> None:
        hand, out = self.hand[name], self.out[name]
        expected_seen = Counter(before["seen"])
        if played is not None:
            copy = take(hand, played)
            if copy is None:
                self.problems.append(f"{name} played {played}, which is not in their hand")
            else:
                out.append(copy)
            if expected_seen[played]:
                expected_seen[played] -= 1
        for card_id, n in (Counter(after["seen"]) - expected_seen).items():  # back to the hand
            for _ in range(n):
                copy = take(out, card_id)
                if copy is None:
                    self.problems.append(f"{card_id} went back to {name}'s hand from nowhere")
                else:
                    hand.append(copy)
        placed = Counter(after["discard"]) + Counter(_owned(forum, name))
        loose = Counter(cid for cid, _ in out) - placed
        if loose:  # the discard pile shuffled back into the draw pile
            for card_id, n in loose.items():
                for _ in range(n):
                    self.draw[name].append(take(out, card_id))
            self.rng.shuffle(self.draw[name])
        need = after["hand"] - len(hand)
        if need < 0:
            self.problems.append(f"{name}'s hand lost {-need} card(s) the dealer cannot follow")
        self._draw(name, need)

    def violations(self, state: State) -> list[str]:
        problems, self.problems = self.problems, []
        everywhere: Counter[Copy] = Counter()
        for name in self.names:
            pile = state.fields["piles"][name]
            hand, draw, out = self.hand[name], self.draw[name], self.out[name]
            everywhere.update([*hand, *draw, *out])
            if len(hand) != pile["hand"]:
                problems.append(f"{name} holds {len(hand)} cards; the table says {pile['hand']}")
            if len(draw) != pile["draw"]:
                problems.append(f"{name}'s draw pile has {len(draw)} cards; the table says {pile['draw']}")
            if Counter(pile["seen"]) - Counter(cid for cid, _ in hand):
                problems.append(f"{name}'s hand lacks a card the table saw go back into it")
            placed = Counter(pile["discard"]) + Counter(_owned(state.fields["forum"], name))
            if placed != Counter(cid for cid, _ in out):
                problems.append(f"{name}'s forum and discard pile hold other cards than the dealer put there")
            if len(hand) + len(draw) + len(out) != len(self.decks[name]):
                problems.append(f"{name}'s deck has {len(hand) + len(draw) + len(out)} cards, not "
                                f"{len(self.decks[name])}")
        for (card_id, n), count in everywhere.items():
            if count > 1:
                problems.append(f"copy {n} of {card_id} is in {count} places")
            if n > self.quantity.get(card_id, 1):
                problems.append(f"{card_id} has no printed copy {n}")
        return problems



def _owned(forum: Mapping[str, Any], name: str) -> list[str]:
    """The ids of NAME's cards in the forum (a card keeps its owner wherever it sits)."""
    out = []
    for side, slots in forum.items():
        for slot in slots:
            if slot:
                out += [c["id"] for c in (slot["argument"], *slot["devices"]) if c.get("owner", side) == name]
    return out


# ---- a table sampled from one debater's view (the search agent's determinisation) ----------


def determinise(rules: Any, view: State, player: PlayerName, hand: tuple[str, ...],
                rng: random.Random) -> tuple[State, DebateTable]:
    """A whole table PLAYER could be sitting at, seen from their view: their
    own hand as it is, every card they cannot see (their draw pile, the
    opponent's hand and draw pile) drawn from the printed copies not in
    sight (forum, discard piles, their hand). The opponent's deck list is
    unknown, so it counts as learned from nothing."""
    from referee.games.debate.legal import card_entry  # lazy: the card index

    me = view.player(player).name
    masked = view.fields["piles"]
    if "seen" in masked[me]:  # already whole (a view that reveals everything)
        masked = {n: piles_public(p) for n, p in masked.items()}
    forum = view.fields["forum"]
    pool = Counter(_printed())
    pool -= Counter(hand)
    for name in masked:
        pool -= Counter(masked[name]["discard"]) + Counter(_owned(forum, name))
    loose = list(pool.elements())
    rng.shuffle(loose)
    table = object.__new__(DebateTable)
    table.rng, table.names, table.problems = rng, [p.name for p in view.players], []
    table.quantity = {cid: q for cid, q in _printed_quantity().items()}
    table.decks, table.draw, table.hand, table.out = {}, {}, {}, {}
    fields_piles = {}
    for name in table.names:
        pub = masked[name]
        mine = name == me
        held = list(hand) if mine else [loose.pop() for _ in range(min(pub["hand"], len(loose)))]
        drawn = [loose.pop() for _ in range(min(pub["draw"], len(loose)))]
        out = [*pub["discard"], *_owned(forum, name)]
        table.hand[name] = [(c, 0) for c in held]
        table.draw[name] = [(c, 0) for c in drawn]
        table.out[name] = [(c, 0) for c in out]
        table.decks[name] = [*held, *drawn, *out]
        known = list(pub.get("hand_known") or ()) if mine else []
        deck = [card_entry(c) for c in pub.get("deck_list") or ()] if mine else []
        fields_piles[name] = {"deck": [{k: c[k] for k in ("id", "name", "kind", "quantity", "alignment") if k in c}
                                       for c in deck],
                              "named": bool(pub.get("deck_named")) if mine else False,
                              "draw": len(drawn), "hand": len(held), "seen": [c for c in known if c in held],
                              "discard": list(pub["discard"])}
    return replace(view, fields={**view.fields, "piles": fields_piles}), table


def piles_public(pile: Mapping[str, Any]) -> dict[str, Any]:
    return {"draw": pile["draw"], "hand": pile["hand"], "discard": list(pile["discard"]),
            "hand_known": list(pile["seen"]), "deck_list": [c["id"] for c in pile["deck"]],
            "deck_named": pile["named"]}


_PRINTED: dict[str, int] = {}


def _printed_quantity() -> dict[str, int]:
    if not _PRINTED:
        from referee.cards.index import load_index, project_root  # lazy: the card index

        _PRINTED.update({c.id: max(1, int(c.quantity or 1)) for c in load_index(project_root()).cards.values()
                         if c.game == "debate" and c.type in ("argument", "rhetorical-device")})
    return _PRINTED


def _printed() -> list[str]:
    return [cid for cid, n in _printed_quantity().items() for _ in range(n)]


# ---- evaluation ------------------------------------------------------------------------


def evaluate(state: State, player: PlayerName) -> float:
    """Fortitude as round end would leave it (the forum and the crowd scored
    now), mine against the opponent's, plus a little for cards in hand."""
    if state.winner is not None:
        return WIN if state.winner == player else -WIN
    if state.finished:
        return 0.0
    from referee.games.debate.actions import round_report  # lazy: the round-end arithmetic

    me = state.player(player).name
    report = round_report(state)
    mine = report.fortitude[me]
    theirs = max(v for n, v in report.fortitude.items() if n != me)
    piles = state.fields["piles"]
    cards = sum((1 if n == me else -1) * int(piles[n]["hand"]) for n in piles)
    return float(mine - theirs) + 0.5 * cards
