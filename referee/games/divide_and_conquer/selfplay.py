"""Self-play's physical Divide & Conquer table: the shared deck dealt by
copy, and how a table stands for one player (the heuristic and search agents'
evaluation).

The referee sees what is face up (bases, the unaffiliated area, the attack
teams, the discard pile) and counts the rest: the deck, each hand, the cards
set aside when the deck is cut, the cards discarded from hands unseen. The
dealer holds the printed copies themselves: every copy of the shared deck
as pnp prints it (`(card id, copy number)`, the number its QR code names,
1 to the card's printed quantity), shuffled; the cut deck's extra cards set
aside unseen, 6 dealt to each player and the first player's draw; then each
hand followed action by action:
- the cards an action puts down leave the actor's hand for the table;
- an event that moves hands: a steal moves cards (at random) from the picked
  player's hand to the actor's, a pass to the left moves each hand's cards to
  the next player, a discard drops cards from a hand unseen;
- each card a player draws (the turn's draw, an event's) comes off the top
  of the deck: the rules count it in the player's `drawn`;
- at the end every hand is discarded unseen.
`violations` compares the dealer with the state: each hand's size, the
deck, the set-aside and hidden-discard counts, the cards face up by id, and
every copy in exactly one place.
"""
from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Any, Mapping

from referee.games.divide_and_conquer import printed, zones
from referee.games.divide_and_conquer.hands import put_down
from referee.games.divide_and_conquer.legal import deck_cards
from referee.rules.dealing import take_each
from referee.rules.legal import Hands
from referee.model import Action, PlayerName, State

WIN = 1_000_000.0
Copy = tuple[str, int]  # (card id, copy number)
PUT_DOWN = ("event", "unaffiliate", "recruit", "attach", "team", "raise")


def deal(rules: Any, state: State, rng: random.Random) -> "DealtTable":
    return DealtTable(state, rng)


def printed_copies() -> list[Copy]:
    """The shared deck as printed: each card's copies numbered from 1."""
    seen: Counter[str] = Counter()
    out = []
    for card_id in deck_cards():
        seen[card_id] += 1
        out.append((card_id, seen[card_id]))
    return out


class DealtTable:
    """Where each printed copy is: the deck (top = end of the list), set
    aside, a hand, face up on the table, or discarded unseen."""

    def __init__(self, state: State, rng: random.Random):
        self.rng = rng
        self.names = [p.name for p in state.players]
        copies = printed_copies()
        rng.shuffle(copies)
        aside = int(state.fields.get("set_aside") or 0)
        self.aside, self.deck = copies[:aside], copies[aside:]
        self.hand: dict[str, list[Copy]] = {n: [] for n in self.names}
        self.table: list[Copy] = []
        self.hidden: list[Copy] = []
        self.problems: list[str] = []
        for p in state.players:
            self._draw(p.name, int(p.fields.get("hand", 0)))

    def _draw(self, name: str, count: int) -> None:
        for _ in range(count):
            if not self.deck:
                self.problems.append(f"the deck ran out while {name} drew a card")
                return
            self.hand[name].append(self.deck.pop())

    def _random_out(self, name: str, count: int) -> list[Copy]:
        hand = self.hand[name]
        return [hand.pop(self.rng.randrange(len(hand))) for _ in range(min(count, len(hand)))]

    # ---- the Physical protocol ---------------------------------------------------------

    def hands(self) -> Hands:
        return {PlayerName(n): tuple(cid for cid, _ in self.hand[n]) for n in self.names}

    def after(self, before: State, action: Action, after: State) -> None:
        if action.name in PUT_DOWN:
            who = before.player(action.args.get("player") or action.actor).name
            for card_id in put_down(action):
                copy = next((c for c in self.hand[who] if c[0] == card_id), None)
                if copy is None:
                    self.problems.append(f"{who} put down {card_id}, which is not in their hand")
                    continue
                self.hand[who].remove(copy)
                self.table.append(copy)
        if action.name == "event":
            self._event(before, action)
        for p in after.players:
            drawn = int(p.fields.get("drawn", 0)) - int(before.player(p.name).fields.get("drawn", 0))
            self._draw(p.name, drawn)
        if after.fields.get("over") and not before.fields.get("over"):  # every hand is discarded
            for name in self.names:
                self.hidden += self.hand[name]
                self.hand[name] = []
        if action.name == "hand":  # the scorekeeper's correction: cards from the deck, or to the discard unseen
            name = after.player(action.args["player"]).name
            change = int(after.player(name).fields["hand"]) - len(self.hand[name])
            if change > 0:
                self._draw(name, change)
            else:
                self.hidden += self._random_out(name, -change)

    def _event(self, before: State, action: Action) -> None:
        """An event's moves between hands (events.play), on the hands after its card left."""
        card = action.args.get("_card") or {}
        effect, count = card.get("action"), int(card.get("count") or 1)
        actor = before.player(action.args.get("player") or action.actor).name
        pick = action.args.get("pick")
        if card.get("scope") == "one-player":
            target = before.player(pick).name
            if effect == "steal-hand-card":
                self.hand[actor] += self._random_out(target, count)
            elif effect == "discard-hand":
                self.hidden += self._random_out(target, count)
        elif card.get("scope") != "one-target":  # everyone at the table
            order = self.names[self.names.index(actor):] + self.names[:self.names.index(actor)]
            if effect == "discard-hand":
                for name in order:
                    self.hidden += self._random_out(name, count)
            elif effect == "pass-hand-left":
                given = {n: self._random_out(n, count) for n in self.names}
                for i, name in enumerate(self.names):
                    self.hand[name] += given[self.names[i - 1]]

    def violations(self, state: State) -> list[str]:
        problems, self.problems = self.problems, []
        fields = state.fields
        for p in state.players:
            if len(self.hand[p.name]) != int(p.fields.get("hand", 0)):
                problems.append(f"{p.name} holds {len(self.hand[p.name])} cards; the table counts "
                                f"{p.fields.get('hand')}")
        for what, mine, theirs in (("deck", self.deck, fields["deck"]), ("set aside", self.aside, fields["set_aside"]),
                                   ("discarded unseen", self.hidden, fields.get("hidden_discards") or 0)):
            if len(mine) != int(theirs):
                problems.append(f"the dealer has {len(mine)} cards {what}; the table counts {theirs}")
        face_up = Counter(cid for cid, _ in self.table)
        if face_up != Counter(printed.counts(fields)):
            problems.append("the cards face up on the table are not the ones the dealer saw put down")
        places = [*self.deck, *self.aside, *self.table, *self.hidden, *(c for n in self.names for c in self.hand[n])]
        if Counter(places) != Counter(printed_copies()):
            problems.append("a printed copy is in two places, or in none")
        return problems


