"""15 Minute Cold War's legal moves for one player (referee/legal.py has the contract).

Proposed from the phase, the player's cards and the tables in play, and kept
only when the rules' `check` accepts them (two spellings that leave the same
table, such as a Special placed with or without --propaganda, are one move):
- setup phase: `setup PLAYER CARDS --propaganda .. --discard ..` (every
  choice of 3 discards and of which placed cards go face down as Propaganda;
  the cards named in id order), `regroup PLAYER` one step at a time (one
  stack broken or one stack of 3 formed), and `start --first NAME`;
- a standing Leader's turn: `place CARD [--propaganda]`, `discard CARDS`
  (every order: the discard pile turns over unshuffled), `attack TARGET
  SPOT CARDS` (one card or two combined, with the defender's answers when
  the hands are known: --block, --redirect --onto PLAYER:SPOT), `special`
  (with its --at and --with picks and the defender's --block), `challenge
  TARGET N`, `triad TARGET A B C` (and the defender's --shield pair),
  `regroup` one step, `end-turn`, `resolve`;
- a Fallen Leader's turn: `fallen TARGET CARD [--at SPOT]` with the card on
  top of the draw pile (hands: a Fallen Leader's "hand" is that top card),
  and `end-turn`.
A defender's answers come from the defender's hand: `legal_moves` lists
them when `hands` holds it (the agreement test's all-hands-known walk);
self-play passes the mover's own hand only and asks `answers` for the
defender's choices of the move the mover chose.
With the hands unknown, card plays from the hand are `<CARD>` moves; their
details' `slots` say which `<CARD>` may be left out (an attack's second card)
and which may be written `--propaganda CARD` (a setup's placed cards).
Not generated (docs/legal-moves.md): which cards a Propaganda challenge
takes (--their/--own: the rules' default, the last placed, is used), and
regroups of several steps in one command (play them one after another).
"""
from __future__ import annotations

import itertools
from typing import Any, Iterable, Mapping, Sequence

from referee.games.cold_war import desk as D
from referee.games.cold_war import effects as E
from referee.games.cold_war import phases
from referee.rules.legal import CARD_PLACEHOLDER, Hands, Move, accepts, command_line, describe, placeholder, shared_moves
from referee.model import Action, PlayerName, State

SETUP_DISCARDS = 3
# A `<CARD>` move's details' `slots` (docs/play-api.md): one entry per `<CARD>`, in order; `optional`: the
# word may be left out; `flag`: the card may be written `FLAG CARD` instead (what `flag_text` says it does).
PROPAGANDA_SLOT = {"flag": "--propaganda", "flag_text": "face down as Propaganda"}


# The arguments that carry the defender's answer, and the actions they answer.
ANSWER_ARGS = ("block", "redirect", "onto", "onto_at", "shields")
ANSWERED = frozenset({"attack", "special", "triad", "fallen"})


def legal_moves(rules: Any, state: State, player: PlayerName, hands: Hands | None = None) -> list[Move]:
    if state.finished:
        return []
    name = state.player(player).name
    phase = phases.phase_of(state)
    gen = _Gen(rules, state, name, hands)
    if phase == phases.SETUP:
        gen.setup()
        gen.regroups()
        gen.start()
    elif state.players[state.active].name == name:
        if phase == phases.FALLEN:
            gen.fallen()
        else:
            gen.turn()
    return gen.out + shared_moves(rules, state, name)


def answers(rules: Any, state: State, action: Action, hands: Hands) -> tuple[PlayerName, list[Move]] | None:
    """The defender's choices for an attack, Special, Nuclear Triad or Fallen
    Leader's flip that its mover has chosen: `(defender, variants)`, the
    variants being exactly that action with each answer the defender's hand
    allows (--block, --redirect --onto, --shield pairs), each accepted by
    `check`, the first with no answer. None for an action nobody answers.

    Self-play lists a mover's moves from their own hand only (the attack with
    no answer); the defender then picks one of these with their own view and
    hand, so neither player decides with the other's cards."""
    if action.name not in ANSWERED or state.finished or action.args.get("target") is None:
        return None
    attacker = state.player(action.actor).name if action.actor else state.players[state.active].name
    defender = state.player(str(action.args["target"])).name
    known = {PlayerName(attacker): tuple(hands.get(PlayerName(attacker), ())),
             PlayerName(defender): tuple(hands.get(PlayerName(defender), ()))}
    gen = _Gen(rules, state, attacker, known, only=action)
    cards = action.args.get("cards")
    if action.name == "attack":
        gen._attacks([str(c) for c in cards or ()])
    elif action.name == "special":
        gen._specials([str(action.args.get("card"))])
    elif action.name == "triad":
        gen._triads([str(c) for c in cards or ()])
    else:
        gen.fallen()
    return PlayerName(defender), gen.out


