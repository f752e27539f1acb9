"""Culture War effects that happen: one handler per effect kind of
card_sources/culture-war/effects.yaml, run at the kind's trigger.

`run(board, effects, ctx)` carries out a list of effects for one card; `ctx`
says whose card it is and what the moment is about (the unit that attacks or
dies, the player or unit named with --on, the dice). Static kinds (stats,
cost, trait ...) are read by `effects` whenever the rules ask; their handler
here only records timed changes when a card makes them at a moment.
`applied: false` kinds become prompts (`board.asks`, turned into
referee/prompts.py prompts when the board is frozen).

The trigger helpers below find which cards in play have effects for a
moment: a turn's start or end, a unit's attack, kill, death.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping

from referee.errors import RuleViolation
from referee.games.culture_war import phrases, zones
from referee.games.culture_war.board import Board, coins_total
from referee.games.culture_war.effects import (capacity, card_type, live_effects, production, read, shielded, trace,
                                                when_of)

Dice = Callable[[], int]


@dataclass
class Ctx:
    owner: str
    source: Mapping[str, Any]                 # the card: name, card (id), deck
    this: str | None = None                   # handle of the piece the effect is on
    mod: Mapping[str, Any] | None = None      # the Mod the effect is on
    host: str | None = None                   # the piece that Mod is attached to
    that_player: str | None = None            # the other player of the moment
    target_player: str | None = None          # a player named with --on
    target: str | None = None                 # a piece named with --on
    unit: str | None = None                   # the unit the moment is about
    dice: Dice | None = None
    battle: dict[str, Any] = field(default_factory=dict)   # saved / failed flags of a battle
    moment: str = "played"

    @property
    def name(self) -> str:
        return self.source.get("name") or "?"

    @property
    def type(self) -> str | None:
        """The card type of the source: unit, real-estate, operation, mod, flash or happening."""
        return "mod" if self.mod is not None else card_type(self.source)

    @property
    def card_id(self) -> str | None:
        """The card's id: a piece or Mod keeps it as `card`, a card being played as `id`."""
        return self.source.get("card") or self.source.get("id")


def guarded(board: Board, handle: str | None, ctx: Ctx, targeted: bool = True) -> bool:
    """True, with a note, when a protection keeps this card off piece `handle`
    (effects.shielded: the one rule every kind that touches a piece asks)."""
    if handle is None or handle not in board.pieces:
        return False
    guard = shielded(board, handle, ctx.owner, ctx.type, targeted)
    if guard:
        board.note(f"{ctx.name} does not affect {board.label(handle)}: {guard[1]}")
        trace(ctx.card_id, "protected")
    return guard is not None


def run(board: Board, effects: list[Mapping[str, Any]], ctx: Ctx) -> None:
    for e in effects:
        if board.people[ctx.owner].eliminated and e["kind"] != "prompt":
            return
        HANDLERS[e["kind"]](board, e, ctx)
        trace(ctx.card_id, e["kind"])


# ---- stats and timed changes ------------------------------------------------------------

UNIT_WHO = ("target-unit", "target-enemy", "target-cyber", "your-unit", "enemy-unit")


