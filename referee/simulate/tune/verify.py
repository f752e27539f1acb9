"""The verification of a proposal: a fresh paired A/B on seeds the search
never used, with the statistics `referee simulate --against` uses.

Game i is played once on the unchanged cards (B, before) and once with the
proposal (A, after), on the same seed, seats, agents and factions: the two
plays are a pair (paired.Pairs), and each faction's (or seat's) change is
measured within pairs by McNemar's exact test, with its 95% interval
(paired.Paired). With `until_decided` (the smallest effect worth finding)
the games come in the sequential test's batches (sequential.batches) and
stop once it decides (sequential.decide), as `simulate --until-decided`.

A seat here is a place in the turn order (seat 1 moves first): each record
is turned so that its first player is seat 1 before it is paired or
counted, so a seat's figure is what a per-seat house rule acts on.

It passes when the proposal is within tolerance of the target on the fresh
games, and (when the unchanged cards were not) the pairs show the measure
furthest off before moved toward the target: McNemar p < 0.05.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.simulate.agents import AgentKind
from referee.simulate.paired import Pairs
from referee.simulate.play import GameRecord, Outcome, Seat
from referee.simulate.sequential import EFFECT, batches, decide
from referee.simulate.tune.fairness import Count

VERIFY_SEED = 1_000_000  # the verification's seeds start this far past the search's
SIGNIFICANT = 0.05


def by_place(record: GameRecord) -> GameRecord:
    """The record with its seats in turn order from the first player (who becomes seat 0)."""
    n = len(record.seats)
    if not n or record.first == 0:
        return record
    order = [(record.first + k) % n for k in range(n)]
    seats = tuple(record.seats[i] for i in order)
    played = tuple(record.cards_played[i] for i in order) if len(record.cards_played) == n else record.cards_played
    winner = None if record.winner is None else order.index(record.winner)
    return replace(record, seats=seats, first=0, winner=winner, cards_played=played)


def compact(record: GameRecord) -> list[Any]:
    """What a paired test reads of a game, kept in the tune file for --resume."""
    return [record.seed, [[s.name, s.faction, s.agent.value] for s in record.seats], record.first,
            record.outcome.value, record.winner, record.turns, record.actions, [list(c) for c in record.cards_played]]


def expand(data: list[Any]) -> GameRecord:
    seed, seats, first, outcome, winner, turns, actions, played = data
    return GameRecord(seed, tuple(Seat(n, f, AgentKind(a)) for n, f, a in seats), first, Outcome(outcome), winner,
                      turns, actions, tuple(tuple(c) for c in played))


def verify(search, spec, best: dict[str, Any]) -> dict[str, Any]:
    """Play the pairs (or take them from the state) and judge the proposal."""
    seed = spec.plan.seed + VERIFY_SEED
    change = best["change"]
    sequential = spec.until_decided is not None and bool(change)  # no change: nothing to decide, only to measure
    looks = batches(spec.verify_games) if sequential else [(0, spec.verify_games)]
    effect = spec.until_decided if spec.until_decided is not None else _effect(spec)
    prefix = f"{spec.target.by}:"
    decision = None
    for start, n in looks:
        before = search.evaluate({}, seed, start + n, keep=True)
        after = search.evaluate(change, seed, start + n, keep=True) if change else before
        pairs = _pairs(before, after)
        measures = {k: m for k, m in pairs.measures().items() if k.startswith(prefix)}
        if spec.target.name is not None:
            measures = {k: m for k, m in measures.items() if k == prefix + spec.target.name}
        decision = decide(measures, effect, final=start + n >= spec.verify_games) if change else None
        if sequential and decision is not None and decision.state.value != "undecided":
            break
    cb, ca = Count.from_json(before["count"]), Count.from_json(after["count"])
    gap_before, _, worst_before = cb.gap(spec.target)
    gap_after, se_after, worst = ca.gap(spec.target)
    paired = {k.split(":", 1)[1]: m.to_json() for k, m in measures.items()} if change else {}  # none: one side
    moved = _moved_toward(paired.get(worst_before or ""), cb, spec)
    fair_before = gap_before * 100 <= spec.tolerance
    passed = bool(change) and gap_after * 100 <= spec.tolerance and (fair_before or moved)
    rows = {}
    rb, ra = cb.rates(spec.target.by), ca.rates(spec.target.by)
    for name in sorted(set(rb) | set(ra)):
        b, a = rb.get(name), ra.get(name)
        rows[name] = {"before": b.to_json() if b else None, "after": a.to_json() if a else None,
                      "paired": paired.get(name)}
    return {"seed": seed, "games": cb.games, "games_asked": spec.verify_games, "pairs": pairs.pairs if change else 0,
            "pairs_played_differently": pairs.differ, "fair_share": round(ca.fair(), 4),
            "gap_points_before": round(gap_before * 100, 2), "gap_points_after": round(gap_after * 100, 2),
            "gap_interval_after": [round(max(0, gap_after - 1.96 * se_after) * 100, 2),
                                   round((gap_after + 1.96 * se_after) * 100, 2)],
            "furthest_before": worst_before, "furthest_after": worst, "rates": rows,
            "test": "McNemar's exact test within pairs (the unchanged cards against the proposal, same seeds)",
            "sequential": decision.to_json() if decision else None,
            "sequential_line": decision.line() if decision else "no change proposed: the unchanged cards measured alone",
            "moved_toward_target": moved, "passed": passed,
            "met": _met(spec, change, passed, fair_before, moved, gap_before, gap_after)}


def _pairs(before: dict[str, Any], after: dict[str, Any]) -> Pairs:
    pairs = Pairs()
    for i, data in enumerate(before.get("records", [])):
        pairs.add("B", i, by_place(expand(data)))
    for i, data in enumerate(after.get("records", [])):
        pairs.add("A", i, by_place(expand(data)))
    return pairs


def _effect(spec) -> float:
    return max(EFFECT, spec.tolerance / 100)


def _moved_toward(paired: dict[str, Any] | None, before: Count, spec) -> bool:
    """The measure furthest off before moved toward the target, within pairs, at p < 0.05."""
    if paired is None:
        return False
    wanted = spec.target.share if spec.target.name is not None else before.fair()
    was = paired["b"]["rate"]
    direction = 1 if was < wanted else -1
    return paired["p_value"] < SIGNIFICANT and paired["delta"] * direction > 0


def _met(spec, change, passed, fair_before, moved, gap_before, gap_after) -> str:
    if passed:
        return "target met within tolerance"
    if not change:
        return ("already within tolerance: nothing to change" if fair_before else
                "no change within the knobs brings it closer")
    if gap_after * 100 > spec.tolerance:
        return (f"target not met: {gap_after * 100:.1f} points from it after the change "
                f"(tolerance {spec.tolerance:g}), {gap_before * 100:.1f} before")
    return (f"not verified: {gap_after * 100:.1f} points from the target after the change, but the pairs do not "
            f"show the change moved it (McNemar p >= {SIGNIFICANT}); play more --verify-games")
