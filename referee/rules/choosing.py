"""What a game's policy (referee/games/<game>/policy.py) chooses from: the
player's moves as candidates, judged only when the policy asks.

A policy is a player who has read the rulebook: it reads its own view of
the table (`view`, the others' hidden cards masked) and the actions on
offer, and picks one. It never reads the true table: `state` is here only
for the rules' one judge, `check`, which tells whether a candidate is legal
(the random agent's draws are judged the same way). Candidates come from
the game's generator (`legal.candidates`), so a policy can look at a
Culture War turn's hundred candidates by name and ask `check` about the two
it wants, instead of judging all of them.

`allow` is the self-play loop's guard (no move that undoes one made
earlier in the same turn, a bounded number of moves that change nothing):
a candidate it refuses is never offered.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Sequence

from referee.errors import RefereeError
from referee.model import Action, PlayerName, State
from referee.rules.legal import Candidate, CandidateRun, Move


@dataclass
class Options:
    rules: Any
    state: State  # the true table: read by `check` alone
    view: State  # what the player sees: everything a policy reads
    player: PlayerName
    found: Sequence[Candidate | CandidateRun]
    rng: random.Random
    allow: Callable[[Action], bool] = lambda action: True
    memo: dict[str, Any] = field(default_factory=dict)  # kept by the agent for the turn under way
    world: Callable[[], State] | None = None
    hand: tuple[str, ...] = ()  # the player's own cards  # the view made whole (hidden cards sampled), for lookahead
    sticky: frozenset[str] = frozenset({"play", "battle", "window"})  # a refusal that lasts the turn
    _verdicts: dict[int, tuple[Candidate, bool]] = field(default_factory=dict)

    def each(self, *names: str) -> Iterator[Candidate]:
        """The candidates whose action is one of `names` (every one when none
        is named), not yet judged. A run is looked into only when its first
        move has one of the names (a run's moves share their action's name,
        bar a battle's `--window` variants, which follow its plain ones)."""
        for group in self.found:
            if isinstance(group, CandidateRun):
                if not group.size:
                    continue
                head = group.at(0)
                if names and (head.action is None or head.action.name not in names):
                    continue
                items: Iterable[Candidate] = group.each()
            else:
                items = (group,)
            for c in items:
                if c.action is None or (names and c.action.name not in names):
                    continue
                if self.allow(c.action):
                    yield c

    def legal(self, c: Candidate) -> bool:
        """`check`'s verdict. A move refused once this turn is not asked about
        again in the same turn (`memo`): a Flash that waits for a battle, a
        unit that may not attack that target."""
        entry = self._verdicts.get(id(c))
        if entry is not None and entry[0] is c:  # the candidate is kept with its verdict: its id is not reused
            return entry[1]
        refused = self.memo.setdefault("refused", set())
        named = _key(c.action) if c.check is not None and c.action.name in self.sticky else None
        if named is not None and named in refused:
            verdict = False
        else:
            verdict = c.legal(self.rules, self.state)
            if not verdict and named is not None:
                refused.add(named)
        self._verdicts[id(c)] = (c, verdict)
        return verdict

    def legal_ones(self, *names: str) -> list[Candidate]:
        return [c for c in self.each(*names) if self.legal(c)]

    def best(self, scored: Iterable[tuple[float, Candidate]], floor: float = float("-inf")) -> Candidate | None:
        """The legal candidate of highest score above `floor` (ties broken at random)."""
        ranked = sorted(((s, self.rng.random(), c) for s, c in scored if s > floor), key=lambda t: (-t[0], t[1]))
        for _, _, c in ranked:
            if self.legal(c):
                return c
        return None

    def after(self, action: Action) -> State | None:
        """The view after `action`, its dice drawn from the policy's own
        generator; None when the view cannot carry it out (a hidden card).
        A game with hidden cards plays it on `world`: one table the player
        could be sitting at, the cards they cannot see sampled."""
        if self.world is not None:
            if "world" not in self.memo or self.memo["world"][0] is not self.view:
                self.memo["world"] = (self.view, self.world())
            return outcome(self.rules, self.memo["world"][1], action, self.rng)
        return outcome(self.rules, self.view, action, self.rng)


def _key(action: Action) -> str:
    return action.name + repr(sorted((k, repr(v)) for k, v in action.args.items() if not k.startswith("_")))


def outcome(rules: Any, state: State, action: Action, rng: random.Random) -> State | None:
    """`state` after `action` with dice from `rng` (a battle rolled until
    decided, through the game's `dice_for`); None when the rules refuse it."""
    try:
        roll = _roller(state)
        if roll is not None:
            action, dice = roll(rules, state, action, lambda: rng.randint(1, 6))
        else:
            dice = tuple(rng.randint(1, f) for f in rules.dice_needed(state, action))
        return rules.apply(state, action, dice)
    except RefereeError:
        return None


_ROLLERS: dict[Any, Any] = {}


def _roller(state: State):
    if state.game not in _ROLLERS:
        from referee.rules.game import game_of  # lazy: the game's generator, when a policy looks ahead

        _ROLLERS[state.game] = getattr(game_of(state.game).legal, "dice_for", None)  # a module attribute
    return _ROLLERS[state.game]


def as_candidates(moves: Sequence[Move]) -> list[Candidate]:
    """Moves already judged, as candidates (an answer's variants, a game without a generator of candidates)."""
    return [Candidate.known(m) for m in moves]
