"""Culture War actions played on a Board (board.py): playing a card (with
its targets), seizing a unit offered for a price, and the corrections card
text or the scorekeeper make (discard, draw, discard-hand, life, capital).

Each board action is a step function (board, args, dice) that changes the
Board and leaves notes, or raises RuleViolation; rules.py lists them in
ACTIONS through `board_action`, which checks a step on a throw-away Board
and applies it on the real one, so refusals and results come from the same
code. Battles are in attacks.py, alliances in alliances.py, the roll-off and
the turn in turns.py.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from referee.errors import RefereeError, RuleViolation
from referee.rules import shared
from referee.games.culture_war.effects import static as effects
from referee.games.culture_war import story
from referee.games.culture_war.effects import handlers as fx
from referee.games.culture_war.table import zones
from referee.games.culture_war.battle.fight import end_if_broken
from referee.games.culture_war.table.board import Board
from referee.games.culture_war.table.payments import gain_capital, pay_for, take_coins
from referee.games.culture_war.table.pieces import KINDS, KIND_WORDS, find_piece, new_piece
from referee.games.culture_war.effects.static import freeze
from referee.games.culture_war.table.phases import ROLL_OFF_RULE, TIMING  # the phases are checked first, in phases.py
from referee.rules.shared import changed
from referee.model import Action, State

# which triggers fire as a card of each type is played
NOW_OF = {"unit": ("on-play",), "operation": ("on-play", "now"), "real-estate": ("on-buy",),
          "mod": ("on-play", "now"), "flash": ("now", "before-battle"), "happening": ("now",)}
UNIT_TARGET_WHO = ("target-unit", "target-enemy", "target-cyber", "your-unit", "enemy-unit")
UNIT_TARGET_KINDS = ("bounce", "shield", "take-control")

def _walk(effects_list: list[Mapping[str, Any]]):
    for e in effects_list:
        yield e
        if e["kind"] == "if":
            yield from _walk(effects.read(e.get("then")))
        if e["kind"] == "roll":
            for effs in (e.get("outcomes") or {}).values():
                yield from _walk(effects.read(effs))


def targets_of(now: list[Mapping[str, Any]]) -> set[str]:
    """What a card played now must name with --on: a unit, a player or a Real Estate."""
    out = set()
    for e in _walk(now):
        if (e["kind"] in ("stats", "reroll") and e.get("who") in UNIT_TARGET_WHO) or e["kind"] in UNIT_TARGET_KINDS \
                or (e["kind"] == "destroy" and e["what"] == "your-unit"):
            out.add("unit")
        if (e["kind"] in ("lose", "steal", "discard") and e.get("who") == "target-player") or \
                (e["kind"] == "prompt" and "target player" in str(e.get("text"))):
            out.add("player")
        if e["kind"] == "destroy" and e["what"] == "empty-real-estate":
            out.add("estate")
    return out


def unit_side(now: list[Mapping[str, Any]]) -> str | None:
    for e in _walk(now):
        who = e.get("who")
        if who in ("your-unit",) or e["kind"] in ("bounce", "shield") or (e["kind"] == "destroy" and e["what"] == "your-unit"):
            return "yours"
        if who in ("target-enemy", "enemy-unit") or e["kind"] == "take-control":
            return "enemy"
    return None


MOD_KINDS = {"unit": ("unit",), "real-estate": ("estate",), "operation": ("operation",),
             "any": ("unit", "estate", "operation")}



# ---- playing cards -------------------------------------------------------------


def play(board: Board, args: Mapping[str, Any], dice: Any) -> None:
    card = args["_card"]
    kind = card["type"]
    name = acting(board, args["player"])
    what = f"{card['name']} ({kind})"
    order_ready(board, name)
    if kind != "flash":
        rule = TIMING[kind]
        if name != board.active:
            raise RuleViolation(rule, f"{name} cannot play {what} now: it is {board.active}'s turn")
        if board.f["attacks"]:
            raise RuleViolation(rule, f"{name} has already attacked this turn, so {what} comes too late")
    else:
        for _, src, _e in effects.statics(board, "no-flash"):
            if src["owner"] == name:
                effects.trace(src.get("card"), "no-flash")
                raise RuleViolation(f"card text: {src['name']}",
                                    f"{name} cannot play {what}: {src['name']} forbids Flash events")
    card_effects = effects.read(card.get("effects"))
    moments = NOW_OF.get(kind, ())
    now = [e for e in card_effects if effects.when_of(e) in moments]
    on = args.get("on")
    target = target_player = None
    if kind == "mod":
        target = mod_host(board, card, name, on)
    wanted = targets_of(now)
    in_battle = [e for e in card_effects if effects.when_of(e) == "before-battle"]
    if kind == "flash" and in_battle:
        target = battle_flash_target(board, card, name, on, now)
    elif "unit" in wanted and "player" not in wanted:
        target = unit_target(board, card, name, on, now)
    if "estate" in wanted:
        target = estate_target(board, card, name, on)
    if "player" in wanted:
        if not on:
            raise RuleViolation("choose the target",
                                f"{name} must name the player {card['name']} acts on, with --on")
        target_player = acting(board, on)
    for e in now:
        if e["kind"] == "cancel":  # the cancelled card's table comes back first; then this Flash is paid
            from referee.games.culture_war.effects import cancel  # lazy: only a cancel Flash needs it

            cancel.cancel(board, e, name, card)
    if args.get("cost") is not None:
        cost, paid_why = int(args["cost"]), "as entered with --cost"
    else:
        base = effects.estate_base(board, name) if kind == "real-estate" else int(card.get("cost") or 0)
        cost, parts = effects.cost_parts(board, name, kind, base)
        paid_why = effects.pay_text(cost, base, parts)
    pay_for(board, name, cost, card.get("deck"), what, args.get("from"), paid_why)
    board.f["begun"] = True
    this = None
    if kind in KINDS:
        this = board.add_piece(new_piece(card, name, board.turn))
        extra = "; it produces from its owner's next turn" if kind == "real-estate" else ""
        board.tell(story.enters(name, card["name"], this, extra))
    elif kind == "mod":
        host = board.pieces[target]  # type: ignore[index]
        host.setdefault("mods", []).append(
            {"card": card.get("id"), "name": card["name"], "deck": card.get("deck"), "by": name,
             "effects": card_effects})
        board.note(f"{card['name']} is attached to {board.label(target)}")  # type: ignore[arg-type]
    else:
        board.note(f"{name} plays {what}")
    memo: dict[str, Any] = {}
    if target in board.pieces:
        memo["target_owner"] = board.pieces[target]["owner"]
    if kind in ("happening", "operation"):
        from referee.games.culture_war.effects import cancel  # lazy: as above

        cancel.remember(board, name, card, this)
    ctx = fx.Ctx(name, card, this=this, target=target, target_player=target_player, dice=dice,
                 battle=memo, moment="played")
    fx.run(board, now, ctx)
    if kind == "flash":
        for other in board.live():
            if other != name:
                fx.on_side(board, other, "opponent-flash", that_player=name, dice=dice, moment="a Flash was played")
    end_if_broken(board)


def mod_host(board: Board, card: Mapping[str, Any], name: str, on: str | None) -> str:
    kinds = MOD_KINDS.get(card.get("target") or "any", MOD_KINDS["any"])
    if not on:
        raise RuleViolation("a Mod is attached to a card",
                            f"{name} must say with --on which {' or '.join(KIND_WORDS[k] for k in kinds)} "
                            f"{card['name']} is attached to")
    host = find_piece(board, on, kinds)
    guard = effects.shielded(board, host, name, "mod-attach")
    if guard:
        raise RuleViolation(f"card text: {guard[0]}", f"{name} cannot attach {card['name']}: {guard[1]}")
    return host


def unit_target(board: Board, card: Mapping[str, Any], name: str, on: str | None,
                 now: list[dict[str, Any]]) -> str | None:
    if not on:
        if any(p["kind"] == "unit" for p in board.pieces.values()):
            raise RuleViolation("choose the target", f"{name} must name the unit {card['name']} acts on, with --on")
        return None
    handle = find_piece(board, on, ("unit",))
    piece = board.pieces[handle]
    side = unit_side(now)
    if side == "yours" and piece["owner"] != name:
        raise RuleViolation("choose the target", f"{card['name']} acts on a unit of {name}'s, "
                                                 f"not on {board.label(handle)}")
    if side == "enemy" and piece["owner"] == name:
        raise RuleViolation("choose the target", f"{card['name']} acts on an enemy unit, "
                                                 f"not on {board.label(handle)}")
    if any(e.get("who") == "target-cyber" for e in now) and not effects.cyber(board, handle):
        raise RuleViolation("choose the target", f"{card['name']} acts on a Cyber unit; "
                                                 f"{board.label(handle)} is not one")
    for e in now:
        if e["kind"] == "take-control" and int(piece.get("cost") or 0) > int(e["max_cost"]):
            raise RuleViolation("choose the target", f"{card['name']} takes a unit costing {e['max_cost']} "
                                                     f"or less; {board.label(handle)} costs {piece.get('cost')}")
    guard = effects.shielded(board, handle, name, card["type"], targeted=True)
    if guard:
        raise RuleViolation(f"card text: {guard[0]}", f"{name} cannot play {card['name']} on "
                                                      f"{board.label(handle)}: {guard[1]}")
    return handle


BATTLE_FLASH_RULE = "a battle Flash is played in the pending battle, by one of its two players"


def battle_flash_target(board: Board, card: Mapping[str, Any], name: str, on: str | None,
                        now: list[dict[str, Any]]) -> str:
    """The unit a battle Flash ("play in a battle before it is settled") acts on:
    one of the two units of the battle waiting after its dice, whose player
    must have a unit in it. Without --on it is the
    player's unit in that battle, or the enemy unit if the card names that."""
    window = board.f.get("window")
    what = f"{card['name']} (flash)"
    if not window:
        raise RuleViolation(BATTLE_FLASH_RULE, f"{name} cannot play {what}: no battle is pending (declare one with "
                                               "`referee battle ATTACKER DEFENDER --window`, then play it before "
                                               "`referee settle`)")
    sides = [h for h in (window["attacker"], window["defender"]) if h in board.pieces]
    mine = [h for h in sides if board.pieces[h]["owner"] == name]
    fighting = " against ".join(board.label(h) for h in sides)
    if not mine:
        raise RuleViolation(BATTLE_FLASH_RULE, f"{name} cannot play {what}: {name} has no unit in the pending "
                                               f"battle ({fighting})")
    theirs = [h for h in sides if h not in mine]
    chosen = (theirs if unit_side(now) == "enemy" else mine)[:1]
    if on:
        handle = find_piece(board, on, ("unit",))
        if handle not in sides:
            raise RuleViolation(BATTLE_FLASH_RULE, f"{name} cannot play {what} on {board.label(handle)}: it is not "
                                                   f"in the pending battle ({fighting})")
        chosen = [handle]
    if not chosen:
        raise RuleViolation(BATTLE_FLASH_RULE, f"{name} cannot play {what}: the pending battle has no enemy unit "
                                               f"of {name}'s left ({fighting})")
    return unit_target(board, card, name, chosen[0], now)  # the card's own limits: whose unit, Flash-proof units


