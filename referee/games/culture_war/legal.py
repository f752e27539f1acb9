"""Culture War's legal moves (the contract: referee/rules/legal.py): every action the rules
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
players already allied pair by pair) is not a move, and two that leave the
same table are one: a group is listed once for each set of new pairs (the
smallest group that makes them), `unally NAME` only with two alliances or
more, and `gift --faction` only with coins of two kinds or more. A battle
Flash is listed without `--on` (it finds its unit in the battle).

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

The generator is one class, `_Gen`, written in four files by concern: this
one (the moments, prompts, the battle window, end-turn), `legal_cards.py`
(card plays and their targets, and the `<CARD>` moves of a hand unseen),
`legal_fights.py` (seizes and battles) and `legal_allies.py` (alliances,
donations, gifts). The printed cards it reads are `table/cards.py`'s.

Legality stays in `rules.check`: card plays are checked one by one by it
after a cheap filter that only drops what it refuses anyway (timing,
cards in hand, coins for the cost); battles are judged by the same
`target_of` and `taxes` that `check_battle` runs, on one shared board, after the
checks `rules.check` makes before it (tests/referee/test_legal_culture_war.py
holds both to `check`).
"""
from __future__ import annotations

from itertools import combinations
from typing import Any, Callable, Mapping, Sequence

from referee.games.culture_war.battle.attacks import WINDOW
from referee.games.culture_war.effects import static as effects
from referee.games.culture_war.legal_allies import AllianceMoves
from referee.games.culture_war.legal_cards import CardMoves
from referee.games.culture_war.legal_fights import FightMoves, one_die
from referee.games.culture_war.table.board import Board
from referee.games.culture_war.table.cards import card
from referee.model import Action, PlayerName, State
from referee.rules import prompts
from referee.rules.game import game_of
from referee.rules.legal import CARD_PLACEHOLDER, Candidate, CandidateRun, Hands, Move, accepts, judged, shared_candidates
from referee.rules.unseen import for_people

ROLLING = ("rolloff", "battle", "window", "settle")  # the dice they take are known only by rolling


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


class _Gen(CardMoves, FightMoves, AllianceMoves):
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
        if self.ok(one_die(action)):
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
            if self.ok(one_die(action)):
                self.add(action, "settle")


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

