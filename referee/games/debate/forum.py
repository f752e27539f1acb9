"""The forum as plain data, and the round-end arithmetic (pure functions).

`fields["forum"]` maps each player's name to 7 slots (threads 1-7 on their
side of the board); a slot is null or
    {"argument": card, "devices": [card, ...], "mods": [mod, ...]}
where a card is a dict from cards.entry plus "owner" (who played it) and a
mod is {"stat": "strength" | "cost", "amount": n, "source": name} put on the
argument by an instant ability. `fields["columns"]` maps each name to 7
column bonuses (abilities that belong to a thread, not to a card), and
`fields["protected"]` lists {"thread", "by"}: threads the opponent of "by"
cannot touch this round.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Sequence

THREADS = 7
CROWD_LIMIT = 30
TOWARD = {"mob": -1, "citizen": 1}


def half_away(value: Fraction) -> int:
    """Round to the nearest whole number, halves away from zero (8.5 -> 9, -8.5 -> -9)."""
    magnitude = (abs(value) * 2 + 1) // 2
    return int(magnitude if value >= 0 else -magnitude)


def crowd_factor(crowd: int, alignment: str) -> Fraction:
    """The crowd buffs its own side by its percent and nerfs the other side."""
    percent = crowd if alignment == "gf" else -crowd
    return Fraction(100 + percent, 100)


def crowd_strength(strength: int, crowd: int, alignment: str) -> int:
    return half_away(strength * crowd_factor(crowd, alignment))


def clamp_crowd(value: int) -> int:
    return max(-CROWD_LIMIT, min(CROWD_LIMIT, value))


def sign_of(alignment: str) -> int:
    return -1 if alignment == "bf" else 1


def empty_forum(names: Sequence[str]) -> dict[str, list[Any]]:
    return {name: [None] * THREADS for name in names}


def opponent(names: Sequence[str], name: str) -> str:
    return names[1] if names[0] == name else names[0]


# ---- crowd work at round end ----------------------------------------------------


@dataclass(frozen=True)
class CrowdWork:
    label: str
    amount: int


def device_work(device: Mapping[str, Any], host_alignment: str, potus: Mapping[str, Any] | None) -> int:
    """A device's passive 1 point toward its argument's side, plus any POTUS
    passive that adds to it (a passive POTUS with crowd_toward "aligned")."""
    extra = 0
    if potus and potus.get("uses") == "passive" and potus.get("crowd_toward") == "aligned":
        extra = int(potus.get("crowd_shift") or 0)
    return sign_of(host_alignment) * (1 + extra)


def crowd_work(forum: Mapping[str, Sequence[Any]], potus: Mapping[str, Any]) -> list[CrowdWork]:
    """Every crowd shift that resolves at round end, from what is still in the forum."""
    out = []
    for name, slots in forum.items():
        for thread, slot in enumerate(slots, start=1):
            if not slot:
                continue
            arg = slot["argument"]
            if arg.get("timing") == "round-end" and arg.get("crowd_shift") and arg.get("crowd_toward") in (
                    "mob", "citizen", "aligned"):
                toward = arg["crowd_toward"]
                sign = sign_of(arg["alignment"]) if toward == "aligned" else TOWARD[toward]
                out.append(CrowdWork(f"{arg['name']} ({name}, thread {thread})", sign * int(arg["crowd_shift"])))
            for device in slot["devices"]:
                amount = device_work(device, arg["alignment"], potus.get(device.get("owner", name)))
                out.append(CrowdWork(f"{device['name']} on {arg['alignment'].upper()} ({name}, thread {thread})",
                                     amount))
    return out


def projected_crowd(crowd: int, forum: Mapping[str, Sequence[Any]], potus: Mapping[str, Any]) -> int:
    return clamp_crowd(crowd + sum(w.amount for w in crowd_work(forum, potus)))


# ---- the round-end report --------------------------------------------------------


@dataclass(frozen=True)
class Side:
    player: str
    argument: str | None  # name, or None for an empty side
    alignment: str | None
    printed: int
    crowd: int  # printed strength after the crowd
    potus: int  # the POTUS alignment bonus
    ability: int  # strength changes from abilities
    strength: int  # the argument's strength after all of those (never below 0)
    devices: int  # strength of the devices on it
    column: int  # bonuses that belong to the thread
    total: int
    cost: int

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Thread:
    number: int
    sides: tuple[Side, Side]
    overage: int
    hits: str | None  # the player who loses `overage` fortitude

    def to_json(self) -> dict[str, Any]:
        return {"thread": self.number, "sides": [s.to_json() for s in self.sides],
                "overage": self.overage, "hits": self.hits}


@dataclass(frozen=True)
class Report:
    round: int
    crowd_before: int
    work: tuple[CrowdWork, ...]
    crowd: int
    threads: tuple[Thread, ...]
    damage: Mapping[str, int]
    costs: Mapping[str, int]
    fortitude_before: Mapping[str, int]
    fortitude: Mapping[str, int]
    winner: str | None
    tiebreaker: bool
    back_to_hand: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round, "crowd_before": self.crowd_before,
            "crowd_work": [{"from": w.label, "shift": w.amount} for w in self.work],
            "crowd": self.crowd, "threads": [t.to_json() for t in self.threads],
            "overage_taken": dict(self.damage), "costs": dict(self.costs),
            "fortitude_before": dict(self.fortitude_before), "fortitude": dict(self.fortitude),
            "winner": self.winner, "tiebreaker": self.tiebreaker, "back_to_hand": list(self.back_to_hand),
        }


def _round_end_mods(forum: Mapping[str, Sequence[Any]], names: Sequence[str]) -> dict[tuple[str, int], list[dict]]:
    """Strength and cost changes of abilities that resolve at round end (those
    of tactics still in the forum), keyed by the (side, thread) they hit."""
    out: dict[tuple[str, int], list[dict]] = {}
    for name, slots in forum.items():
        for i, slot in enumerate(slots):
            if not slot:
                continue
            for card, on_argument in [(slot["argument"], True), *((d, False) for d in slot["devices"])]:
                if card.get("timing") != "round-end":
                    continue
                for effect in card.get("effects") or ():
                    where = effect.get("target")
                    if card.get("target") == "facing-argument" and where == "target-unit":
                        key = (opponent(names, name), i)
                    elif where == "attached" or (where == "target-unit" and card.get("target") == "self"
                                                 and on_argument):
                        key = (name, i)
                    else:
                        continue
                    out.setdefault(key, []).append(
                        {"stat": effect["stat"], "amount": int(effect["amount"]), "source": card["name"]})
    return out


def side_of(name: str, slot: Any, thread: int, crowd: int, potus: Mapping[str, Any] | None,
            column: int, late: Sequence[dict]) -> Side:
    if not slot:
        return Side(name, None, None, 0, 0, 0, 0, 0, 0, column, max(0, column), 0)
    arg = slot["argument"]
    mods = [*slot["mods"], *late]
    printed = int(arg["strength"])
    scaled = crowd_strength(printed, crowd, arg["alignment"])
    bonus = int((potus or {}).get(f"{arg['alignment']}_bonus", 0))
    ability = sum(m["amount"] for m in mods if m["stat"] == "strength")
    strength = max(0, scaled + bonus + ability)
    devices = sum(int(d["strength"]) for d in slot["devices"])
    cost = max(0, int(arg["cost"]) + sum(m["amount"] for m in mods if m["stat"] == "cost"))
    cost += sum(int(d["cost"]) for d in slot["devices"])
    total = max(0, strength + devices + column)
    return Side(name, arg["name"], arg["alignment"], printed, scaled, bonus, ability, strength, devices,
                column, total, cost)


def round_end(fields: Mapping[str, Any], names: Sequence[str], crowd_now: int,
              fortitude: Mapping[str, int], round_number: int, tiebreaker: bool) -> Report:
    """Everything round end decides, in the rulebook's order: crowd work, the
    crowd's scaling, POTUS bonuses and abilities, thread totals, overage per
    column, costs, and whether the match is over."""
    forum = fields["forum"]
    potus = fields.get("potus") or {}
    work = tuple(crowd_work(forum, potus))
    crowd = clamp_crowd(crowd_now + sum(w.amount for w in work))
    late = _round_end_mods(forum, names)
    columns = fields.get("columns") or {}
    threads = []
    damage = {n: 0 for n in names}
    costs = {n: 0 for n in names}
    for i in range(THREADS):
        sides = tuple(
            side_of(n, forum[n][i], i + 1, crowd, potus.get(n), int((columns.get(n) or [0] * THREADS)[i]),
                    late.get((n, i), ()))
            for n in names
        )
        a, b = sides
        overage, hits = abs(a.total - b.total), None
        if a.total > b.total:
            hits = b.player
        elif b.total > a.total:
            hits = a.player
        if hits:
            damage[hits] += overage
        for side in sides:
            costs[side.player] += side.cost
        if a.argument or b.argument or a.total or b.total:
            threads.append(Thread(i + 1, sides, overage if hits else 0, hits))  # type: ignore[arg-type]
    after = {n: fortitude[n] - damage[n] - costs[n] for n in names}
    winner, again = None, False
    if tiebreaker or min(after.values()) <= 0:
        x, y = (after[n] for n in names)
        if x == y:
            again = True
        else:
            winner = names[0] if x > y else names[1]
    back = []
    for name in names:
        for slot in forum[name]:
            if not slot:
                continue
            for card in [slot["argument"], *slot["devices"]]:
                if card.get("action") == "return-to-hand" and card.get("target") == "self":
                    back.append(f"{card['name']} -> {card.get('owner', name)}'s hand")
    return Report(round_number, crowd_now, work, crowd, tuple(threads), damage, costs, dict(fortitude), after,
                  winner, again, tuple(back))
