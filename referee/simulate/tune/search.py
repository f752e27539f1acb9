"""`referee tune`'s search: coordinate descent over the knobs, each candidate
played on the same seeds as the unchanged cards.

Score = gap (points from the target) + CARD_PENALTY per knob changed +
STEP_PENALTY per step away from the printed value: few and small changes
win ties. A round tries every neighbour of the current proposal (a knob given
by name: every other value of its range, a line search along it; with
`--vary auto`, one step, and only the steps that weaken a faction above its
share or strengthen one below; the cards played most first, then the
nearest values, at most `max_candidates`), and moves to the best if it beats the current one
by more than one standard error of its gap (so noise does not move it).

Pruning (the one sequential rule, here): a candidate is played in batches of
`batch` games; after each, it is dropped once its score less two standard
errors of its gap is still worse than the best score seen this round.
The seeds are common to all candidates, so the comparison is paired by
seed; the rule uses the candidate's own binomial error, which is
conservative for paired games.

Every evaluation is appended to the state (saved after each batch): Ctrl-C
keeps them, and `--resume` replays them from the file instead of playing.
"""
from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import replace, dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from referee.simulate.runner import Plan
from referee.simulate.tune.apply import Refused, Written, write
from referee.simulate.tune.engine import Engine
from referee.simulate.tune.fairness import Count, Target
from referee.simulate.tune.knobs import STRONGER, Knob
from referee.simulate.tune.verify import by_place, compact

CARD_PENALTY = 0.5  # points of gap a changed knob costs
STEP_PENALTY = 0.25  # ... and each step of it


@dataclass
class Spec:
    plan: Plan  # game, players, factions, agents, seed, games per evaluation
    target: Target
    tolerance: float  # points
    knobs: Mapping[str, Knob]
    auto: bool = False
    batch: int = 40
    max_candidates: int = 12
    max_rounds: int = 8
    verify_games: int = 400
    until_decided: float | None = None  # the verification stops once the sequential test decides (this effect)


@dataclass
class State:
    evaluations: list[dict[str, Any]] = field(default_factory=list)
    path: list[dict[str, Any]] = field(default_factory=list)
    games: int = 0
    seconds: float = 0.0

    def find(self, key: str, seed: int) -> dict[str, Any] | None:
        return next((e for e in self.evaluations if e["key"] == key and e["seed"] == seed), None)


def key_of(change: Mapping[str, Any]) -> str:
    return json.dumps(dict(sorted(change.items())))


def score(spec: Spec, gap: float, change: Mapping[str, Any]) -> float:
    steps = sum(abs(v - spec.knobs[k].now) if spec.knobs[k].kind == "card" else
                (abs(v) if spec.knobs[k].kind == "deck" else _rule_steps(spec.knobs[k], v)) for k, v in change.items())
    return gap * 100 + CARD_PENALTY * len(change) + STEP_PENALTY * steps


def _rule_steps(knob: Knob, value: Any) -> int:
    """A house rule's steps: places along its values from today's (1 when today's is not among them)."""
    if knob.now in knob.values and value in knob.values:
        return abs(knob.values.index(value) - knob.values.index(knob.now))
    return 1