def _stats(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    who = e.get("who")
    if ctx.moment == "static":
        return
    duration = e.get("duration") or ("battle" if who == "this" or ctx.moment == "battle" else "turn")
    changes = [(s, int(e[s])) for s in ("atk", "def") if e.get(s)]
    if who in ("your-units", "enemy-units"):
        scope = "own-units" if who == "your-units" else "enemy-units"
        for stat, amount in changes:
            board.f["timed"].append({"stat": stat, "amount": amount, "scope": scope, "player": ctx.owner,
                                     "until": "turn", "source": ctx.name, "type": ctx.type})
        side = f"{ctx.owner}'s units" if who == "your-units" else f"units of {ctx.owner}'s opponents"
        board.note(f"{side} get {_changes(changes)} until the end of the turn ({ctx.name})")
        return
    handle = ctx.this if who == "this" else ctx.target
    if handle is None or handle not in board.pieces or guarded(board, handle, ctx, who != "this"):
        return
    unit = board.pieces[handle]
    for stat, amount in changes:
        if duration == "game":
            unit.setdefault("adj", {})
            unit["adj"][stat] = unit["adj"].get(stat, 0) + amount
        else:
            board.f["timed"].append({"stat": stat, "amount": amount, "scope": "unit", "handle": handle,
                                     "until": duration, "source": ctx.name})
    word = {"game": "for the rest of the game", "battle": "for this battle" if ctx.moment == "battle"
            or board.f.get("window") else "for its next battle this turn", "turn": "until the end of the turn"}[duration]
    board.note(f"{board.label(handle)} gets {_changes(changes)} {word} ({ctx.name})")


def _changes(changes: list[tuple[str, int]]) -> str:
    return " and ".join(f"{a:+d} {s.upper()}" for s, a in changes)


def _static(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    """Kinds read by `effects` while the card is in play: nothing to do at a moment."""


def _timed_unit(key: str, **extra: Any) -> Callable[[Board, Mapping[str, Any], Ctx], None]:
    def handler(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
        if ctx.moment == "static" or (e.get("who") == "this"):
            return
        if ctx.target is None or ctx.target not in board.pieces or guarded(board, ctx.target, ctx):
            return
        entry = {"stat": key, "amount": 0, "scope": "unit", "handle": ctx.target, "until": "battle",
                 "source": ctx.name, **{k: e.get(k, v) for k, v in extra.items()}}
        board.f["timed"].append(entry)
        when = "this battle" if board.f.get("window") else "its next battle this turn"
        board.note(f"{board.label(ctx.target)}: {ctx.name} holds for {when}")
    return handler


def _bounce(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    if ctx.target in board.pieces and not guarded(board, ctx.target, ctx):
        zones.return_to_hand(board, ctx.target)


def _attack_fails(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    ctx.battle["failed"] = True


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
        board.take(ctx.owner, pay, ctx.name)
    ctx.battle["saved"] = ctx.name
    if e.get("weaken") and ctx.unit in board.pieces:
        adj = board.pieces[ctx.unit].setdefault("adj", {})
        adj["def"] = adj.get("def", 0) + int(e["weaken"])


# ---- life, capital, cards --------------------------------------------------------------------


def players(board: Board, who: str | None, ctx: Ctx) -> list[str]:
    live = board.live()
    pick = {None: [ctx.owner], "you": [ctx.owner], "each-opponent": [n for n in live if n != ctx.owner],
            "each-player": live, "that-player": [ctx.that_player], "attacking-player": [ctx.that_player],
            "target-player": [ctx.target_player]}[who]
    return [n for n in pick if n in live]


def _gain(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    _add(board, ctx, ctx.owner, e["what"], int(e["amount"]))


def _add(board: Board, ctx: Ctx, who: str, what: str, amount: int) -> None:
    if what == "life":
        board.change_life(who, amount, ctx.name)
    else:
        board.gain(who, amount, ctx.source.get("deck"), ctx.name)


def _lose(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    for who in players(board, e.get("who"), ctx):
        if e["what"] == "life":
            board.change_life(who, -int(e["amount"]), ctx.name)
        else:
            take(board, who, int(e["amount"]), ctx.name, e.get("source"), ctx)


def take(board: Board, who: str, amount: int, why: str, source: str | None = None,
         ctx: Ctx | None = None) -> dict[str, int]:
    """Coins lost: from Real Estate only when the card says so, else Real Estate first, then the bank.
    Coins on a Real Estate the card may not affect (effects.shielded) stay where they are."""
    kept = set()
    for handle, _ in board.owned(who, "estate"):
        if ctx is not None and guarded(board, handle, ctx, targeted=False):
            kept.add(handle)
    if source != "real-estate":
        return board.take(who, amount, why, skip=kept)
    taken: dict[str, int] = {}
    left = amount
    for _, estate in sorted(((h, p) for h, p in board.owned(who, "estate") if h not in kept),
                            key=lambda hp: -coins_total(hp[1]["coins"])):
        for f in sorted(estate["coins"]):
            n = min(left, estate["coins"][f])
            estate["coins"][f] -= n
            taken[f] = taken.get(f, 0) + n
            left -= n
        estate["coins"] = {f: n for f, n in estate["coins"].items() if n > 0}
    if taken:
        board.note(f"{who} loses {coins_total(taken)} capital from Real Estate ({why})")
    return taken


def _gain_per(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    count = len(board.owned(ctx.owner, "unit" if e["per"] == "unit" else "estate"))
    if count:
        _add(board, ctx, ctx.owner, e["what"], int(e["amount"]) * count)
    else:
        board.note(f"{ctx.name}: {ctx.owner} has none to count, so gains nothing")


def _steal(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    victim = ctx.target_player if e["who"] == "target-player" else ctx.that_player
    if not victim or victim == ctx.owner or victim not in board.live():
        return
    taken = take(board, victim, int(e["amount"]), f"taken by {ctx.name}", e.get("source"), ctx)
    board.put(ctx.owner, taken)
    if taken:
        board.note(f"{ctx.owner} gains {coins_total(taken)} capital to the bank ({ctx.name})")


def _refund(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    cost = int(ctx.battle.get("refund") or 0)
    if cost:
        board.gain(ctx.owner, cost, ctx.source.get("deck"), ctx.name)


def _pay_or_discard(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    amount = int(e["amount"])
    handle = ctx.this if e["who"] == "you" else ctx.host
    if handle is None or handle not in board.pieces:
        return
    payer = board.pieces[handle]["owner"]
    if guarded(board, handle, ctx, targeted=False):
        return
    if board.capital(payer) >= amount:
        board.take(payer, amount, f"upkeep of #{handle} {board.pieces[handle]['name']} ({ctx.name})")
    else:
        board.remove(handle, f"{payer} cannot pay {amount} ({ctx.name})")


def _draw(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    who = board.live() if e.get("who") == "each-player" else [ctx.owner]
    for name in who:
        zones.draw_on_board(board, name, int(e["amount"]), ctx.name)


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


def _take_control(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    if ctx.target in board.pieces and not guarded(board, ctx.target, ctx):
        change_control(board, ctx.target, ctx.owner, ctx.name)


def change_control(board: Board, handle: str, to: str, why: str) -> None:
    piece = board.pieces[handle]
    piece.setdefault("home", piece["owner"])
    old = piece["owner"]
    piece["owner"] = to
    piece["attacked"] = board.turn
    board.f["timed"] = [t for t in board.f["timed"] if t.get("handle") != handle]
    board.note(f"{to} takes control of {old}'s #{handle} {piece['name']} ({why})")


def _truce(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    board.f.setdefault("truce", []).append({"player": ctx.owner, "who": e["who"], "source": ctx.name})
    board.note(f"{ctx.name}: " + ("no player may attack until the start of "
                                          f"{ctx.owner}'s next turn" if e["who"] == "everyone" else
                                          f"{ctx.owner}'s units neither attack nor can be attacked until "
                                          f"{ctx.owner}'s next turn"))


def _no_income(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    if e["who"] == "this":
        if ctx.this in board.pieces:
            board.f.setdefault("no_income", []).append(f"#{ctx.this}")
            board.note(f"{board.label(ctx.this)} produces nothing at the start of "  # type: ignore[arg-type]
                               f"{ctx.owner}'s next turn ({ctx.name})")
        return
    for name in players(board, "each-opponent", ctx):
        board.f.setdefault("no_income", []).append(name)
        board.f.setdefault("no_income_by", {})[name] = [ctx.owner, ctx.type, ctx.name]
    board.note(f"each opponent of {ctx.owner} collects no capital at the start of their next turn")


def _win(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    if board.life(ctx.owner) >= int(e["n"]):
        board.f["won_by"] = ctx.owner
        board.note(f"{ctx.owner} wins the game ({ctx.name})")


WORDS = {"capital": "Capital", "life": "LIFE", "atk": "ATK", "def": "DEF", "dice": "die", "cyber": "Cyber",
         "hero": "Hero"}


def words(text: str) -> str:
    """Card text for a prompt: the printed icons ({capital}, {life} ...) in words."""
    return re.sub(r"\{(\w+)\}", lambda m: WORDS.get(m.group(1), m.group(1)), text)


def _prompt(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    text = words(str(e["text"]))
    board.asks.append({"player": ctx.owner, "card_id": ctx.card_id or "", "card": ctx.name,
                       "moment": ctx.moment, "text": text[:1].upper() + text[1:]})


def _discard(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    """Cards leave a hand: the player answers with the cards (their ids), and
    the referee takes them off the hand count into the discard pile
    (answers.py). A random discard no one names is answered `done`."""
    who = e.get("who") or "you"
    for name in players(board, who, ctx):
        fields = board.people[name].fields
        hand = int(fields["hand"]) if "hand" in fields else None
        n = int(e["amount"]) if hand is None else min(int(e["amount"]), hand)
        if n == 0:
            board.note(f"{name} has no cards in hand to discard ({ctx.name})")
            continue
        how = " at random" if e.get("random") else ""
        cards = f"{n} card" + ("s" if n > 1 else "")
        ids = ",".join(["CARD"] * n)
        enter = f"referee resolve {{n}} {ids}" + (f" (the card{'s' if n > 1 else ''} {name} discarded), "
                                                  "or referee resolve {n} done if no one names them"
                                                  if hand is not None else "")
        if hand is None:
            enter = "referee resolve {n} done"  # the referee keeps no hand for this player
        board.asks.append({"player": name, "card_id": ctx.card_id or "", "card": ctx.name, "moment": ctx.moment,
                           "text": f"{name} discards {cards}{how} ({ctx.name})", "enter": enter, "commands": (),
                           "data": {"discard": {"player": name, "count": n, "counted": hand is not None},
                                    "free": True}})


def _pay_or_destroy(board: Board, e: Mapping[str, Any], ctx: Ctx) -> None:
    """Pay or lose one of your other units: the answer is `pay` or the unit's handle (answers.py)."""
    amount = int(e["amount"])
    others = [h for h, _ in board.owned(ctx.owner, "unit") if h != ctx.this]
    if not others:
        board.note(f"{ctx.name}: {ctx.owner} has no other unit, so nothing happens")
        return
    choices = (["pay"] if board.capital(ctx.owner) >= amount else []) + others
    units = ", ".join(f"{h} ({board.pieces[h]['name']})" for h in others)
    board.asks.append({"player": ctx.owner, "card_id": ctx.card_id or "", "card": ctx.name, "moment": ctx.moment,
                       "text": (f"{ctx.owner} pays {amount} Capital or destroys one of their other units, "
                                f"losing no LIFE for it: {units}" + ("" if "pay" in choices else
                                                                     f" ({ctx.owner} cannot pay {amount})")),
                       "enter": "referee resolve {n} " + "|".join(choices), "commands": (), "choices": choices,
                       "data": {"pay-or-destroy": {"player": ctx.owner, "amount": amount}}})


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


# ---- a turn's start and end ------------------------------------------------------------------------


def turn_sources(board: Board, name: str, when: str) -> list[tuple[list[dict[str, Any]], dict[str, Any]]]:
    """Who acts at the start or end of `name`'s turn: their pieces, their Mods
    (start-of-turn / end-of-turn) and Mods on their cards (owner-turn)."""
    out = []
    for handle, piece in board.owned(name):
        effects = [e for e in live_effects(piece) if when_of(e) == when]
        if effects:
            out.append((effects, {"owner": name, "source": piece, "this": handle}))
    for handle, piece in sorted(board.pieces.items(), key=lambda kv: int(kv[0])):
        for mod in piece.get("mods", []):
            by = mod.get("by") or piece["owner"]
            effects = [e for e in read(mod.get("effects")) if when_of(e) == when and by == name]
            if when == "start-of-turn" and piece["owner"] == name:
                effects += [e for e in read(mod.get("effects")) if when_of(e) == "owner-turn"]
            if effects:
                out.append((effects, {"owner": by, "source": mod, "mod": mod, "host": handle}))
    return out


def rolls_in(effects: list[Mapping[str, Any]]) -> int:
    return sum(1 for e in effects if e["kind"] == "roll")


def turn_dice(board: Board, name: str, when: str) -> int:
    return sum(rolls_in(effects) for effects, _ in turn_sources(board, name, when))


def at_turn(board: Board, name: str, when: str, dice: Dice | None) -> None:
    moment = "start of turn" if when == "start-of-turn" else "end of turn"
    for effects, kw in turn_sources(board, name, when):
        gone = (kw.get("this") and kw["this"] not in board.pieces) or \
            (kw.get("mod") is not None and kw["mod"] not in board.pieces.get(kw["host"], {}).get("mods", []))
        if gone or board.people[name].eliminated:
            for _ in range(rolls_in(effects)):
                if dice is not None:
                    dice()  # the die was rolled for a card that has left play: it does nothing
            continue
        run(board, effects, Ctx(dice=dice, moment=moment, **kw))


def end_truces(board: Board, name: str) -> None:
    if board.f.get("truce"):
        kept = [t for t in board.f["truce"] if t["player"] != name]
        if len(kept) != len(board.f["truce"]):
            board.note(f"{name}'s truce ends")
        board.f["truce"] = kept


def attack_banned(board: Board, attacker_owner: str, defender_owner: str | None) -> str | None:
    """The card that stops this attack (Consensus Meeting, Secession Weekend), if any."""
    for t in board.f.get("truce", []):
        if t["who"] == "everyone":
            return t["source"]
        if t["player"] == attacker_owner:
            return t["source"]
        if t["player"] == defender_owner:
            return t["source"]
    return None


def with_moment(ctx: Ctx, moment: str) -> Ctx:
    return replace(ctx, moment=moment)


def start_of_turn(board: Board, name: str, dice: Dice | None, draw: int = 0) -> None:
    """A player's turn begins (after their first): their truces end, then the
    start-of-turn effects of their cards, oldest card first, then Mods (a
    hand count is read before the turn's draw, an upkeep is paid before the
    new coins, a Real Estate destroyed here makes nothing), then resource
    collection: the turn's `draw`, then production (the rule sheet's "Card text")."""
    end_truces(board, name)
    at_turn(board, name, "start-of-turn", dice)
    if draw:
        zones.draw_on_board(board, name, draw, "start of turn")
    blocked = board.f.get("no_income", [])
    for handle, estate in board.owned(name, "estate"):
        if estate.get("since", 0) >= board.turn:
            continue
        by = board.f.get("no_income_by", {}).get(name)
        if name in blocked and by and guarded(board, handle, Ctx(by[0], {"name": by[2], "type": by[1]}), False):
            pass  # a protected Real Estate produces: the card that stopped income cannot affect it
        elif name in blocked or f"#{handle}" in blocked:
            board.note(f"{name}'s #{handle} {estate['name']} produces nothing this turn")
            continue
        room = capacity(estate) - sum(estate["coins"].values())
        made = min(production(estate, board), max(0, room))
        faction = estate.get("deck") or "plain"
        if made:
            estate["coins"][faction] = estate["coins"].get(faction, 0) + made
            board.tell(phrases.produces(name, handle, estate["name"], made, sum(estate["coins"].values()),
                                        capacity(estate)))
        elif production(estate, board):
            board.note(f"{name}'s #{handle} {estate['name']} is full "
                               f"({sum(estate['coins'].values())}/{capacity(estate)}) and produces nothing")
        else:
            board.note(f"{name}'s #{handle} {estate['name']} produces nothing")
    mine = {f"#{h}" for h, _ in board.owned(name, "estate")}
    board.f["no_income"] = [b for b in blocked if b != name and b not in mine]
    board.f.get("no_income_by", {}).pop(name, None)
