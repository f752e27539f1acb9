"""The machine-readable `effects` of Culture War cards, applied to a Board.

An effect is {stat, amount, target, when?, duration?} (docs/card-sources.md).
What the referee does with each:

- stats of units (atk, def): Mods add theirs to the unit they are attached
  to; units, Real Estate and Operations in play add `while-in-play` effects
  to own-units / enemy-units / all-units; `on-attack` and `on-defend`
  effects count only in a battle, for the unit in that role; Flash and
  Happening effects last the turn, the next battle, or for good (`duration`).
- cost: `while-in-play` cost effects change what units cost (never below 1).
- production, capacity: Mods attached to Real Estate.
- life, capital: applied when their moment comes (on-play, start-of-turn,
  on-attack, on-defend, on-kill, on-death) to owner, opponent,
  all-opponents, all-players or a target player.

Card text that is not in `effects` is for the table to carry out with the
plain commands (life, capital, discard).
"""
from __future__ import annotations

from typing import Any, Mapping

from referee.games.culture_war.board import DEFAULT_CAPACITY, DEFAULT_PRODUCTION, Board

UNIT_STATS = ("atk", "def")
STATIC = (None, "while-in-play")


def _hits(target: str, src_owner: str, src_handle: str | None, owner: str, handle: str) -> bool:
    if target == "own-units":
        return src_owner == owner
    if target == "enemy-units":
        return src_owner != owner
    if target == "all-units":
        return True
    if target == "self":
        return src_handle == handle
    return False


def unit_stat_parts(board: Board, handle: str, stat: str, role: str | None = None,
                    foe: str | None = None) -> tuple[int, list[tuple[int, str]]]:
    """A unit's ATK or DEF now, and what changed it: (total, [(amount, source)]).
    `role` is "attack" or "defend" inside a battle, where `foe` is the other unit."""
    unit = board.pieces[handle]
    owner = unit["owner"]
    parts: list[tuple[int, str]] = []
    if unit.get("adj", {}).get(stat):
        parts.append((unit["adj"][stat], "lasting changes"))
    for mod in unit.get("mods", []):
        for e in mod.get("effects", []):
            if e["stat"] == stat and e.get("target") == "attached" and e.get("when") in STATIC:
                parts.append((e["amount"], mod["name"]))
    for src_handle, src in sorted(board.pieces.items(), key=lambda kv: int(kv[0])):
        for e in src.get("effects", []):
            if e["stat"] != stat:
                continue
            when, target = e.get("when"), e.get("target", "")
            if when in STATIC and _hits(target, src["owner"], src_handle, owner, handle):
                parts.append((e["amount"], src["name"]))
            elif role == "attack" and when == "on-attack" and _hits(target, src["owner"], src_handle, owner, handle):
                parts.append((e["amount"], src["name"]))
            elif role == "defend" and when == "on-defend" and _hits(target, src["owner"], src_handle, owner, handle):
                parts.append((e["amount"], src["name"]))
            elif role == "defend" and when == "on-attack" and target == "target-unit" and src_handle == foe:
                parts.append((e["amount"], src["name"]))
    for t in board.f["timed"]:
        if t["stat"] != stat or (t["until"] == "battle" and role is None):
            continue
        scope = t["scope"]
        if (scope == "unit" and t.get("handle") == handle) or \
                (scope == "own-units" and t.get("player") == owner) or \
                (scope == "enemy-units" and t.get("player") != owner):
            parts.append((t["amount"], t["source"]))
    floor = int(board.rules.get("stat-floor", 0))
    return max(floor, unit[stat] + sum(a for a, _ in parts)), parts


def unit_stat(board: Board, handle: str, stat: str, role: str | None = None, foe: str | None = None) -> int:
    return unit_stat_parts(board, handle, stat, role, foe)[0]


def card_cost(board: Board, player: str, card: Mapping[str, Any]) -> int:
    """What a card costs `player` now. Cost effects in play change units'
    costs; a reduction never takes a unit below 1."""
    base = int(card.get("cost") or 0)
    if card["type"] != "unit":
        return base
    total = base
    for src in board.pieces.values():
        for e in src.get("effects", []):
            if e["stat"] == "cost" and e.get("when") in STATIC and \
                    _hits(e.get("target", ""), src["owner"], None, player, ""):
                total += e["amount"]
    if total < base:
        total = max(total, min(base, 1))
    return max(0, total)


def estate_cost(board: Board, player: str) -> int:
    """The n-th Real Estate a player owns costs n (the first, from setup, is
    free); with house rule estate-price=bought, n counts every Real Estate
    the player has had, so one lost does not make the next cheaper."""
    if board.rules.get("estate-price") == "bought":
        from referee.games.culture_war.zones import estates_held

        return estates_held(board.f, player) + 1
    return len(board.owned(player, "estate")) + 1


def production(piece: Mapping[str, Any]) -> int:
    base = piece.get("production")
    base = DEFAULT_PRODUCTION if base is None else base
    return max(0, base + _attached(piece, "production"))


def capacity(piece: Mapping[str, Any]) -> int:
    base = piece.get("capacity") or DEFAULT_CAPACITY
    return max(0, base + _attached(piece, "capacity"))


def _attached(piece: Mapping[str, Any], stat: str) -> int:
    return sum(e["amount"] for m in piece.get("mods", []) for e in m.get("effects", [])
               if e["stat"] == stat and e.get("target") == "attached" and e.get("when") in STATIC)