class Search:
    def __init__(self, spec: Spec, base: Path, engine: Engine, state: State,
                 save: Callable[[State], None] = lambda s: None):
        self.spec, self.base, self.engine, self.state, self.save = spec, base, engine, state, save
        self.work = tempfile.TemporaryDirectory(prefix="referee-tune-")
        self.written: dict[str, Written] = {}

    def close(self) -> None:
        self.work.cleanup()

    def sources(self, change: Mapping[str, Any]) -> Written:
        key = key_of(change)
        if key not in self.written:
            self.written[key] = write(self.base, Path(self.work.name), self.spec.plan.game.value,
                                      self.spec.knobs, change)
        return self.written[key]

    def evaluate(self, change: Mapping[str, Any], seed: int, games: int, bar: float | None = None,
                 keep: bool = False) -> dict:
        """Play `change` on `games` seeds from `seed` in batches, or take it from the state
        (`keep`: each game's record too, for the verification's pairs)."""
        key = key_of(change)
        entry = self.state.find(key, seed)
        if entry is None:
            entry = {"key": key, "change": dict(change), "seed": seed, "count": Count().to_json(),
                     "pruned": False, "refused": None, **({"records": []} if keep else {})}
            self.state.evaluations.append(entry)
        if entry["refused"] or entry["pruned"]:
            return entry
        try:
            written = self.sources(change)
        except Refused as exc:
            entry["refused"] = str(exc)
            self.save(self.state)
            return entry
        count = Count.from_json(entry["count"])
        plan = self.spec.plan
        while count.games < games:
            started = time.perf_counter()
            n = min(self.spec.batch, games - count.games)
            rules = dict(plan.house_rules) | dict(written.house_rules)
            configs = [self._config(seed, i, rules) for i in range(count.games, count.games + n)]
            for record in self.engine.play(configs, written.packet):
                count.add(by_place(record))
                if keep:
                    entry["records"].append(compact(record))
            self.state.games += n
            self.state.seconds += time.perf_counter() - started
            entry["count"] = count.to_json()
            gap, se, _ = count.gap(self.spec.target)
            entry["gap"], entry["se"] = gap, se
            entry["score"] = score(self.spec, gap, change)
            if bar is not None and count.games < games and score(self.spec, max(0.0, gap - 2 * se), change) > bar:
                entry["pruned"] = True
            self.save(self.state)
            if entry["pruned"]:
                break
        return entry

    def _config(self, seed: int, i: int, rules: dict):
        config = self.spec.plan.config(i)
        return replace(config, seed=seed + i, house_rules=rules)

    def neighbours(self, current: Mapping[str, Any], base: Count) -> list[dict[str, Any]]:
        spec = self.spec
        fair = spec.target.share if spec.target.name is not None else base.fair()
        rates = base.rates("faction")
        tol = spec.tolerance / 100
        moves = []
        for name, knob in spec.knobs.items():
            value = current.get(name, knob.now)
            wanted = (-1, 1)
            if spec.auto and knob.kind != "house-rule":
                rate = rates.get(knob.faction or "")
                if rate is None or abs(rate.value - fair) <= tol:
                    continue  # a fair faction's cards are left alone
                weaker = -STRONGER.get(knob.field, 1)
                wanted = (weaker,) if rate.value > fair else (-weaker,)
            for new, distance in self._values(knob, value, wanted):
                change = {**current, name: new}
                if new == knob.now:
                    change.pop(name)
                moves.append((-base.plays[knob.target], distance, len(moves), change))
        moves.sort(key=lambda m: m[:3])  # the cards played most first, the nearest values first
        return [m[3] for m in moves[:spec.max_candidates]]

    @staticmethod
    def _values(knob: Knob, value: Any, wanted: tuple[int, ...]) -> list[tuple[Any, int]]:
        """The values a round tries for a knob now at `value`, with their distance from it: a knob
        given by name, every other value of its range (a line search: a fix several steps away is
        found in one round, its steps paid in the score); an auto knob, one step the wanted way."""
        options = list(knob.values)
        at = options.index(value) if value in options else None
        if knob.named and knob.kind == "house-rule":
            return [(v, abs(i - at) if at is not None else 1) for i, v in enumerate(options) if v != value]
        if knob.named:
            return [(v, abs(v - value)) for v in options if v != value]
        out = []
        for step in wanted:
            new = value + step
            if new in options:
                out.append((new, 1))
        return out

    def run(self) -> dict[str, Any]:
        spec = self.spec
        games = spec.plan.games
        base = self.evaluate({}, spec.plan.seed, games)
        current, current_entry = {}, base
        self._step("unchanged cards", current_entry)
        for _ in range(spec.max_rounds):
            if current_entry["gap"] * 100 <= spec.tolerance:
                break
            best = None
            bar = current_entry["score"]
            for change in self.neighbours(current, Count.from_json(base["count"])):
                entry = self.evaluate(change, spec.plan.seed, games, bar=bar)
                if entry["refused"] or entry["pruned"]:
                    continue
                # a move must beat the current proposal by one standard error of its gap: not by noise
                if entry["score"] + entry["se"] * 100 < bar:
                    bar, best = entry["score"] + entry["se"] * 100, entry
            if best is None:
                break
            current, current_entry = best["change"], best
            self._step("moved", best)
        return current_entry

    def _step(self, what: str, entry: dict[str, Any]) -> None:
        item = {"what": what, "change": entry["change"], "gap_points": round(entry["gap"] * 100, 2),
                "score": round(entry["score"], 2)}
        if not self.state.path or self.state.path[-1] != item:
            self.state.path.append(item)
            self.save(self.state)


def save_to(path: Path, header: Callable[[State], dict[str, Any]]) -> Callable[[State], None]:
    """Write the state whole or not at all, beside its target."""
    def save(state: State) -> None:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(header(state), out, indent=1)
        os.replace(name, path)
    return save
