"""Culture War effects that happen: `run(board, effects, ctx)` carries out a
list of effects for one card, each through its kind's handler (HANDLERS,
one per effect kind of card_sources/culture-war/effects.yaml). `ctx`
(effect_context.py) says whose card it is and what the moment is about (the
unit that attacks or dies, the player or unit named with --on, the dice).
Static kinds (stats, cost, trait ...) are read by `effects` whenever the
rules ask; their handler only records timed changes when a card makes them
at a moment. `applied: false` kinds become prompts (`board.asks`, turned
into referee/prompts.py prompts when the board is frozen).

The kinds live by what they touch: stat_changes.py (stats for a while),
life_and_capital.py (LIFE, capital, cards, control, prompts); here are the
kinds that run other effects or destroy (if, roll, destroy, survive), and
the moments that find which cards in play have effects: a unit's attack,
kill or death, and the "would die" saves. A turn's start and end are in
turn_effects.py.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Mapping

from referee.errors import RuleViolation
from referee.games.culture_war.table.board import Board
from referee.games.culture_war.table.coins import coins_total
from referee.games.culture_war.table.payments import take_coins
from referee.games.culture_war.effects.context import Ctx, Dice, guarded
from referee.games.culture_war.effects.static import live_effects, read, trace, when_of
from referee.games.culture_war.effects.life_and_capital import (_discard, _draw, _gain, _gain_per, _lose, _no_income,
                                                         _pay_or_destroy, _pay_or_discard, _prompt, _refund, _steal,
                                                         _take_control, _truce, _win, change_control)
from referee.games.culture_war.effects.stat_changes import _attack_fails, _bounce, _static, _stats, _timed_unit

__all__ = ["Ctx", "Dice", "HANDLERS", "change_control", "run", "dies", "saved", "after_death", "on_piece",
           "on_mods", "on_side", "of_dead", "rolls_in", "save_key", "save_sources"]


def run(board: Board, effects: list[Mapping[str, Any]], ctx: Ctx) -> None:
    for e in effects:
        if board.people[ctx.owner].eliminated and e["kind"] != "prompt":
            return
        HANDLERS[e["kind"]](board, e, ctx)
        trace(ctx.card_id, e["kind"])


# ---- kinds that run other effects, or destroy ------------------------------------------------


def _survive(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    if ctx.battle.get("saved"):
        return
    pay = int(e.get("pay") or 0)
    if e.get("instead"):
        _destroy_self(board, {"kind": "discard-self"}, ctx)
    if pay:
        if board.capital(ctx.owner) < pay:
            board.note(f"{ctx.owner} cannot pay {pay} for {ctx.name}")
            return
        take_coins(board, ctx.owner, pay, ctx.name)
    ctx.battle["saved"] = ctx.name
    if e.get("weaken") and ctx.unit in board.pieces:
        adj = board.pieces[ctx.unit].setdefault("adj", {})
        adj["def"] = adj.get("def", 0) + int(e["weaken"])


def _if(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    test, n = e["test"], int(e.get("n") or 0)
    if test == "units-at-least":
        ok = len(board.owned(ctx.owner, "unit")) >= n
        why = f"{ctx.owner} controls {len(board.owned(ctx.owner, 'unit'))} units"
    elif test == "hand-at-most":
        hand = board.people[ctx.owner].fields.get("hand")
        ok = hand is not None and int(hand) <= n
        why = f"{ctx.owner} has {hand if hand is not None else 'an uncounted'} hand"
    else:
        ok = ctx.target is not None and ctx.battle.get("target_owner") == ctx.owner
        why = "the target is " + ("theirs" if ok else "not theirs")
    if ok:
        run(board, read(e["then"]), ctx)
    else:
        board.note(f"{ctx.name}: {why}, so nothing more happens")


def face_matches(face: str, die: int) -> bool:
    if face.endswith("+"):
        return die >= int(face[:-1])
    if "-" in face:
        lo, hi = face.split("-")
        return int(lo) <= die <= int(hi)
    return die == int(face)


def _roll(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    if ctx.dice is None:
        raise RuleViolation("dice", f"{ctx.name} rolls a die, and none was given")
    die = ctx.dice()
    hit = [effs for face, effs in (e.get("outcomes") or {}).items() if face_matches(str(face), die)]
    board.note(f"{ctx.owner} rolls {die} for {ctx.name}" + ("" if hit else ": nothing happens"))
    for effs in hit:
        run(board, read(effs), ctx)


def rolls_in(effects: list[Mapping[str, Any]]) -> int:
    """How many dice these effects roll (one a `roll`)."""
    return sum(1 for e in effects if e["kind"] == "roll")


def _destroy_self(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    word = "destroyed" if e["kind"] == "destroy-self" else "discarded"
    if ctx.mod is not None:
        host = board.pieces.get(ctx.host or "")
        if host is not None and ctx.mod in host.get("mods", []):
            host["mods"].remove(ctx.mod)
            board.note(f"{ctx.name} is {word} from {board.label(ctx.host)}")  # type: ignore[arg-type]
        return
    if ctx.this in board.pieces:
        if board.pieces[ctx.this]["kind"] == "unit":
            dies(board, ctx.this, f"{word} by its own text", None, ctx.dice,  # type: ignore[arg-type]
                 can_save=word == "destroyed")
        else:
            board.remove(ctx.this, f"{word} by its own text")  # type: ignore[arg-type]


def _destroy(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    what = e["what"]
    if what == "every-operation":
        for h, p in list(board.pieces.items()):
            if p["kind"] == "operation" and not guarded(board, h, ctx, targeted=False):
                board.remove(h, ctx.name)
    elif what == "their-empty-real-estate":
        empty = [h for h, p in board.owned(ctx.that_player or "", "estate")
                 if not coins_total(p["coins"]) and not guarded(board, h, ctx, targeted=False)]
        if empty:
            board.remove(empty[-1], ctx.name)
        else:
            board.note(f"{ctx.name}: {ctx.that_player} has no Real Estate without coins")
    elif what == "empty-real-estate" and ctx.target in board.pieces and not guarded(board, ctx.target, ctx):
        board.remove(ctx.target, ctx.name)  # the play checked it holds no coins
    elif what == "your-unit" and ctx.target in board.pieces and not guarded(board, ctx.target, ctx):
        cost = int(board.pieces[ctx.target].get("cost") or 0)
        if dies(board, ctx.target, ctx.name, None, ctx.dice) is not None:  # a card may keep it alive: no refund
            ctx.battle["refund"] = cost


HANDLERS: dict[str, Callable[[Board, Mapping[str, Any], Ctx], None]] = {
    "stats": _stats, "stats-while": _static, "stats-per": _static, "trait": _static, "taunt": _static,
    "attack-limit": _static, "attack-tax": _static, "truce": _truce, "no-flash": _static,
    "predictable": _static, "reroll": _timed_unit("reroll", max=1), "attack-fails": _attack_fails,
    "survive": _survive, "shield": _timed_unit("shield", weaken=0), "bounce": _bounce,
    "gain": _gain, "lose": _lose, "gain-per": _gain_per, "steal": _steal, "refund": _refund,
    "pay-or-discard": _pay_or_discard, "cost": _static, "production": _static, "capacity": _static,
    "produce-if": _static, "no-income": _no_income, "draw": _draw, "if": _if, "roll": _roll,
    "destroy-self": _destroy_self, "discard-self": _destroy_self, "destroy": _destroy, "disable": _static,
    "take-control": _take_control, "for-sale": _static, "win": _win, "prompt": _prompt,
    "discard": _discard, "pay-or-destroy": _pay_or_destroy,
    "cancel": _static,  # carried out as the Flash is played, before it is paid (actions.play, cancel.py)
}


# ---- who has effects for a moment ----------------------------------------------------------


def on_piece(board: Board, handle: str, when: str, **kw: Any) -> None:
    """The effects of one piece in play for `when`, and those of the Mods on it
    whose trigger is about the host (attached-*)."""
    piece = board.pieces.get(handle)
    if piece is None:
        return
    effects = [e for e in live_effects(piece) if when_of(e) == when]
    if effects:
        run(board, effects, Ctx(piece["owner"], piece, this=handle, **kw))


def on_mods(board: Board, handle: str, when: str, **kw: Any) -> None:
    piece = board.pieces.get(handle)
    for mod in list((piece or {}).get("mods", [])):
        effects = [e for e in read(mod.get("effects")) if when_of(e) == when]
        if effects and piece is not None:
            run(board, effects, Ctx(mod.get("by") or piece["owner"], mod, mod=mod, host=handle, **kw))


def on_side(board: Board, player: str, when: str, skip: str | None = None, **kw: Any) -> None:
    """Every card `player` has in play with effects for `when` (own-kill, own-death ...)."""
    for handle, _ in board.owned(player):
        if handle != skip:
            on_piece(board, handle, when, **kw)


def of_dead(board: Board, piece: Mapping[str, Any], when: str, **kw: Any) -> None:
    """Effects of a unit that has just left play (on-death), and of its Mods (attached-dies)."""
    effects = [e for e in read(piece.get("effects")) if when_of(e) == when]
    if effects:
        run(board, effects, Ctx(piece["owner"], piece, **kw))


def dies(board: Board, handle: str, why: str, that_player: str | None, dice: Dice | None = None,
         can_save: bool = True) -> dict[str, Any] | None:
    """A unit destroyed by card text: unless a card keeps it alive ("would die"
    saves hold here as in battle), it leaves play and on-death, attached-dies
    and own-death effects follow. The piece, or None if it survived."""
    keeper = saved(board, handle, that_player, dice, in_battle=False) if can_save else None
    if keeper:
        board.note(f"{board.label(handle)} survives ({keeper})")
        return None
    piece = board.remove(handle, why)
    after_death(board, piece, handle, that_player, dice)
    return piece


# ---- "would die": the cards that keep a unit alive -------------------------------------------


def choice_word(name: str) -> str:
    """A card's name as a word to type: 'Bug-Out Bag' -> 'bug-out-bag'."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def save_sources(board: Board, victim: str, in_battle: bool = True) -> list[tuple[str, str, str, Any]]:
    """Every card that could keep `victim` alive if it would die, in the order
    they are tried unless its owner chose another: a shield played in its
    battle, its own text, its Mods, its owner's other cards.
    (choice word, card name, how: shield/piece/mod/side, the timed entry, handle or Mod)."""
    v = board.pieces[victim]
    out: list[tuple[str, str, str, Any]] = []
    if in_battle:
        out += [(choice_word(t["source"]), t["source"], "shield", t) for t in board.f["timed"]
                if t["stat"] == "shield" and t.get("handle") == victim]
    if any(when_of(e) == "would-die" for e in live_effects(v)):
        out.append((choice_word(v["name"]), v["name"], "piece", victim))
    out += [(choice_word(m["name"]), m["name"], "mod", m) for m in v.get("mods", [])
            if any(when_of(e) == "attached-would-die" for e in read(m.get("effects")))]
    out += [(choice_word(p["name"]), p["name"], "side", h) for h, p in board.owned(v["owner"])
            if h != victim and any(when_of(e) == "other-would-die" for e in live_effects(p))]
    return out


