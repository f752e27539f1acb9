"""Divide & Conquer's legal moves (referee/legal.py): every action the rules
accept now for one player, with the command line that plays it.

    a prompt waits   its player's picks (`resolve N GROUP`, from referee.rules.legal.shared_moves);
                     nothing else moves;
    no attack        the player whose turn it is: one action (`event`,
                     `unaffiliate`, `recruit`, `attach`, `attack TARGET --intent`)
                     or `end-turn` (pass);
    an attack        team: the attacker lays a team (any cards from the hand,
                     base groups that may join, assets and deficits on cards
                     in the fight; empty is allowed); call-or-raise: the
                     defender calls, or raises with at least one card; add:
                     the attacker adds at least one card, or fights; roll: `fight`.

Not listed: the scorekeeper's corrections (`hand`, `win`).

Hands: with `hands=None` the referee counts each hand but cannot see it,
so a play from the hand is listed by what it may be ("play an event from
your hand", action None, `<CARD>` in the command); the moves that need no
hand card (an attack, an empty team, base groups joining, `call`, `fight`,
`end-turn`) stay concrete. With `hands` (self-play) every card is listed.
A team or a raise is one move per combination: a multiset of the hand's
groups, of base groups joining, and of the hand's assets and deficits each
placed on a card in the fight, written in one canonical order (the same
cards in another order make the same play). An asset put on a group laid in
the same command names it by card id, which the CLI reads as the first group
of that id laid. Their number grows exponentially with the hand, so they are
listed smallest first within a budget (plays.py; an event on everyone naming
a group in each base likewise): a move says `listed_up_to` when the list was
cut short.

Each move is judged by `rules.check` (the candidates come from the rules'
structure: the cards, the groups on the table, the players), except where
the rules' own code shows a choice cannot change the verdict: which group an
asset or deficit goes on (`attach` only asks that it is on the table), and
which group of one kind an attack aims at (`attack` asks only whether it is
the player's own, unaffiliated or another player's, and the intent), and
which cards a team or raise lays (plays.py checks the cards as `battle.lay`
does; the stage and the player are the same for every play); there one
action of each kind is judged and the verdict holds for the rest (the
agreement test checks every one against `rules.check`).
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from itertools import combinations, product
from typing import Any, Callable, Iterator, Mapping

from referee.rules import prompts
from referee.games.divide_and_conquer import events, plays, printed, zones
from referee.games.divide_and_conquer.phases import Phase
from referee.rules.legal import CARD_PLACEHOLDER, Hands, Move, accepts, shared_moves
from referee.rules.game import game_of
from referee.model import Action, PlayerName, Revision, State

GAME = "divide-and-conquer"
INTENTS = ("take-over", "destroy")


@lru_cache(maxsize=None)
def card(card_id: str) -> Mapping[str, Any]:
    """A card by id, as the dict an action carries (cached: read once)."""
    from referee.cards import lookup  # lazy: the card index, read only when moves are asked for
    from referee.games.divide_and_conquer.cards import from_lookup  # lazy: as above

    return from_lookup(lookup(card_id))


@lru_cache(maxsize=None)
def revision(card_id: str) -> Revision:
    """The card's revision in the card sources (what an action records for it)."""
    from referee.cards import lookup  # lazy: the card index, read only when moves are asked for

    return Revision(lookup(card_id).card.revision)


@lru_cache(maxsize=None)
def deck_cards() -> tuple[str, ...]:
    """The shared deck, one id per printed copy: what self-play shuffles and deals."""
    from referee.cards.index import load_index, project_root  # lazy: the card index, read only when moves are asked for
    from referee.games.divide_and_conquer.cards import PLAYABLE  # lazy: as above

    index = load_index(project_root())
    found = sorted((c for c in index.cards.values() if c.game == GAME and c.type in PLAYABLE),
                   key=lambda c: (c.path, c.line))
    return tuple(c.id for c in found for _ in range(int(c.quantity or 1)))