def estate_target(board: Board, card: Mapping[str, Any], name: str, on: str | None) -> str:
    if not on:
        raise RuleViolation("choose the target", f"{name} must name the Real Estate {card['name']} acts on, with --on")
    handle = find_piece(board, on, ("estate",))
    piece = board.pieces[handle]
    if piece["coins"] and sum(piece["coins"].values()):
        raise RuleViolation("choose the target", f"{card['name']} destroys Real Estate with no coins on it; "
                                                 f"{board.label(handle)} holds {sum(piece['coins'].values())}")
    guard = effects.shielded(board, handle, name, card["type"], targeted=True)
    if guard:
        raise RuleViolation(f"card text: {guard[0]}", f"{name} cannot play {card['name']} on "
                                                      f"{board.label(handle)}: {guard[1]}")
    return handle


# ---- change of control for a price ---------------------------------------------


def seize(board: Board, args: Mapping[str, Any], dice: Any) -> None:
    name = acting(board, args["player"])
    handle = find_piece(board, str(args["piece"]), ("unit",))
    piece = board.pieces[handle]
    price = [int(e["price"]) for e in effects.live_effects(piece) if e["kind"] == "for-sale"]
    if not price:
        raise RuleViolation("units change control only when card text says so",
                            f"{board.label(handle)} cannot be bought: its card offers no price")
    if piece["owner"] == name:
        raise RuleViolation(f"card text: {piece['name']}", f"{name} already controls {board.label(handle)}")
    if name != board.active:
        raise RuleViolation(f"card text: {piece['name']}",
                            f"{name} can take {board.label(handle)} only on their own turn; it is {board.active}'s")
    pay_for(board, name, price[0], price_deck(board, name, piece), f"control of {board.label(handle)}",
              args.get("from"), f"the price on {piece['name']}")
    effects.trace(piece.get("card"), "for-sale")
    fx.change_control(board, handle, name, f"paid {price[0]}")


