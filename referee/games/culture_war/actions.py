"""Culture War actions played on a Board: cards, battles, alliances, gifts
and corrections. A mixin of CultureWarRules, which supplies `_checked`
(run the action on a throw-away Board, so refusals come from the same code)
and `_applied` (run it for real with the recorded dice).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from referee.errors import RefereeError, RuleViolation
from referee.games.culture_war import battle, effects
from referee.games.culture_war.board import KIND_WORDS, KINDS, Board, coins_text, cyber, new_piece
from referee.games.culture_war.phases import ROLL_OFF_RULE, TIMING  # the phases are checked first, in phases.py
from referee.model import Action, State

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
        on = args.get("on")
        attach_to = unit_target = target_player = None
        if kind == "mod":
            kinds = MOD_KINDS.get(card.get("target") or "any", MOD_KINDS["any"])
            if not on:
                raise RuleViolation("a Mod is attached to a card",
                                    f"{name} must say with --on which {' or '.join(KIND_WORDS[k] for k in kinds)} "
                                    f"{card['name']} is attached to")
            attach_to = board.find(on, kinds)
        now = [e for e in card.get("effects", [])
               if e.get("when") == "on-play" or (kind in ("flash", "happening") and e.get("when") is None)]
        if any(e.get("target") == "target-unit" for e in now):
            if on:
                unit_target = board.find(on, ("unit",))
            elif board.pieces and any(p["kind"] == "unit" for p in board.pieces.values()):
                raise RuleViolation("choose the target", f"{name} must name the unit {card['name']} acts on, with --on")
        if any(e.get("target") == "target-player" for e in now):
            if not on:
                raise RuleViolation("choose the target",
                                    f"{name} must name the player {card['name']} acts on, with --on")
            target_player = self._acting(board, on)
        if args.get("cost") is not None:
            cost = int(args["cost"])
        elif kind == "real-estate":
            cost = effects.estate_cost(board, name)
        else:
            cost = effects.card_cost(board, name, card)
        board.pay(name, cost, card.get("deck"), what, args.get("from"))
        board.f["begun"] = True
        if kind in KINDS:
            handle = board.add_piece(new_piece(card, name, board.turn))
            extra = ""
            if kind == "real-estate":
                extra = "; it produces from its owner's next turn"
            board.notes.append(f"{name}'s {card['name']} enters play as #{handle}{extra}")
        elif kind == "mod":
            target = board.pieces[attach_to]  # type: ignore[index]
            target.setdefault("mods", []).append(
                {"card": card.get("id"), "name": card["name"], "deck": card.get("deck"), "by": name,
                 "effects": card.get("effects", [])})
            board.notes.append(f"{card['name']} is attached to {board.label(attach_to)}")  # type: ignore[arg-type]
        else:
            board.notes.append(f"{name} plays {what}")
        effects.unit_effects(board, now, owner=name, source=card["name"], target_unit=unit_target)
        effects.player_effects(board, now, owner=name, deck=card.get("deck"), source=card["name"],
                               target_player=target_player)

    # ---- battles -------------------------------------------------------------------

    def check_battle(self, state: State, action: Action) -> None:
        self.target_of(Board(state), action.args)

    def apply_battle(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return self._applied(state, action, dice)

    def _do_battle(self, board: Board, args: Mapping[str, Any], dice: Callable[[], int]) -> None:
        attacker, defender, direct = self.target_of(board, args)
        board.f["begun"] = True
        if direct:
            battle.strike(board, attacker, defender)
        else:
            battle.fight(board, attacker, defender, dice, counter=args.get("counter", True))

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
        text = str(args["defender"]).strip()
        if text.lstrip("#").isdigit() or "/" in text:
            defender = board.find(text, ("unit",))
            foe = board.pieces[defender]
            if foe["owner"] == owner:
                raise RuleViolation("units attack the enemy",
                                    f"{owner} cannot attack their own #{defender} {foe['name']}")
            if cyber(unit) != cyber(foe):
                cy, plain = (label, board.label(defender)) if cyber(unit) else (board.label(defender), label)
                raise RuleViolation("Cyber units fight only Cyber units",
                                    f"{owner} cannot attack: {cy} is a Cyber unit and {plain} is not")
            return attacker, defender, False
        target = board.name(text)
        if target == owner:
            raise RuleViolation("units attack the enemy", f"{owner} cannot attack their own LIFE")
        if board.people[target].eliminated:
            raise RuleViolation("elimination", f"{target} is out of the game")
        theirs = [(h, p) for h, p in board.owned(target, "unit")]
        listing = ", ".join(f"#{h} {p['name']}" for h, p in theirs)
        if cyber(unit):
            guards = [(h, p) for h, p in theirs if cyber(p)]
            if guards:
                raise RuleViolation("a Cyber unit attacks LIFE only when the target has no Cyber units",
                                    f"{owner} cannot attack {target}'s LIFE with {label}: {target} has "
                                    + ", ".join(f"#{h} {p['name']}" for h, p in guards))
        elif theirs:
            raise RuleViolation("LIFE can be attacked only when the target has no units",
                                f"{owner} cannot attack {target}'s LIFE: {target} still has {listing}")
        return attacker, target, True

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
