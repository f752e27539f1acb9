"""The heuristic agent: a player who has read the rulebook.

Each game writes its own policy (`choose(options)` in
referee/games/<game>/policy.py): what a sensible player does with the moves
on offer, read from their own view of the table only. Where a game's policy
has no say (it returns None), or a game has no policy, the agent looks one
move ahead: every legal move is played on the view with the agent's own
dice and scored by the game's evaluation, and a move that only passes the
turn is chosen when nothing scores better than the table as it stands.

The moves come as candidates (referee/rules/choosing.py): a policy asks
`check` only about the moves it considers, so a Culture War turn with a
hundred candidates is decided with a handful of checks.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from referee.model import Action, PlayerName, State
from referee.rules.choosing import Options, as_candidates
from referee.rules.legal import Candidate, Hands, Move, candidates
from referee.simulate.agents import determiniser
from referee.simulate.agents import evaluation as own
from referee.simulate.guard import policy_module

PASSES = frozenset({"end-turn", "pass", "round-end"})  # moves that only hand the turn on


def evaluation(game) -> Callable[[State, PlayerName], float]:
    module = policy_module(game)
    found = getattr(module, "evaluate", None) if module is not None else None  # a module attribute
    return found if found is not None else own(game)


def decide(options: Options, quick: bool = False) -> Candidate | None:
    """The game's policy's choice, else the one-move lookahead's (`quick`:
    over a few of the moves, one sample each: a search's playouts)."""
    module = policy_module(options.view.game)
    choose = getattr(module, "choose", None) if module is not None else None  # a module attribute
    if choose is not None:
        chosen = choose(options)
        if chosen is not None:
            return chosen
    return lookahead(options, 1, 6) if quick else lookahead(options)


def lookahead(options: Options, samples: int = 2, most: int | None = None) -> Candidate | None:
    """The legal move whose outcome scores best on the view, a pass only
    when nothing beats standing still (`most`: only that many moves, drawn at random)."""
    score = evaluation(options.view.game)
    me = options.player
    now = score(options.view, me)
    scored: list[tuple[float, Candidate]] = []
    passes: list[Candidate] = []
    pool = list(options.each())
    if most is not None and len(pool) > most:
        pool = [c for c in pool if c.action.name in PASSES] + options.rng.sample(pool, most)
    for c in pool:
        if not options.legal(c):
            continue
        if c.action.name in PASSES:
            passes.append(c)
            continue
        total, n = 0.0, 0
        for _ in range(samples):
            after = options.after(c.action)
            if after is None:
                break
            total += score(after, me)
            n += 1
        if n:
            scored.append((total / n, c))
    best = options.best(scored, floor=now if passes else float("-inf"))
    if best is not None:
        return best
    if passes:
        return passes[0]
    return options.best((0.0, c) for c in options.each())


@dataclass
class HeuristicAgent:
    quick: bool = False  # a search's rollout policy: the lookahead over a few moves only
    _turn: Any = None
    _memo: dict = field(default_factory=dict)

    def memo(self, state: State) -> dict:
        """What the policy noted this turn (the moves `check` refused), fresh each turn."""
        key = (state.round, state.turn, state.active)
        if key != self._turn:
            self._turn, self._memo = key, {}
        return self._memo

    def pick(self, rules: Any, state: State, view: Callable[[], State], player: PlayerName, hands: Hands | None,
             rng: random.Random, allow: Callable[[Action], bool]) -> Move | None:
        found = candidates(rules, state, player, hands)
        seen = view()
        memo = self.memo(state)
        world = _world(rules, seen, player, hands, rng)
        hand = tuple((hands or {}).get(player, ()))
        chosen = decide(Options(rules, state, seen, player, found, rng, allow, memo, world, hand), self.quick)
        if chosen is None:  # the guard left nothing: every move is offered again
            chosen = decide(Options(rules, state, seen, player, found, rng, memo=memo, world=world, hand=hand),
                            self.quick)
        return chosen.make() if chosen is not None else None

    def choose(self, rules: Any, view: State, player: PlayerName, moves: Sequence[Move], hands: Hands | None,
               rng: random.Random) -> Move:
        """One of `moves`, all legal already (a defender's answers)."""
        module = policy_module(view.game)
        answer = getattr(module, "answer", None) if module is not None else None  # a module attribute
        options = Options(rules, view, view, player, as_candidates(moves), rng,
                          world=_world(rules, view, player, hands, rng), hand=tuple((hands or {}).get(player, ())))
        chosen = answer(options) if answer is not None else None
        if chosen is None:
            chosen = lookahead(options)
        return chosen.make() if chosen is not None else moves[0]


def _world(rules: Any, view: State, player: PlayerName, hands: Hands | None,
           rng: random.Random) -> Callable[[], State] | None:
    """How to sample a whole table from the view (the game's `determinise`), or None (nothing hidden)."""
    sample = determiniser(view.game)
    if sample is None or not rules.has_hidden_cards:
        return None
    hand = tuple((hands or {}).get(player, ()))
    return lambda: sample(rules, view, player, hand, rng)[0]
