"""Writing to a table's log: setup, actions, rolls, undo and redo.

Each public function is one write transaction: it reads the last row, works
out the state, asks the rules, and appends exactly one row. If the rules
refuse, nothing is written. Undo moves the state back to the node before the
current one; redo moves it forward again; both are rows of their own, so
the log keeps every undone action and the redo stack survives restarts.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Callable, Sequence

from referee.rules import copy_register
from referee.rules import dice as dicelib
from referee.errors import NothingToDo, RuleViolation
from referee.rules.facts import Fact
from referee.rules import GameRules
from referee.model import VIA, Action, Event, EventKind, Seq, Setup, State, rules_args
from referee.table.store import db
from referee.table.store import events as log


@dataclass(frozen=True)
class Stamp:
    """What a replay carries over from the original row instead of making anew."""

    time: str | None = None
    rng: int | None = None


@dataclass(frozen=True)
class Outcome:
    event: Event
    before: State
    after: State
    facts: tuple[Fact, ...] | None = None  # what a new action did (rules.play); None: not told


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _dice(seed: int, position: int, faces: Sequence[int], entered: Sequence[int] | None,
          what: str, stamp: Stamp) -> tuple[tuple[int, ...], int]:
    """The dice an event uses and the generator position after it."""
    if entered is not None:
        rolled, after = dicelib.check_entered(entered, faces, what), position
    else:
        rolled = dicelib.draw(seed, position, faces)
        after = position + len(rolled)
    return rolled, (stamp.rng if stamp.rng is not None else after)


def start(conn: sqlite3.Connection, rules: GameRules, setup: Setup,
          entered: Sequence[int] | None = None, stamp: Stamp = Stamp()) -> Outcome:
    """Fill a freshly created file with its schema and setup row."""
    faces = rules.setup_dice(setup)
    rolled, rng = _dice(setup.seed, 0, faces, entered, f"setting up {rules.slug.value}", stamp)
    state = rules.setup(setup, rolled)
    with db.write(conn):
        db.init_schema(conn, {"game": setup.game.value, "seed": str(setup.seed), "created": now()})
        event = Event(
            Seq(1), stamp.time or now(), None, EventKind.SETUP, "new", setup.to_dict(), rolled, {},
            None, Seq(1), None, None, None, 0, rng, state.turn, state.active_player.name,
        )
        log.insert(conn, event, rules)
        log.save_snapshot(conn, rules, 1, state)
    return Outcome(event, state, state)


def _current(conn: sqlite3.Connection, rules: GameRules) -> tuple[Event, State]:
    last = log.last_event(conn)
    state, steps = log.state_at(conn, rules, last.head)
    if steps >= log.SNAPSHOT_EVERY:  # snapshots were missing or stale: heal them here
        log.save_snapshot(conn, rules, last.head, state)
    heal(conn, rules)
    return last, state


def heal(conn: sqlite3.Connection, rules: GameRules) -> None:
    """Save again the snapshots `state_at` found damaged (inside a write transaction)."""
    for node, state in getattr(conn, "heal", ()):
        log.save_snapshot(conn, rules, node, state)
    if getattr(conn, "heal", None):
        conn.heal.clear()  # type: ignore[attr-defined]


def _seed(conn: sqlite3.Connection) -> int:
    return int(log.meta(conn)["seed"])


# Called inside an action's write transaction with the log's last row, the
# state it meets and the action (actor spelled as the table spells it), before
# the rules judge it: raising refuses the action and nothing is written.
Guard = Callable[[Event, State, Action], None]


def perform(conn: sqlite3.Connection, rules: GameRules, action: Action,
            entered: Sequence[int] | None = None, stamp: Stamp = Stamp(),
            guard: Guard | None = None, drawn: bool = False) -> Outcome:
    """Check an action against the rules and, if allowed, apply and record it.

    An action whose args carry the `VIA` marker (a phone's) is judged without
    it; the logged event keeps it. `guard` (see Guard) adds the caller's own
    checks to the same transaction.

    `drawn`: the action takes as many dice as it rolls (a Culture War battle
    rolls ties again), so the rules play it once with the dice drawn as they
    ask for them (`rules.play_drawing`, which also checks it), and the log
    records the dice it took, typed or seeded."""
    via = action.args.get(VIA)
    if VIA in action.args:
        action = replace(action, args=rules_args(action.args))
    with db.write(conn):
        last, before = _current(conn, rules)
        if action.actor is not None:  # record the actor as the table spells the name
            action = replace(action, actor=before.player(action.actor).name)
        if guard is not None:
            guard(last, before, action)
        if drawn:
            source = dicelib.Drawn(_seed(conn), last.rng, entered)
            action, after, facts = rules.play_drawing(before, action, source)
            rolled = tuple(source.taken)
            rng = stamp.rng if stamp.rng is not None else last.rng + (0 if entered is not None else len(rolled))
        else:
            try:
                rules.check(before, action)
            except RuleViolation as refusal:  # a count of copies refused: say which named copy is where
                raise copy_register.explained(rules, before, action, refusal) from None
            faces = rules.dice_needed(before, action)
            rolled, rng = _dice(_seed(conn), last.rng, faces, entered, action.name, stamp)
            after, facts = rules.play(before, action, rolled)  # one run: the state and its story
        if action.args.get(copy_register.ARG):
            copy_register.refuse_twice(rules, before, action, after)  # a new action only: an old log still loads
        seq = Seq(last.seq + 1)
        logged = {**action.args, VIA: via} if via else dict(action.args)
        event = log.insert(conn, Event(
            seq, stamp.time or now(), action.actor, EventKind.ACTION, action.name, logged,
            rolled, dict(action.cards), last.head, seq, None, None, None, last.depth + 1, rng,
            after.turn, after.active_player.name,
        ), rules)
        log.save_snapshot(conn, rules, seq, after)  # the head's state: the next command reads it, replays nothing
        if last.depth % log.SNAPSHOT_EVERY and last.head != seq:  # the old head's, unless a periodic one
            log.drop_snapshot(conn, last.head)
    return Outcome(event, before, after, tuple(facts))


def roll(conn: sqlite3.Connection, rules: GameRules, expr: dicelib.DiceExpr,
         entered: Sequence[int] | None = None, actor: str | None = None, reason: str | None = None,
         stamp: Stamp = Stamp()) -> Outcome:
    """Roll dice for the table and record them; the state does not change."""
    with db.write(conn):
        last, state = _current(conn, rules)
        name = state.player(actor).name if actor is not None else None
        rolled, rng = _dice(_seed(conn), last.rng, expr.dice_faces, entered, f"roll {expr.text}", stamp)
        args: dict[str, object] = {
            "expr": expr.text, "kept": list(expr.kept(rolled)), "total": expr.total(rolled),
        }
        if reason:
            args["reason"] = reason
        event = log.insert(conn, replace(
            last, seq=Seq(last.seq + 1), time=stamp.time or now(), actor=name, kind=EventKind.ROLL,
            action="roll", args=args, dice=rolled, cards={}, parent=None, target=None,
            redo_below=None, rng=rng,
        ), rules)
    return Outcome(event, state, state)


def undo(conn: sqlite3.Connection, rules: GameRules, actor: str | None = None,
         stamp: Stamp = Stamp()) -> Outcome:
    """Step back past the action in effect; it stays in the log, marked undone."""
    with db.write(conn):
        last, before = _current(conn, rules)
        target = log.get_event(conn, last.head)
        if target.kind is EventKind.SETUP:
            raise NothingToDo("nothing to undo: the table is back at its setup")
        after, _ = log.state_at(conn, rules, target.parent)  # type: ignore[arg-type]
        seq = Seq(last.seq + 1)
        event = log.insert(conn, Event(
            seq, stamp.time or now(), _actor(before, actor), EventKind.UNDO, "undo", {}, (), {},
            None, target.parent, target.seq, seq, last.redo, target.depth - 1, last.rng,  # type: ignore[arg-type]
            after.turn, after.active_player.name,
        ), rules)
        log.save_snapshot(conn, rules, target.parent, after)  # type: ignore[arg-type]  # the new head's
    return Outcome(event, before, after)


def redo(conn: sqlite3.Connection, rules: GameRules, actor: str | None = None,
         stamp: Stamp = Stamp()) -> Outcome:
    """Put back the action most recently undone, if nothing new happened since."""
    with db.write(conn):
        last, before = _current(conn, rules)
        if last.redo is None:
            raise NothingToDo("nothing to redo: no undone action is waiting (a new action clears them)")
        undone_by = log.get_event(conn, last.redo)
        target = log.get_event(conn, undone_by.target)  # type: ignore[arg-type]
        after, _ = log.state_at(conn, rules, target.seq)
        seq = Seq(last.seq + 1)
        event = log.insert(conn, Event(
            seq, stamp.time or now(), _actor(before, actor), EventKind.REDO, "redo", {}, (), {},
            None, target.seq, target.seq, undone_by.redo_below, None, target.depth, last.rng,
            after.turn, after.active_player.name,
        ), rules)
        log.save_snapshot(conn, rules, target.seq, after)  # the new head's
    return Outcome(event, before, after)


def _actor(state: State, actor: str | None) -> str | None:
    return state.player(actor).name if actor is not None else None
