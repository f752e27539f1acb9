"""Self-play's physical Cold War table: each country's printed deck dealt by
copy, and how a position stands for one player (the heuristic and search
agents' evaluation).

The referee keeps each player's hand and shuffled draw pile as counts and
the multiset `unseen` (zones.py); the dealer holds the cards themselves:
the shuffled pile in its order (top first) and the hand. A copy is
`(card id, copy number)`, the number the card's QR code prints (every Cold
War card is printed once per country deck, so it is 1). Everything else (the
tables, face up or down, the Leader stack, the discard pile, a pile turned
over in known order, the cards out of the game) the state names by id; the
dealer keeps those copies in `out`.

After each action it reconciles with the state: the cards that left the
hand-or-pile left the hand (or the pile: the nine cards drawn at setup, a
Fallen Leader's flip), cards the state knows went into the hand come from
`out`, and the hand draws from the top of the pile to the state's count. A
fresh pile (a new round, a Leader's fall) is dealt afresh from the state.
In the setup phase a player's cards are the nine on top of the pile; a
Fallen Leader's, the card they flip next.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any, Mapping

from referee.games.cold_war import desk as D
from referee.games.cold_war import zones as Z
from referee.games.cold_war.legal import answers  # noqa: F401  (the loop's defender's choice: a module attribute)
from referee.rules.dealing import Copy, take
from referee.rules.legal import Hands
from referee.model import Action, PlayerName, State

WIN = 1_000_000.0
SETUP_DRAW = 9


def deal(rules: Any, state: State, rng: random.Random) -> "ColdWarTable":
    return ColdWarTable(state, rng)


class ColdWarTable:
    def __init__(self, state: State, rng: random.Random):
        self.rng = rng
        self.names = [p.name for p in state.players]
        self.state = state
        self.deck: dict[str, list[Copy]] = {}
        self.pile: dict[str, list[Copy]] = {}
        self.hand: dict[str, list[Copy]] = {}
        self.out: dict[str, list[Copy]] = {}
        self.problems: list[str] = []
        for name in self.names:
            deck = state.fields["decks"][name]
            self.deck[name] = [(cid, n) for cid, stats in deck["cards"].items() if cid != deck["leader"]
                               for n in range(1, max(1, int(stats.get("quantity") or 1)) + 1)]
            self._fresh(name, state.fields["desks"][name])

    def clone(self) -> "ColdWarTable":
        twin = object.__new__(ColdWarTable)
        twin.rng, twin.names, twin.state, twin.deck = self.rng, self.names, self.state, self.deck
        twin.pile = {n: list(c) for n, c in self.pile.items()}
        twin.hand = {n: list(c) for n, c in self.hand.items()}
        twin.out = {n: list(c) for n, c in self.out.items()}
        twin.problems = []
        return twin

    def _fresh(self, name: str, desk: Mapping[str, Any]) -> None:
        """Deal NAME's copies as the desk has them: the known hand cards and the
        rest of the hand from the shuffled hand-or-pile cards, the others out."""
        copies = list(self.deck[name])
        hidden = Counter(desk["unseen"]) + Counter(desk["known"])
        inside, out = [], []
        for c in copies:
            if hidden[c[0]] > 0:
                hidden[c[0]] -= 1
                inside.append(c)
            else:
                out.append(c)
        if +hidden:
            self.problems.append(f"{name}'s desk names cards their deck does not hold: {sorted(+hidden)}")
        self.rng.shuffle(inside)
        hand = []
        for cid in desk["known"]:
            hand.append(take(inside, cid))
        for _ in range(int(desk["hand"]) - len(desk["known"])):
            hand.append(inside.pop())
        self.hand[name], self.pile[name], self.out[name] = hand, inside, out

    def hold(self, name: str, cards: tuple[str, ...], desk: Mapping[str, Any]) -> None:
        """NAME's own cards as they hold them: the hand (or, at setup, the nine
        drawn; a Fallen Leader, the card on top of the pile)."""
        hidden = self.hand[name] + self.pile[name]
        mine = [c for c in (take(hidden, cid) for cid in cards) if c is not None]
        self.rng.shuffle(hidden)
        if (desk["fallen"] or not desk["set_up"]) and not desk["hand"]:
            self.hand[name], self.pile[name] = [], mine + hidden
        else:
            self.hand[name], self.pile[name] = mine, hidden

    # ---- the Physical protocol ---------------------------------------------------------

    def hands(self) -> Hands:
        f = self.state.fields
        out: dict[PlayerName, tuple[str, ...]] = {}
        for name in self.names:
            desk = f["desks"][name]
            if f.get("phase") == "setup" and not desk["set_up"]:
                cards = self.pile[name][:SETUP_DRAW]
            elif desk["fallen"]:
                cards = self.pile[name][:1] if desk["draw"] else [(c, 0) for c in (desk["order"] or desk["discard"])[:1]]
            else:
                cards = self.hand[name]
            out[PlayerName(name)] = tuple(cid for cid, _ in cards)
        return out

    def after(self, before: State, action: Action, after: State) -> None:
        self.state = after
        for name in self.names:
            self._follow(name, before.fields["desks"][name], after.fields["desks"][name])

    def _follow(self, name: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> None:
        if int(after["draw"]) > int(before["draw"]):  # a fresh pile: a new round or the Leader's fall
            self._fresh(name, after)
            return
        hand, pile, out = self.hand[name], self.pile[name], self.out[name]
        was = Counter(before["unseen"]) + Counter(before["known"])
        now = Counter(after["unseen"]) + Counter(after["known"])
        for cid, n in (was - now).items():  # left the hand or the pile
            for _ in range(n):
                copy = take(hand, cid) or take(pile, cid)
                if copy is None:
                    self.problems.append(f"{cid} left {name}'s hand or pile, where the dealer has no copy")
                else:
                    out.append(copy)
        for cid, n in (now - was).items():  # into the hand from a known place (a pile in known order)
            for _ in range(n):
                copy = take(out, cid)
                if copy is None:
                    self.problems.append(f"{cid} came into {name}'s hand from nowhere")
                else:
                    hand.append(copy)
        need = int(after["hand"]) - len(hand)
        if need < 0:
            self.problems.append(f"{name}'s hand lost {-need} card(s) the dealer cannot follow")
        for _ in range(max(0, need)):
            if not pile:
                self.problems.append(f"{name}'s draw pile ran out while the rules drew a card")
                break
            hand.append(pile.pop(0))

    def violations(self, state: State) -> list[str]:
        problems, self.problems = self.problems, []
        f = state.fields
        for name in self.names:
            desk = f["desks"][name]
            hand, pile, out = self.hand[name], self.pile[name], self.out[name]
            if len(hand) != int(desk["hand"]):
                problems.append(f"{name} holds {len(hand)} cards; the table says {desk['hand']}")
            if len(pile) != int(desk["draw"]):
                problems.append(f"{name}'s shuffled draw pile has {len(pile)} cards; the table says {desk['draw']}")
            if Counter(c for c, _ in hand) + Counter(c for c, _ in pile) != Counter(desk["unseen"]) + Counter(desk["known"]):
                problems.append(f"{name}'s hand and draw pile hold other cards than the table's hand-or-pile")
            if Counter(desk["known"]) - Counter(c for c, _ in hand):
                problems.append(f"{name}'s hand lacks a card the table knows is in it")
            if Counter(c for c, _ in out) != Counter(_visible(f, name)):
                problems.append(f"{name}'s cards on the tables, discard pile and out of the game are not the "
                                "ones the dealer put there")
            copies = Counter([*hand, *pile, *out])
            if sorted(copies) != sorted(self.deck[name]) or any(n > 1 for n in copies.values()):
                problems.append(f"{name}'s deck is not its {len(self.deck[name])} printed copies, each in one place")
        return problems



def _visible(f: Mapping[str, Any], name: str) -> list[str]:
    """NAME's cards the state places by id: on any table or Leader stack, in
    their discard pile, their pile in known order, out of the game."""
    own = f["decks"][name]["cards"]
    leader = f["decks"][name]["leader"]
    out = []
    for holder, desk in f["desks"].items():
        out += [c for c in D.defence_cards(f, holder) + list(desk["assistants"]) if c in own and c != leader]
    desk = f["desks"][name]
    return out + list(desk["discard"]) + list(desk["order"]) + list(desk["removed"]) + Z.in_play(f, name)


# ---- a table sampled from one player's view (the heuristic and search agents') ----------------


def determinise(rules: Any, view: State, player: PlayerName, hand: tuple[str, ...],
                rng: random.Random) -> tuple[State, ColdWarTable]:
    """A whole table PLAYER could be sitting at, rebuilt from their view
    (`visible_state(state, [player])`): their own desk as they know it; for
    every other player the face-up cards and the counts as shown, and each
    face-down Military card, the cards out of the game, the hand and the
    shuffled pile drawn from that country's copies not in sight (a non-Military
    card drawn face down is Propaganda). Never read from the real table."""
    from referee.games.cold_war import cards as carddata  # lazy: the printed decks

    if "desks" in view.fields:  # already whole (a view revealing everything)
        view = rules.visible_state(view, (player,))
    me = view.player(player).name
    vf = view.fields
    countries = carddata.countries()
    decks = {}
    for p in view.players:
        deck = countries[vf["tables"][p.name]["country"]]
        decks[p.name] = {"country": vf["tables"][p.name]["country"], "country_name": deck["name"],
                         "leader": deck["leader"], "cards": deck["cards"]}
    owner = {cid: n for n, d in decks.items() for cid in d["cards"]}
    desks = {}
    for p in view.players:
        t = vf["tables"][p.name]
        desks[p.name] = _desk_of(t, p.name == me, hand if p.name == me else ())
    # the unseen copies of every other player: their deck less what lies in sight
    for p in view.players:
        name = p.name
        if name == me:
            continue
        t, desk, deck = vf["tables"][name], desks[name], decks[name]
        pool = Counter({cid: max(1, int(st.get("quantity") or 1)) for cid, st in deck["cards"].items()
                        if cid != deck["leader"]})
        for holder, other in desks.items():
            pool -= Counter(c for g in other["science"] for c in g["cards"] if owner.get(c) == name)
            pool -= Counter(c for g in other["military"] for c in g["cards"] if c and owner.get(c) == name)
            pool -= Counter(c for c in other["assistants"] if owner.get(c) == name)
        pool -= Counter(desk["discard"])
        loose = list(pool.elements())
        rng.shuffle(loose)
        military = [c for c in loose if deck["cards"][c].get("type") == "military"]
        for group in desk["military"]:
            for i, c in enumerate(group["cards"]):
                if c is None:
                    pick = military.pop() if military and rng.random() < 0.8 else (loose[-1] if loose else None)
                    if pick is None:
                        continue
                    loose.remove(pick)
                    if pick in military:
                        military.remove(pick)
                    group["cards"][i] = pick
                    if deck["cards"][pick].get("type") != "military":
                        desk["propaganda"].append(pick)
            group["cards"] = [c for c in group["cards"] if c is not None]
        desk["military"] = [g for g in desk["military"] if g["cards"]]
        removed = t["removed"] if isinstance(t["removed"], int) else len(t["removed"])
        desk["removed"] = [loose.pop() for _ in range(min(removed, len(loose)))]
        desk["unseen"] = loose
        desk["hand"] = 0 if desk["fallen"] else min(desk["hand"], len(loose))
        desk["draw"] = len(loose) - desk["hand"]
    fields = {
        "decks": decks, "phase": {"setup": "setup", "over": "over"}.get(vf["phase"], "play"), "desks": desks,
        "moves": dict(vf["moves"]), "knocked_out": list(vf["knocked_out"]),
        "fallen_defeats": dict(vf["fallen_defeats"]), "scores": {n: list(v) for n, v in vf["scores"].items()},
        "first": None, "result": vf.get("result"), "report": list(vf.get("report") or []), "step": 0,
    }
    for key in vf:
        if key not in fields and key not in ("tables", "rounds", "revealed", "standings"):
            fields[key] = vf[key]  # a waiting prompt
    from dataclasses import replace  # lazy: only when sampling

    state = replace(view, fields=fields)
    table = ColdWarTable(state, rng)
    table.hold(me, hand, desks[me])
    return state, table


def _desk_of(t: Mapping[str, Any], mine: bool, hand: tuple[str, ...]) -> dict[str, Any]:
    """One desk rebuilt from its public table (and, for the player's own, what they know)."""
    def number(label: str) -> int:
        return int(label[1:])

    science = [{"n": number(lb), "cards": list(e["cards"])} for lb, e in t["science"].items()]
    military = [{"n": number(lb), "cards": list(e["cards"]) if e.get("cards") is not None else [None] * e["face_down"]}
                for lb, e in t["military"].items()]
    propaganda = [c for e in t["military"].values() for c in (e.get("propaganda") or [])]
    nxt = {"science": max([g["n"] for g in science], default=0) + 1,
           "military": max([g["n"] for g in military], default=0) + 1}
    desk = {"set_up": t["set_up"], "fallen": t["fallen"], "science": science, "military": military, "next": nxt,
            "propaganda": propaganda, "assistants": [a["card"] for a in (t.get("assistants") or {}).values()],
            "weakened": list(t["weakened"]), "discard": list(t["discard"]), "removed": [],
            "lent": list(t.get("lent") or []), "hand": int(t["hand"]["cards"]), "known": [], "unseen": [],
            "draw": int(t["draw_pile"]["cards"]), "order": [], "resets": int(t["draw_pile"]["turned_over"])}
    if mine:
        desk["known"] = list(t["hand"].get("known") or [])
        desk["unseen"] = list(t["hand"].get("hand_or_draw_pile") or [])
        desk["order"] = list(t["draw_pile"].get("order") or [])
        desk["draw"] -= len(desk["order"])
        desk["removed"] = list(t.get("removed_cards") or [])
    return desk


def played(action: Action, mover: PlayerName) -> list[tuple[PlayerName, str]]:
    """The cards an action puts into play, each with the player who played it
    (the balance report's "cards played"): the mover's setup placements,
    placed card, attack, Special, Nuclear Triad or Fallen Leader's flip, and
    the defender's answer (--block, --redirect, --shield) credited to the
    defender. Discards and challenges play no card."""
    args = action.args
    mine: list[str] = []
    if action.name == "setup":
        mine = [*args.get("cards", ()), *args.get("propaganda", ())]
    elif action.name in ("place", "special", "fallen"):
        mine = [args["card"]] if args.get("card") else []
    elif action.name in ("attack", "triad"):
        mine = list(args.get("cards", ()))
    elif action.name == "answer":  # the answer window: the target's own move
        mine = [c for c in (args.get("block"), args.get("redirect"), *args.get("shields", ())) if c]
    out = [(mover, str(c)) for c in mine]
    target = args.get("target")
    if target is not None and action.name in ("attack", "special", "triad", "fallen"):
        theirs = [args.get("block"), args.get("redirect"), *args.get("shields", ())]
        out += [(PlayerName(str(target)), str(c)) for c in theirs if c]
    return out


def movers(state: State) -> list[str]:
    """In the setup phase everyone records a setup at once: those who have
    not yet go before anyone's regroups or `start` (else a set-up player
    could regroup for ever while the others wait). In an answer window, the
    target answers."""
    f = state.fields
    pending = f.get("pending")
    if pending:  # an answer window: its target moves first
        return [str(pending["target"])]
    if f.get("phase") != "setup":
        return []
    return [n for n, desk in f["desks"].items() if not desk["set_up"]]


# ---- evaluation ------------------------------------------------------------------------


def evaluate(state: State, player: PlayerName) -> float:
    """The match score first, then this round: a standing Leader, the defence
    on the table and the cards in hand, mine against the best opponent's."""
    if state.winner is not None:
        return WIN if state.winner == player else -WIN
    if state.finished:
        return 0.0
    f = state.fields
    if "desks" not in f:
        return 0.0
    pd = int(state.house_rules.get("propaganda-defence") or 0)

    def standing(name: str) -> float:
        desk = f["desks"][name]
        total = 30.0 * sum(f["scores"][name])
        if desk["fallen"]:
            return total - 60.0 + 10.0 * f["fallen_defeats"][name]
        defence = sum(min(D.group_defence(f, name, cards, pd), 12) for _, _, cards in D.spots(desk))
        stack = sum(int(D.card(f, c).get("defence", 0)) for c in D.leader_stack(f, name))
        return total + defence + 1.5 * stack + 1.0 * int(desk["hand"])

    me = state.player(player).name
    others = [standing(p.name) for p in state.players if p.name != me]
    return standing(me) - max(others, default=0.0)