# ---- effects that happen ------------------------------------------------------


def player_effects(board: Board, effects: list[Mapping[str, Any]], *, owner: str, deck: str | None,
                   source: str, opponent: str | None = None, target_player: str | None = None) -> None:
    """Apply the life and capital effects in `effects` for a card owned by `owner`.

    A capital loss of one player paired with an equal gain for the owner is a
    theft: the owner gets the very coins taken (no more than there were)."""
    effects = [e for e in effects if e["stat"] in ("life", "capital")]
    single = {"opponent": opponent, "target-player": target_player}
    thefts = set()
    for i, loss in enumerate(effects):
        for j, gain in enumerate(effects):
            if loss["stat"] == gain["stat"] == "capital" and loss.get("target") in single and \
                    gain.get("target") == "owner" and loss["amount"] == -gain["amount"] < 0 and j not in thefts:
                thefts.update((i, j))
                victim = single[loss["target"]]
                if victim and victim != owner and not board.people[victim].eliminated:
                    taken = board.take(victim, gain["amount"], f"taken by {source}")
                    board.put(owner, taken)
                    if taken:
                        board.notes.append(f"{owner} gains {sum(taken.values())} capital to the bank ({source})")
                break
    for i, e in enumerate(effects):
        if i in thefts:
            continue
        for who in _players(board, e.get("target", ""), owner, opponent, target_player):
            if e["stat"] == "life":
                board.change_life(who, e["amount"], source)
            elif e["amount"] > 0:
                board.gain(who, e["amount"], deck, source)
            else:
                board.take(who, -e["amount"], source)


def _players(board: Board, target: str, owner: str, opponent: str | None, target_player: str | None) -> list[str]:
    live = board.live()
    if target == "owner":
        return [owner] if owner in live else []
    if target == "opponent":
        return [opponent] if opponent in live else []
    if target == "target-player":
        return [target_player] if target_player in live else []
    if target == "all-opponents":
        return [n for n in live if n != owner]
    if target == "all-players":
        return live
    return []


def unit_effects(board: Board, effects: list[Mapping[str, Any]], *, owner: str, source: str,
                 target_unit: str | None, default: str = "turn") -> None:
    """Apply the ATK/DEF effects a card makes when played: on one unit (for
    good, for the turn or for its next battle) or on a side's units."""
    for e in effects:
        if e["stat"] not in UNIT_STATS:
            continue
        target = e.get("target")
        until = e.get("duration") or default
        if target == "target-unit":
            if target_unit is None or target_unit not in board.pieces:
                continue
            unit = board.pieces[target_unit]
            if until == "permanent":
                unit.setdefault("adj", {})
                unit["adj"][e["stat"]] = unit["adj"].get(e["stat"], 0) + e["amount"]
                word = "for the rest of the game"
            else:
                board.f["timed"].append({"stat": e["stat"], "amount": e["amount"], "scope": "unit",
                                         "handle": target_unit, "until": until, "source": source})
                word = "for its next battle this turn" if until == "battle" else "until the end of the turn"
            board.notes.append(
                f"{board.label(target_unit)} gets {e['amount']:+d} {e['stat'].upper()} {word} ({source})")
        elif target in ("own-units", "enemy-units"):
            board.f["timed"].append({"stat": e["stat"], "amount": e["amount"], "scope": target,
                                     "player": owner, "until": "turn", "source": source})
            side = f"{owner}'s units" if target == "own-units" else f"units of {owner}'s opponents"
            board.notes.append(f"{side} get {e['amount']:+d} {e['stat'].upper()} until the end of the turn ({source})")


def trigger(board: Board, when: str, side: str, unit: Mapping[str, Any] | None, opponent: str | None) -> None:
    """Life and capital effects of `side`'s cards that fire `when`: the unit's
    own effects (and those of Mods on it), then `side`'s Real Estate and Operations."""
    sources: list[Mapping[str, Any]] = []
    if unit is not None:
        sources.append(unit)
        sources.extend(m for m in unit.get("mods", []))
    sources.extend(p for _, p in board.owned(side) if p["kind"] in ("estate", "operation"))
    for src in sources:
        effects = [e for e in src.get("effects", []) if e.get("when") == when]
        if effects:
            owner = src.get("by") or side
            player_effects(board, effects, owner=owner, deck=src.get("deck"), source=src["name"], opponent=opponent)


def start_of_turn(board: Board, name: str) -> None:
    """Production, then start-of-turn effects, for a player beginning a turn
    after their first. Real Estate bought this turn or later does not produce."""
    for handle, estate in board.owned(name, "estate"):
        if estate.get("since", 0) >= board.turn:
            continue
        room = capacity(estate) - sum(estate["coins"].values())
        made = min(production(estate), max(0, room))
        faction = estate.get("deck") or "plain"
        if made:
            estate["coins"][faction] = estate["coins"].get(faction, 0) + made
            board.notes.append(f"{name}'s #{handle} {estate['name']} produces {made} "
                               f"(now {sum(estate['coins'].values())}/{capacity(estate)})")
        elif production(estate):
            board.notes.append(f"{name}'s #{handle} {estate['name']} is full "
                               f"({sum(estate['coins'].values())}/{capacity(estate)}) and produces nothing")
    for _, piece in board.owned(name):
        effects = [e for e in piece.get("effects", []) if e.get("when") == "start-of-turn"]
        if effects and not board.people[name].eliminated:
            player_effects(board, effects, owner=name, deck=piece.get("deck"), source=piece["name"])
