"""Self-play's knowledge of Culture War: the dealer and the evaluation.

The dealer is the physical table the referee does not see. Each player
plays their own printed faction deck (the default, house rule decks=faction):
the Real Estate is set apart as its own pile and the Base Unit goes into play
(the rules' setup), every other printed copy, each with its copy number as
its QR payload names it, is shuffled into the player's draw pile, and five
are dealt. After every action the dealer follows the hands by what the
action and the counts the rules keep say:

- a card played or discarded from a hand (`play`, `discard-hand`) leaves it;
- a discard a card asks for (Botnet Swarm, Leaked Group Chat, Data Harvest)
  answered with the cards' ids takes those, answered `done` (a random
  discard no one names) takes that many cards at random;
- a draw pile that shrank was drawn from (the turn's draw, card draws), one
  that grew had its cards put back (a cancelled Happening's draws);
- a card the table saw go back to a hand (`hand_known`, a bounce) is the
  copy that left it.

`violations` compares the dealer with the state: hand and draw pile sizes,
the cards known to be in a hand, and every copy in exactly one place.
Mixed decks (decks=mixed) are built by the players, so there is no printed
deck to deal: self-play refuses that house rule.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from referee.rules import prompts
from referee.errors import RefereeError
from referee.games.culture_war.table import zones
from referee.games.culture_war.legal import dice_for
from referee.games.culture_war.table.cards import card, deck_cards, starting_cards
from referee.rules.dealing import Copy
from referee.rules.legal import Hands
from referee.model import Action, PlayerName, State

__all__ = ["Dealer", "deal", "evaluate", "dice_for"]

WIN = 1_000_000.0


def printed_copies(faction: str) -> list[Copy]:
    """The copies a faction's draw pile is shuffled from, each numbered: a card
    printed three times whose first copy went into play is copies 2 and 3."""
    ids = deck_cards(faction)
    count = Counter(ids)
    out: list[Copy] = []
    for card_id, n in count.items():
        quantity = int(card(card_id).get("quantity") or 1)
        out += [(card_id, number) for number in range(quantity - n + 1, quantity + 1)]
    return sorted(out)


class Dealer:
    """The printed decks shuffled by copy, and every hand (see the module docstring)."""

    def __init__(self, state: State, rng: random.Random):
        if state.house_rules.get("decks", "faction") != "faction":
            raise RefereeError("self-play deals the printed faction decks; with house rule decks=mixed the "
                               "players build their own decks, which self-play cannot guess")
        self.rng = rng
        self.pile: dict[str, list[Copy]] = {}  # the top card is the last
        self.held: dict[str, list[Copy]] = {}
        self.out: dict[str, list[Copy]] = {}  # copies that left the hand and pile (played, discarded)
        self.printed: dict[str, int] = {}
        self.recent: dict[str, list[Copy]] = {}  # draws, newest last: what a cancel puts back
        for p in state.players:
            if not p.faction or not zones.tracked(state, p.name):
                continue
            deck = printed_copies(p.faction)
            rng.shuffle(deck)
            hand = int(p.fields["hand"])
            self.held[p.name] = [deck.pop() for _ in range(hand)]
            self.pile[p.name] = deck
            base = starting_cards(p.faction)[1]
            self.out[p.name] = [(base["id"], 1)] if base is not None else []  # in play from the start
            self.recent[p.name] = []
            self.printed[p.name] = len(deck) + hand + len(self.out[p.name])
        self._hands: dict[PlayerName, tuple[str, ...]] | None = None

    # ---- what the simulator asks ----

    def hands(self) -> Hands:
        if self._hands is None:
            self._hands = {PlayerName(n): tuple(c for c, _ in held) for n, held in self.held.items()}
        return self._hands

    def after(self, before: State, action: Action, after: State) -> None:
        self._hands = None
        args = action.args
        if action.name in ("play", "discard-hand") and args["_card"].get("type") != "real-estate":
            self._leave(before.player(args["player"]).name, str(args["card"]))
        elif action.name == "resolve":
            self._answered(before, action)
        for name in self.held:
            old, new = before.player(name).fields, after.player(name).fields
            change = int(new.get("draw_pile", 0)) - int(old.get("draw_pile", 0))
            if change < 0:
                self._draw(name, -change)
            elif change > 0:
                self._put_back(name, change)
            if (new.get(zones.KNOWN) or []) == (old.get(zones.KNOWN) or []):
                continue  # no card came back to the hand (most actions)
            back = Counter(new.get(zones.KNOWN) or []) - Counter(old.get(zones.KNOWN) or [])
            for card_id, n in back.items():
                for _ in range(n):
                    self._return(name, card_id)

    def violations(self, state: State) -> list[str]:
        problems = []
        seen: Counter[tuple[str, Copy]] = Counter()
        for name, held in self.held.items():
            fields = state.player(name).fields
            if len(held) != int(fields.get("hand", 0)):
                problems.append(f"{name} holds {len(held)} cards, the table counts {fields.get('hand')}")
            if len(self.pile[name]) != int(fields.get("draw_pile", 0)):
                problems.append(f"{name}'s draw pile holds {len(self.pile[name])} cards, "
                                f"the table counts {fields.get('draw_pile')}")
            ids = Counter(c for c, _ in held)
            missing = Counter(fields.get(zones.KNOWN) or []) - ids
            if missing:
                problems.append(f"the table knows {sorted(missing)} in {name}'s hand, which does not hold them")
            every = [*held, *self.pile[name], *self.out[name]]
            if len(every) != self.printed[name]:
                problems.append(f"{name}'s deck has {len(every)} copies, {self.printed[name]} were printed")
            seen.update((name, c) for c in every)
            elsewhere = Counter(c for c, _ in self.out[name])
            for card_id in {*elsewhere, *_named_out(state, name)}:
                named = _named_out(state, name)[card_id]
                if named > elsewhere[card_id]:
                    problems.append(f"the table has {named} of {name}'s {card_id} out of the hand, "
                                    f"the dealer {elsewhere[card_id]}")
        twice = [f"{n}'s {c[0]} copy {c[1]}" for (n, c), k in seen.items() if k > 1]
        if twice:
            problems.append("a copy in two places: " + ", ".join(sorted(twice)))
        return problems

    # ---- moving copies ----

    def _leave(self, name: str, card_id: str, chosen: Copy | None = None) -> None:
        held = self.held.get(name)
        if held is None:
            return
        copy = chosen or next((c for c in held if c[0] == card_id), None)
        if copy is None:
            raise RefereeError(f"self-play: {name} played {card_id}, which the dealer's hand does not hold")
        held.remove(copy)
        self.out[name].append(copy)

    def _answered(self, before: State, action: Action) -> None:
        """A prompt answered: a discard from the hand takes the named cards, or random ones."""
        number = action.args.get("prompt")
        prompt = next((p for p in prompts.pending(before) if number is None or p.number == number), None)
        want = (prompt.data or {}).get("discard") if prompt is not None else None
        if not want or not want.get("counted") or want["player"] not in self.held:
            return
        name, answer = want["player"], str(action.args.get("answer"))
        if answer == "done":
            held = self.held[name]
            for _ in range(min(int(want["count"]), len(held))):
                self._leave(name, "", held[self.rng.randrange(len(held))])
            return
        for card_id in (c for c in answer.split(",") if c):
            self._leave(name, card_id)

    def _draw(self, name: str, n: int) -> None:
        pile = self.pile[name]
        for _ in range(min(n, len(pile))):
            copy = pile.pop()
            self.held[name].append(copy)
            self.recent[name].append(copy)
        del self.recent[name][:-16]

    def _put_back(self, name: str, n: int) -> None:
        held, recent = self.held[name], self.recent[name]
        for _ in range(n):
            copy = next((c for c in reversed(recent) if c in held), None)
            if copy is None:
                copy = held[self.rng.randrange(len(held))] if held else None
            if copy is None:
                return
            held.remove(copy)
            if copy in recent:
                recent.remove(copy)
            self.pile[name].append(copy)

    def _return(self, name: str, card_id: str) -> None:
        out = self.out[name]
        copy = next((c for c in reversed(out) if c[0] == card_id), None)
        if copy is not None:
            out.remove(copy)
            self.held[name].append(copy)


def _named_out(state: State, owner: str) -> Counter[str]:
    """The owner's cards the table names outside the hand and draw pile (Real Estate aside)."""
    found: Counter[str] = Counter()
    for piece in state.fields.get("pieces", {}).values():
        if (piece.get("home") or piece.get("owner")) == owner and piece.get("kind") != zones.ESTATE_KIND:
            found[piece.get("card")] += 1
        for mod in piece.get("mods", []):
            if mod.get("by") == owner:
                found[mod.get("card")] += 1
    for key in ("discards", "removed"):
        for e in state.fields.get(key, {}).get(owner, []):
            if e.get("card") and e.get("kind") != zones.ESTATE_KIND:
                found[e["card"]] += 1
    found.pop(None, None)
    return found


