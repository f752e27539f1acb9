"""The event log: append-only rows, snapshots, and undo/redo as a tree."""
from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.table import ledger
from referee.table import operations as table
from referee.rules.dice import parse_expr
from referee.errors import NothingToDo, RefereeError
from referee.rules import rules_for
from referee.model import Action, EventKind, Setup, State
from referee.table.store import db
from referee.table.store import events as log


def fresh(tmp_path: Path, name: str = "t.db"):
    path = tmp_path / name
    table.new_table(path, "culture-war", ["A", "B"], seed=1, life=50, house_rules=["first-player=seating"])
    conn = db.open_table(path)
    conn.execute("PRAGMA synchronous = OFF")  # test speed only; the rows are the same
    return path, conn, rules_for("culture-war")


def full_fold(conn, rules, head: int) -> State:
    """The state at `head` folded from the setup row, ignoring every snapshot."""
    chain = []
    node = log.get_event(conn, head)
    while node.kind is not EventKind.SETUP:
        chain.append(node)
        node = log.get_event(conn, node.parent)
    state = rules.setup(Setup.from_dict(node.args), node.dice)
    for event in reversed(chain):
        state = rules.apply(state, event.to_action(), event.dice)
    return state


def test_every_event_records_who_what_when_and_its_dice(tmp_path):
    path, conn, rules = fresh(tmp_path)
    ledger.perform(conn, rules, Action("life", {"player": "B", "by": -5, "reason": "hit"}, "A"))
    ledger.roll(conn, rules, parse_expr("2d6"), (4, 2))
    events = log.all_events(conn)
    assert [e.seq for e in events] == [1, 2, 3]
    life = events[1]
    assert (life.actor, life.action, dict(life.args)) == ("A", "life", {"player": "B", "by": -5, "reason": "hit"})
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", life.time)
    assert events[2].kind is EventKind.ROLL and events[2].dice == (4, 2) and events[2].args["total"] == 6


def test_the_log_refuses_updates_and_deletes(tmp_path):
    path, conn, rules = fresh(tmp_path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE events SET action = 'x' WHERE seq = 1")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM events")
    assert log.count(conn) == 1


def test_wal_mode_is_on(tmp_path):
    path, conn, _ = fresh(tmp_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.slow
def test_a_long_game_loads_from_a_snapshot_not_from_the_start(tmp_path):
    path, conn, rules = fresh(tmp_path)
    for i in range(1500):
        if i % 7 == 6:
            ledger.undo(conn, rules)
        else:
            ledger.perform(conn, rules, Action("capital", {"player": "A" if i % 2 else "B", "by": 1}))
    head = log.last_event(conn).head
    state, replayed = log.state_at(conn, rules, head)
    assert replayed < log.SNAPSHOT_EVERY
    assert state == full_fold(conn, rules, head)
    assert conn.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0] > 1500 // log.SNAPSHOT_EVERY // 2


def test_snapshots_from_other_rules_are_ignored_and_healed(tmp_path, monkeypatch):
    path, conn, rules = fresh(tmp_path)
    for _ in range(100):
        ledger.perform(conn, rules, Action("capital", {"player": "A", "by": 1}))
    monkeypatch.setattr(rules, "version", "a-newer-ruleset")
    head = log.last_event(conn).head
    state, replayed = log.state_at(conn, rules, head)
    assert replayed == 100 and state.player("A").capital == 101
    ledger.perform(conn, rules, Action("capital", {"player": "A", "by": 1}))
    _, replayed = log.state_at(conn, rules, log.last_event(conn).head)
    assert replayed < log.SNAPSHOT_EVERY


def test_undo_keeps_the_row_and_redo_returns_it(tmp_path):
    path, conn, rules = fresh(tmp_path)
    ledger.perform(conn, rules, Action("life", {"player": "B", "by": -5}))
    ledger.perform(conn, rules, Action("end-turn", {}))
    out = ledger.undo(conn, rules)
    assert out.event.target == 3 and out.after.turn == 1
    out = ledger.undo(conn, rules)
    assert out.after.player("B").life == 50
    assert [e.kind for e in log.all_events(conn)][-2:] == [EventKind.UNDO, EventKind.UNDO]
    assert ledger.redo(conn, rules).after.player("B").life == 45
    assert ledger.redo(conn, rules).after.turn == 2
    with pytest.raises(NothingToDo):
        ledger.redo(conn, rules)
    assert log.count(conn) == 7


ops = st.lists(st.one_of(st.just("undo"), st.just("redo"), st.integers(1, 9)), max_size=40)


@settings(max_examples=40, deadline=None)
@given(ops)
def test_undo_and_redo_behave_like_two_stacks(tmp_path_factory, moves):
    """Reference model: a stack of applied changes and a stack of undone ones;
    a new change empties the redo stack. Capital of A is the sum applied."""
    path, conn, rules = fresh(tmp_path_factory.mktemp("undo"))
    applied, undone = [], []
    for move in moves:
        if move == "undo":
            try:
                ledger.undo(conn, rules)
            except NothingToDo:
                assert not applied
                continue
            undone.append(applied.pop())
        elif move == "redo":
            try:
                ledger.redo(conn, rules)
            except NothingToDo:
                assert not undone
                continue
            applied.append(undone.pop())
        else:
            ledger.perform(conn, rules, Action("capital", {"player": "A", "by": move}))
            applied.append(move)
            undone.clear()
        state, _ = log.state_at(conn, rules, log.last_event(conn).head)
        assert state.player("A").capital == 1 + sum(applied)
    conn.close()


def test_a_refused_action_writes_nothing(tmp_path):
    path, conn, rules = fresh(tmp_path)
    with pytest.raises(RefereeError):
        ledger.perform(conn, rules, Action("capital", {"player": "A", "by": -2}))
    with pytest.raises(RefereeError):
        ledger.perform(conn, rules, Action("capital", {"player": "Nobody", "by": 2}))
    assert log.count(conn) == 1
    assert not conn.in_transaction
