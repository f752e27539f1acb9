"""Culture War actions played on a Board: cards, battles, alliances, gifts
and corrections. A mixin of CultureWarRules, which supplies `_checked`
(run the action on a throw-away Board, so refusals come from the same code)
and `_applied` (run it for real with the recorded dice).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from referee.errors import RefereeError, RuleViolation
from referee.games.culture_war import battle, effects
from referee.games.culture_war import handlers as fx
from referee.games.culture_war.board import KIND_WORDS, KINDS, Board, coins_text, new_piece
from referee.games.culture_war.phases import ROLL_OFF_RULE, TIMING  # the phases are checked first, in phases.py
from referee.model import Action, State

# which triggers fire as a card of each type is played
NOW_OF = {"unit": ("on-play",), "operation": ("on-play", "now"), "real-estate": ("on-buy",),
          "mod": ("on-play", "now"), "flash": ("now", "before-battle"), "happening": ("now",)}
UNIT_TARGET_WHO = ("target-unit", "target-enemy", "target-cyber", "your-unit", "enemy-unit")
UNIT_TARGET_KINDS = ("bounce", "shield", "take-control")

WINDOW = "window"  # state field: a battle whose dice are shown and which waits for `settle`


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
        if (e["kind"] in ("lose", "steal") and e.get("who") == "target-player") or \
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


class Actions:
    _checked: Callable[[State, Action], None]
    _applied: Callable[[State, Action, Sequence[int]], State]

    # ---- playing cards -------------------------------------------------------------

    def check_play(self, state: State, action: Action) -> None:
        self._checked(state, action)

    def apply_play(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return self._applied(state, action, dice)

    def _do_play(self, board: Board, args: Mapping[str, Any], dice: Any) -> None:
        card = args["_card"]
        kind = card["type"]
        name = self._acting(board, args["player"])
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
            target = self._mod_host(board, card, name, on)
        wanted = targets_of(now)
        if "unit" in wanted and "player" not in wanted:
            target = self._unit_target(board, card, name, on, now)
        if "estate" in wanted:
            target = self._estate_target(board, card, name, on)
        if "player" in wanted:
            if not on:
                raise RuleViolation("choose the target",
                                    f"{name} must name the player {card['name']} acts on, with --on")
            target_player = self._acting(board, on)
        if args.get("cost") is not None:
            cost, paid_why = int(args["cost"]), "as entered with --cost"
        else:
            base = effects.estate_base(board, name) if kind == "real-estate" else int(card.get("cost") or 0)
            cost, parts = effects.cost_parts(board, name, kind, base)
            paid_why = effects.pay_text(cost, base, parts)
        board.pay(name, cost, card.get("deck"), what, args.get("from"), paid_why)
        board.f["begun"] = True
        this = None
        if kind in KINDS:
            this = board.add_piece(new_piece(card, name, board.turn))
            extra = "; it produces from its owner's next turn" if kind == "real-estate" else ""
            board.notes.append(f"{name}'s {card['name']} enters play as #{this}{extra}")
        elif kind == "mod":
            host = board.pieces[target]  # type: ignore[index]
            host.setdefault("mods", []).append(
                {"card": card.get("id"), "name": card["name"], "deck": card.get("deck"), "by": name,
                 "effects": card_effects})
            board.notes.append(f"{card['name']} is attached to {board.label(target)}")  # type: ignore[arg-type]
        else:
            board.notes.append(f"{name} plays {what}")
        memo: dict[str, Any] = {}
        if target in board.pieces:
            memo["target_owner"] = board.pieces[target]["owner"]
        ctx = fx.Ctx(name, card, this=this, target=target, target_player=target_player, dice=dice,
                     battle=memo, moment="played")
        fx.run(board, now, ctx)
        if kind == "flash":
            for other in board.live():
                if other != name:
                    fx.on_side(board, other, "opponent-flash", that_player=name, dice=dice, moment="a Flash was played")

    def _mod_host(self, board: Board, card: Mapping[str, Any], name: str, on: str | None) -> str:
        kinds = MOD_KINDS.get(card.get("target") or "any", MOD_KINDS["any"])
        if not on:
            raise RuleViolation("a Mod is attached to a card",
                                f"{name} must say with --on which {' or '.join(KIND_WORDS[k] for k in kinds)} "
                                f"{card['name']} is attached to")
        host = board.find(on, kinds)
        piece = board.pieces[host]
        if piece["kind"] == "unit" and effects.has_trait(board, host, "immune"):
            raise RuleViolation(f"card text: {piece['name']}",
                                f"{name} cannot attach {card['name']}: Mods and Operations cannot affect "
                                f"{board.label(host)}")
        if any(e["kind"] == "trait" and e["trait"] == "no-mods" for e in effects.live_effects(piece)):
            effects.trace(piece.get("card"), "trait")
            raise RuleViolation(f"card text: {piece['name']}",
                                f"{name} cannot attach {card['name']}: no Mod can be attached to {board.label(host)}")
        guard = effects.protected(board, host, name)
        if guard:
            raise RuleViolation(f"card text: {guard}", f"{name} cannot attach {card['name']} to "
                                                       f"{board.label(host)}: {guard} keeps enemy cards off it")
        return host

    def _unit_target(self, board: Board, card: Mapping[str, Any], name: str, on: str | None,
                     now: list[dict[str, Any]]) -> str | None:
        if not on:
            if any(p["kind"] == "unit" for p in board.pieces.values()):
                raise RuleViolation("choose the target", f"{name} must name the unit {card['name']} acts on, with --on")
            return None
        handle = board.find(on, ("unit",))
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
        if card["type"] == "flash" and effects.has_trait(board, handle, "no-flash-target"):
            raise RuleViolation(f"card text: {piece['name']}",
                                f"{name} cannot play {card['name']} on {board.label(handle)}: "
                                "Flash events cannot target it")
        return handle

    def _estate_target(self, board: Board, card: Mapping[str, Any], name: str, on: str | None) -> str:
        if not on:
            raise RuleViolation("choose the target", f"{name} must name the Real Estate {card['name']} acts on, with --on")
        handle = board.find(on, ("estate",))
        piece = board.pieces[handle]
        if piece["coins"] and sum(piece["coins"].values()):
            raise RuleViolation("choose the target", f"{card['name']} destroys Real Estate with no coins on it; "
                                                     f"{board.label(handle)} holds {sum(piece['coins'].values())}")
        guard = effects.protected(board, handle, name)
        if guard:
            raise RuleViolation(f"card text: {guard}", f"{board.label(handle)} cannot be affected: {guard}")
        return handle

    # ---- change of control for a price ---------------------------------------------

    def check_seize(self, state: State, action: Action) -> None:
        self._checked(state, action)

    def apply_seize(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return self._applied(state, action, dice)

    def _do_seize(self, board: Board, args: Mapping[str, Any], dice: Any) -> None:
        name = self._acting(board, args["player"])
        handle = board.find(str(args["piece"]), ("unit",))
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
        board.pay(name, price[0], piece.get("deck"), f"control of {board.label(handle)}", args.get("from"),
                  f"the price on {piece['name']}")
        effects.trace(piece.get("card"), "for-sale")
        fx.change_control(board, handle, name, f"paid {price[0]}")

    # ---- battles -------------------------------------------------------------------

    def check_battle(self, state: State, action: Action) -> None:
        self.target_of(Board(state), action.args)

    def apply_battle(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return self._applied(state, action, dice)

    def _do_battle(self, board: Board, args: Mapping[str, Any], dice: Callable[[], int]) -> None:
        attacker, defender, direct = self.target_of(board, args)
        board.f["begun"] = True
        owner = board.pieces[attacker]["owner"]
        foe = defender if direct else board.pieces[defender]["owner"]
        for _, src, e in effects.statics(board, "attack-tax"):
            if src["owner"] == foe:
                amount = int(e["amount"])
                if board.capital(owner) < amount:
                    raise RuleViolation(f"card text: {src['name']}",
                                        f"{owner} must pay {amount} capital to attack {foe} ({src['name']}) "
                                        f"and has {board.capital(owner)}")
                effects.trace(src.get("card"), "attack-tax")
                board.take(owner, amount, f"to attack {foe} ({src['name']})")
        if direct:
            battle.strike(board, attacker, defender, dice)
        else:
            battle.fight(board, attacker, defender, dice, counter=args.get("counter", True))

    # ---- the window after the dice: `battle --window`, Flashes, then `settle` ----------

    def check_window(self, state: State, action: Action) -> None:
        if state.fields.get(WINDOW):
            raise RuleViolation("after the dice", "a battle already waits to be settled: `referee settle` first")
        self.target_of(Board(state), action.args)

    def apply_window(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return self._applied(state, action, dice)

    def _do_window(self, board: Board, args: Mapping[str, Any], dice: Callable[[], int]) -> None:
        """Roll both battle dice and show them; the battle waits, so Flashes
        can still be played, until `settle` fights it with these dice."""
        attacker, defender, direct = self.target_of(board, args)
        if direct:
            raise RuleViolation("after the dice", "an attack straight at LIFE rolls no dice: fight it with `referee battle`")
        rolled = [dice(), dice()]
        board.f[WINDOW] = {"attacker": attacker, "defender": defender, "counter": args.get("counter", True),
                           "dice": rolled}
        board.notes.append(f"dice shown: {board.label(attacker)} rolled {rolled[0]}, {board.label(defender)} "
                           f"rolled {rolled[1]}; Flashes may be played now, then `referee settle`")
        board.notes += [f"if nothing is played: {line}" for line in self._pending(board)]

    def _pending(self, board: Board) -> list[str]:
        """What `settle` would do now, with the dice shown (a tie, reroll or
        counter-attack that needs more dice is said to, not rolled)."""
        import copy

        from referee.games.culture_war.board import DiceShortage, feeder

        trial = copy.deepcopy(board)
        before = len(trial.notes)
        try:
            self._do_settle(trial, {}, feeder(()))
        except DiceShortage:
            return [line.strip() for line in trial.notes[before:][:2]] + ["... and it needs more dice (a tie, a reroll or a counter-attack)"]
        except RefereeError as exc:
            return [f"it would be refused: {exc}"]
        return [line.strip() for line in trial.notes[before:] if "roll" in line or "->" in line][:2]

    def check_settle(self, state: State, action: Action) -> None:
        if not state.fields.get(WINDOW):
            raise RuleViolation("after the dice", "no battle waits to be settled (start one with `referee battle A D --window`)")

    def apply_settle(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return self._applied(state, action, dice)

    def _do_settle(self, board: Board, args: Mapping[str, Any], dice: Callable[[], int]) -> None:
        """The waiting battle, fought with the dice shown (and any further dice
        it needs: ties, rerolls, a counter-attack)."""
        window = board.f.pop(WINDOW)
        shown = iter(window["dice"])

        def both() -> int:
            return next(shown, None) or dice()

        self._do_battle(board, {"attacker": window["attacker"], "defender": window["defender"],
                                "counter": window.get("counter", True)}, both)

    def target_of(self, board: Board, args: Mapping[str, Any]) -> tuple[str, str, bool]:
        """(attacker handle, defender handle or player name, is it a direct attack)."""
        attacker = board.find(str(args["attacker"]), ("unit",))
        unit = board.pieces[attacker]
        owner = unit["owner"]
        order_ready(board, owner)
        label = board.label(attacker)
        if owner != board.active:
            raise RuleViolation("units attack on their owner's turn",
                                f"{label} cannot attack: it is {board.active}'s turn")
        if unit.get("attacked") == board.turn:
            raise RuleViolation("each unit attacks at most once per turn", f"{label} has already attacked this turn")
        if effects.has_trait(board, attacker, "cannot-attack"):
            raise RuleViolation(f"card text: {unit['name']}", f"{label} cannot attack")
        if effects.has_trait(board, attacker, "slow") and unit.get("since") == board.turn:
            raise RuleViolation(f"card text: {unit['name']}", f"{label} cannot attack on the turn it is played")
        for _, src, e in effects.statics(board, "attack-limit"):
            if src["owner"] == owner and board.f.get("attacks", 0) >= int(e["max"]):
                effects.trace(src.get("card"), "attack-limit")
                raise RuleViolation(f"card text: {src['name']}",
                                    f"{owner} may attack with at most {e['max']} units each turn ({src['name']})")
        text = str(args["defender"]).strip()
        if text.lstrip("#").isdigit() or "/" in text:
            defender = board.find(text, ("unit",))
            foe = board.pieces[defender]
            if foe["owner"] == owner:
                raise RuleViolation("units attack the enemy",
                                    f"{owner} cannot attack their own #{defender} {foe['name']}")
            self._truce(board, owner, foe["owner"])
            if effects.cyber(board, attacker) != effects.cyber(board, defender):
                cy, plain = (label, board.label(defender)) if effects.cyber(board, attacker) \
                    else (board.label(defender), label)
                raise RuleViolation("Cyber units fight only Cyber units",
                                    f"{owner} cannot attack: {cy} is a Cyber unit and {plain} is not")
            if effects.cyber(board, attacker):
                guards = [(h, p) for h, p in board.owned(foe["owner"], "unit")
                          if any(e["kind"] == "taunt" for e in effects.live_effects(p))]
                for _, guard in guards:
                    effects.trace(guard.get("card"), "taunt")
                if guards and defender not in [h for h, _ in guards]:
                    raise RuleViolation(f"card text: {guards[0][1]['name']}",
                                        f"{label} must attack " + " or ".join(board.label(h) for h, _ in guards))
            return attacker, defender, False
        target = board.name(text)
        if target == owner:
            raise RuleViolation("units attack the enemy", f"{owner} cannot attack their own LIFE")
        if board.people[target].eliminated:
            raise RuleViolation("elimination", f"{target} is out of the game")
        self._truce(board, owner, target)
        theirs = [(h, p) for h, p in board.owned(target, "unit")]
        listing = ", ".join(f"#{h} {p['name']}" for h, p in theirs)
        if effects.cyber(board, attacker):
            guards = [(h, p) for h, p in theirs if effects.cyber(board, h)]
            if guards:
                raise RuleViolation("a Cyber unit attacks LIFE only when the target has no Cyber units",
                                    f"{owner} cannot attack {target}'s LIFE with {label}: {target} has "
                                    + ", ".join(f"#{h} {p['name']}" for h, p in guards))
        elif theirs:
            raise RuleViolation("LIFE can be attacked only when the target has no units",
                                f"{owner} cannot attack {target}'s LIFE: {target} still has {listing}")
        return attacker, target, True

    @staticmethod
    def _truce(board: Board, owner: str, foe: str) -> None:
        source = fx.attack_banned(board, owner, foe)
        if source:
            raise RuleViolation(f"card text: {source}", f"{owner} cannot attack {foe} now ({source})")

    # ---- alliances and gifts --------------------------------------------------------

    def check_ally(self, state: State, action: Action) -> None:
        self._checked(state, action)

    def apply_ally(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return self._applied(state, action, dice)

    def _do_ally(self, board: Board, args: Mapping[str, Any], dice: Any) -> None:
        names = [self._acting(board, n) for n in args["players"]]
        if len(set(names)) < 2:
            raise RefereeError("an alliance needs at least two different players")
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                pair = sorted([a, b])
                if pair not in board.f["alliances"]:
                    board.f["alliances"].append(pair)
        board.f["alliances"].sort()
        board.notes.append("alliance: " + " & ".join(names))

    def check_unally(self, state: State, action: Action) -> None:
        self._checked(state, action)

    def apply_unally(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return self._applied(state, action, dice)

    def _do_unally(self, board: Board, args: Mapping[str, Any], dice: Any) -> None:
        names = [board.name(n) for n in args["players"]]
        before = list(board.f["alliances"])
        if len(names) == 1:
            board.f["alliances"] = [p for p in before if names[0] not in p]
        else:
            board.f["alliances"] = [p for p in before if not set(p) <= set(names)]
        if board.f["alliances"] == before:
            raise RefereeError(f"{' and '.join(names)} are not in an alliance")
        board.notes.append(f"alliance ended: {' & '.join(names)}")

    def check_donate(self, state: State, action: Action) -> None:
        self._checked(state, action)

    def apply_donate(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return self._applied(state, action, dice)

    def _do_donate(self, board: Board, args: Mapping[str, Any], dice: Any) -> None:
        giver, taker, amount = self._transfer(board, args, "life")
        life = board.life(giver)
        if amount >= life:
            raise RuleViolation("an alliance donation never brings the donor to 0 life",
                                f"{giver} has {life} life, so can give {taker} at most {life - 1}")
        board.change_life(giver, -amount, f"donated to {taker}")
        board.change_life(taker, amount, f"donated by {giver}")

    def check_gift(self, state: State, action: Action) -> None:
        self._checked(state, action)

    def apply_gift(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return self._applied(state, action, dice)

    def _do_gift(self, board: Board, args: Mapping[str, Any], dice: Any) -> None:
        giver, taker, amount = self._transfer(board, args, "capital")
        faction = args.get("faction")
        have = board.capital(giver) if faction is None else sum(
            c.get(faction, 0) for _, c in board.sources(giver))
        if amount > have:
            kind = f"{faction} " if faction else ""
            raise RuleViolation("capital cannot go below 0", f"{giver} has only {have} {kind}capital to give")
        coins = board.take(giver, amount, f"given to {taker}", faction)
        board.put(taker, coins)
        board.notes.append(f"{taker} puts {coins_text(coins)} in the bank; coins of another faction "
                           "pay at most half of any card")

    def _transfer(self, board: Board, args: Mapping[str, Any], what: str) -> tuple[str, str, int]:
        giver, taker = self._acting(board, args["from"]), self._acting(board, args["to"])
        amount = args.get("amount")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
            raise RefereeError(f"give a whole number of {what} of at least 1, not {amount!r}")
        if giver == taker:
            raise RefereeError(f"{giver} cannot give {what} to themselves")
        if sorted([giver, taker]) not in board.f["alliances"]:
            raise RuleViolation(f"only allies give each other {what}",
                                f"{giver} and {taker} are not allied (referee ally {giver} {taker})")
        return giver, taker, amount

    # ---- corrections -----------------------------------------------------------------

    def check_discard(self, state: State, action: Action) -> None:
        self._checked(state, action)

    def apply_discard(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return self._applied(state, action, dice)

    def _do_discard(self, board: Board, args: Mapping[str, Any], dice: Any) -> None:
        handle = board.find(str(args["piece"]), ("unit", "estate", "operation"))
        mod = args.get("mod")
        if mod:
            mods = board.pieces[handle].get("mods", [])
            keep = [m for m in mods if m.get("card") != mod]
            if len(keep) == len(mods):
                names = ", ".join(m.get("card") or m["name"] for m in mods) or "none"
                raise RefereeError(f"{board.label(handle)} carries no Mod {mod} (its Mods: {names})")
            board.pieces[handle]["mods"] = keep
            board.notes.append(f"Mod {mod} is taken off {board.label(handle)}")
            return
        board.remove(handle, args.get("reason") or "discarded by the scorekeeper")

    # ---- helpers ------------------------------------------------------------------

    def _acting(self, board: Board, text: str) -> str:
        name = board.name(text)
        if board.people[name].eliminated:
            raise RuleViolation("elimination", f"{name} is out of the game")
        return name


def order_ready(board: Board, name: str) -> None:
    if not board.f["order"]["settled"]:
        who = ", ".join(board.f["order"]["contenders"])
        raise RuleViolation(ROLL_OFF_RULE, f"{name} cannot play yet: {who} roll off for the first player first "
                                           "(referee rolloff), or start with --house-rule first-player=seating")
