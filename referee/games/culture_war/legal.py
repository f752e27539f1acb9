"""Culture War's legal moves (referee/legal.py): every action the rules
accept now for one player, with the command line that plays it.

What a player may do, by the moment:

    roll-off       `rolloff` (anyone: the table rolls for the first player);
    a prompt waits its player's answers (`resolve N done|skip`) and what card
                   text asks of a table: a card discarded from a hand
                   (`discard-hand`), a piece of one's own taken out of play (`discard`);
    dice shown     (`battle --window`) Flashes, by anyone, and `settle` by the attacker;
    otherwise      the player whose turn it is: cards (units, Real Estate,
                   Mods, Happenings, Operations before the first attack;
                   Flashes at any time), `seize`, every battle their units
                   may fight (with and without `--window` and `--no-counter`),
                   `end-turn`; anyone: Flashes and alliances (`ally`,
                   `unally`, `donate`, `gift`), and `end-turn` (no --by)
                   when the player whose turn it is went out on it.

Not listed: the scorekeeper's corrections (`life`, `capital`, `win`,
`draw`, a `discard` no prompt asked for, `play --cost`), and the payment
order `--from` (the referee's default pays from the fullest Real Estate
first, then the bank, which never wastes production). An alliance is
listed with every group it may join (`ally ann bo`, `ally ann bo cy`: each
pair of the group becomes allied); a move that changes nothing (`ally` of
players already allied pair by pair) is not a move.

Hands: with `hands=None` the referee knows only how many cards each hand
holds, so the cards a hand may hold are listed by what they may be
("deploy a unit costing up to 3 from your hand", action None, `<CARD>` in
the command). Real Estate is bought from its own face-up pile, so those
moves are always concrete. With `hands` (self-play) the same generator
lists each card in the hand with every target it may take.

Actions that roll until a battle is decided (`rolloff`, `battle`, `window`,
`settle`) are listed as the CLI builds them before rolling, without
`rolls`: the CLI checks them with one die and then counts the dice the
battle takes; `dice_for` does the same for self-play.

Legality stays in `rules.check`: card plays are checked one by one by it
after a cheap filter that only drops what it refuses anyway (timing,
cards in hand, coins for the cost); battles are judged by the same
`target_of` and `taxes` that `check_battle` runs, on one shared board, after the
checks `rules.check` makes before it (tests/referee/test_legal_culture_war.py
holds both to `check`).
"""
from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from itertools import accumulate, combinations
from typing import Any, Callable, Mapping, Sequence

from referee.rules import prompts
from referee.errors import RefereeError
from referee.games.culture_war.effects import static as effects
from referee.games.culture_war.table import phases
from referee.games.culture_war.actions import MOD_KINDS, NOW_OF, targets_of
from referee.games.culture_war.battle.attacks import WINDOW, names_a_unit, target_of, taxes
from referee.games.culture_war.table.board import PLAIN, Board
from referee.games.culture_war.table.cards import CARD_TYPES, GAME, stats_of
from referee.rules.legal import (CARD_PLACEHOLDER, Candidate, CandidateRun, Hands, Move, accepts, judged,
                           shared_candidates)
from referee.rules.game import game_of
from referee.model import Action, PlayerName, State
from referee.rules.unseen import for_people

TIMED = ("unit", "real-estate", "mod", "happening", "operation")  # own turn, before the first attack
ROLLING = ("rolloff", "battle", "window", "settle")  # the dice they take are known only by rolling
VERB = {"unit": "deploy", "real-estate": "buy"}  # the command that plays a card of a type (else `play`)
TYPE_WORDS = {"unit": "a unit", "mod": "a Mod", "flash": "a Flash", "happening": "a Happening",
              "operation": "an Operation", "real-estate": "Real Estate"}


# ---- the cards ------------------------------------------------------------------------------


@lru_cache(maxsize=None)
def card(card_id: str) -> Mapping[str, Any]:
    """A Culture War card by id, as the stats dict an action carries (cached:
    the whole game's cards are read from the index once, not once per card)."""
    found = _every_card().get(card_id)
    if found is not None:
        return found
    from referee.games.culture_war.table.cards import resolve  # lazy: the card index, read only when moves are asked for

    return resolve(card_id)  # a short code or a QR payload, or the error naming what is wrong