def price_deck(board: Board, name: str, piece: Mapping[str, Any]) -> str | None:
    """Whose coins a price printed on a card counts as the buyer's own. With
    faction decks (the normal game) a price is paid like any cost of the
    buyer's: their own faction's coins pay all of it (only coins an ally gave
    are held to half). Only with mixed decks does the card's faction decide,
    other factions' coins paying at most half."""
    if board.rules.get("decks", "faction") == "faction":
        return board.own_faction(name) if board.people[name].faction else None
    return piece.get("deck")


# ---- corrections -----------------------------------------------------------------


def discard(board: Board, args: Mapping[str, Any], dice: Any) -> None:
    handle = find_piece(board, str(args["piece"]), ("unit", "estate", "operation"))
    mod = args.get("mod")
    if mod:
        mods = board.pieces[handle].get("mods", [])
        keep = [m for m in mods if m.get("card") != mod]
        if len(keep) == len(mods):
            names = ", ".join(m.get("card") or m["name"] for m in mods) or "none"
            raise RefereeError(f"{board.label(handle)} carries no Mod {mod} (its Mods: {names})")
        board.pieces[handle]["mods"] = keep
        board.note(f"Mod {mod} is taken off {board.label(handle)}")
        return
    board.remove(handle, args.get("reason") or "discarded by the scorekeeper")


