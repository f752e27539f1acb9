"""One action being worked out: `Play` holds a private copy of the state,
the checks every action shares (whose turn, which cards are in hand, which
spot is meant), attacks, a Leader's fall and the end of a round.

A Play either raises RuleViolation or ends in `done()`, the new State.
"""
from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any, Sequence

from referee.errors import RefereeError, RuleViolation
from referee.games.cold_war import desk as D
from referee.model import Action, PlayerName, State

class Play:
    """One action being worked out on a private copy of the state."""

    def __init__(self, state: State, action: Action):
        self.state = state
        self.action = action
        self.args = action.args
        self.f: dict[str, Any] = copy.deepcopy(dict(state.fields))
        self.active = state.active
        self.turn = state.turn
        self.round = state.round
        self.winner = state.winner
        self.report: list[str] = []
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
        return replace(self.state, players=players, active=self.active, turn=self.turn, round=self.round,
                       winner=self.winner, fields=self.f)

    def desk(self, player: str) -> dict[str, Any]:
        return self.f["desks"][player]

    def say(self, line: str) -> None:
        self.report.append(line)

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

    def phase(self, wanted: str, player: str, doing: str) -> None:
        phase = self.f["phase"]
        if phase == wanted:
            return
        if wanted == "play":
            raise RuleViolation("setup phase", f"{player} cannot {doing} yet: round {self.round} is in its setup "
                                               "phase (record every setup, then `start`)")
        raise RuleViolation("setup phase", f"{player} cannot {doing} now: round {self.round} is under way; "
                                           "setup happens before the round's first turn")

    def mover(self, doing: str) -> str:
        """The player whose turn it is, checked against --by."""
        active = self.state.players[self.active].name
        self.phase("play", self.action.actor or active, doing)
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

    def use_play(self, mover: str) -> None:
        moves = self.f["moves"]
        if moves["plays"] >= 2:
            raise RuleViolation("two plays a turn", f"{mover} has made 2 plays this turn; discard or end the turn")
        if moves["plays"] + moves["discards"] >= 3:
            raise RuleViolation("three cards a turn", f"{mover} has used all 3 card moves of this turn")
        moves["plays"] += 1

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
        """A card `player` plays from the hand: theirs, not on a table, not out
        of the game. A card from their discard pile came back when the draw
        pile was renewed from it."""
        stats = self.own_card(player, cid)
        desk = self.desk(player)
        if desk["fallen"]:
            raise RuleViolation("Fallen Leader", f"{player}'s Leader has fallen, so {player} holds no hand")
        where = D.locate(self.f, cid)
        if where is not None:
            holder, zone = where
            raise RuleViolation("cards in hand", f"{stats['name']} is already on {holder}'s table "
                                                 f"({D.ZONE_WORDS[zone]}), not in {player}'s hand")
        if cid in desk["removed"]:
            raise RuleViolation("removed from the game", f"{stats['name']} was removed from the game this round, "
                                                         f"so {player} cannot play it")
        if cid in desk["discard"]:
            desk["discard"].remove(cid)
        return stats

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
            zone, gi, pos = D.parse_spot(desk, player, token)
            if zone not in zones:
                raise RuleViolation("spots", f"{token.upper()} is not one of {player}'s "
                                             + " or ".join(D.ZONE_WORDS[z] for z in zones) + " cards")
            if zone == "assistants":
                return zone, desk["assistants"][gi]
            group = desk[zone][gi]
            if pos is None and len(group) != 1:
                raise RuleViolation("spots", f"{token.upper()} is a stack of {len(group)}; name one card, "
                                             f"like {token.upper()}.1")
            return zone, group[pos or 0]
        for zone in zones:
            if zone == "assistants" and token in desk["assistants"]:
                return zone, token
            if zone != "assistants" and any(token in g for g in desk[zone]):
                return zone, token
        raise RuleViolation("spots", f"{self.label(token)} is not among {player}'s "
                                     + " or ".join(D.ZONE_WORDS[z] for z in zones) + " cards on the table")

    def attack_spot(self, target: str, token: Any) -> str:
        """A whole spot to attack: S1, M2 (a single card or a stack of 3), L,
        or the id of a face-up Science & Culture card that is not in a stack."""
        if not isinstance(token, str) or not token.strip():
            raise RefereeError(f"say what the attack hits on {target}'s table: --at S1, M2 or L")
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
                                         "name a spot such as S1, M2 or L")
        zone, gi, pos = D.parse_spot(desk, target, token)
        if zone == "assistants":
            raise RuleViolation("Leader stack", f"{token.upper()} is part of {target}'s Leader stack; "
                                                "an attack on it is an attack on L")
        if pos is not None and len(desk[zone][gi]) > 1:
            raise RuleViolation("stacks act as one card", f"{token.upper()} is inside {target}'s stack of 3; "
                                                          f"attack the whole stack ({token.upper().split('.')[0]})")
        return "L" if zone == "leader" else f"{D.ZONE_LETTER[zone]}{gi + 1}"

    def spot_cards(self, target: str, label: str) -> tuple[list[tuple[str, str]], int, bool]:
        """The (zone, card) pairs an attack on `label` would take, their total
        defence, and whether it is the all-at-once attack on everything."""
        desk = self.desk(target)
        if label != "L":
            zone, gi, _ = D.parse_spot(desk, target, label)
            group = desk[zone][gi]
            return [(zone, c) for c in group], D.group_defence(self.f, target, group, self.propaganda), False
        hit = [(zone, c) for _, zone, group in D.spots(desk) for c in group]
        total = sum(D.card_defence(self.f, target, c, self.propaganda) for _, c in hit)
        for cid in D.leader_stack(self.f, target):
            total += int(self.card(cid).get("defence", 0))
        hit += [("assistants", c) for c in desk["assistants"]]
        return hit, total, bool(D.defence_cards(self.f, target))

    # turns and rounds ------------------------------------------------------

    def advance(self) -> None:
        if self.f["phase"] != "play":
            return
        count = len(self.state.players)
        self.active = (self.active + 1) % count
        self.turn += 1
        self.f["moves"] = {"plays": 0, "discards": 0}
        nxt = self.state.players[self.active].name
        self.desk(nxt)["weakened"] = []

    def fall(self, target: str, by: str) -> None:
        """`target`'s Leader is beaten: it flips, and all 24 other cards become
        the Fallen Leader's draw pile."""
        desk = self.desk(target)
        deck = self.f["decks"][target]
        leader = self.card(deck["leader"])
        self.f["desks"][target] = fresh = D.new_desk()
        fresh.update(set_up=True, fallen=True, pile=[c for c in deck["cards"] if c != deck["leader"]])
        del desk
        self.f["knocked_out"].append(target)
        self.say(f"{target}'s Leader {leader['name']} falls and becomes {leader.get('fallen_name', 'the Fallen Leader')}")
        if self.desk(by)["fallen"] and by != target:
            self.f["fallen_defeats"][by] += 1
            self.say(f"{by} beat a Leader while Fallen: +{self.rules['fallen-bonus']} at the end of the round")
        self.end_round_if_decided()

    def end_round_if_decided(self) -> None:
        standing = [n for n in self.names() if not self.desk(n)["fallen"]]
        if len(standing) != 1:
            return
        order = standing + list(reversed(self.f["knocked_out"]))
        points = [int(x) for x in str(self.rules["place-points"]).split(",")]
        bonus = int(self.rules["fallen-bonus"])
        lines = []
        for place, name in enumerate(order):
            extra = bonus * self.f["fallen_defeats"][name]
            self.f["scores"][name].append(points[place] + extra)
            lines.append(f"{name} {points[place]}" + (f"+{extra}" if extra else ""))
        self.say(f"round {self.round} is won by {standing[0]}; scores: " + ", ".join(lines))
        rounds = int(self.rules["rounds"])
        first_out = self.f["knocked_out"][0]
        if self.round < rounds:
            self.round += 1
            self.f.update(phase="setup", desks={n: D.new_desk() for n in self.names()},
                          moves={"plays": 0, "discards": 0}, knocked_out=[], first=first_out,
                          fallen_defeats={n: 0 for n in self.names()})
            self.say(f"round {self.round} of {rounds}: every player sets up again; {first_out}, knocked out "
                     "first, plays first")
            return
        totals = {n: sum(self.f["scores"][n]) for n in self.names()}
        best = max(totals.values())
        top = [n for n in self.names() if totals[n] == best]
        self.f["phase"] = "over"
        if len(top) == 1:
            self.winner = PlayerName(top[0])
            self.f["result"] = f"{top[0]} wins with {best} points"
        else:
            self.f["result"] = f"tie for first on {best} points: {', '.join(top)}"
        self.say(f"after {rounds} round(s): {self.f['result']}")

    # attacks ---------------------------------------------------------------

    def attack(self, attacker: str, value: int, used: list[str], target: str, at: Any, verb: str) -> None:
        """Resolve an attack of `value` made with the cards `used` (already off
        the hand or table) on `target` at spot `at`, with the defender's
        answers from the action's block / redirect / onto / onto_at."""
        label = self.attack_spot(target, at)
        combined = len(used) == 2
        redirect, onto = self.args.get("redirect"), self.args.get("onto")
        if redirect is not None:
            card = self.from_hand(target, redirect)
            if card["type"] != "special" or card.get("action") != "redirect":
                raise RuleViolation("redirect", f"{card['name']} is not a Special that redirects an attack")
            if onto is None:
                raise RefereeError(f"say whom {target}'s redirect sends the attack to: --onto PLAYER:SPOT")
            new = self.player(onto)
            if new == target:
                raise RuleViolation("redirect", f"{target} must send the attack to another player")
            if self.desk(new)["fallen"]:
                raise RuleViolation("redirect", f"{new}'s Leader has fallen, so {target} cannot redirect "
                                                "the attack there")
            D.to_discard(self.f, redirect)
            self.say(f"{target} plays {card['name']}: the attack goes to {new}")
            target, label = new, self.attack_spot(new, self.args.get("onto_at"))
        elif onto is not None:
            raise RefereeError("--onto goes with --redirect CARD")
        block = self.args.get("block")
        if block is not None:
            card = self.from_hand(target, block)
            if card["type"] != "special" or card.get("action") != "block":
                raise RuleViolation("block", f"{card['name']} is not a Special that blocks")
            D.to_discard(self.f, block)
            for cid in used:
                D.to_discard(self.f, cid)
            how = " (a combined attack counts as a single card)" if combined else ""
            self.say(f"{target} blocks {attacker}'s {verb} with {card['name']}{how}: it fails")
            return
        hit, defence, everything = self.spot_cards(target, label)
        for cid in used:
            D.to_discard(self.f, cid)
        if value < defence:
            what = "the whole defence and Leader stack" if everything else label
            self.say(f"{attacker}'s {verb} of {value} on {target}'s {what} fails; the defence stands")
            return
        for zone, cid in hit:
            D.take(self.f, target, zone, cid, None)
            D.to_discard(self.f, cid)
        names = ", ".join(self.label(c) for _, c in hit)
        if label == "L":
            scope = "whole table at once" if everything else "Leader stack"
            self.say(f"{attacker}'s {verb} of {value} takes {target}'s {scope} (defence {defence})"
                     + (f"; discarded: {names}" if names else ""))
            self.fall(target, attacker)
        else:
            self.say(f"{attacker}'s {verb} of {value} beats {target}'s {label} (defence {defence}); "
                     f"discarded: {names}")
