"""A working copy of a Culture War table that one action edits.

`Board(state)` deep-copies the game's fields, the action edits the copy
through the methods below (each change also leaves a line in `notes`, which
is what the command prints), and `to_state()` freezes it back into a State.
Nothing here reads files or dice: dice come in as a function (`dice`).

The Board keeps the table's state and its primitives: the players and their
life, the pieces in play by handle, where each player's coins are, the
story so far. What works over them is by concern beside it: `pieces` (what
a card becomes in play, finding the piece a scorekeeper typed), `coins`
(coins by faction) and `payments` (gaining, losing and paying capital).

The game's fields (all plain JSON, shown by `status --json`):

    order     {"mode", "settled", "first", "contenders", "rounds"}  the roll-off
    pieces    {"7": piece}     every card in play, by handle (units, Real Estate, Operations)
    banks     {name: {faction: coins}}   capital kept off Real Estate
    timed     [effect]         stat changes that end with the turn or the next battle
    alliances [[a, b]]         allied pairs
    had_turn  [name]           players who have finished a turn (the first turn produces nothing)
    attacks   int              attacks made in the current turn
    begun     bool             a card or battle has been played (the roll-off is then over)
    next      int              the next handle

Each piece also carries `now`, what it counts as at this moment (a unit's
ATK and DEF, a Real Estate's production and capacity), written by
`effects.freeze` for status and scripts; the rules never read it.
"""
from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, Mapping

from referee.rules import facts, prompts
from referee.rules.facts import Fact
from referee.games.culture_war import story
from referee.games.culture_war.table.coins import PLAIN, coins_total
from referee.model import Player, State
from referee.rules.plain import SCALARS, json_key, plain_copy

# What a Board never changes in place, shared with the State it is made from
# instead of copied: the effects printed on a piece or a Mod (read through
# `effects.read`, which copies each one), the piles of discarded and
# removed cards, which only `zones.settle` extends, on lists of its own, and
# the roll-off once it is settled (only an unsettled one is rolled on).
_SHARED_ANYWHERE = "effects"
_SHARED_ON_TOP = frozenset({"discards", "removed"})


def board_copy(fields: Mapping[str, Any]) -> dict[str, Any]:
    """The fields a Board edits: `plain_copy` but for what it never changes in place."""
    return {k if type(k) is str else json_key(k): (v if k in _SHARED_ON_TOP or (k == "order" and v.get("settled"))
                                                else _copy_sharing(v))
            for k, v in fields.items()}