def deal(rules: Any, state: State, rng: random.Random) -> Dealer:
    """Shuffle each faction deck by copy and deal the first hands."""
    return Dealer(state, rng)


# ---- the evaluation (heuristic lookahead and search) ------------------------------------------------------


def evaluate(state: State, player: PlayerName) -> float:
    """A player's standing against the strongest other player still in: LIFE
    first, then the board (units by ATK and DEF, Real Estate, Operations),
    coins and cards in hand."""
    if state.winner is not None:
        return WIN if state.winner == player else -WIN
    me = state.player(player)
    if me.eliminated:
        return -WIN
    worth: dict[str, float] = {p.name: 0.0 for p in state.players}
    for piece in state.fields.get("pieces", {}).values():
        owner = piece.get("owner")
        if owner not in worth:
            continue
        kind = piece.get("kind")
        if kind == "unit":
            worth[owner] += 2.0 + 1.5 * (int(piece.get("atk") or 0) + int(piece.get("def") or 0))
        elif kind == zones.ESTATE_KIND:
            worth[owner] += 6.0 + sum((piece.get("coins") or {}).values())
        else:
            worth[owner] += 3.0
    for owner, coins in (state.fields.get("banks") or {}).items():
        if owner in worth:
            worth[owner] += sum(coins.values())

    def standing(p: Any) -> float:
        return float(p.life or 0) + worth[p.name] + 1.0 * int(p.fields.get("hand", 0))

    others = [standing(p) for p in state.players if p.name != me.name and not p.eliminated]
    return standing(me) - (max(others) if others else 0.0) - 5.0 * len(others)
