"""Legal moves: every action a game's rules accept now, for one player.

Generation is kept apart from making a move (python-chess's habit): each game
generates its moves in `referee/games/<game>/legal.py`, a module exporting

    def legal_moves(rules, state: State, player: PlayerName,
                    hands: Hands | None = None) -> list[Move]

and the rules' `check` stays the one judge. A test holds the two equal on
random reachable states of every game: every generated concrete action
passes `check`, and every action `check` accepts out of a broad candidate set
is generated.

`hands`: at a physical table the referee does not know what is in a hand
(None), so card plays from a hand are listed by what they may be, as a Move
with `action=None` and a `command` holding a placeholder (`<CARD>`). In
self-play the simulator knows every hand and passes it; the same generator
then lists the concrete cards.

A game's module may also export `candidates(rules, state, player, hands)
-> list[Candidate]`: the same moves before `check` has judged them, each with
the action `check` must accept (its `legal_moves` is then those candidates
filtered, so the two cannot disagree). Self-play's random agent draws from
the candidates and checks only what it draws (`random_legal`): uniform over
the legal moves, without judging every one of them.

This module is the core's part: the Move value and the dispatch to the game's
module, loaded only when moves are asked for (referee start-up stays lazy).
"""
from __future__ import annotations

import bisect
import itertools
import random
import shlex
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from referee.rules import prompts
from referee.rules.game import game_of
from referee.errors import RefereeError
from referee.model import Action, CardId, PlayerName, State
from referee.rules.unseen import for_people

# What the caller knows of each player's hand: the card ids (one per copy held).
Hands = Mapping[PlayerName, Sequence[CardId]]

CARD_PLACEHOLDER = "<CARD>"


@dataclass(frozen=True)
class Move:
    """One legal move for a player.

    action:  the exact Action the CLI records (every argument given), or None
             when the move stands for a card from a hand the referee cannot
             see ("deploy a unit costing up to 3 from your hand");
    command: the command line that plays it, without the leading `referee`
             (`battle ann/window-smasher bo/mall-walkers`); a move with
             action=None has `<CARD>` where the card goes;
    kind:    the group it is shown under (the action's name: "attack", "play" ...);
    text:    the move in words, from the game's phrases where it has one
             (inside `unseen()`, as self-play lists them: the action's name).
    """

    action: Action | None
    command: str
    kind: str
    text: str
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "command": self.command, "text": self.text}
        if self.action is not None:
            out["action"] = {"name": self.action.name, "args": dict(self.action.args),
                             "actor": self.action.actor}
        else:
            out["action"] = None
        if self.details:
            out["details"] = dict(self.details)
        return out


@dataclass(frozen=True)
class Candidate:
    """A move before the rules have judged it.

    action: the action the move plays (None for a `<CARD>` move);
    check:  the action `check` must accept for the move to be legal (it may
            differ from `action`: a battle is checked with one die), or None
            when the generator already knows the move is legal;
    make:   builds the Move (its command and words), only when it is wanted.
    """

    action: Action | None
    check: Action | None
    make: Callable[[], Move]

    @classmethod
    def known(cls, move: Move) -> "Candidate":
        return cls(move.action, None, lambda: move)

    def legal(self, rules: Any, state: State) -> bool:
        return self.check is None or accepts(rules, state, self.check)

    @property
    def size(self) -> int:
        return 1

    def at(self, index: int) -> "Candidate":
        return self

    def each(self) -> Iterable["Candidate"]:
        return (self,)


@dataclass(frozen=True)
class CandidateRun:
    """`size` candidates made one by one only when drawn (`at(i)`): moves
    that differ in one number, such as `donate ann bo 1` .. `89`, or in one
    argument, such as a card's plays on each target. Each is a Candidate
    and may carry the action `check` must accept."""

    size: int
    at: Callable[[int], Candidate]

    def each(self) -> Iterable[Candidate]:
        return (self.at(i) for i in range(self.size))


def judged(rules: Any, state: State, found: Iterable[Candidate | CandidateRun]) -> list[Move]:
    """The moves of the candidates that `check` accepts, in order."""
    return [c.make() for group in found for c in group.each() if c.legal(rules, state)]


def legal_moves(rules: Any, state: State, player: PlayerName, hands: Hands | None = None) -> list[Move]:
    """Every move `player` may make now, in the game's own order."""
    return game_of(state.game).legal.legal_moves(rules, state, player, hands)


def candidates(rules: Any, state: State, player: PlayerName,
               hands: Hands | None = None) -> list[Candidate | CandidateRun]:
    """`player`'s moves before judging: the game's `candidates` where it has
    them, else its legal moves (each already judged)."""
    module = game_of(state.game).legal
    own = getattr(module, "candidates", None)  # a module attribute, not a rules hook
    if own is None:
        return [Candidate.known(m) for m in module.legal_moves(rules, state, player, hands)]
    return own(rules, state, player, hands)


