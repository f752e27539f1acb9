"""One action being worked out: `Play` holds a private copy of the state and
the checks every action shares (whose turn, which cards are in hand, which
spot is meant, how many cards the turn has used). Attacks, a Leader's fall
and the end of a round are in attacks.py and rounds.py, which work on a Play.

A Play either raises RuleViolation or ends in `done()`, the new State.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from referee.rules import prompts
from referee.errors import RefereeError, RuleViolation
from referee.games.cold_war import desk as D
from referee.games.cold_war import zones as Z
from referee.model import Action, State
from referee.rules.plain import plain_copy


class Play:
    """One action being worked out on a private copy of the state."""

    def __init__(self, state: State, action: Action):
        self.state = state
        self.action = action
        self.args = action.args
        # A private copy of the fields (plain JSON data), but for the printed decks, which no action
        # changes: shared, not copied.
        fields = dict(state.fields)
        decks = fields.pop("decks", None)
        self.f: dict[str, Any] = plain_copy(fields)
        if decks is not None:
            self.f["decks"] = decks
        self.active = state.active
        self.turn = state.turn
        self.round = state.round
        self.winner = state.winner
        self.report: list[str] = []
        self.asks: list[tuple[str, str, str, str, str]] = []   # prompts to add (effects.ask)
        self.rules = state.house_rules
        self.propaganda = int(state.house_rules["propaganda-defence"])

    # state ---------------------------------------------------------------

    def done(self) -> State:
        self.f["report"] = self.report
        self.f["step"] = int(self.f.get("step", 0)) + 1
        players = tuple(
            replace(p, fields={
                "leader": "fallen" if self.f["desks"][p.name]["fallen"] else "standing",
                "score": sum(self.f["scores"][p.name]),
            })
            for p in self.state.players
        )
        state = replace(self.state, players=players, active=self.active, turn=self.turn, round=self.round,
                        winner=self.winner, fields=self.f)
        for player, cid, name, moment, text in self.asks:
            state = prompts.ask(state, player, cid, name, moment, text)
        return state

    def desk(self, player: str) -> dict[str, Any]:
        return self.f["desks"][player]

    def say(self, line: str) -> None:
        self.report.append(line)

    def ask(self, player: str, cid: str, name: str, moment: str, text: str) -> None:
        """A card's text the referee cannot apply: the table is asked (referee/prompts.py) once the action is done."""
        self.asks.append((player, cid, name, moment, text))

    def names(self) -> list[str]:
        return [p.name for p in self.state.players]

    def player(self, name: Any) -> str:
        if not isinstance(name, str) or not name.strip():
            raise RefereeError("name a player")
        return self.state.player(name).name

    def on(self, key: str) -> bool:
        return self.rules.get(key) == "on"

    def card(self, cid: str) -> dict[str, Any]:
        return D.card(self.f, cid)

    def label(self, cid: str) -> str:
        return D.name_of(self.f, cid)

    # who may act -----------------------------------------------------------

    def active_name(self) -> str:
        return self.state.players[self.active].name

    def mover(self, doing: str) -> str:
        """The player whose turn it is, checked against --by (the phase was
        checked before the action ran: see phases.py)."""
        active = self.active_name()
        actor = self.action.actor
        if actor is not None and self.state.player(actor).name != active:
            name = self.state.player(actor).name
            raise RuleViolation("turn order", f"it is {active}'s turn, so {name} cannot {doing}")
        return active

    def standing_mover(self, doing: str) -> str:
        mover = self.mover(doing)
        if self.desk(mover)["fallen"]:
            raise RuleViolation("Fallen Leader", f"{mover}'s Leader has fallen, so {mover} holds no hand and "
                                                 f"cannot {doing}; a Fallen Leader only flips a card (`fallen`)")
        return mover

    def opponent(self, mover: str, name: Any, what: str) -> str:
        target = self.player(name)
        if target == mover:
            raise RuleViolation(what, f"{mover} cannot target their own table")
        if self.desk(target)["fallen"]:
            raise RuleViolation(what, f"{target}'s Leader has already fallen; {mover} can only target a player "
                                      "whose Leader still stands")
        return target

    def use_play(self, mover: str, cards: int = 1, what: str = "card") -> None:
        """Count `cards` of the turn's two plays (a combined attack uses 2;
        a Propaganda challenge uses 1 as a move). A turn is at most 3 cards:
        at least one discard and up to two others."""
        moves = self.f["moves"]
        if moves["plays"] + cards > 2:
            left = 2 - moves["plays"]
            raise RuleViolation("two cards besides the discard",
                                f"{mover} has {left} of 2 plays left this turn, and this {what} uses {cards}: "
                                "each turn is one discard and at most two other cards")
        if moves["plays"] + moves["discards"] + cards > 3:
            raise RuleViolation("three cards a turn", f"{mover} has "
                                f"{3 - moves['plays'] - moves['discards']} card move(s) left this turn, "
                                f"and this {what} uses {cards}")
        moves["plays"] += cards

    # cards -----------------------------------------------------------------

    def own_card(self, player: str, cid: Any) -> dict[str, Any]:
        if not isinstance(cid, str):
            raise RefereeError("name a card by its id or its QR code")
        deck = self.f["decks"][player]
        if cid not in deck["cards"]:
            other = D.owner(self.f, cid)
            if other is not None:
                raise RuleViolation("own deck", f"{self.label(cid)} ({cid}) is in {other}'s "
                                                f"{self.f['decks'][other]['country_name']} deck, not {player}'s")
            raise RuleViolation("own deck", f"{cid} is not in any country deck at this table, "
                                            f"so it is not {player}'s")
        if cid == deck["leader"]:
            raise RuleViolation("Leader", f"{self.label(cid)} is {player}'s Leader; it sits on the table "
                                          "all round and is never played from the hand")
        return deck["cards"][cid]

    def from_hand(self, player: str, cid: Any) -> dict[str, Any]:
        """A card `player` plays, places or discards from the hand (zones.py
        knows whether it can be there)."""
        stats = self.own_card(player, cid)
        if self.desk(player)["fallen"]:
            raise RuleViolation("Fallen Leader", f"{player}'s Leader has fallen, so {player} holds no hand")
        Z.from_hand(self.f, player, cid)
        return stats

    def draw_back(self, player: str, count: int, why: str) -> None:
        """A defender who answered with Specials draws their replacements at once."""
        drawn = Z.draw(self.desk(player), count)
        if drawn:
            self.say(f"{player} draws {drawn} card(s) to replace {why}")

    def cards_arg(self, key: str) -> list[str]:
        value = self.args.get(key) or []
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in value]

    def distinct(self, player: str, ids: Sequence[str]) -> None:
        for cid in ids:
            if list(ids).count(cid) > 1:
                raise RuleViolation("each card once", f"{player} names {self.label(cid)} twice")

    # spots -----------------------------------------------------------------

    def own_table_card(self, player: str, token: str, zones: Sequence[str]) -> tuple[str, str]:
        """(zone, card id) of a card on `player`'s own table, named by id or spot."""
        desk = self.desk(player)
        if D.is_spot(token):
            zone, where, pos = D.parse_spot(desk, player, token)
            if zone not in zones:
                raise RuleViolation("spots", f"{token.upper()} is not one of {player}'s "
                                             + " or ".join(D.ZONE_WORDS[z] for z in zones) + " cards")
            if zone == "assistants":
                return zone, desk["assistants"][where]
            cards = where["cards"]
            if pos is None and len(cards) != 1:
                raise RuleViolation("spots", f"{token.upper()} is a stack of {len(cards)}; name one card, "
                                             f"like {token.upper()}.1")
            return zone, cards[pos or 0]
        by_spot = bool(self.f.get("face_down_by_spot"))
        for zone in zones:  # by id: only a face-up card (a face-down one is named by its spot)
            if not (by_spot and zone == "military") and token in D.zone_cards(desk, zone):
                return zone, token
        # One refusal whatever lies face down: accepting an id that lies face down would tell anyone at
        # the terminal where that card is (its twin table, with the card in the hand, refuses the line).
        hint = self._military_hint(player)
        if tuple(zones) == ("military",):
            raise RuleViolation("spots", f"{player}'s face-down Military cards are named by their spot ({hint}), "
                                         f"not by id: {self.label(token)}")
        words = " or ".join(D.ZONE_WORDS[z] for z in zones if z != "military")
        also = f"; a face-down Military card is named by its spot ({hint})" if "military" in zones else ""
        raise RuleViolation("spots", f"{self.label(token)} is not among {player}'s face-up {words} cards "
                                     f"on the table{also}")

    def _military_hint(self, player: str) -> str:
        labels = [label for label, zone, _ in D.spots(self.desk(player)) if zone == "military"]
        return ", ".join(labels) if labels else "M1, M2, ..."

    def spot_hint(self, target: str) -> str:
        """The spots an attack on `target` may name now, in words: "S1, S2 or
        M1 (L once those fall, ...)", or "L" when nothing else stands."""
        labels = [label for label, _, _ in D.spots(self.desk(target))]
        if not labels:
            return "L (nothing else stands)"
        listed = labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} or {labels[-1]}"
        return f"{listed} (L, the Leader stack, once they have fallen, or to an attack that beats them all at once)"

    def attack_spot(self, target: str, token: Any) -> str:
        """A whole spot to attack: S1, M2 (a single card or a stack of 3), L,
        or the id of a face-up Science & Culture card that is not in a stack."""
        if not isinstance(token, str) or not token.strip():
            raise RefereeError(f"say what the attack hits on {target}'s table: --at {self.spot_hint(target)}")
        desk = self.desk(target)
        if not D.is_spot(token):
            for label, zone, group in D.spots(desk):
                if token in group and zone == "science":
                    if len(group) > 1:
                        raise RuleViolation("stacks act as one card",
                                            f"{self.label(token)} is in {target}'s stack {label}; "
                                            f"attack the whole stack ({label})")
                    return label
            raise RuleViolation("spots", f"{self.label(token)} is not a face-up card on {target}'s table; "
                                         f"name a spot: {self.spot_hint(target)}")
        zone, where, pos = D.parse_spot(desk, target, token)
        if zone == "assistants":
            raise RuleViolation("Leader stack", f"{token.upper()} is part of {target}'s Leader stack; "
                                                "an attack on it is an attack on L")
        if zone == "leader":
            return "L"
        if pos is not None and len(where["cards"]) > 1:
            raise RuleViolation("stacks act as one card", f"{token.upper()} is inside {target}'s stack of 3; "
                                                          f"attack the whole stack ({token.upper().split('.')[0]})")
        return D.label(zone, where)

    def spot_cards(self, target: str, label: str) -> tuple[list[tuple[str, int]], int, bool]:
        """The (zone, label number) spots an attack on `label` would take,
        their total defence with the Leader stack's when `label` is L, and
        whether it is the all-at-once attack on a table that still has defence."""
        desk = self.desk(target)
        if label != "L":
            zone, group, _ = D.parse_spot(desk, target, label)
            return [(zone, group["n"])], D.group_defence(self.f, target, group["cards"], self.propaganda), False
        hit = [(zone, g["n"]) for zone in D.ZONES for g in desk[zone]]
        total = sum(D.card_defence(self.f, target, c, self.propaganda) for c in D.defence_cards(self.f, target))
        for cid in D.leader_stack(self.f, target):
            total += int(self.card(cid).get("defence", 0))
        return hit, total, bool(hit)