def _unanswered(action: Action) -> tuple[str, str | None, list[tuple[str, Any]]]:
    """An action less its answer: what `answers` keeps fixed."""
    return action.name, action.actor, sorted((k, repr(v)) for k, v in action.args.items() if k not in ANSWER_ARGS)


class _Gen:
    """Collects the accepted moves, one per outcome within a kind."""

    def __init__(self, rules: Any, state: State, name: str, hands: Hands | None, only: Action | None = None):
        self.rules, self.state, self.name, self.hands = rules, state, name, hands
        self.only = _unanswered(only) if only is not None else None  # offer only this action's answers
        self.f = state.fields
        self.desk = self.f["desks"][name]
        self.out: list[Move] = []
        self._seen: dict[str, list[tuple[Action, State | None]]] = {}  # per `same` key: each kept action, its outcome once needed

    # ---- plumbing ------------------------------------------------------------------

    def hand(self, who: str | None = None) -> list[str] | None:
        """The cards `who` holds (distinct ids, in hand order), or None when unknown."""
        if self.hands is None:
            return None
        return list(dict.fromkeys(self.hands.get(PlayerName(who or self.name), ())))

    def card(self, cid: str) -> dict[str, Any]:
        return D.card(self.f, cid)

    def offer(self, name: str, args: Mapping[str, Any], actor: str | None, words: Iterable[Any],
              same: Any = None, judged: bool = False) -> bool | None:
        """Offer one action; kept when `check` accepts it (returns whether it
        did; None when the action is not one `answers` asks about). `same`: a
        key of the offers that may leave the same table (spellings of one
        play), compared by their outcome; None for an offer whose outcome no
        other one shares. `judged`: `check` has accepted an action it judges
        alike (the same cards in another order), so it is not asked again."""
        act = Action(name, {k: v for k, v in args.items() if v not in (None, [], False)},
                     PlayerName(actor) if actor else None)
        if self.only is not None and _unanswered(act) != self.only:
            return None
        if not judged and not accepts(self.rules, self.state, act):
            return False
        if same is not None:
            seen = self._seen.setdefault(repr((name, same)), [])
            if seen:  # outcomes are compared only once a second spelling is accepted (each applied once)
                after = self.rules.apply(self.state, act, ())
                for i, (earlier, outcome) in enumerate(seen):
                    if outcome is None:
                        outcome = self.rules.apply(self.state, earlier, ())
                        seen[i] = (earlier, outcome)
                    if after == outcome:
                        return True
                seen.append((act, after))
            else:
                seen.append((act, None))
        self.out.append(Move(act, command_line(words), name, describe(self.rules, self.state, act)))
        return True

    def opponents(self) -> list[str]:
        return [p.name for p in self.state.players if p.name != self.name and not self.f["desks"][p.name]["fallen"]]

    def spots(self, who: str) -> list[str]:
        return [label for label, _, _ in D.spots(self.f["desks"][who])] + ["L"]

    # ---- setup ------------------------------------------------------------------------

    def setup(self) -> None:
        if self.desk["set_up"]:
            return
        drawn = self.hand()
        if drawn is None:
            holes = [CARD_PLACEHOLDER] * 6
            may: dict[str, Any] = PROPAGANDA_SLOT if self.state.house_rules.get("propaganda") == "on" else {}
            self.out.append(placeholder(["setup", self.name, *holes, "--discard", CARD_PLACEHOLDER, "--discard",
                                         CARD_PLACEHOLDER, "--discard", CARD_PLACEHOLDER], "setup",
                                        f"{self.name} records the setup: 6 of the 9 cards drawn placed (non-Military "
                                        "ones may go face down as Propaganda), 3 discarded",
                                        slots=[dict(may) for _ in range(6)] + [{} for _ in range(SETUP_DISCARDS)]))
            return
        cards = sorted(self.hands.get(PlayerName(self.name), ()))  # type: ignore[union-attr]
        for out in itertools.combinations(range(len(cards)), SETUP_DISCARDS):
            discard = [cards[i] for i in out]
            kept = [c for i, c in enumerate(cards) if i not in out]
            free = [i for i, c in enumerate(kept) if self.card(c)["type"] not in ("military", "special")]
            specials = [c for c in kept if self.card(c)["type"] == "special"]
            for chosen in itertools.chain.from_iterable(itertools.combinations(free, k) for k in range(len(free) + 1)):
                propaganda = sorted([kept[i] for i in chosen] + specials)
                placed = [c for c in kept if c not in propaganda]
                words = ["setup", self.name, *placed, *[w for c in propaganda for w in ("--propaganda", c)],
                         *[w for c in discard for w in ("--discard", c)]]
                self.offer("setup", {"player": self.name, "cards": placed, "propaganda": propaganda,
                                     "discard": discard}, self.name, words)

    def start(self) -> None:
        for p in self.state.players:
            self.offer("start", {"first": p.name}, None, ["start", "--first", p.name])  # each first player: a different table

    # ---- regroup, one step ---------------------------------------------------------------

    def regroups(self) -> None:
        if self.state.players[self.state.active].name != self.name and self.f.get("phase") != "setup":
            return
        for label, zone, cards in D.spots(self.desk):
            if len(cards) == D.STACK:
                self.offer("regroup", {"player": self.name, "stacks": [], "break": [label]}, self.name,
                           ["regroup", self.name, "--break", label])
        for zone in D.ZONES:
            singles = [D.label(zone, g) for g in sorted(self.desk[zone], key=lambda g: g["n"]) if len(g["cards"]) == 1]
            for three in itertools.combinations(singles, D.STACK):
                self.offer("regroup", {"player": self.name, "stacks": [list(three)], "break": []}, self.name,
                           ["regroup", self.name, "--stack", ",".join(three)])

    # ---- a standing Leader's turn -----------------------------------------------------------

    def turn(self) -> None:
        self.regroups()
        held = self.hand()
        if held is None:  # the table's view: the cards the referee knows are in the hand, and <CARD> for the rest
            held = list(dict.fromkeys(self.desk["known"]))
            if int(self.desk["hand"]) > len(self.desk["known"]):
                self._blind()
        for cid in held:
            for prop in (False, True):
                self.offer("place", {"card": cid, "propaganda": prop}, self.name,
                           ["place", cid, *(["--propaganda"] if prop else []), "--by", self.name], same=cid)
        self._discards(held)
        self._attacks(held)
        self._specials(held)
        self._triads(held)
        for target in self.opponents():
            for count in range(1, len(D.zone_cards(self.desk, "military")) + 1):
                self.offer("challenge", {"target": target, "count": count}, self.name,
                           ["challenge", target, count, "--by", self.name])

    def _discards(self, held: Sequence[str]) -> None:
        """Every order of every choice of cards (the discard pile turns over
        unshuffled, so the order is the player's). Whether a discard is legal
        does not depend on the order its cards are named in, so `check` judges
        each choice once, and its other orders follow that verdict."""
        moves = self.f["moves"]
        left = 3 - moves["plays"] - moves["discards"]
        verdicts: dict[Any, bool] = {}
        for k in range(1, max(0, left) + 1):
            for ids in itertools.permutations(held, k):
                self.offer_alike(verdicts, frozenset(ids), "discard", {"cards": list(ids)},
                                 ["discard", *ids, "--by", self.name])

    def offer_alike(self, verdicts: dict[Any, bool], alike: Any, name: str, args: Mapping[str, Any],
                    words: Iterable[Any]) -> None:
        """`offer`, where `check` judges every action with the same `alike`
        key the same way (the same cards named in another order): asked once
        per key, its verdict kept in `verdicts` for the others."""
        if alike in verdicts:
            if verdicts[alike]:
                self.offer(name, args, self.name, words, judged=True)
            return
        verdict = self.offer(name, args, self.name, words)
        if verdict is not None:
            verdicts[alike] = verdict

    def _answers(self, target: str, kinds: Sequence[str] = ("block", "redirect")) -> list[tuple[dict, list]]:
        """The defender's possible answers: none, each block, each redirect onto each spot."""
        out: list[tuple[dict, list]] = [({}, [])]
        theirs = self.hand(target) or []
        for cid in theirs:
            card = self.card(cid)
            if card["type"] != "special":
                continue
            if "block" in kinds and E.has(card, "block"):
                out.append(({"block": cid}, ["--block", cid]))
            if "redirect" in kinds and E.has(card, "redirect"):
                for other in self.state.players:
                    if other.name == target or self.f["desks"][other.name]["fallen"]:
                        continue
                    for spot in self.spots(other.name):
                        out.append(({"redirect": cid, "onto": other.name, "onto_at": spot},
                                    ["--redirect", cid, "--onto", f"{other.name}:{spot}"]))
        return out

    def _attacks(self, held: Sequence[str]) -> None:
        """One card or two combined, in either order (the order they are
        discarded in). Whether an attack is legal does not depend on the
        order of its two cards, so `check` judges each pair once."""
        military = [c for c in held if self.card(c)["type"] == "military"]
        groups = [[c] for c in military] + [list(p) for p in itertools.permutations(military, 2)]
        for target in self.opponents():
            answers = self._answers(target)
            for spot in self.spots(target):
                verdicts: dict[Any, bool] = {}
                for ids in groups:
                    for n, (extra, flags) in enumerate(answers):
                        self.offer_alike(verdicts, (frozenset(ids), n), "attack",
                                         {"target": target, "at": spot, "cards": ids, **extra},
                                         ["attack", target, spot, *ids, *flags, "--by", self.name])

    def _specials(self, held: Sequence[str]) -> None:
        for cid in held:
            card = self.card(cid)
            if card["type"] != "special":
                continue
            act = E.action(card)
            if act is None:  # nothing the referee applies (a prompt): the target is named but not used
                for target in self.opponents():
                    self.offer("special", {"card": cid, "target": target}, self.name,
                               ["special", cid, target, "--by", self.name], same=cid)
                continue
            for target in self.opponents():
                for at in self._special_spots(act, target):
                    for using in self._redeploys(act):
                        answers = self._answers(target, ("block",) if act["kind"] == "remove" else
                                                ("block", "redirect"))
                        for extra, flags in answers:
                            words = ["special", cid, target, *(["--at", at] if at else []),
                                     *[w for u in using for w in ("--with", u)], *flags, "--by", self.name]
                            self.offer("special", {"card": cid, "target": target, "at": at, "with": list(using),
                                                   **extra}, self.name, words, same=(cid, target, tuple(using)))

    def _special_spots(self, act: Mapping[str, Any], target: str) -> list[str | None]:
        desk = self.f["desks"][target]
        if act["kind"] == "remove":
            zone = E.REMOVE_ZONES.get(act.get("what", ""), "")
            if zone == "assistants":
                return [f"A{i + 1}" for i in range(len(desk["assistants"]))]
            out: list[str | None] = []
            for label, z, cards in D.spots(desk):
                if z == zone:
                    out += [label] if len(cards) == 1 else [f"{label}.{i + 1}" for i in range(len(cards))]
            return out
        return [*self.spots(target)]

    def _redeploys(self, act: Mapping[str, Any]) -> list[tuple[str, ...]]:
        if act["kind"] != "redeploy":
            return [()]
        own = [label for label, zone, cards in D.spots(self.desk) if zone == "military" and len(cards) == 1]
        most = int(act.get("most", 2))
        return [tuple(c) for k in range(1, most + 1) for c in itertools.permutations(own, k)]

    def _triads(self, held: Sequence[str]) -> None:
        legs = [c for c in held if self.card(c).get("triad")]
        if len(legs) < 3:
            return
        for target in self.opponents():
            shields = [c for c in (self.hand(target) or [])
                       if self.card(c)["type"] == "special" and E.has(self.card(c), "shield")]
            answers = [[]] + [list(p) for p in itertools.combinations(shields, 2)]
            for three in itertools.combinations(legs, 3):
                for pair in answers:
                    self.offer("triad", {"target": target, "cards": list(three), "shields": pair}, self.name,
                               ["triad", target, *three, *[w for s in pair for w in ("--shield", s)],
                                "--by", self.name])

    def _blind(self) -> None:
        """Hands unknown: the card plays by what they may be."""
        me = self.name
        self.out.append(placeholder(["place", CARD_PLACEHOLDER, "--by", me], "place",
                                    f"{me} places a card from the hand (--propaganda: face down in Military)"))
        self.out.append(placeholder(["discard", CARD_PLACEHOLDER, "--by", me], "discard",
                                    f"{me} discards a card from the hand"))
        for target in self.opponents():
            for spot in self.spots(target):
                self.out.append(placeholder(["attack", target, spot, CARD_PLACEHOLDER, CARD_PLACEHOLDER, "--by", me],
                                            "attack", f"{me} attacks {target}'s {spot} with 1 or 2 Military Power "
                                            "cards from the hand", target=target, at=spot,
                                            slots=[{}, {"optional": True}]))
            self.out.append(placeholder(["special", CARD_PLACEHOLDER, target, "--by", me], "special",
                                        f"{me} plays a Special from the hand at {target}", target=target))

    # ---- a Fallen Leader's turn -----------------------------------------------------------------

    def fallen(self) -> None:
        top = self.hand()
        if top is None and not self.desk["draw"] and self.desk["order"]:
            top = [self.desk["order"][0]]  # the pile turned over unshuffled: the referee knows its top card
        for target in self.opponents():
            if top is None:
                self.out.append(placeholder(["fallen", target, CARD_PLACEHOLDER, "--by", self.name], "fallen",
                                            f"{self.name} flips the top card of the draw pile at {target}",
                                            target=target))
                continue
            for cid in top:
                for at in [None, *self.spots(target)]:
                    for extra, flags in self._answers(target):
                        self.offer("fallen", {"target": target, "card": cid, "at": at, **extra}, self.name,
                                   ["fallen", target, cid, *(["--at", at] if at else []), *flags, "--by", self.name],
                                   same=(target, cid))
