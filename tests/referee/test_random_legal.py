"""`referee.rules.legal.draw`: self-play's random agent draws candidates and
judges only what it draws; every legal move must be equally likely, and a
refused candidate never comes out."""
from __future__ import annotations

import random
from collections import Counter

from referee.errors import RuleViolation
from referee.rules.legal import Candidate, CandidateRun, Move, draw
from referee.model import Action


class _Judge:
    """Rules whose `check` refuses the actions named in `refused` (what a game's check would do)."""

    def __init__(self, refused: set[str]):
        self.refused = refused
        self.checked: list[str] = []

    def check(self, state, action: Action) -> None:
        self.checked.append(action.name)
        if action.name in self.refused:
            raise RuleViolation("test", f"{action.name} is refused")


def _candidate(name: str, checked: bool = True) -> Candidate:
    action = Action(name, {})
    move = Move(action, name, name, name)
    return Candidate(action, action if checked else None, lambda: move)


def _run(prefix: str, size: int) -> CandidateRun:
    return CandidateRun(size, lambda i: _candidate(f"{prefix}{i}", checked=False))


STATE = None  # the judge above reads no state


def test_every_legal_move_is_equally_likely_and_refused_ones_never_come_out():
    judge = _Judge({"bad1", "bad2"})
    found = [_candidate("a"), _candidate("bad1"), _run("donate", 6), _candidate("bad2"), _candidate("b", checked=False)]
    rng = random.Random(3)
    n = 16000
    counts = Counter(draw(judge, STATE, found, rng).action.name for _ in range(n))
    legal = {"a", "b", *(f"donate{i}" for i in range(6))}
    assert set(counts) == legal
    expected = n / len(legal)
    chi2 = sum((counts[k] - expected) ** 2 / expected for k in legal)
    assert chi2 < 24.3, (chi2, counts)  # 7 degrees of freedom: p = 0.001


def test_only_drawn_candidates_are_judged_and_none_when_all_are_refused():
    judge = _Judge(set())
    found = [_candidate(f"m{i}") for i in range(50)]
    assert draw(judge, STATE, found, random.Random(1)) is not None
    assert len(judge.checked) == 1  # one drawn, one judged: the other 49 never checked
    refusing = _Judge({f"m{i}" for i in range(50)})
    assert draw(refusing, STATE, found, random.Random(1)) is None
    assert sorted(refusing.checked) == sorted(f"m{i}" for i in range(50))  # each judged once, then put aside
    assert draw(judge, STATE, [], random.Random(1)) is None


def test_a_placeholder_move_is_never_drawn():
    placeholder = Move(None, "play <CARD>", "play", "a card from the hand")
    found = [Candidate.known(placeholder), _candidate("end-turn")]
    judge = _Judge(set())
    assert {draw(judge, STATE, found, random.Random(s)).action.name for s in range(30)} == {"end-turn"}