def legal_moves(rules: Any, state: State, player: PlayerName, hands: Hands | None = None) -> list[Move]:
    """Every move `player` may make now (see the module docstring)."""
    if state.finished:
        return []
    name = state.player(player).name
    hand = list(hands[name]) if hands is not None and name in hands else None
    return _Gen(rules, state, name, hand).moves()


class _Gen:
    def __init__(self, rules: Any, state: State, name: str, hand: list[str] | None):
        self.rules, self.state, self.name, self.hand = rules, state, name, hand
        self.f = state.fields
        self.me = PlayerName(name)
        self.out: list[Move] = []
        self.held = int(state.player(name).fields.get("hand", 0))
        self._names: dict[str, str] | None = None
        self.bounds: dict[str, int] = {}  # an event's listing cut short: the most groups it names (plays.BUDGET)

    def moves(self) -> list[Move]:
        waiting = prompts.pending(self.state)
        attack = self.f.get("attack")
        if waiting:  # its player's answers (`resolve`), as every game lists them
            self.out += shared_moves(self.rules, self.state, self.name)
        elif attack:
            self.attack_steps(attack)
        elif self.name == self.state.active_player.name:
            self.turn()
            self.out += shared_moves(self.rules, self.state, self.name)  # `end-turn`: pass without an action
        return self.out

    # ---- helpers ----

    def ok(self, action: Action) -> bool:
        return accepts(self.rules, self.state, action)

    def add(self, action: Action, command: str, **details: Any) -> None:
        if self.ok(action):
            self.keep(action, command, **details)

    def keep(self, action: Action, command: str, **details: Any) -> None:
        ids = [action.args.get("card"), *(action.args.get("cards") or ()),
               *(a["card"]["id"] for a in action.args.get("_attach") or ())]
        if any(ids):  # the cards' revisions, as the CLI records them for the cards a command names
            action = replace(action, cards={i: revision(i) for i in ids if i})
        self.out.append(Move(action, command, action.name, self.words(action), details))

    def words(self, action: Action) -> str:
        names = {}
        for c in [action.args.get("_card"), *(action.args.get("_groups") or ()),
                  *(a["card"] for a in action.args.get("_attach") or ())]:
            if c:
                names[c["id"]] = c["name"]
        who = str(action.args.get("player") or action.actor or self.name)
        said = game_of(self.state.game).view.move_text(self.state, action, who, names, self.label)  # by its record
        return said or action.name

    def label(self, state: State, key: str, value: object) -> str | None:
        """A group as phrases.label words it ("Prestige Media Conglomerate (g1)"), read
        from the groups on the table rather than the card index (it is asked for every move)."""
        if key not in ("target", "onto", "groups", "join"):
            return None
        if self._names is None:
            attack = self.f.get("attack") or {}
            every = [g for _, gs in zones.places(self.f) for g in gs]
            every += [*(attack.get("team") or ()), *(attack.get("defence") or ())]
            self._names = {g["ref"]: g["name"] for g in every}
        name = self._names.get(str(value))
        return f"{name} ({value})" if name else None

    def placeholder(self, command: str, kind: str, text: str, what: str) -> None:
        self.out.append(Move(None, command, kind, text, {"placeholder": what}))

    def cards_of(self, *types: str) -> list[Mapping[str, Any]]:
        """The distinct cards of these types in the hand."""
        return [c for c in (card(i) for i in dict.fromkeys(self.hand or ())) if c["type"] in types]

    def groups(self) -> list[tuple[str | None, Mapping[str, Any]]]:
        return [(owner, g) for owner, gs in zones.places(self.f) for g in gs]

    # ---- the turn's one action ----

    def turn(self) -> None:
        name, by = self.name, f" --by {self.name}"
        if self.held > 0:
            if self.hand is None:
                for verb, what in (("event", "an event"), ("unaffiliate", "a group to the unaffiliated area"),
                                   ("recruit", "a group to the base")):
                    self.placeholder(f"{verb} {CARD_PLACEHOLDER}{by}", verb, f"{name} plays {what} from the hand",
                                     "card in hand")
                self.placeholder(f"attach {CARD_PLACEHOLDER} <GROUP>{by}", "attach",
                                 f"{name} puts an asset or deficit from the hand on a group", "card in hand")
            else:
                for c in self.cards_of("event"):
                    before = len(self.out)
                    for options, flags in self.event_options(c):
                        self.add(Action("event", {"player": name, "card": c["id"], "_card": c, **options}, self.me),
                                 f"event {c['id']}{flags}{by}")
                    if c["id"] in self.bounds:
                        for m in self.out[before:]:
                            m.details["listed_up_to"] = self.bounds[c["id"]]
                for c in self.cards_of("group"):
                    for verb in ("unaffiliate", "recruit"):
                        self.add(Action(verb, {"player": name, "card": c["id"], "_card": c}, self.me),
                                 f"{verb} {c['id']}{by}")
                for c in self.cards_of("asset", "deficit"):
                    # which group it goes on never changes whether `attach` is allowed (any group on the
                    # table will do): the rules judge the card on the first group, the rest follow
                    verdict: bool | None = None
                    for _, g in self.groups():
                        action = Action("attach", {"player": name, "card": c["id"], "_card": c, "onto": g["ref"]},
                                        self.me)
                        verdict = self.ok(action) if verdict is None else verdict
                        if verdict:
                            self.keep(action, f"attach {c['id']} {g['ref']}{by}")
        verdicts: dict[tuple[str, str], bool] = {}  # an attack is allowed or not by whose group it is, and the intent
        for owner, g in self.groups():
            side = "unaffiliated" if owner is None else "own" if owner == name else "player"
            for intent in INTENTS:
                action = Action("attack", {"player": name, "target": g["ref"], "intent": intent}, self.me)
                if (side, intent) not in verdicts:
                    verdicts[side, intent] = self.ok(action)
                if verdicts[side, intent]:
                    self.keep(action, f"attack {g['ref']} --intent {intent}{by}")

    def event_options(self, c: Mapping[str, Any]) -> Iterator[tuple[dict[str, Any], str]]:
        """(args, flags) for each way to play event `c`, as events.play reads them."""
        scope, action = c.get("scope"), c.get("action")
        if scope == "one-target":
            refs = self._event_targets(c)
            if not refs:
                yield {}, ""
            for ref in refs:
                if action == "discard-attachment":
                    _, group = zones.find(self.f, ref)
                    for aid in dict.fromkeys(a["id"] for a in group["attached"]):
                        yield {"groups": [ref], "attachment": aid}, f" --group {ref} --attachment {aid}"
                else:
                    yield {"groups": [ref]}, f" --group {ref}"
        elif scope == "one-player":
            for p in self.state.players:
                if p.name == self.name and events.picks_another(c):
                    continue
                yield {"pick": p.name}, f" --player {p.name}"
        elif action == "destroy-group":  # each base hit gives up one group: named here, or its owner picks
            per = []
            for owner, gs in self.f["bases"].items():
                hits = [g["ref"] for g in gs if (not c.get("wing") or g["wing"] == c["wing"])
                        and not zones.has(g, "event-immune")]
                if hits:
                    per.append(hits)
            # named in 0, 1, 2 ... bases while the list stays within plays.BUDGET (see plays.py)
            count = 0
            for k in range(len(per) + 1):
                batch = [chosen for bases in combinations(per, k) for chosen in product(*bases)]
                count += len(batch)
                if k > 1 and count > plays.BUDGET:
                    self.bounds[c["id"]] = k - 1
                    return
                for refs in batch:
                    yield ({"groups": list(refs)} if refs else {}), "".join(f" --group {r}" for r in refs)
        else:
            yield {}, ""

    def _event_targets(self, c: Mapping[str, Any]) -> list[str]:
        zone, action = c.get("zone"), c.get("action")
        out = []
        for owner, g in self.groups():
            if (zone == "base" and owner is None) or (zone == "unaffiliated" and owner is not None):
                continue
            if zones.has(g, "event-immune") or (c.get("wing") and g["wing"] != c["wing"]):
                continue
            if action == "discard-attachment" and not g["attached"]:
                continue
            out.append(g["ref"])
        return out

    # ---- an attack ----

    def attack_steps(self, attack: Mapping[str, Any]) -> None:
        stage, name = Phase(attack["stage"]), self.name
        if stage in (Phase.TEAM, Phase.ADD) and name == attack["attacker"]:
            self.laid("team", attack, empty=stage == Phase.TEAM, joins=True)
        if stage == Phase.CALL_OR_RAISE and name == attack["defender"]:
            self.add(Action("call", {"player": name}, self.me), f"call --by {name}")
            self.laid("raise", attack, empty=False, joins=False)
        if stage in (Phase.ADD, Phase.ROLL) and name == attack["attacker"]:
            self.add(Action("fight", {}), "fight")

    def laid(self, verb: str, attack: Mapping[str, Any], empty: bool, joins: bool) -> None:
        """The teams (or raises) the hand and the base allow, smallest first (plays.py), one
        canonical order each; `rules.check` judges the first, and the stage's verdict holds for
        the rest (what differs between plays is the cards, which plays.py checks as `lay` does)."""
        name = self.name
        joinable: list[str] = []
        if joins:
            for g in self.f["bases"][name]:
                if g["ref"] != attack["target"] and g["ref"] not in attack["joined"] \
                        and zones.has(g, "base-joins-attacks"):
                    joinable.append(g["ref"])
        in_fight = [attack["target"], *(g["ref"] for g in attack["team"]), *attack["joined"],
                    *(g["ref"] for g in attack["defence"])]
        if self.hand is None:
            if self.held > 0:
                self.placeholder(f"{verb} {CARD_PLACEHOLDER} --by {name}", verb,
                                 f"{name} {'lays' if verb == 'team' else 'raises with'} cards from the hand"
                                 + (" (groups, and assets or deficits on cards in the fight)"), "cards in hand")
            hand: list[str] = []
        else:
            hand = self.hand
        seen = printed.counts(self.f)
        free = {i: int(card(i).get("quantity") or 10**6) - seen.get(i, 0) for i in dict.fromkeys(hand)}
        groups = plays.counted([i for i in hand if card(i)["type"] == "group"], free)
        attach = plays.counted([i for i in hand if card(i)["type"] in ("asset", "deficit")], free)
        found = plays.listed(groups, joinable, attach, in_fight, self.held, 0 if empty else 1)
        details = {} if found.complete_to is None else {"listed_up_to": found.complete_to}
        for i, play in enumerate(found.plays):
            action, command = self._laid_move(verb, play)
            if i == 0 and not self.ok(action):
                return
            self.keep(action, command, **details)

    def _laid_move(self, verb: str, play: plays.Play) -> tuple[Action, str]:
        name, groups = self.name, play.groups
        args: dict[str, Any] = {"player": name, "cards": list(groups), "_groups": [card(g) for g in groups],
                                "attach": [f"{a}={onto}" for a, onto in play.attaches],
                                "_attach": [{"card": card(a), "onto": onto} for a, onto in play.attaches]}
        if play.joined:
            args["join"] = list(play.joined)
        words = [verb, *groups, *(f"--join {j}" for j in play.joined)]
        for a, onto in play.attaches:
            words.append(f"--attach {a}={groups[int(onto[4:])] if onto.startswith('new:') else onto}")
        words.append(f"--by {name}")
        return Action(verb, args, self.me), " ".join(words)


# ---- dice, for self-play ------------------------------------------------------------------------


def dice_for(rules: Any, state: State, action: Action, die: Callable[[], int]) -> tuple[Action, tuple[int, ...]]:
    """The action and the dice it takes (a fight: a d6 each), rolled with `die`."""
    return action, tuple(die() for _ in rules.dice_needed(state, action))