@lru_cache(maxsize=1)
def _every_card() -> Mapping[str, Mapping[str, Any]]:
    from referee.cards.index import load_index, project_root  # lazy: the card index, read only when moves are asked for

    index = load_index(project_root())
    return {c.id: stats_of(c) for c in index.cards.values() if c.game == GAME and c.type in CARD_TYPES}


@lru_cache(maxsize=None)
def estate_cards(deck: str | None) -> tuple[Mapping[str, Any], ...]:
    """The Real Estate cards of a faction's deck (every faction's when None), in deck order."""
    from referee.cards.index import load_index, project_root  # lazy: the card index, read only when moves are asked for

    index = load_index(project_root())
    found = sorted((c for c in index.cards.values() if c.game == GAME and c.type == "real-estate"
                    and (deck is None or c.deck == deck)), key=lambda c: (c.path, c.line))
    return tuple(stats_of(c) for c in found)


@lru_cache(maxsize=None)
def deck_cards(deck: str | None) -> tuple[str, ...]:
    """The ids of a faction deck's printed copies that are shuffled into its
    draw pile (every copy but Real Estate and the one Base Unit put in play),
    one id per copy: what self-play deals hands from."""
    from referee.cards.index import load_index, project_root  # lazy: the card index, read only when moves are asked for
    from referee.games.culture_war.table.cards import starting_cards  # lazy: as above

    index = load_index(project_root())
    found = sorted((c for c in index.cards.values() if c.game == GAME and c.type in CARD_TYPES
                    and c.type != "real-estate" and (deck is None or c.deck == deck)), key=lambda c: (c.path, c.line))
    ids = [c.id for c in found for _ in range(max(1, int(c.quantity or 1)))]
    base = starting_cards(deck)[1] if deck else None
    if base is not None and base["id"] in ids:
        ids.remove(base["id"])
    return tuple(ids)


# ---- the moves -------------------------------------------------------------------------------


def legal_moves(rules: Any, state: State, player: PlayerName, hands: Hands | None = None) -> list[Move]:
    """Every move `player` may make now (see the module docstring)."""
    return judged(rules, state, _generate(rules, state, player, hands, lazy=False))


def candidates(rules: Any, state: State, player: PlayerName,
               hands: Hands | None = None) -> list[Candidate | CandidateRun]:
    """The same moves before `check` has judged them (referee/legal.py):
    `legal_moves` is exactly those of them `check` accepts."""
    return _generate(rules, state, player, hands, lazy=True)


def _generate(rules: Any, state: State, player: PlayerName, hands: Hands | None,
              lazy: bool) -> list[Candidate | CandidateRun]:
    if state.finished:
        return []
    me = state.player(player)
    if me.eliminated:
        return []
    return _Gen(rules, state, me.name, hands, lazy).moves()


