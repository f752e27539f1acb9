"""`--check`: the table's invariants after every action of a simulated game.

Self-play runs in memory; the audit plays the same game again, action by
action, through a real table (the SQLite ledger the CLI writes), and checks
what a table must always be:
- the ledger's table equals self-play's after every action (one engine);
- undo gives back the table before the action, and redo the one after;
- a refused action changes nothing (its log and its table stay as they were);
- where hands are not in play, an action `check` accepts is one the
  generator lists (a mutated legal move, accepted, must be generated);
- the game exported and replayed gives the same final `status --json`.
Each problem is a sentence; the caller stops the game at the first.
"""
from __future__ import annotations

import random
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any, Sequence

from referee.errors import RefereeError
from referee.rules.legal import Move
from referee.model import Action, Setup, State

NOT_MOVES = frozenset({"life", "capital", "crowd", "win", "resolve"})  # the scorekeeper's corrections, answers
UNDO_SHARE = 0.15  # the share of actions undone and redone
MUTATIONS = 2  # mutated candidates tried after each action


class Audit:
    def __init__(self, rules: Any, setup: Setup, setup_dice: Sequence[int]):
        from referee.table import ledger  # lazy: the ledger and its store only for --check
        from referee.table.store import db  # lazy: as above

        self.rules, self.ledger = rules, ledger
        self.folder = tempfile.TemporaryDirectory(prefix="referee-check-")
        self.path = Path(self.folder.name) / "table.db"
        self.conn = db.create_table(self.path)
        self.conn.execute("PRAGMA synchronous = OFF")  # a throwaway table: no fsync per action
        ledger.start(self.conn, rules, setup, entered=tuple(setup_dice))

    def close(self) -> None:
        self.conn.close()
        self.folder.cleanup()

    def step(self, before: State, action: Action, dice: Sequence[int], after: State,
             moves: Sequence[Move], hands_known: bool, rng: random.Random) -> list[str]:
        """Play `action` on the real table and check it against self-play."""
        ledger = self.ledger
        problems = []
        if not hands_known:
            problems += self._agreement(before, action, moves, rng)
        problems += self._refusal_changes_nothing(before, action, moves, rng)
        outcome = ledger.perform(self.conn, self.rules, action, entered=tuple(dice))
        if outcome.after.to_dict() != after.to_dict():
            problems.append(f"the table and self-play disagree after {_words(action)}")
        if rng.random() < UNDO_SHARE:
            undone = ledger.undo(self.conn, self.rules)
            if undone.after.to_dict() != before.to_dict():
                problems.append(f"undo of {_words(action)} did not give back the table before it")
            redone = ledger.redo(self.conn, self.rules)
            if redone.after.to_dict() != after.to_dict():
                problems.append(f"redo of {_words(action)} did not give back the table after it")
        return problems

    def finish(self) -> list[str]:
        """Export the whole game and replay it into a new table: the same status."""
        from referee.table import transfer  # lazy: exports only for --check
        from referee.table.operations import status as status_of  # lazy: as above

        self.conn.close()
        export = Path(self.folder.name) / "game.json"
        transfer.export(self.path, export, force=True, full=True)
        again = Path(self.folder.name) / "again.db"
        transfer.replay(export, again)
        first, second = status_of(self.path).to_json(), status_of(again).to_json()
        return [] if first == second else ["the exported game replayed to a different status"]

    # ---- candidates -------------------------------------------------------------------

    def _mutants(self, before: State, action: Action, moves: Sequence[Move], rng: random.Random) -> list[Action]:
        """Legal moves with one argument swapped for another move's value (or a player's name)."""
        pool: dict[str, list] = {}
        for m in moves:
            if m.action is not None:
                for key, value in m.action.args.items():
                    pool.setdefault(key, []).append(value)
        names = [p.name for p in before.players]
        verbs = sorted(n for n in self.rules.actions if n not in NOT_MOVES)
        out = []
        for _ in range(MUTATIONS):
            base = moves[rng.randrange(len(moves))].action if moves else action
            base = base if base is not None else action
            kind = rng.randrange(3)
            if kind == 0:  # another action with the same arguments
                out.append(replace(base, name=rng.choice(verbs)))
            elif kind == 1 or not base.args:  # by another player
                out.append(replace(base, actor=names[rng.randrange(len(names))]))
            else:  # one argument taken from another move
                key = rng.choice(sorted(base.args))
                out.append(replace(base, args={**base.args, key: rng.choice(pool.get(key, []) + names)}))
        return out

    def _agreement(self, before: State, action: Action, moves: Sequence[Move], rng: random.Random) -> list[str]:
        generated = {action_key(m.action) for m in moves if m.action is not None}
        problems = []
        for candidate in self._mutants(before, action, moves, rng):
            if action_key(candidate) in generated:
                continue
            try:
                self.rules.check(before, candidate)
            except RefereeError:
                continue
            if not self._same_as_generated(before, candidate, moves):
                problems.append(f"check accepts {_words(candidate)}, which the legal moves do not list")
        return problems

    def _same_as_generated(self, before: State, candidate: Action, moves: Sequence[Move]) -> bool:
        """Whether a generated move of the same name and player leaves the same
        table (an argument the action ignores, spelt another way)."""
        def result(action: Action):
            faces = self.rules.dice_needed(before, action)
            return self.rules.apply(before, action, tuple(1 for _ in faces)).to_dict()

        target = result(candidate)
        return any(m.action is not None and m.action.name == candidate.name and m.action.actor == candidate.actor
                   and result(m.action) == target for m in moves)

    def _refusal_changes_nothing(self, before: State, action: Action, moves: Sequence[Move],
                                 rng: random.Random) -> list[str]:
        from referee.table.store import events as log  # lazy: as above

        for candidate in self._mutants(before, action, moves, rng)[:1]:
            try:
                self.rules.check(before, candidate)
                continue  # accepted: not a refusal
            except RefereeError:
                pass
            last = log.last_event(self.conn)
            try:
                self.ledger.perform(self.conn, self.rules, candidate)
            except RefereeError:
                pass
            else:
                return [f"the ledger accepted {_words(candidate)}, which check refuses"]
            if log.last_event(self.conn) != last:
                return [f"refusing {_words(candidate)} changed the log"]
        return []


def action_key(action: Action | None):
    """An action as a hashable value: two actions with the same key are the same move."""
    if action is None:
        return None
    return action.name, tuple(sorted((k, repr(v)) for k, v in action.args.items())), action.actor


def _words(action: Action) -> str:
    args = " ".join(f"{k}={v}" for k, v in action.args.items())
    return f"{action.name} {args}".strip() + (f" by {action.actor}" if action.actor else "")
