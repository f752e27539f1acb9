"""A scratch copy of the table that rules change step by step, then turn
back into a State. Only rules code uses it; nothing here touches files."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from referee.errors import RuleViolation
from referee.games.divide_and_conquer import printed
from referee.games.divide_and_conquer.phases import phase_of
from referee.games.divide_and_conquer.zones import places, score, value
from referee.model import State
from referee.rules.plain import plain_copy


@dataclass
class Work:
    fields: dict[str, Any]
    hands: dict[str, int]
    names: list[str]
    notes: list[str] = field(default_factory=list)
    drawn: dict[str, int] = field(default_factory=dict)  # cards each player has drawn from the deck
    strict: bool = True  # False while applying a logged action: this version's new checks are skipped
    asks: list[dict[str, Any]] = field(default_factory=list)  # picks a player must make (become prompts)

    @classmethod
    def of(cls, state: State) -> "Work":
        return cls(_copy_fields(state.fields),
                   {p.name: int(p.fields.get("hand", 0)) for p in state.players},
                   [p.name for p in state.players], [], {p.name: int(p.fields.get("drawn", 0)) for p in state.players})

    def claim(self, card: dict[str, Any], player: str) -> None:
        """`player` puts a card down: a printed copy of it must be free."""
        if self.strict:
            printed.claim(self.fields, card, player)

    def spend(self, name: str, count: int, what: str) -> None:
        """Cards leave `name`'s hand (the referee counts them; it cannot see them)."""
        if count > self.hands[name]:
            raise RuleViolation("cards come from the hand", f"{name} has {self.hands[name]} card"
                                f"{'' if self.hands[name] == 1 else 's'} in hand, and {what} needs {count}"
                                " (correct the count with `hand` if it is wrong)")
        self.hands[name] -= count

    def discard_from_hand(self, name: str, count: int) -> int:
        """Up to `count` unseen cards go from a hand to the discard pile; how many did."""
        dropped = min(count, self.hands[name])
        self.hands[name] -= dropped
        self.fields["hidden_discards"] = int(self.fields.get("hidden_discards") or 0) + dropped
        return dropped

    def draw(self, name: str, count: int = 1, by_event: bool = False) -> int:
        """`name` draws up to `count` cards while the deck lasts; how many they drew.
        Who drew the last card, and whether an event made them, is kept."""
        drawn = min(count, int(self.fields["deck"]))
        if drawn:
            self.fields["deck"] -= drawn
            self.hands[name] += drawn
            self.drawn[name] = self.drawn.get(name, 0) + drawn
            if self.fields["deck"] == 0:
                self.fields["last_drawer"] = name
                self.fields["last_card_by_event"] = by_event
        return drawn

    def state(self, state: State) -> State:
        players = []
        for p in state.players:
            live = score(self.fields["bases"][p.name])
            players.append(replace(p, fields={"hand": self.hands[p.name], "drawn": self.drawn.get(p.name, 0), **live}))
        fields = {**self.fields, "groups": where(self.fields)}
        fields["phase"] = phase_of(fields).value  # the same words as rules.phase(state), for status --json
        return replace(state, players=tuple(players), fields=fields)


def _group(g: dict[str, Any]) -> dict[str, Any]:
    return {**g, "attached": [dict(a) for a in g["attached"]]}


BIG = ("bases", "unaffiliated", "discard", "groups")


def _copy_fields(fields: Any) -> dict[str, Any]:
    """A deep copy of the table's fields (plain JSON) that rules may change:
    the groups (dicts of words and numbers, with their attachments) copied
    by shape, the rest as plain JSON data; the `groups` summary is rebuilt by
    `state`, never changed in place, so it is shared."""
    rest = plain_copy({k: v for k, v in fields.items() if k not in BIG})
    out = {}
    for k, v in fields.items():
        if k == "bases":
            out[k] = {n: [_group(g) for g in gs] for n, gs in v.items()}
        elif k == "unaffiliated":
            out[k] = [_group(g) for g in v]
        elif k == "discard":
            out[k] = list(v)
        elif k == "groups":
            out[k] = v
        else:
            out[k] = rest[k]
    return out


def where(fields: dict[str, Any]) -> dict[str, Any]:
    """Every group by ref: its card, where it lies (a player's name,
    "unaffiliated", "attack team" or "defence"), its value at the final count
    and the ids of the cards on it. A summary for `status --json`."""
    out: dict[str, Any] = {}
    lists = [(owner or "unaffiliated", groups) for owner, groups in places(fields)]
    attack = fields.get("attack") or {}
    lists += [("attack team", attack.get("team") or []), ("defence", attack.get("defence") or [])]
    for at, groups in lists:
        for g in groups:
            out[g["ref"]] = {"id": g["id"], "at": at, "value": value(g), "attached": [a["id"] for a in g["attached"]]}
    return out