# ---- a table sampled from one player's view (the search agent's determinisation) -----------------


def determinise(rules: Any, view: State, player: PlayerName, hand: tuple[str, ...],
                rng: random.Random) -> tuple[State, DealtTable]:
    """A whole table PLAYER could be sitting at (OpenSpiel's
    `resample_from_infostate`): the cards face up as the view shows them,
    their own hand as it is, and every copy they cannot see (the other
    hands, the deck, the cut deck's extra cards, the cards discarded
    unseen) dealt at random from the printed copies not in sight, in the
    counts the view gives. The real dealer is never read."""
    pool = list(_printed())
    mine = take_each(pool, Counter(hand))
    table = take_each(pool, Counter(printed.counts(view.fields)))
    rng.shuffle(pool)
    dealt = object.__new__(DealtTable)
    dealt.rng, dealt.names, dealt.problems = rng, [p.name for p in view.players], []
    dealt.table = table
    dealt.hand = {}
    me = view.player(player).name
    for p in view.players:
        count = int(p.fields.get("hand", 0))
        dealt.hand[p.name] = mine if p.name == me else [pool.pop() for _ in range(min(count, len(pool)))]
    aside = min(int(view.fields.get("set_aside") or 0), len(pool))
    dealt.aside = [pool.pop() for _ in range(aside)]
    deck = min(int(view.fields.get("deck") or 0), len(pool))
    dealt.deck = [pool.pop() for _ in range(deck)]
    dealt.hidden = pool
    return view, dealt


@lru_cache(maxsize=None)
def _printed() -> tuple[Copy, ...]:
    return tuple(printed_copies())


# ---- the agents' evaluation ---------------------------------------------------------------


def evaluate(state: State, player: PlayerName) -> float:
    """The player's net influence against the best other player's, counting
    the cards in an attack under way as in the base they go to; cards in
    hand count a little while the deck lasts (they are discarded at the end)."""
    if state.winner is not None:
        return WIN if state.winner == player else -WIN
    fields = state.fields
    me = state.player(player).name

    def standing(name: str) -> float:
        groups = list(fields["bases"][name]) + _in_attack(fields.get("attack"), name)
        scored = zones.score(groups)
        hand = int(state.player(name).fields.get("hand", 0)) if int(fields.get("deck") or 0) else 0
        return scored["net"] + 0.05 * scored["cards"] + 0.5 * hand

    others = [standing(p.name) for p in state.players if p.name != me]
    return standing(me) - max(others, default=0.0)


def _in_attack(attack: Mapping[str, Any] | None, name: str) -> list[Mapping[str, Any]]:
    if not attack:
        return []
    return list(attack["team"]) if attack["attacker"] == name else list(attack["defence"]) \
        if attack.get("defender") == name else []
