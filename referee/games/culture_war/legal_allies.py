"""Culture War's alliances, for the move generator (legal.py): `ally` with
every group it may join, `unally`, and between allies each `donate` of
life and `gift` of coins (as runs: made only when drawn). Mixed into
`legal._Gen`, whose `out`, `lazy` and `words` these methods use.
"""
from __future__ import annotations

from itertools import combinations
from typing import Callable

from referee.model import Action, PlayerName
from referee.rules.legal import Candidate, CandidateRun, Move


class AllianceMoves:
    """The alliance moves of `legal._Gen` (see the module docstring)."""

    def alliances(self) -> None:
        board, name = self.board, self.name
        allied = [pair for pair in board.f.get("alliances", []) if name in pair]
        # every group of allies the rules allow (two players or more), as long as it makes new pairs,
        # and once for each set of new pairs: a larger group that only makes the pairs a smaller one
        # makes (the others already allied) leaves the same table, so it is the same move
        made = board.f.get("alliances", [])
        others = [n for n in board.live() if n != name]
        groups, seen = [], set()
        for k in range(1, len(others) + 1):
            for g in combinations(others, k):
                new = frozenset(tuple(sorted([a, b])) for a, b in combinations([name, *g], 2)
                                if sorted([a, b]) not in made)
                if new and new not in seen:
                    seen.add(new)
                    groups.append([name, *g])
        self.run(len(groups), lambda i: self.worded(Action("ally", {"players": groups[i]}),
                                                    "ally " + " ".join(groups[i])))
        if allied:  # `unally NAME` (every alliance of theirs, when more than one), then each alliance alone
            ends = [[name]] if len(allied) > 1 else []
            ends += [[name, pair[0] if pair[1] == name else pair[1]] for pair in allied]
            self.run(len(ends), lambda i: self.worded(Action("unally", {"players": ends[i]}),
                                                      "unally " + " ".join(ends[i])))
        if any(board.people[p].eliminated for pair in allied for p in pair):
            return
        life, coins = board.life(name), self._coins()
        me = PlayerName(name)
        for pair in allied:  # many of these: worded here (as phrases.py words them), not through wording
            other = pair[0] if pair[1] == name else pair[1]
            self.run(life - 1, lambda i, other=other: (
                Action("donate", {"from": name, "to": other, "amount": i + 1}, me),
                f"donate {name} {other} {i + 1}", f"{name} gives {other} {i + 1} life"))
            self.run(sum(coins.values()), lambda i, other=other: (
                Action("gift", {"from": name, "to": other, "amount": i + 1}, me),
                f"gift {name} {other} {i + 1}", f"{name} gives {other} {i + 1} coin{'' if i == 0 else 's'}"))
            for faction, held in sorted(coins.items()) if len(coins) > 1 else ():  # one kind: the gift above
                self.run(held, lambda i, other=other, faction=faction: (
                    Action("gift", {"from": name, "to": other, "amount": i + 1, "faction": faction}, me),
                    f"gift {name} {other} {i + 1} --faction {faction}",
                    f"{name} gives {other} {i + 1} {faction} coin{'' if i == 0 else 's'}"))

    def worded(self, action: Action, command: str) -> tuple[Action, str, str]:
        """(action, command, words) for `run`, worded through the game's phrases."""
        return action, command, self.words(action)

    def run(self, count: int, nth: Callable[[int], tuple[Action, str, str]]) -> None:
        """`count` moves the generator knows are legal, differing in one
        argument (an amount, a player): `nth(i)` gives the i-th one's action, command and words. Made only
        when drawn (a CandidateRun); eager, all of them, in order."""
        if count <= 0:
            return

        def at(i: int) -> Candidate:
            action, command, text = nth(i)
            return Candidate(action, None, lambda: Move(action, command, action.name, text, {}))

        if self.lazy:
            self.out.append(CandidateRun(count, at))
        else:
            self.out += [at(i) for i in range(count)]

    def _coins(self) -> dict[str, int]:
        held: dict[str, int] = {}
        for _, coins in self.board.sources(self.name):
            for f, n in coins.items():
                if n > 0:
                    held[f] = held.get(f, 0) + n
        return held
