"""Culture War's seizes and battles, for the move generator (legal.py):
every attacker and target `check_battle` accepts, each with its variants
(with and without the counter-attack, and for a unit, `--window`), judged
by the same `target_of` and `taxes` on one shared board. Mixed into
`legal._Gen`, whose `ok`, `add`, `out` and `words` these methods use.
"""
from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate
from typing import Sequence

from referee.errors import RefereeError
from referee.games.culture_war.battle.attacks import names_a_unit, target_of, taxes
from referee.games.culture_war.effects import static as effects
from referee.games.culture_war.table import phases
from referee.model import Action, PlayerName
from referee.rules import prompts
from referee.rules.legal import Candidate, CandidateRun, Move


class FightMoves:
    """The seizes and battles of `legal._Gen` (see the module docstring)."""

    def seizes(self) -> None:
        for handle, piece in effects.pieces(self.board):
            if piece["kind"] != "unit" or piece["owner"] == self.name:
                continue
            if not any(e["kind"] == "for-sale" for e in effects.live_effects(piece)):
                continue
            action = Action("seize", {"player": self.name, "piece": handle}, PlayerName(self.name))
            if self.ok(action):
                self.add(action, f"seize {handle}")

    def battles(self) -> None:
        """Every attacker and target `check_battle` accepts: the checks `rules.check`
        makes before it are made once, then its body (`target_of`, `taxes`) for each pair."""
        board, name = self.board, self.name
        mine = [h for h, p in board.owned(name, "unit") if p.get("attacked") != board.turn]
        if not mine:
            return
        probe = Action("battle", {"attacker": mine[0], "defender": name, "rolls": 1}, PlayerName(name))
        if not self._battle_allowed(probe):
            return
        targets = [h for h, p in effects.pieces(board) if p["kind"] == "unit" and p["owner"] != name]
        targets += [n for n in board.live() if n != name]
        if self.lazy:  # each variant judged only if drawn, by `check` (which runs the same two)
            self.battle_run([(a, d, not names_a_unit(d)) for a in mine for d in targets])
            return
        for attacker in mine:
            for defender in targets:
                try:
                    _, _, direct = target_of(board, {"attacker": attacker, "defender": defender})
                    taxes(board, attacker, defender, direct)
                except RefereeError:
                    continue
                self.battle(attacker, defender, direct)

    def _battle_allowed(self, probe: Action) -> bool:
        """The checks `rules.check` makes before `check_battle` (game over, the
        window, phase, prompts), which no attacker or target changes."""
        state = self.state
        if state.winner is not None or state.fields.get("window") or prompts.pending(state):
            return False
        try:
            phases.check_phase(state, probe)
        except RefereeError:
            return False
        return True

    def battle(self, attacker: str, defender: str, direct: bool) -> None:
        """The variants of one attack, the pair known to pass `check_battle`."""
        for action, command, direct, window in _variants(attacker, defender, direct, PlayerName(self.name)):
            self.add(action, command, kind="battle", direct=direct, window=window)

    def battle_run(self, pairs: Sequence[tuple[str, str, bool]]) -> None:
        """Lazy: every variant of every (attacker, defender, direct) pair, in
        the order `battle` lists them, as one run: a variant is made only
        when drawn, with the one-die action `check` must accept."""
        if not pairs:
            return
        name = PlayerName(self.name)
        ends = list(accumulate(_VARIANTS[direct] for _, _, direct in pairs))

        def at(i: int) -> Candidate:
            k = bisect_right(ends, i)
            attacker, defender, direct = pairs[k]
            action, command, direct, window = _variants(attacker, defender, direct, name)[i - (ends[k - 1] if k else 0)]
            return Candidate(action, one_die(action),
                             lambda: Move(action, command, "battle", self.words(action), {"direct": direct, "window": window}))

        self.out.append(CandidateRun(ends[-1], at))


_VARIANTS = {True: 2, False: 4}  # a direct attack has no --window variants


def _variants(attacker: str, defender: str, direct: bool,
              name: PlayerName) -> list[tuple[Action, str, bool, bool]]:
    """(action, command, direct, window) for each way to make one attack:
    with and without the counter-attack, and for a unit, with `--window`."""
    flagged = [("battle", {}, ""), ("battle", {"counter": False}, " --no-counter")]
    if not direct:
        flagged += [("window", {}, " --window"), ("window", {"counter": False}, " --window --no-counter")]
    return [(Action(action_name, {"attacker": attacker, "defender": defender, **extra}, name),
             f"battle {attacker} {defender}{flags}", direct, action_name == "window")
            for action_name, extra, flags in flagged]


def one_die(action: Action) -> Action:
    """A rolling action as the CLI checks it before rolling (one die)."""
    return Action(action.name, {**action.args, "rolls": 1}, action.actor, action.cards)
