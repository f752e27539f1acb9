"""The search and cheat agents: the heuristic improved by rollouts.

Perfect-information Monte Carlo over determinisations (PIMC; Long et al.
2010, and the flat form of Cowling et al.'s ISMCTS): at each decision with
a real choice, a few moves are weighed (the heuristic's own choice and up to
`width - 1` others, of other kinds first), `budget` playouts shared among
them in rounds: in each round every move is played out on the same sampled
table with the same dice (common random numbers), so what differs between
their scores is the move, not the luck of the sample. A playout samples a whole table the player could be sitting at (the
game's `determinise`: the cards they cannot see drawn from the copies not
in sight, with a dealer of its own), plays the move, lets the heuristic
play every seat for `depth` further decisions, and scores the table with
the game's evaluation. A rival replaces the heuristic's choice only when
its paired gain over it is more than `margin` and more than twice its
standard error, so search departs from the heuristic only on evidence.

`cheat` is the same search on the true table and hands (no sampling): an
upper bound, which tells what the hidden information is worth. Both read
the rules' `check` for legality as every agent does; only the cheat reads
the true table.
"""
from __future__ import annotations

import copy
import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable

from referee.model import Action, PlayerName, State
from referee.rules.legal import Hands, Move
from referee.simulate.agents import determiniser
from referee.simulate.guard import Guard
from referee.simulate.heuristic import PASSES, HeuristicAgent, evaluation
from referee.simulate.turns import concrete_moves, in_turn


@dataclass
class SearchAgent:
    budget: int = 24  # playouts per decision
    cheat: bool = False
    width: int = 4  # moves weighed at a decision
    depth: int = 6  # heuristic decisions a playout plays after the move
    margin: float = 0.03  # how much better (on the 0..1 score) another move must do to overrule the heuristic
    table: Any = None  # the cheat's eyes: the true dealer, set by the loop before each pick
    _heuristic: HeuristicAgent = field(default_factory=HeuristicAgent)

    def choose(self, rules, view, player, moves, hands, rng):
        return self._heuristic.choose(rules, view, player, moves, hands, rng)

    def pick(self, rules: Any, state: State, view: Callable[[], State], player: PlayerName, hands: Hands | None,
             rng: random.Random, allow: Callable[[Action], bool]) -> Move | None:
        base = self._heuristic.pick(rules, state, view, player, hands, rng, allow)
        if base is None:
            return None
        moves = [m for m in concrete_moves(rules, state, player, hands) if allow(m.action)]
        rivals = _others(moves, base, self.width - 1, rng)
        if not rivals:
            return base
        choices = [base, *rivals]
        seen = view()
        diffs: list[list[float]] = [[] for _ in choices]  # each rival's playout less the heuristic's, paired
        for _ in range(max(2, self.budget // len(choices))):
            seed = rng.random()  # common random numbers: every move on the same sampled table and dice
            values = [self._playout(rules, state, seen, player, hands, c.action, random.Random(seed))
                      for c in choices]
            if values[0] is None:
                continue
            for k in range(1, len(choices)):
                if values[k] is not None:
                    diffs[k].append(values[k] - values[0])
        best, gain = 0, 0.0
        for k in range(1, len(choices)):
            n = len(diffs[k])
            if n < 2:
                continue
            mean = sum(diffs[k]) / n
            spread = math.sqrt(sum((d - mean) ** 2 for d in diffs[k]) / (n - 1) / n)
            if mean > max(self.margin, 2 * spread) and mean > gain:  # clear evidence against the heuristic
                best, gain = k, mean
        if best == 0:
            return base
        return choices[best]

    def _world(self, rules, state, seen, player, hands, rng) -> tuple[State, Any]:
        if self.cheat:
            true = self.table
            if true is None:
                return state, None
            return state, true.clone() if hasattr(true, "clone") else copy.deepcopy(true)
        sample = determiniser(seen.game)
        if sample is None:  # nothing hidden (the Petri dish)
            return seen, None
        return sample(rules, seen, player, tuple((hands or {}).get(player, ())), rng)

    def _playout(self, rules, state, seen, player, hands, action: Action, rng: random.Random) -> float | None:
        from referee.rules.choosing import outcome  # lazy: the lookahead's own player of moves

        world, table = self._world(rules, state, seen, player, hands, rng)
        after = outcome(rules, world, action, rng)
        if after is None:
            return None
        if table is not None and hasattr(table, "after"):
            table.after(world, action, after)
        guard = Guard(world.game)
        agent = HeuristicAgent(quick=True)
        current = after
        for _ in range(self.depth):
            if current.finished:
                break
            known = table.hands() if table is not None else {player: tuple((hands or {}).get(player, ()))}
            moved = None
            for name in in_turn(current):
                own = {name: known[name]} if name in known else None
                snapshot = current
                move = agent.pick(rules, current, lambda s=snapshot: s, name, own, rng, guard.allow(current, name))
                if move is not None:
                    guard.record(current, name, move.action)
                    moved = move
                    break
            if moved is None:
                break
            nxt = outcome(rules, current, moved.action, rng)
            if nxt is None:
                break
            if table is not None and hasattr(table, "after"):
                table.after(current, moved.action, nxt)
            current = nxt
        return _squash(evaluation(current.game)(current, player))


def _others(moves: list[Move], base: Move, count: int, rng: random.Random) -> list[Move]:
    """Up to `count` moves other than `base`, one of each other kind first (a pass among them)."""
    if count <= 0:
        return []
    key = _key(base.action)
    pool = [m for m in moves if _key(m.action) != key]
    rng.shuffle(pool)
    chosen: list[Move] = []
    kinds = {base.action.name}
    for m in sorted(pool, key=lambda m: m.action.name not in PASSES):
        if m.action.name not in kinds:
            chosen.append(m)
            kinds.add(m.action.name)
        if len(chosen) == count:
            return chosen
    for m in pool:
        if m not in chosen:
            chosen.append(m)
        if len(chosen) == count:
            break
    return chosen


def _key(action: Action) -> str:
    return action.name + repr(sorted((k, repr(v)) for k, v in action.args.items() if not k.startswith("_")))


def _squash(value: float) -> float:
    """An evaluation as a score in 0..1, so a won game counts no more than a clear lead."""
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, value / 10.0))))