class _Gen:
    """Proposes the moves. Eager, `ok` asks `check` and only accepted moves
    are added; lazy, `ok` says yes and the action it was asked about goes
    with the move added next, as the check its candidate still needs."""

    def __init__(self, rules: Any, state: State, name: str, hands: Hands | None, lazy: bool = False):
        self.rules, self.state, self.name, self.lazy = rules, state, name, lazy
        self.board = Board.reading(state)
        self.hand: Sequence[str] | None = None
        if hands is not None and name in hands:
            self.hand = list(hands[name])
        self.out: list[Candidate | CandidateRun] = []
        self._pending: Action | None = None
        self._plays: list[tuple[Mapping[str, Any], str | None]] = []  # lazy: plays found, not yet a run
        self._capital: dict[str | None, tuple[int, int]] = {}  # by deck: the board does not change

    # ---- by moment ----

    def moves(self) -> list[Candidate | CandidateRun]:
        with effects.steady(self.board):  # the generator only reads the board
            self._moves()
        return self.out

    def _moves(self) -> None:
        state, f = self.state, self.board.f
        waiting = prompts.pending(state)
        if not f.get("order", {}).get("settled", True):
            self.rolloff()
        elif waiting:
            self.shared()  # its player's answers (`resolve`)
            self.answers(waiting)
        elif f.get(WINDOW):
            self.cards(flash_only=True)
            self.settle()
        else:
            self.cards(flash_only=False)
            if self.name == self.board.active:
                self.seizes()
                self.battles()
            self.alliances()
            if self.name == self.board.active:
                self.shared()  # `end-turn`
            elif self.state.active_player.eliminated:  # out on their own turn: anyone passes it on
                self.ended_for(self.state.active_player.name)

    def ended_for(self, out: str) -> None:
        action = Action("end-turn", {})
        if self.ok(action):
            self.add(action, "end-turn", text=f"end {out}'s turn ({out} is out of the game)")

    def shared(self) -> None:
        """The shared moves (`resolve`, `end-turn`), each with its check (`judged` makes it when eager)."""
        self.out += shared_candidates(self.rules, self.state, self.name)

    def add(self, action: Action, command: str, kind: str | None = None, text: str | None = None,
            **details: Any) -> None:
        check, self._pending = self._pending, None

        def make() -> Move:
            return Move(action, command, kind or action.name, text or self.words(action), details)

        self.out.append(Candidate(action, check, make))

    def known(self, move: Move) -> None:
        """A move that needs no check (a `<CARD>` move)."""
        self.out.append(Candidate.known(move))

    def words(self, action: Action) -> str:
        if not for_people():  # self-play: no agent reads them
            return action.name
        names = {}
        if "_card" in action.args:
            names[str(action.args["card"])] = action.args["_card"]["name"]
        who = str(action.args.get("player") or action.actor or self.name)
        said = game_of(self.state.game).view.move_text(self.state, action, who, names)  # its words, by its record
        return said or action.name

    def ok(self, action: Action) -> bool:
        """Whether `action` may be added; lazy, yes, and the next move added carries it as its check."""
        if self.lazy:
            self._pending = action
            return True
        return accepts(self.rules, self.state, action)

    # ---- the roll-off, prompts, the window ----

    def rolloff(self) -> None:
        action = Action("rolloff", {})
        if self.ok(_one_die(action)):
            self.add(action, "rolloff", text="roll off for the first player")

    def answers(self, waiting: Sequence[prompts.Prompt]) -> None:
        """What card text asks of a table while a prompt waits, beyond the
        prompt's own answers (shared_moves): the cards of a known hand named
        for a discard, a card from a hand, or a piece of one's own, discarded."""
        for prompt in waiting:
            if prompt.player != self.name:
                continue
            for answer in self.named_discards(prompt):
                action = Action("resolve", {"prompt": prompt.number, "answer": answer}, PlayerName(self.name))
                if self.ok(action):
                    self.add(action, f"resolve {prompt.number} {answer} --by {self.name}",
                             text=f"{self.name} answers prompt {prompt.number} ({prompt.card}): {answer}")
        commands = {c for p in waiting for c in p.commands}
        if "discard-hand" in commands:
            self.hand_discards()
        if "discard" in commands:
            for handle, piece in self.board.owned(self.name):
                if piece["kind"] in ("unit", "estate", "operation"):
                    action = Action("discard", {"piece": handle})
                    if self.ok(action):
                        self.add(action, f"discard {handle}")

    def named_discards(self, prompt: prompts.Prompt) -> list[str]:
        """With the hand known, a discard a card asks for answered by naming
        the cards (`resolve N CARD,CARD`), each set of them once. A discard at
        random (Botnet Swarm) is no one's choice: it is answered `done`, and
        the table (in self-play the dealer) picks the cards."""
        want = (prompt.data or {}).get("discard")
        if self.hand is None or not want or not want.get("counted") or "at random" in prompt.text:
            return []
        count = int(want["count"])
        if not 0 < count <= len(self.hand):
            return []
        return list(dict.fromkeys(",".join(c) for c in combinations(sorted(self.hand), count)))

    def hand_discards(self) -> None:
        me = self.state.player(self.name)
        if "hand" in me.fields and int(me.fields["hand"]) < 1:
            return
        if self.hand is None:
            self.known(Move(None, f"discard-hand {CARD_PLACEHOLDER} --by {self.name}", "discard-hand",
                            f"{self.name} discards a card from their hand", {"placeholder": "card in hand"}))
            return
        for card_id in dict.fromkeys(self.hand):
            c = card(card_id)
            action = Action("discard-hand", {"player": self.name, "card": card_id, "_card": c}, PlayerName(self.name))
            if self.ok(action):
                self.add(action, f"discard-hand {card_id} --by {self.name}")

    def settle(self) -> None:
        window = self.board.f[WINDOW]
        owner = self.board.pieces.get(str(window["attacker"]), {}).get("owner")
        if owner == self.name:
            action = Action("settle", {}, PlayerName(self.name))
            if self.ok(_one_die(action)):
                self.add(action, "settle")

    # ---- cards ----

    def cards(self, flash_only: bool) -> None:
        """Cards from the hand, and Real Estate from its pile."""
        state, board, name = self.state, self.board, self.name
        timed = not flash_only and name == board.active and not board.f.get("attacks")
        kinds = ("flash", *TIMED) if timed else ("flash",)
        me = state.player(name)
        held = int(me.fields.get("hand", 1)) if "hand" in me.fields else None
        if "real-estate" in kinds:
            self.estates()
            self.flush_plays()
        if held is not None and held < 1:
            return
        if self.hand is None:
            for kind in kinds:
                if kind != "real-estate":
                    self.placeholder(kind)
            return
        for card_id in dict.fromkeys(self.hand):
            c = card(card_id)
            if c["type"] in kinds and c["type"] != "real-estate":
                self.play(c)
        self.flush_plays()

    def flush_plays(self) -> None:
        """Lazy: the plays `play` has found so far, as one run (in the same order)."""
        plays, self._plays = self._plays, []
        if plays:
            self.out.append(CandidateRun(len(plays), lambda i: self.played(*plays[i], checked=True)))

    def capital(self, deck: str | None) -> tuple[int, int]:
        """(own coins, coins of other factions) for a card of faction `deck`."""
        if deck not in self._capital:
            self._capital[deck] = self._count_capital(deck)
        return self._capital[deck]

    def _count_capital(self, deck: str | None) -> tuple[int, int]:
        mine = foreign = 0
        for _, coins in self.board.sources(self.name):
            for f, n in coins.items():
                if f == PLAIN or deck is None or f == deck:
                    mine += n
                else:
                    foreign += n
        return mine, foreign

    def affords(self, cost: int, deck: str | None) -> bool:
        mine, foreign = self.capital(deck)
        return cost <= 0 or mine + min(foreign, cost // 2) >= cost

    def estates(self) -> None:
        name = self.name
        faction = self.state.player(name).faction
        mixed = self.state.house_rules.get("decks", "faction") != "faction" or not faction
        cost = effects.estate_cost(self.board, name)
        for c in estate_cards(None if mixed else faction):
            if self.affords(cost, c.get("deck")):
                self.play(c)

    def play(self, c: Mapping[str, Any]) -> None:
        """Every target a card may take, each checked by the rules."""
        board, name, kind = self.board, self.name, c["type"]
        if kind != "real-estate":
            cost = effects.cost_parts(board, name, kind, int(c.get("cost") or 0))[0]
            if not self.affords(cost, c.get("deck")):
                return
        ons = self.targets(c, _played_now(c))
        if self.lazy:  # made only when drawn, each its own check (`flush_plays`)
            self._plays += [(c, on) for on in ons]
            return
        for on in ons:
            action = _play_action(name, c, on)
            if self.ok(action):
                self.out.append(self.played(c, on, action))

    def played(self, c: Mapping[str, Any], on: str | None, action: Action | None = None,
               checked: bool = False) -> Candidate:
        """Card `c` played `--on` the target: its candidate (`checked`: the
        action is its own check, else it is known to be legal)."""
        name = self.name
        action = action or _play_action(name, c, on)
        by = "" if name == self.board.active else f" --by {name}"
        command = f"{VERB.get(c['type'], 'play')} {c['id']}" + (f" --on {on}" if on is not None else "") + by
        return Candidate(action, action if checked else None,
                         lambda: Move(action, command, action.name, self.words(action), {}))

    def targets(self, c: Mapping[str, Any], now: list[dict[str, Any]]) -> list[str | None]:
        """What `--on` may name for this card (None: nothing), as the play step reads it."""
        board = self.board
        wanted = targets_of(now)
        kinds: set[str] = set()
        if c["type"] == "mod":
            kinds |= set(MOD_KINDS.get(c.get("target") or "any", MOD_KINDS["any"]))
        if "player" in wanted:
            if kinds:  # a Mod naming a player too: one --on cannot be both
                return []
            return [n for n in board.live()]
        if "unit" in wanted:
            kinds.add("unit")
        if "estate" in wanted:
            kinds.add("estate")
        if not kinds:
            return [None]
        handles = [h for h, p in effects.pieces(board) if p["kind"] in kinds]
        if kinds == {"unit"} and not any(p["kind"] == "unit" for p in board.pieces.values()):
            return [None]  # a unit target with no unit in play: played for nothing
        if any(effects.when_of(e) == "before-battle" for e in now):
            return [None, *handles]  # a battle Flash without --on finds its own unit in the battle
        return handles

    def placeholder(self, kind: str) -> None:
        """The cards of `kind` the hand may hold, by what they may cost: one
        `<CARD>` move for each target such a card may take (`--on` a piece
        or a player, or none), each offering the printed cards of the
        player's deck that the rules accept played so (`details["cards"]`).
        Only public facts are read: the deck's printed list, the board."""
        name = self.name
        faction = self.state.player(name).faction
        top = 0
        for printed in range(0, 31):
            if self.affords(effects.cost_parts(self.board, name, kind, printed)[0], faction):
                top = printed
        fits: dict[str | None, list[str]] = {}
        for c in self.printed(kind):
            if not self.affords(effects.cost_parts(self.board, name, kind, int(c.get("cost") or 0))[0], c.get("deck")):
                continue
            for on in self.targets(c, _played_now(c)):
                if accepts(self.rules, self.state, _play_action(name, c, on)):  # the rules' word, not a guess
                    fits.setdefault(on, []).append(c["id"])
        order = {on: i for i, on in enumerate([None, *(h for h, _ in effects.pieces(self.board)), *self.board.live()])}
        verb = VERB.get(kind, "play")
        by = "" if name == self.board.active else f" --by {name}"
        doing = "deploy" if kind == "unit" else "play"
        for on in sorted(fits, key=lambda o: order.get(o, len(order))):
            where = "" if on is None else f" --on {on}"
            aimed = "" if on is None else f" on {self.aimed(on)}"
            text = f"{name}: {doing} {TYPE_WORDS[kind]} costing up to {top} from the hand{aimed}"
            self.known(Move(None, f"{verb} {CARD_PLACEHOLDER}{where}{by}", "play", text,
                            {"type": kind, "max_cost": top, "placeholder": "card in hand", "on": on,
                             "cards": fits[on]}))

    def printed(self, kind: str) -> list[Mapping[str, Any]]:
        """The printed cards of `kind` a hand of this player's may hold, once each:
        their faction deck's (every deck's with mixed decks)."""
        faction = self.state.player(self.name).faction
        mixed = self.state.house_rules.get("decks", "faction") != "faction" or not faction
        ids = dict.fromkeys(deck_cards(None if mixed else faction))
        return [c for c in map(card, ids) if c["type"] == kind]

    def aimed(self, on: str) -> str:
        """A target in words: a piece by its label, a player by name."""
        return self.board.label(on) if on in self.board.pieces else on

    # ---- seizing, battles ----

    def seizes(self) -> None:
        for handle, piece in effects.pieces(self.board):
            if piece["kind"] != "unit" or piece["owner"] == self.name:
                continue
            if not any(e["kind"] == "for-sale" for e in effects.live_effects(piece)):
                continue
            action = Action("seize", {"player": self.name, "piece": handle}, PlayerName(self.name))
            if self.ok(action):
                self.add(action, f"seize {handle}")

    def battles(self) -> None:
        """Every attacker and target `check_battle` accepts: the checks `rules.check`
        makes before it are made once, then its body (`target_of`, `taxes`) for each pair."""
        board, name = self.board, self.name
        mine = [h for h, p in board.owned(name, "unit") if p.get("attacked") != board.turn]
        if not mine:
            return
        probe = Action("battle", {"attacker": mine[0], "defender": name, "rolls": 1}, PlayerName(name))
        if not self._battle_allowed(probe):
            return
        targets = [h for h, p in effects.pieces(board) if p["kind"] == "unit" and p["owner"] != name]
        targets += [n for n in board.live() if n != name]
        if self.lazy:  # each variant judged only if drawn, by `check` (which runs the same two)
            self.battle_run([(a, d, not names_a_unit(d)) for a in mine for d in targets])
            return
        for attacker in mine:
            for defender in targets:
                try:
                    _, _, direct = target_of(board, {"attacker": attacker, "defender": defender})
                    taxes(board, attacker, defender, direct)
                except RefereeError:
                    continue
                self.battle(attacker, defender, direct)

    def _battle_allowed(self, probe: Action) -> bool:
        """The checks `rules.check` makes before `check_battle` (game over, the
        window, phase, prompts), which no attacker or target changes."""
        state = self.state
        if state.winner is not None or state.fields.get("window") or prompts.pending(state):
            return False
        try:
            phases.check_phase(state, probe)
        except RefereeError:
            return False
        return True

    def battle(self, attacker: str, defender: str, direct: bool) -> None:
        """The variants of one attack, the pair known to pass `check_battle`."""
        for action, command, direct, window in _variants(attacker, defender, direct, PlayerName(self.name)):
            self.add(action, command, kind="battle", direct=direct, window=window)

    def battle_run(self, pairs: Sequence[tuple[str, str, bool]]) -> None:
        """Lazy: every variant of every (attacker, defender, direct) pair, in
        the order `battle` lists them, as one run: a variant is made only
        when drawn, with the one-die action `check` must accept."""
        if not pairs:
            return
        name = PlayerName(self.name)
        ends = list(accumulate(_VARIANTS[direct] for _, _, direct in pairs))

        def at(i: int) -> Candidate:
            k = bisect_right(ends, i)
            attacker, defender, direct = pairs[k]
            action, command, direct, window = _variants(attacker, defender, direct, name)[i - (ends[k - 1] if k else 0)]
            return Candidate(action, _one_die(action),
                             lambda: Move(action, command, "battle", self.words(action), {"direct": direct, "window": window}))

        self.out.append(CandidateRun(ends[-1], at))

    # ---- alliances ----

    def alliances(self) -> None:
        board, name = self.board, self.name
        allied = [pair for pair in board.f.get("alliances", []) if name in pair]
        # every group of allies the rules allow (two players or more), as long as it makes a new pair
        made = board.f.get("alliances", [])
        others = [n for n in board.live() if n != name]
        groups = [[name, *g] for k in range(1, len(others) + 1) for g in combinations(others, k)
                  if any(sorted([a, b]) not in made for a, b in combinations([name, *g], 2))]
        self.run(len(groups), lambda i: self.worded(Action("ally", {"players": groups[i]}),
                                                    "ally " + " ".join(groups[i])))
        if allied:  # `unally NAME` (every alliance of theirs), then each alliance alone
            ends = [[name], *([name, pair[0] if pair[1] == name else pair[1]] for pair in allied)]
            self.run(len(ends), lambda i: self.worded(Action("unally", {"players": ends[i]}),
                                                      "unally " + " ".join(ends[i])))
        if any(board.people[p].eliminated for pair in allied for p in pair):
            return
        life, coins = board.life(name), self._coins()
        me = PlayerName(name)
        for pair in allied:  # many of these: worded here (as phrases.py words them), not through wording
            other = pair[0] if pair[1] == name else pair[1]
            self.run(life - 1, lambda i, other=other: (
                Action("donate", {"from": name, "to": other, "amount": i + 1}, me),
                f"donate {name} {other} {i + 1}", f"{name} gives {other} {i + 1} life"))
            self.run(sum(coins.values()), lambda i, other=other: (
                Action("gift", {"from": name, "to": other, "amount": i + 1}, me),
                f"gift {name} {other} {i + 1}", f"{name} gives {other} {i + 1} coin{'' if i == 0 else 's'}"))
            for faction, held in sorted(coins.items()):
                self.run(held, lambda i, other=other, faction=faction: (
                    Action("gift", {"from": name, "to": other, "amount": i + 1, "faction": faction}, me),
                    f"gift {name} {other} {i + 1} --faction {faction}",
                    f"{name} gives {other} {i + 1} {faction} coin{'' if i == 0 else 's'}"))

    def worded(self, action: Action, command: str) -> tuple[Action, str, str]:
        """(action, command, words) for `run`, worded through the game's phrases."""
        return action, command, self.words(action)

    def run(self, count: int, nth: Callable[[int], tuple[Action, str, str]]) -> None:
        """`count` moves the generator knows are legal, differing in one
        argument (an amount, a player): `nth(i)` gives the i-th one's action, command and words. Made only
        when drawn (a CandidateRun); eager, all of them, in order."""
        if count <= 0:
            return

        def at(i: int) -> Candidate:
            action, command, text = nth(i)
            return Candidate(action, None, lambda: Move(action, command, action.name, text, {}))

        if self.lazy:
            self.out.append(CandidateRun(count, at))
        else:
            self.out += [at(i) for i in range(count)]

    def _coins(self) -> dict[str, int]:
        held: dict[str, int] = {}
        for _, coins in self.board.sources(self.name):
            for f, n in coins.items():
                if n > 0:
                    held[f] = held.get(f, 0) + n
        return held


# A card's effects as it is played, by the card's id(): the printed card
# does not change while it is held here (the entry keeps it alive).
_NOW: dict[int, tuple[Mapping[str, Any], list[dict[str, Any]]]] = {}


def _played_now(c: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The effects of card `c` that act as it is played (NOW_OF), read once per card."""
    found = _NOW.get(id(c))
    if found is None or found[0] is not c:
        found = _NOW[id(c)] = (c, [e for e in effects.read(c.get("effects"))
                                   if effects.when_of(e) in NOW_OF.get(c["type"], ())])
    return found[1]


def _play_action(name: str, c: Mapping[str, Any], on: str | None) -> Action:
    args: dict[str, Any] = {"player": name, "card": c["id"], "_card": c}
    if on is not None:
        args["on"] = on
    return Action("play", args, PlayerName(name))


_VARIANTS = {True: 2, False: 4}  # a direct attack has no --window variants


def _variants(attacker: str, defender: str, direct: bool,
              name: PlayerName) -> list[tuple[Action, str, bool, bool]]:
    """(action, command, direct, window) for each way to make one attack:
    with and without the counter-attack, and for a unit, with `--window`."""
    flagged = [("battle", {}, ""), ("battle", {"counter": False}, " --no-counter")]
    if not direct:
        flagged += [("window", {}, " --window"), ("window", {"counter": False}, " --window --no-counter")]
    return [(Action(action_name, {"attacker": attacker, "defender": defender, **extra}, name),
             f"battle {attacker} {defender}{flags}", direct, action_name == "window")
            for action_name, extra, flags in flagged]


def _one_die(action: Action) -> Action:
    """A rolling action as the CLI checks it before rolling (one die)."""
    return Action(action.name, {**action.args, "rolls": 1}, action.actor, action.cards)


# ---- dice, for self-play ------------------------------------------------------------------------


def dice_for(rules: Any, state: State, action: Action, die: Callable[[], int]) -> tuple[Action, tuple[int, ...]]:
    """The action as the table records it and the dice it takes, rolled with
    `die` (a d6): an action that rolls until decided (a battle, the roll-off)
    is played as the CLI plays it (`rules.play_drawing`, the dice drawn as
    the rules ask for them) and gets its `rolls`; any other takes the dice
    `rules.dice_needed` names."""
    if action.name in ROLLING and "rolls" not in action.args:
        drawn = _Drawn(die)
        action, _, _ = rules.play_drawing(state, action, drawn)
        return action, tuple(drawn.taken)
    return action, tuple(die() for _ in rules.dice_needed(state, action))


class _Drawn:
    """`die` as `play_drawing` asks for dice (dice.Drawn's shape): never typed, every die kept."""

    typed = None

    def __init__(self, die: Callable[[], int]):
        self.die = die
        self.taken: list[int] = []

    def __call__(self) -> int:
        self.taken.append(self.die())
        return self.taken[-1]