def _copy_sharing(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {k if type(k) is str else json_key(k): (v if type(v) in SCALARS or (k == _SHARED_ANYWHERE and type(v) is list)
                                                        else _copy_sharing(v))
                for k, v in value.items()}
    if kind is list or kind is tuple:
        return [v if type(v) in SCALARS else _copy_sharing(v) for v in value]
    if kind in SCALARS:
        return value
    return json.loads(json.dumps(value))


class Board:
    def __init__(self, state: State, fields: dict[str, Any] | None = None):
        self.base = state
        self.f: dict[str, Any] = board_copy(state.fields) if fields is None else fields
        self.people: dict[str, Player] = {p.name: p for p in state.players}
        self.seats: list[str] = [p.name for p in state.players]
        self.notes: list[Fact] = []  # what the action did, in order (see referee/facts.py)
        self.asks: list[dict[str, Any]] = []  # prompts card effects raised (effects.yaml kinds not applied)
        self._keys: tuple[str, ...] = ()  # the handles `in_order` last sorted, and their order
        self._sorted: list[str] = []
        # while nothing changes on it (effects.static.steady): each kind's static effects found so far
        self.steady_statics: dict[str, list[tuple[str, dict[str, Any], dict[str, Any]]]] | None = None

    @classmethod
    def reading(cls, state: State) -> "Board":
        """A Board over the state's own fields, not a copy: for code that only
        reads (the legal-move generator), which must change nothing through it
        (tests/referee/test_legal_culture_war.py holds it to that)."""
        return cls(state, state.fields)  # type: ignore[arg-type]

    @classmethod
    def taking(cls, state: State) -> "Board":
        """A Board that edits the state's own fields in place, not a copy: only
        for a State nothing else holds, one an action has just frozen and
        goes on with (an end-turn's next player's start of turn)."""
        return cls(state, dict(state.fields))

    def trial(self) -> "Board":
        """A copy to try something on (what `settle` would do now): the
        fields, the players, the story and the prompts so far, each its own;
        the base State is shared (it is frozen)."""
        other = Board(self.base, board_copy(self.f))
        other.people = dict(self.people)
        other.seats = list(self.seats)
        other.notes = list(self.notes)
        other.asks = plain_copy(self.asks)
        return other

    # ---- players -----------------------------------------------------------

    def tell(self, fact: Fact) -> None:
        """Add a fact to the story of the action (worded by story.py)."""
        self.notes.append(fact)

    def note(self, text: str) -> None:
        """Add a line that only tells (a STORY fact) to the story of the action."""
        self.notes.append(facts.story(text))

    @property
    def rules(self) -> Mapping[str, Any]:
        return self.base.house_rules

    @property
    def turn(self) -> int:
        return self.base.turn

    @property
    def active(self) -> str:
        return self.base.active_player.name

    def name(self, text: str) -> str:
        return self.base.player(text).name

    def live(self) -> list[str]:
        return [n for n in self.seats if not self.people[n].eliminated]

    def life(self, name: str) -> int:
        return self.people[name].life or 0

    def change_life(self, name: str, amount: int, why: str) -> int:
        """Add `amount` (negative: lose) to a player's life, never below 0; at 0
        the player is out and their cards leave play."""
        player = self.people[name]
        if player.eliminated or amount == 0:
            return 0
        new = max(0, (player.life or 0) + amount)
        actual = new - (player.life or 0)
        self.people[name] = replace(player, life=new)
        if actual:
            self.tell(story.life(name, actual, why))
        if new == 0:
            self.eliminate(name)
        return actual

    def eliminate(self, name: str) -> None:
        self.people[name] = replace(self.people[name], eliminated=True)
        gone = [h for h, p in self.pieces.items() if p["owner"] == name]
        for h in gone:
            del self.pieces[h]
        self.f["timed"] = [t for t in self.f["timed"] if t.get("player") != name and t.get("handle") not in gone]
        self.f["alliances"] = [pair for pair in self.f["alliances"] if name not in pair]
        if self.f.get("truce"):  # a truce lasts until its player's next turn, which never comes
            self.f["truce"] = [t for t in self.f["truce"] if t["player"] != name]
        if self.f.get("no_income"):
            self.f["no_income"] = [b for b in self.f["no_income"] if b != name and b.lstrip("#") not in gone]
        self.note(f"{name} is out of the game at 0 life; their cards leave play")

    # ---- pieces ------------------------------------------------------------

    @property
    def pieces(self) -> dict[str, dict[str, Any]]:
        return self.f["pieces"]

    def add_piece(self, piece: dict[str, Any]) -> str:
        handle = str(self.f["next"])
        self.f["next"] += 1
        self.pieces[handle] = piece
        return handle

    def in_order(self) -> list[tuple[str, dict[str, Any]]]:
        """Every piece in play, by handle number (the order is worked out
        again only when the handles in play have changed)."""
        pieces = self.pieces
        return [(h, pieces[h]) for h in self._in_order_keys()]

    def _in_order_keys(self) -> list[str]:
        keys = tuple(self.pieces)
        if keys != self._keys:
            self._keys, self._sorted = keys, sorted(keys, key=int)
        return self._sorted

    def owned(self, name: str, kind: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        pieces = self.pieces
        return [(h, p) for h in self._in_order_keys() if (p := pieces[h])["owner"] == name
                and (kind is None or p["kind"] == kind)]

    def label(self, handle: str) -> str:
        piece = self.pieces[handle]
        return f"{piece['owner']}'s #{handle} {piece['name']}"

    def remove(self, handle: str, why: str) -> dict[str, Any]:
        piece = self.pieces.pop(handle)
        self.f["timed"] = [t for t in self.f["timed"] if t.get("handle") != handle]
        self.tell(story.leaves(piece["owner"], handle, piece["name"], f"leaves play ({why})"))
        return piece

    # ---- coins -------------------------------------------------------------

    def bank(self, name: str) -> dict[str, int]:
        return self.f["banks"].setdefault(name, {})

    def own_faction(self, name: str) -> str:
        return self.people[name].faction or PLAIN

    def capital(self, name: str) -> int:
        return coins_total(self.bank(name)) + sum(coins_total(p["coins"]) for _, p in self.owned(name, "estate"))

    def capitals(self) -> dict[str, int]:
        """Every player's `capital`, counted in one pass over the pieces."""
        held = {n: coins_total(self.bank(n)) for n in self.seats}
        for p in self.pieces.values():
            if p["kind"] == "estate" and p["owner"] in held:
                held[p["owner"]] += coins_total(p["coins"])
        return held

    def put(self, name: str, coins: Mapping[str, int]) -> None:
        bank = self.bank(name)
        for faction, n in coins.items():
            if n:
                bank[faction] = bank.get(faction, 0) + n

    def sources(self, name: str) -> list[tuple[str, dict[str, int]]]:
        """Where a player's coins are, in the order they are spent: Real Estate
        holding the most coins first, then the bank (`payments.named_sources`
        reads an order the player names)."""
        estates = sorted(self.owned(name, "estate"), key=lambda hp: (-coins_total(hp[1]["coins"]), int(hp[0])))
        return [(h, p["coins"]) for h, p in estates] + [("bank", self.bank(name))]

    # ---- freezing ----------------------------------------------------------

    def to_state(self, **changes: Any) -> State:
        """The board frozen back into a State: capital recounted, the winner
        named once one player is left (or a card says who won), card prompts
        raised. The rules freeze a board with `effects.freeze`, which also
        writes each piece's `now` first (it needs the card effects)."""
        held = self.capitals()
        players = tuple(_with_capital(self.people[n], held[n]) for n in self.seats)
        won = self.f.pop("won_by", None)
        state = replace(self.base, players=players, fields=self.f, **changes)
        standing = [p for p in players if not p.eliminated]
        if won and state.winner is None:
            state = replace(state, winner=won)
        if len(standing) == 1 and state.winner is None:
            state = replace(state, winner=standing[0].name)
        for ask in self.asks:
            state = prompts.ask(state, ask["player"], ask["card_id"], ask["card"], ask["moment"], ask["text"],
                                enter=ask.get("enter"), commands=ask.get("commands", ("discard-hand", "draw", "discard")),
                                choices=ask.get("choices", ()), data=ask.get("data"))
        return state


def _with_capital(player: Player, capital: int) -> Player:
    return player if player.capital == capital else replace(player, capital=capital)