# draw N / discard-hand CARD: what card text does to a hand


def draw(board: Board, args: Mapping[str, Any], dice: Any) -> None:
    name = acting(board, args["player"])
    zones.draw_on_board(board, name, int(args["count"]), args.get("reason") or "a card effect")


def discard_hand(board: Board, args: Mapping[str, Any], dice: Any) -> None:
    name = acting(board, args["player"])
    board.note(f"{name} discards {args['_card']['name']} from the hand to the discard pile"
                       + (f" ({args['reason']})" if args.get("reason") else ""))


# life and capital: the shared checks; applied on the board (cards leave play at 0 life)


def apply_life(rules: Any, state: State, action: Action, dice: Sequence[int]) -> State:
    if changed(state.player(action.args["player"]).life or 0, action.args) > 0:
        return shared.apply_life(rules, state, action, dice)  # nothing leaves play: the quick way
    board = Board(state)
    name = board.name(action.args["player"])
    board.change_life(name, changed(board.life(name), action.args) - board.life(name),
                      action.args.get("reason") or "scorekeeper")
    end_if_broken(board)  # a player out: a battle waiting after its dice may have lost its units
    return freeze(board)


def apply_capital(rules: Any, state: State, action: Action, dice: Sequence[int]) -> State:
    board = Board(state)
    name = board.name(action.args["player"])
    delta = changed(board.capital(name), action.args) - board.capital(name)
    why = action.args.get("reason") or "scorekeeper"
    if delta > 0:
        gain_capital(board, name, delta, board.own_faction(name), why)
    elif delta < 0:
        take_coins(board, name, -delta, why)
    return freeze(board)


# ---- helpers ------------------------------------------------------------------


def acting(board: Board, text: str) -> str:
    name = board.name(text)
    if board.people[name].eliminated:
        raise RuleViolation("elimination", f"{name} is out of the game")
    return name


def order_ready(board: Board, name: str) -> None:
    if not board.f["order"]["settled"]:
        who = ", ".join(board.f["order"]["contenders"])
        raise RuleViolation(ROLL_OFF_RULE, f"{name} cannot play yet: {who} roll off for the first player first "
                                           "(referee rolloff), or start with --house-rule first-player=seating")