def save_key(sources: list[tuple[str, str, str, Any]]) -> str:
    """The cards that could save a unit, as the key its owner's choice is kept under."""
    return "+".join(sorted({s[0] for s in sources}))


def saved(board: Board, victim: str, that_player: str | None, dice: Dice | None, in_battle: bool) -> str | None:
    """Whether a card keeps `victim` alive (Group Hug, Leaderless Crowd, Bug-Out Bag,
    Private Fire Brigade): the name of the card, or None. The card its owner chose
    to act first among these cards (`save_first`, asked with a prompt) is tried first,
    then the others while the unit would still die."""
    v = board.pieces[victim]
    sources = save_sources(board, victim, in_battle)
    first = (v.get("save_first") or {}).get(save_key(sources))
    sources.sort(key=lambda s: s[0] != first)
    flags: dict[str, Any] = {}
    kw = dict(that_player=that_player, unit=victim, dice=dice, battle=flags, moment="on death")
    for _, name, how, what in sources:
        if victim not in board.pieces:
            return None
        if how == "shield":
            board.f["timed"].remove(what)
            adj = v.setdefault("adj", {})
            adj["def"] = adj.get("def", 0) + int(what.get("weaken") or 0)
            return name
        if how == "piece":
            effects = [e for e in live_effects(v) if when_of(e) == "would-die"]
            run(board, effects, Ctx(v["owner"], v, this=victim, **kw))
        elif how == "mod" and what in v.get("mods", []):
            effects = [e for e in read(what.get("effects")) if when_of(e) == "attached-would-die"]
            run(board, effects, Ctx(what.get("by") or v["owner"], what, mod=what, host=victim, **kw))
        elif how == "side":
            on_piece(board, what, "other-would-die", **kw)
        if flags.get("saved"):
            return flags["saved"]
    return None


def after_death(board: Board, piece: Mapping[str, Any], handle: str, that_player: str | None,
                dice: Dice | None = None) -> None:
    owner = piece["owner"]
    of_dead(board, piece, "on-death", that_player=that_player, dice=dice, moment="on death")
    for mod in piece.get("mods", []):
        effects = [e for e in read(mod.get("effects")) if when_of(e) == "attached-dies"]
        if effects:
            run(board, effects, Ctx(mod.get("by") or owner, mod, moment="on death", dice=dice))
    if owner in board.live():
        on_side(board, owner, "own-death", that_player=that_player, unit=handle, dice=dice, moment="on death")