def random_legal(rules: Any, state: State, player: PlayerName, hands: Hands | None,
                 rng: random.Random, allow: Callable[[Action], bool] | None = None) -> Candidate | None:
    """One of `player`'s concrete legal moves, each equally likely, or None
    when there is none: candidates are drawn at random and judged as drawn,
    a refused one put aside (rejection sampling gives every legal move the
    same chance, and only the drawn ones are checked). `allow`: a narrower
    choice (self-play's loop guard), its refusals put aside the same way."""
    return draw(rules, state, candidates(rules, state, player, hands), rng, allow)


def draw(rules: Any, state: State, found: Sequence[Candidate | CandidateRun], rng: random.Random,
         allow: Callable[[Action], bool] | None = None) -> Candidate | None:
    """`random_legal` over candidates already found."""
    groups = [g for g in found if g.size]
    ends = list(itertools.accumulate(g.size for g in groups))
    total = ends[-1] if ends else 0
    refused: set[int] = set()
    while len(refused) < total:
        k = rng.randrange(total)
        if k in refused:
            continue
        g = bisect.bisect_right(ends, k)
        chosen = groups[g].at(k - (ends[g - 1] if g else 0))
        if chosen.action is not None and (allow is None or allow(chosen.action)) and chosen.legal(rules, state):
            return chosen
        refused.add(k)
    return None


# ---- helpers the games' generators share ----------------------------------------

# Actions that are the scorekeeper's corrections or overrides, never a
# player's move: no generator lists them (docs/legal-moves.md says why).
CORRECTIONS = frozenset({"life", "capital", "crowd", "win"})


def accepts(rules: Any, state: State, action: Action) -> bool:
    """Whether the rules' one judge, `check`, accepts `action` now."""
    try:
        rules.check(state, action)
    except RefereeError:
        return False
    return True


def action(name: str, args: Mapping[str, Any], actor: str | None) -> Action:
    """An Action as the CLI records it: arguments that are None (or an empty
    list, or False, which the commands leave out) are dropped."""
    kept = {k: v for k, v in args.items() if v is not None}
    return Action(name, kept, PlayerName(actor) if actor is not None else None)


def command_line(words: Iterable[Any]) -> str:
    """The words of a command, quoted for a shell; `<CARD>` stays as it is."""
    return " ".join(w if w == CARD_PLACEHOLDER else shlex.quote(str(w)) for w in words)


def describe(rules: Any, state: State, act: Action) -> str:
    """The move in words, through the game's phrases (the command's own words
    otherwise); the action's name inside `unseen()` (self-play)."""
    if not for_people():
        return act.name
    who = str(act.args.get("player") or act.actor or state.active_player.name)
    said = game_of(state.game).view.move_text(state, act, who)  # the game's words, through its record
    return said if said is not None else act.name


def move(rules: Any, state: State, act: Action, words: Iterable[Any], kind: str | None = None,
         **details: Any) -> Move:
    """A concrete Move: the action, the command that plays it and its words."""
    return Move(act, command_line(words), kind or act.name, describe(rules, state, act), details)


def placeholder(command_words: Iterable[Any], kind: str, text: str, **details: Any) -> Move:
    """A card play from a hand the referee cannot see: no action, `<CARD>` in the command."""
    return Move(None, command_line(command_words), kind, text, details)


def shared_moves(rules: Any, state: State, player: str) -> list[Move]:
    """The shared actions a player may take now (referee/games/shared.py):
    answering each of their waiting prompts (`resolve N ANSWER`, one move per
    answer) and `end-turn`. A game whose own `end-turn` replaces the shared
    one gets it here too: the check is the game's. The corrections (life,
    capital, crowd, win) are not listed."""
    return judged(rules, state, shared_candidates(rules, state, player))


def shared_candidates(rules: Any, state: State, player: str) -> list[Candidate]:
    """`shared_moves` before judging."""
    out: list[Candidate] = []
    name = state.player(player).name

    def candidate(act: Action, words: list[Any]) -> Candidate:
        return Candidate(act, act, lambda: move(rules, state, act, words))

    for prompt in prompts.pending(state):
        if prompt.player != name:
            continue
        for answer in prompt.choices or ("done", "skip"):
            act = action("resolve", {"prompt": prompt.number, "answer": answer}, name)
            out.append(candidate(act, ["resolve", prompt.number, answer, "--by", name]))
    if "end-turn" in rules.actions:
        act = action("end-turn", {}, name)
        out.append(candidate(act, ["end-turn", "--by", name]))
    return out


def grouped(moves: Sequence[Move]) -> dict[str, list[Move]]:
    """The moves by kind, kinds in the order they first appear."""
    out: dict[str, list[Move]] = {}
    for m in moves:
        out.setdefault(m.kind, []).append(m)
    return out


def drawing(game: Any) -> frozenset[str]:
    """The actions `game` plays with dice drawn as its rules ask for them (its
    legal module's `ROLLING`: a battle rolls ties again), which the table plays
    through `rules.play_drawing` (ledger.perform(drawn=True))."""
    return frozenset(getattr(game_of(game).legal, "ROLLING", ()))  # a module attribute, not a rules hook
