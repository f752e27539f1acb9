"""The agents that decide for a seat: random, greedy and search.

An agent is given the rules, its own player's view of the table (hidden
cards of the others masked), that player's legal moves and its own random
generator, and returns one of the moves. It never sees another player's hand
or a face-down card: the view it gets is `visible_state(state, [player])`.

- random: uniform over the legal moves;
- greedy: one-ply lookahead, each move applied to the view with sampled dice
  and the result scored by the game's evaluation (`evaluate` in its
  selfplay module, else the generic one below);
- search: Monte Carlo tree search (UCT) from the view, rollouts by random
  moves to a depth limit, leaves scored by the same evaluation.

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

import math
import random
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any, Callable, Protocol, Sequence

from referee.rules import dice as dicelib
from referee.rules.game import game_of
from referee.errors import RefereeError
from referee.rules import legal
from referee.rules.legal import Hands, Move
from referee.model import Action, GameSlug, PlayerName, State
from referee.simulate.turns import mover_and_draw, mover_and_moves
from referee.words.view import view_for

WIN_SCORE = 1_000_000.0


class AgentKind(str, Enum):
    RANDOM = "random"
    GREEDY = "greedy"
    SEARCH = "search"

    @classmethod
    def parse(cls, text: str) -> "AgentKind":
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise RefereeError(f"unknown agent {text!r}; choose one of: "
                               + ", ".join(a.value for a in cls)) from None


class Agent(Protocol):
    def choose(self, rules: Any, view: State, player: PlayerName, moves: Sequence[Move],
               hands: Hands | None, rng: random.Random) -> Move: ...


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
    def choose(self, rules, view, player, moves, hands, rng):
        return moves[rng.randrange(len(moves))]


@dataclass
class GreedyAgent:
    samples: int = 2

    def choose(self, rules, view, player, moves, hands, rng):
        if len(moves) == 1:
            return moves[0]
        score = evaluation(view.game)
        view, _ = _sampled(rules, view, player, hands, rng)
        best: list[Move] = []
        best_value = -math.inf
        for move in moves:
            after, dice = outcome_rolled(rules, view, move, rng)
            total, count = (score(after, player) if after is not None else -WIN_SCORE / 2), 1
            while dice and count < self.samples:  # the dice decide: sample again
                again, _ = outcome_rolled(rules, view, move, rng)
                total += score(again, player) if again is not None else -WIN_SCORE / 2
                count += 1
            value = total / count
            if value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return best[rng.randrange(len(best))]


@dataclass
class _Node:
    state: State
    mover: PlayerName | None
    moves: list[Move] | None = None
    children: dict[int, "_Node"] | None = None
    visits: int = 0
    value: float = 0.0  # summed reward of `mover`'s parent decision, in 0..1
    physical: Any = None  # the sampled table's dealer (its hands) at this node, or None


@dataclass
class SearchAgent:
    """UCT from the agent's view. Rewards are 0..1 for the player who chose
    the move leading to a node (max^n style), leaves scored by the
    evaluation squashed through a logistic curve."""

    budget: int = 200  # playouts per decision
    depth: int = 6  # random moves per playout before the leaf is scored
    explore: float = 1.4
    samples: int = 4  # determinisations of the hidden cards (games that sample them)

    def choose(self, rules, view, player, moves, hands, rng):
        if len(moves) == 1:
            return moves[0]
        score = evaluation(view.game)
        trees = self.samples if determiniser(view.game) is not None else 1
        if trees == 1:
            root = _Node(view, player, list(moves), {})
            for _ in range(self.budget):
                self._playout(rules, root, hands, rng, score)
            best = max(root.children.items(), key=lambda kv: kv[1].visits, default=None)
            return root.moves[best[0]] if best else moves[rng.randrange(len(moves))]
        visits = [0] * len(moves)
        for t in range(trees):
            state, physical = _sampled(rules, view, player, hands, rng)
            root = _Node(state, player, list(moves), {}, physical=physical)
            budget = self.budget // trees + (1 if t < self.budget % trees else 0)
            for _ in range(budget):
                self._playout(rules, root, hands, rng, score)
            for i, child in root.children.items():
                visits[i] += child.visits
        best = max(range(len(moves)), key=lambda i: visits[i])
        return moves[best] if visits[best] else moves[rng.randrange(len(moves))]

    def _playout(self, rules, root, hands, rng, score) -> None:
        path: list[tuple[_Node, PlayerName]] = []
        node = root
        while True:  # selection and expansion
            if node.state.finished or not node.moves:
                break
            untried = [i for i in range(len(node.moves)) if i not in node.children]
            if untried:
                i = untried[rng.randrange(len(untried))]
                after = outcome(rules, node.state, node.moves[i], rng)
                physical = _follow(node.physical, node.state, node.moves[i], after)
                known = physical.hands() if physical is not None else hands
                mover, moves = (None, []) if after is None else mover_and_moves(rules, after, known)
                child = _Node(after if after is not None else node.state, mover, moves, {}, physical=physical)
                if after is None:
                    child.moves = []
                node.children[i] = child
                path.append((child, node.mover))
                node = child
                break
            log_n = math.log(node.visits + 1)
            i, child = max(node.children.items(), key=lambda kv: (
                kv[1].value / (kv[1].visits or 1) + self.explore * math.sqrt(log_n / (kv[1].visits or 1))))
            path.append((child, node.mover))
            node = child
        state, physical = node.state, node.physical
        for _ in range(self.depth):  # rollout
            if state.finished:
                break
            mover, drawn = mover_and_draw(rules, state, physical.hands() if physical is not None else hands,
                                          lambda _: rng)
            if drawn is None:
                break
            chosen = drawn.make()
            after = outcome(rules, state, chosen, rng)
            if after is None:
                break
            physical = _follow(physical, state, chosen, after)
            state = after
        root.visits += 1
        for child, chooser in path:
            child.visits += 1
            child.value += _reward(score(state, chooser)) if chooser is not None else 0.5


def _follow(physical: Any, before: State, move: Move, after: State | None) -> Any:
    """The sampled table's dealer after `move` (a copy: the node before keeps its own)."""
    if physical is None or after is None or move.action is None:
        return physical
    following = physical.clone()
    following.after(before, move.action, after)
    return following


def _reward(value: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, value / 10.0))))


def make_agent(kind: AgentKind, budget: int = 200) -> Agent:
    if kind is AgentKind.RANDOM:
        return RandomAgent()
    if kind is AgentKind.GREEDY:
        return GreedyAgent()
    return SearchAgent(budget=budget)


def dice_for(seed: int, position: int, faces: Sequence[int]) -> tuple[int, ...]:
    """The table's own dice (the seeded roller), so a kept game replays exactly."""
    return dicelib.draw(seed, position, faces)
