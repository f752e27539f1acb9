"""What Culture War cards in play do all the time: stats, traits, costs and
production, read from each card's `effects` (card_sources/culture-war/effects.yaml).

An effect is {kind, when?, ...params}. The kinds that act at a moment (gain,
lose, roll, draw ...) are carried out by `handlers`; the static kinds are
read here whenever the rules ask:

- `stats` (while in play: who = this, attached, your-units, enemy-units,
  with a unit type, `other`, a battle role), `stats-while` (while you control
  N other units / no other units / another of a type), `stats-per` (per other
  unit with a trait), and the timed changes cards made (`board.f["timed"]`);
- `trait` (Cyber, Hero, cannot attack, cannot attack the turn it is played,
  immune to Mods and Operations, ...);
- `cost` (a card type, yours or your opponents', with a minimum);
- `production` (Mods on Real Estate), `produce-if`, `no-income`.

An Operation with a `disable` Mod on it does nothing. A unit with trait
`immune` ignores Mods and Operations. Every contribution is returned with
its source's name, so status and battle lines can show them, and every
static effect that counts is recorded in TRACE (for the walk-every-card test).

Cards logged before effects.yaml ({stat, amount, target, when, duration})
are read through `legacy`, so old tables replay.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterable, Iterator, Mapping

from referee.games.culture_war.table.board import Board
from referee.games.culture_war.table.pieces import DEFAULT_CAPACITY, DEFAULT_PRODUCTION
from referee.games.culture_war.table.zones import estates_held
from referee.model import State
from referee.rules.unseen import for_people

STATIC = (None, "while-in-play")
TRACE: list[tuple[str | None, str]] = []  # (card id, kind) of effects that acted; tests read and clear it


def trace(card: str | None, kind: str) -> None:
    if len(TRACE) < 10000:
        TRACE.append((card, kind))


# ---- reading effects --------------------------------------------------------------

_LEGACY_WHO = {"self": "this", "attached": "attached", "own-units": "your-units", "enemy-units": "enemy-units",
               "target-unit": "target-unit"}
_LEGACY_PLAYER = {"owner": "you", "opponent": "that-player", "all-opponents": "each-opponent",
                  "all-players": "each-player", "target-player": "target-player"}


def legacy(effect: Mapping[str, Any]) -> dict[str, Any] | None:
    """An effect in the old {stat, amount, target} form, in today's vocabulary."""
    stat, amount, target = effect.get("stat"), int(effect.get("amount") or 0), effect.get("target", "")
    when = effect.get("when") or "while-in-play"
    if stat in ("atk", "def") and target in _LEGACY_WHO:
        out: dict[str, Any] = {"kind": "stats", "who": _LEGACY_WHO[target], stat: amount, "when": when}
        if when == "on-attack" and target != "target-unit":
            out.update(when="while-in-play", role="attacking")
        elif when == "on-defend":
            out.update(when="while-in-play", role="defending")
        elif when == "on-attack":
            out["who"] = "enemy-unit"
            out["duration"] = "battle"
        duration = effect.get("duration")
        if when not in STATIC and duration in ("turn", "battle", "permanent") and "duration" not in out:
            out["duration"] = "game" if duration == "permanent" else duration
        return out
    if stat in ("life", "capital") and target in _LEGACY_PLAYER and amount:
        who = _LEGACY_PLAYER[target]
        if amount > 0 and who == "you":
            return {"kind": "gain", "what": stat, "amount": amount, "when": when}
        if amount < 0:
            return {"kind": "lose", "what": stat, "amount": -amount, "who": who, "when": when}
        return None
    if stat == "cost":
        return {"kind": "cost", "amount": amount, "of": "units",
                "whose": "opponents" if target == "enemy-units" else "yours", "min": 1, "when": when}
    if stat == "production" and target == "attached":
        return {"kind": "production", "amount": amount, "when": when}
    if stat == "capacity" and target == "attached":
        return {"kind": "capacity", "amount": amount, "when": when}
    return None


def read(effects: Iterable[Mapping[str, Any]] | None) -> list[dict[str, Any]]:
    """A card's effects as plain dicts in today's vocabulary."""
    out = []
    for e in effects or ():
        if "kind" in e:
            out.append(dict(e))
        else:
            new = legacy(e)
            if new is not None:
                out.append(new)
    return out


def when_of(effect: Mapping[str, Any]) -> str:
    return effect.get("when") or "while-in-play"


