"""B against A: what an edit did, measured within pairs (paired.py), said
from B (before) to A (the edit), with the cards that changed first.

Every test of the run (each paired measure, and each card's win rate when
played on B against on A) is one family: Benjamini-Hochberg's adjusted
p-values (q) over all of them decide what reaches the verdict, so a run
that makes 200 tests does not report the ten that are small by chance.
A card's "wins when played" is a correlation (a strong player plays more
cards; a card drawn in a winning position is played more), and is labelled
one; what a card is worth is measured by intervention: its edit, as the
paired change of its faction's win rate.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.simulate.changes import CardEdit
from referee.simulate.paired import Paired, Pairs, label
from referee.simulate.sequential import Decision
from referee.simulate.stats import Difference, difference, fdr
from referee.simulate.summary import Tally

Q = 0.05  # the false discovery rate of a run's findings
CARD_FLOOR = 30  # a card's correlation is shown once played in this many seat-games on each side


@dataclass(frozen=True)
class Comparison:
    paired: dict[str, Paired]  # measure -> its pairs
    pairs: int
    differ: int  # pairs whose two games played out differently
    turns: tuple[float, float]  # mean turns on B, on A
    actions: tuple[float, float]
    cards: dict[str, dict[str, Any]]  # card -> plays a game (B, A), win when played (B -> A), its faction
    edits: tuple[CardEdit, ...] = ()
    decision: Decision | None = None

    @property
    def q_values(self) -> dict[str, float]:
        tests = {k: m.p_value for k, m in self.paired.items()}
        tests.update({f"card:{c}": v["win"].p_value for c, v in self.cards.items() if v["win"].a.n and v["win"].b.n})
        return fdr(tests)

    def found(self, key: str) -> bool:
        return self.q_values.get(key, 1.0) < Q

    def to_json(self) -> dict[str, Any]:
        q = self.q_values
        return {
            "direction": "from B (--against) to A (this project): every delta is A minus B",
            "pairs": self.pairs, "pairs_played_differently": self.differ,
            "changed_cards": [e.to_json() for e in self.edits],
            "paired": {k: {**m.to_json(), "q_value": round(q[k], 6), "found": q[k] < Q}
                       for k, m in self.paired.items()},
            "mean_turns": {"b": self.turns[0], "a": self.turns[1]},
            "mean_actions": {"b": self.actions[0], "a": self.actions[1]},
            "cards": {c: {"plays_per_game": {"b": v["plays_per_game"][0], "a": v["plays_per_game"][1]},
                          "win_when_played_correlation": v["win"].to_json(),
                          "q_value": round(q.get(f"card:{c}", 1.0), 6), "faction": v["faction"]}
                      for c, v in self.cards.items()},
            "smallest_effect": round(self.smallest_effect(), 4),
            "sequential": self.decision.to_json() if self.decision else None,
            "verdict": self.verdict(),
        }

    def smallest_effect(self) -> float:
        """The smallest change of a faction's (else a seat's) win rate these pairs could have found."""
        keys = [k for k in self.paired if k.startswith("faction:")] or [k for k in self.paired if k.startswith("seat:")]
        return max((self.paired[k].smallest_effect() for k in keys), default=1.0)

    def changed_first(self) -> list[tuple[str, dict[str, Any]]]:
        """Every card with a figure, the changed ones first (in the diff's order), then by how much moved."""
        edited = [e.card for e in self.edits if e.card in self.cards]
        rest = sorted((c for c in self.cards if c not in edited), key=lambda c: _moved(self.cards[c]), reverse=True)
        return [(c, self.cards[c]) for c in [*edited, *rest]]

    def verdict(self) -> list[str]:
        """What changed, then what it did: the findings at a 5% false discovery rate."""
        q = self.q_values
        lines = [f"changed: {e.line()}" for e in self.edits] or ["no card differs between B and A"]
        if self.decision is not None:
            lines.append(self.decision.line())
        lines.append(f"{self.differ} of {self.pairs} paired games played out differently")
        findings = []
        for key, m in self.paired.items():
            if q[key] < Q:
                findings.append(f"{label(key)}: {_paired(m)}; q={q[key]:.3g}")
        edited = {e.card for e in self.edits}
        for card, v in self.changed_first():
            d, faction = v["win"], v["faction"]
            if card in edited:
                b, a = v["plays_per_game"]
                text = f"{card} (changed): played {b:.2f} a game on B -> {a:.2f} on A"
                if d.a.n or d.b.n:
                    text += f"; its player wins {_pct(d.a.value)} -> {_pct(d.b.value)} when it is played (a correlation)"
                m = self.paired.get(f"faction:{faction}") if faction else None
                if m is not None:
                    text += f"; {faction} by the edit: {_paired(m)}"
                lines.append(text)
            elif q.get(f"card:{card}", 1.0) < Q and min(d.a.n, d.b.n) >= CARD_FLOOR:
                findings.append(f"{card}: its player wins {_pct(d.a.value)} on B -> {_pct(d.b.value)} on A when "
                                f"it is played (a correlation, not the card's effect; q={q[f'card:{card}']:.3g})")
        lines += [f"{card} (changed): not played on either side" for card in edited if card not in self.cards]
        lines += findings or [f"no clear difference between B and A at {self.pairs} pairs"]
        lines.append(f"the smallest change of a win rate these games could find: {self.smallest_effect():.1%} "
                     "(80% power, 5% two-sided)")
        return lines


def compare(a: Tally, b: Tally, pairs: Pairs, edits: tuple[CardEdit, ...] = (),
            decision: Decision | None = None) -> Comparison:
    fa, fb = a.figures(), b.figures()
    cards: dict[str, dict[str, Any]] = {}
    for card in sorted(set(fa["cards"]) | set(fb["cards"])):
        ca, cb = fa["cards"].get(card), fb["cards"].get(card)
        cards[card] = {
            "plays_per_game": (_per_game(cb, b), _per_game(ca, a)),
            "win": _diff(cb["played"] if cb else None, ca["played"] if ca else None),
            "faction": a.faction_of(card) or b.faction_of(card),
        }
    return Comparison(pairs.measures(), pairs.pairs, pairs.differ, (_mean(b.turns), _mean(a.turns)),
                      (_mean(b.actions), _mean(a.actions)), cards, edits, decision)


def _paired(m: Paired) -> str:
    low, high = m.interval()
    return (f"{_pct(m.b.value)} on B -> {_pct(m.a.value)} on A ({_points(m.delta)}, 95% {_points(low)} to "
            f"{_points(high)}; {m.b_only} pairs won on B only, {m.a_only} on A only, p={m.p_value:.3g})")


def _points(x: float) -> str:
    return f"{x * 100:+.1f} points"


def _moved(v: dict[str, Any]) -> float:
    b, a = v["plays_per_game"]
    return abs(v["win"].delta) + abs(a - b) / max(a, b, 1e-9)


def _diff(before, after) -> Difference:
    """after (A) against before (B): the Difference's `a` is B, its `b` is A, delta A minus B."""
    return difference(before.hits if before else 0, before.n if before else 0,
                      after.hits if after else 0, after.n if after else 0)


def _per_game(card: dict[str, Any] | None, tally: Tally) -> float:
    return round(card["plays"] / tally.games, 3) if card and tally.games else 0.0


def _mean(counter) -> float:
    n = sum(counter.values())
    return round(sum(k * v for k, v in counter.items()) / n, 2) if n else 0.0


def _pct(value: float) -> str:
    return f"{value:.0%}"
