"""The agents that decide for a seat: heuristic (the default), search, cheat, random.

An agent picks its player's move from its own view of the table (the
others' hidden cards masked: `visible_state(state, [player])`) and its own
hand, within what the loop guard allows (referee/simulate/guard.py); the
rules' `check` judges legality on the true table, as always.

- heuristic: the game's policy from its rulebook (referee/simulate/heuristic.py,
  referee/games/<game>/policy.py), else one move ahead on the game's evaluation;
- search: the heuristic improved by playouts on determinised tables
  (referee/simulate/search.py); cheat: the same on the true table;
- random: uniform over the legal moves (fuzzing, --check).

A game with hidden cards gives its selfplay module a
`determinise(rules, view, player, hand, rng) -> (State, Physical)`: a whole
table consistent with the view, the cards the player cannot see sampled
from those they may still be (never read from the real table), with a
dealer following its hands. Greedy applies its moves to one such table;
search builds a tree on each of a few of them and adds up the visits, the
dealer giving every seat its sampled hand in the playouts. Each seat's
moves in a playout come from its own sampled hand alone (`mover_and_moves`):
a Cold War attack waits for its target's answer (the answer window) in a
playout as at the table, and the target's answer is one of their own moves.
Only a table started before the window asks a defender through `answerer`.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any, Callable, Protocol, Sequence

from referee.rules import dice as dicelib
from referee.rules.game import game_of
from referee.errors import RefereeError
from referee.rules import legal
from referee.rules.legal import Hands, Move, random_legal
from referee.model import Action, GameSlug, PlayerName, State
from referee.words.view import view_for

WIN_SCORE = 1_000_000.0


class AgentKind(str, Enum):
    HEURISTIC = "heuristic"  # the default: the game's policy, from its rulebook
    SEARCH = "search"  # rollouts of the heuristic over determinisations of the hidden cards
    CHEAT = "cheat"  # the same search seeing every hand (an upper bound)
    RANDOM = "random"  # uniform over the legal moves (fuzzing, --check)

    @classmethod
    def parse(cls, text: str) -> "AgentKind":
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise RefereeError(f"unknown agent {text!r}; choose one of: "
                               + ", ".join(a.value for a in cls)) from None


class Agent(Protocol):
    def pick(self, rules: Any, state: State, view: Callable[[], State], player: PlayerName, hands: Hands | None,
             rng: random.Random, allow: Callable[[Action], bool]) -> Move | None:
        """The move `player` makes now, or None when they have none. `state`
        is for the rules' `check` (and the cheat's eyes) only; what the agent
        reads is `view()`, `hands` holds only the player's own hand, and
        `allow` is the loop guard (referee/simulate/guard.py)."""

    def choose(self, rules: Any, view: State, player: PlayerName, moves: Sequence[Move],
               hands: Hands | None, rng: random.Random) -> Move:
        """One of `moves`, all legal (a defender's answers to a chosen move)."""


Evaluate = Callable[[State, PlayerName], float]


@lru_cache(maxsize=None)
def selfplay_module(game: GameSlug):
    """The game's self-play module (its dealer and evaluation), or None."""
    return game_of(game).selfplay


def evaluation(game: GameSlug) -> Evaluate:
    """The game's own `evaluate(state, player)` where its self-play module
    has one, else `generic_evaluate`."""
    module = selfplay_module(game)
    own = getattr(module, "evaluate", None) if module is not None else None  # a module attribute, not a rules hook
    return own if own is not None else generic_evaluate


def generic_evaluate(state: State, player: PlayerName) -> float:
    """A player's standing from what every game keeps: a win, being out,
    life and capital against the best other player, and the game's tally
    fields (its scores) the same way."""
    if state.winner is not None:
        return WIN_SCORE if state.winner == player else -WIN_SCORE
    me = state.player(player)
    if me.eliminated:
        return -WIN_SCORE
    tally = view_for(state.game).tally
    others = [p for p in state.players if p.name != me.name and not p.eliminated]

    def standing(p) -> float:
        value = 0.0
        if p.life is not None:
            value += p.life
        if p.capital is not None:
            value += 0.5 * p.capital
        for key in tally:
            number = p.fields.get(key)
            if isinstance(number, (int, float)):
                value += number
        return value

    best_other = max((standing(p) for p in others), default=0.0)
    return standing(me) - best_other - 10.0 * len(others)


Roll = Callable[[Any, State, Action, Callable[[], int]], tuple[Action, tuple[int, ...]]]


@lru_cache(maxsize=None)
def roller(game: GameSlug) -> Roll | None:
    """The game's `dice_for(rules, state, action, die)` (its legal module)
    where an action rolls until it is decided (a battle, a roll-off): the
    action as the table records it (with its `rolls`) and the dice it took.
    None where `rules.dice_needed` always knows the dice beforehand."""
    return getattr(game_of(game).legal, "dice_for", None)  # a module attribute, not a rules hook


@lru_cache(maxsize=None)
def drawing(game: GameSlug) -> frozenset[str]:
    """The actions the game plays with dice drawn as its rules ask for them
    (its legal module's `ROLLING`: a battle rolls ties again), which the
    table plays through `rules.play_drawing` (ledger.perform(drawn=True))."""
    return legal.drawing(game)


def answerer(game: GameSlug):
    """The game's `answers(rules, state, action, hands) -> (player, moves) | None`
    (its selfplay module): the variants of a chosen move that another player
    answers from their hand, for that player to choose; None if no move is answered."""
    module = selfplay_module(game)
    return getattr(module, "answers", None) if module is not None else None  # a module attribute


def determiniser(game: GameSlug):
    """The game's `determinise(rules, view, player, hand, rng)`, or None (nothing hidden to sample)."""
    module = selfplay_module(game)
    return getattr(module, "determinise", None) if module is not None else None  # a module attribute


def _sampled(rules: Any, view: State, player: PlayerName, hands: Hands | None, rng: random.Random):
    """(state, physical or None): the view made whole where the game can sample its hidden cards."""
    sample = determiniser(view.game)
    if sample is None:
        return view, None
    return sample(rules, view, player, tuple((hands or {}).get(player, ())), rng)


def outcome(rules: Any, state: State, move: Move, rng: random.Random) -> State | None:
    """The view after `move`, with dice drawn from the agent's own generator;
    None when the view cannot carry the move out (it needed a hidden card)."""
    return outcome_rolled(rules, state, move, rng)[0]


def outcome_rolled(rules: Any, state: State, move: Move, rng: random.Random) -> tuple[State | None, bool]:
    """`outcome`, and whether the move rolled dice (another sample may differ)."""
    action = move.action
    if action is None:
        return None, False
    try:
        roll = roller(state.game)
        if roll is not None:
            action, dice = roll(rules, state, action, lambda: rng.randint(1, 6))
        else:
            dice = tuple(rng.randint(1, f) for f in rules.dice_needed(state, action))
        return rules.apply(state, action, dice), bool(dice)
    except RefereeError:
        return None, False


@dataclass
class RandomAgent:
    """Uniform over the legal moves (fuzzing, --check): one candidate drawn
    and judged at a time (`random_legal`)."""

    def pick(self, rules, state, view, player, hands, rng, allow):
        drawn = random_legal(rules, state, player, hands, rng, allow)
        if drawn is None:  # the guard left nothing: every move is offered again
            drawn = random_legal(rules, state, player, hands, rng)
        return drawn.make() if drawn is not None else None

    def choose(self, rules, view, player, moves, hands, rng):
        return moves[rng.randrange(len(moves))]


def dice_for(seed: int, position: int, faces: Sequence[int]) -> tuple[int, ...]:
    """The table's own dice (the seeded roller), so a kept game replays exactly."""
    return dicelib.draw(seed, position, faces)