def disabled(piece: Mapping[str, Any]) -> bool:
    """An Operation carrying a Mod that says it does nothing."""
    if piece.get("kind") != "operation":
        return False
    for m in piece.get("mods", []):
        if any(e["kind"] == "disable" for e in read(m.get("effects"))):
            trace(m.get("card"), "disable")
            return True
    return False


def live_effects(piece: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [] if disabled(piece) else read(piece.get("effects"))


def pieces(board: Board) -> Iterator[tuple[str, dict[str, Any]]]:
    return iter(board.in_order())


def statics(board: Board, kind: str) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(handle, piece, effect) for every static effect of `kind` on a card in play (Mods excluded)."""
    memo = board.steady_statics
    if memo is None:
        return _statics(board, kind)
    if kind not in memo:
        memo[kind] = list(_statics(board, kind))
    return iter(memo[kind])


@contextmanager
def steady(board: Board) -> Iterator[None]:
    """While the caller changes nothing on `board` but what `statics` never
    reads (a piece's `now`): each kind's static effects are found once
    (`freeze` reading every piece's stats; the legal-move generator), kept
    on the board itself (`Board.steady_statics`) while it stands still."""
    if board.steady_statics is not None:
        yield
        return
    board.steady_statics = {}
    try:
        yield
    finally:
        board.steady_statics = None


def _statics(board: Board, kind: str) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    for handle, piece in pieces(board):
        for e in live_effects(piece):
            if e["kind"] == kind and e.get("when") in STATIC:
                yield handle, piece, e


def mod_effects(piece: Mapping[str, Any], kind: str) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    for mod in piece.get("mods", []):
        for e in read(mod.get("effects")):
            if e["kind"] == kind and e.get("when") in STATIC:
                yield mod, e


# ---- traits ---------------------------------------------------------------------------


def has_trait(board: Board, handle: str, trait: str) -> bool:
    piece = board.pieces[handle]
    if trait in (piece.get("traits") or []):
        return True
    for e in live_effects(piece):
        if e["kind"] == "trait" and e["trait"] == trait and e.get("who") in (None, "this"):
            trace(piece.get("card"), "trait")
            return True
    if trait != "immune" and not has_trait(board, handle, "immune"):
        for mod, e in mod_effects(piece, "trait"):
            if e["trait"] == trait:
                trace(mod.get("card"), "trait")
                return True
    return False


def cyber(board: Board, handle: str) -> bool:
    return has_trait(board, handle, "cyber")


def hero(board: Board, handle: str) -> bool:
    return has_trait(board, handle, "hero")


# ---- unit stats ---------------------------------------------------------------------------


def _fits(e: Mapping[str, Any], unit: Mapping[str, Any], role: str | None) -> bool:
    if e.get("unit_type") and (unit.get("unit_type") or "").lower() != str(e["unit_type"]).lower():
        return False
    wanted = e.get("role")
    return wanted is None or (wanted == "attacking" and role == "attack") or (wanted == "defending" and role == "defend")


def _others(board: Board, handle: str) -> list[dict[str, Any]]:
    owner = board.pieces[handle]["owner"]
    return [p for h, p in board.owned(owner, "unit") if h != handle]


def unit_stat_parts(board: Board, handle: str, stat: str, role: str | None = None,
                    foe: str | None = None) -> tuple[int, list[tuple[int, str]]]:
    """A unit's ATK or DEF now, and what changed it: (total, [(amount, source)]).
    `role` is "attack" or "defend" inside a battle, where `foe` is the other unit."""
    parts = _stat_parts(board, handle, (stat,), role)[stat]
    return _total(board, board.pieces[handle], stat, parts), parts


def unit_stats(board: Board, handle: str) -> dict[str, int]:
    """A unit's ATK and DEF now, outside a battle, found in one pass (what `freeze` shows)."""
    parts = _stat_parts(board, handle, ("atk", "def"), None)
    unit = board.pieces[handle]
    return {stat: _total(board, unit, stat, found) for stat, found in parts.items()}


def _total(board: Board, unit: Mapping[str, Any], stat: str, parts: list[tuple[int, str]]) -> int:
    floor = int(board.rules.get("stat-floor", 0))
    return max(floor, unit[stat] + sum(a for a, _ in parts))


def _stat_parts(board: Board, handle: str, stats: tuple[str, ...],
                role: str | None) -> dict[str, list[tuple[int, str]]]:
    """What changes each of `stats` of a unit now: {stat: [(amount, source)]}."""
    unit = board.pieces[handle]
    owner = unit["owner"]
    immune = has_trait(board, handle, "immune")
    found: dict[str, list[tuple[int, str]]] = {stat: [] for stat in stats}

    def add(e: Mapping[str, Any], source: Mapping[str, Any], kind: str) -> None:
        for stat in stats:
            amount = e.get(stat)
            if amount:
                found[stat].append((int(amount), source["name"]))
                trace(source.get("card"), kind)

    adj = unit.get("adj", {})
    for stat in stats:
        if adj.get(stat):
            found[stat].append((adj[stat], "lasting changes"))
    if not immune:
        for mod, e in mod_effects(unit, "stats"):
            if e.get("who") == "attached" and _fits(e, unit, role):
                add(e, mod, "stats")
    for e in live_effects(unit):
        if e.get("when") not in STATIC:
            continue
        if e["kind"] == "stats" and e.get("who") == "this" and _fits(e, unit, role):
            add(e, unit, "stats")
        elif e["kind"] == "stats-while":
            others = _others(board, handle)
            if e.get("unit_type"):
                others = [p for p in others if (p.get("unit_type") or "").lower() == e["unit_type"].lower()]
            n = int(e["others"])
            if (n == 0 and not others) or (n > 0 and len(others) >= n):
                add(e, unit, "stats-while")
        elif e["kind"] == "stats-per" and e["stat"] in stats:
            others = [h for h, p in board.owned(owner, "unit") if h != handle
                      and (not e.get("trait") or has_trait(board, h, e["trait"]))]
            amount = int(e["amount"]) * len(others)
            if amount:
                found[e["stat"]].append((amount, unit["name"]))
                trace(unit.get("card"), "stats-per")
    for src_handle, src, e in statics(board, "stats"):
        if not any(e.get(stat) for stat in stats):
            continue  # changes none of them: whether it reaches this unit does not matter
        if shielded(board, handle, src["owner"], card_type(src)):
            continue
        who = e.get("who")
        mine = src["owner"] == owner
        if not ((who == "your-units" and mine) or (who == "enemy-units" and not mine)):
            continue
        if e.get("other") and src_handle == handle:
            continue
        if _fits(e, unit, role):
            add(e, src, "stats")
    for t in board.f["timed"]:
        if t["stat"] not in found or (t["until"] == "battle" and role is None):
            continue
        if t.get("type") and t["scope"] != "unit" and shielded(board, handle, t["player"], t["type"]):
            continue
        scope = t["scope"]
        if (scope == "unit" and t.get("handle") == handle) or \
                (scope == "own-units" and t.get("player") == owner) or \
                (scope == "enemy-units" and t.get("player") != owner):
            found[t["stat"]].append((t["amount"], t["source"]))
    return found


def stat_text(total: int, base: int, parts: list[tuple[int, str]], word: str) -> str:
    """'ATK 5 (4 printed, +1 Algorithmic Rule)'."""
    bits = ", ".join(f"{a:+d} {s}" for a, s in parts if a)
    return f"{word} {total} ({base} printed, {bits})" if bits else f"{word} {total}"


# ---- costs ------------------------------------------------------------------------------

COST_OF = {"units": ("unit",), "flashes": ("flash",), "happenings": ("happening",), "operations": ("operation",),
           "mods-and-operations": ("mod", "operation"), "other-operations": ("operation",),
           "real-estate": ("real-estate",)}


def cost_parts(board: Board, player: str, kind: str, base: int) -> tuple[int, list[tuple[int, str]]]:
    """What a card of type `kind` printed at `base` costs `player` now, and why."""
    parts: list[tuple[int, str]] = []
    floor = 0
    for _, src, e in statics(board, "cost"):
        if kind not in COST_OF.get(e["of"], ()):
            continue
        mine = src["owner"] == player
        if (e["whose"] == "yours") != mine:
            continue
        parts.append((int(e["amount"]), src["name"]))
        trace(src.get("card"), "cost")
        if int(e["amount"]) < 0:
            floor = max(floor, int(e.get("min") or 0))
    total = base + sum(a for a, _ in parts)
    if total < base:
        total = max(total, min(base, floor))
    return max(0, total), parts


def pay_text(total: int, base: int, parts: list[tuple[int, str]]) -> str:
    """The why of a payment, '3 printed, -1 Gig Economy' (empty when nothing changed the cost)."""
    bits = ", ".join(f"{a:+d} {s}" for a, s in parts if a)
    return f"{base} printed, {bits}" if bits else ""


def estate_base(board: Board, player: str) -> int:
    """The n-th Real Estate a player owns costs n (the first, from setup, is
    free); with house rule estate-price=bought, n counts every Real Estate
    the player has had, so one lost does not make the next cheaper."""
    if board.rules.get("estate-price") == "bought":
        return estates_held(board.f, player) + 1
    return len(board.owned(player, "estate")) + 1


def estate_cost(board: Board, player: str) -> int:
    return cost_parts(board, player, "real-estate", estate_base(board, player))[0]


# ---- Real Estate ---------------------------------------------------------------------------


def production(piece: Mapping[str, Any], board: Board | None = None) -> int:
    base = piece.get("production")
    base = DEFAULT_PRODUCTION if base is None else base
    if board is not None:
        for e in live_effects(piece):
            if e["kind"] == "produce-if" and len(board.owned(piece["owner"], "unit")) < int(e["units"]):
                trace(piece.get("card"), "produce-if")
                return 0
    return max(0, base + _attached(piece, "production"))


def capacity(piece: Mapping[str, Any]) -> int:
    base = piece.get("capacity") or DEFAULT_CAPACITY
    return max(0, base + _attached(piece, "capacity"))


def _attached(piece: Mapping[str, Any], kind: str) -> int:
    total = 0
    for mod, e in mod_effects(piece, kind):
        total += int(e["amount"])
        trace(mod.get("card"), kind)
    return total


def protected(board: Board, handle: str, by: str) -> str | None:
    """The card that keeps `by`'s cards off this piece, if any: a `protected`
    trait (Heritage Listing, Iron-Clad Contract) against an enemy, or
    `no-mods` (checked by the caller for Mods)."""
    piece = board.pieces[handle]
    if piece["owner"] == by:
        return None
    for mod, e in mod_effects(piece, "trait"):
        if e["trait"] == "protected":
            trace(mod.get("card"), "trait")
            return mod["name"]
    for e in live_effects(piece):
        if e["kind"] == "trait" and e["trait"] == "protected" and e.get("who") in (None, "this") \
                and e.get("when") in STATIC:
            trace(piece.get("card"), "trait")
            return str(piece["name"])
    return None


# ---- protection: one rule every effect kind consults ------------------------------------

PIECE_TYPE = {"unit": "unit", "estate": "real-estate", "operation": "operation"}


def card_type(card: Mapping[str, Any]) -> str | None:
    """A source's card type: a card being played has `type`, a piece in play `kind`, a Mod `by`."""
    if card.get("type"):
        return str(card["type"])
    if "by" in card and "kind" not in card:
        return "mod"
    return PIECE_TYPE.get(card.get("kind") or "")


def shielded(board: Board, handle: str, by: str | None, kind: str | None,
             targeted: bool = False) -> tuple[str, str] | None:
    """Why a card of type `kind` played by `by` cannot affect piece `handle`:
    (the protecting card's name, the reason in words), or None when it can.
    The one rule for protection, consulted by every effect that touches a
    piece (its stats, control, coins, production, its leaving play, a Mod on it):

    - `protected` (Heritage Listing, Iron-Clad Contract): no enemy card affects it;
    - `immune`: no Mod or Operation affects it, its owner's included;
    - `no-flash-target`: no Flash names it as its target;
    - `no-mods`: no Mod is attached to it (asked for as kind "mod-attach")."""
    piece = board.pieces[handle]
    label = board.label(handle)
    if by is not None:
        guard = protected(board, handle, by)
        if guard:
            return guard, f"{guard} keeps enemy cards off {label}"
    attach = kind == "mod-attach"
    if piece["kind"] == "unit" and (kind in ("mod", "operation") or attach) and has_trait(board, handle, "immune"):
        return piece["name"], f"Mods and Operations cannot affect {label}"
    if targeted and kind == "flash" and piece["kind"] == "unit" and has_trait(board, handle, "no-flash-target"):
        return piece["name"], f"Flash events cannot target {label}"
    if attach and any(e["kind"] == "trait" and e["trait"] == "no-mods" for e in live_effects(piece)):
        trace(piece.get("card"), "trait")
        return piece["name"], f"no Mod can be attached to {label}"
    return None


def freeze(board: Board, **changes: Any) -> State:
    """The board back into a State (Board.to_state), each piece first given
    `now`: what the card counts as at this moment (a unit's ATK and DEF with
    every effect, a Real Estate's production and capacity), for status and
    scripts. Every Culture War action ends here. Inside `unseen()` (self-play)
    no piece is given `now`: no rule and no agent reads it."""
    if not for_people():
        return board.to_state(**changes)
    with steady(board):
        for handle, piece in board.pieces.items():
            if piece["kind"] == "unit":
                piece["now"] = unit_stats(board, handle)
            elif piece["kind"] == "estate":
                piece["now"] = {"production": production(piece, board), "capacity": capacity(piece)}
    return board.to_state(**changes)
