"""`referee check`: is this table sound? and `--repair`: keep what is.

The check never writes to the table. It runs SQLite's own
`PRAGMA integrity_check`, walks the chain of event hashes from the setup,
folds the whole log through the rules (every action applied again with its
recorded dice, each row's turn and player to act compared with the fold),
and compares every snapshot with the state the fold gives at its event.
Findings come event by event.

The repair writes a new table beside the old one (`table.repaired.db`)
holding the log up to its last sound event, with fresh checksums and
snapshots, and checks it in turn; the damaged file is left as it is.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from referee import __version__
from referee.errors import RefereeError, TableError
from referee.model import Event, EventKind, GameSlug, Setup, State
from referee.rules import GameRules, rules_for
from referee.table.store import chain, db, failures
from referee.table.store import events as log


@dataclass(frozen=True)
class Finding:
    seq: int  # 0: the file itself or its header
    ok: bool
    text: str


@dataclass(frozen=True)
class CheckReport:
    path: Path
    findings: tuple[Finding, ...]
    events: int
    last_sound: int  # the last event before the first damaged one (0: none is sound)
    repaired: Path | None = None
    repair_note: str | None = None

    @property
    def sound(self) -> bool:
        return all(f.ok for f in self.findings)

    def lines(self) -> list[str]:
        out = [f"{'ok' if f.ok else 'DAMAGED'}  {f'event {f.seq}' if f.seq else 'file'}: {f.text}"
               for f in self.findings]
        if self.sound:
            out.append(f"{self.path}: sound ({self.events} events, every checksum and snapshot agrees with the log)")
        else:
            bad = sum(not f.ok for f in self.findings)
            out.append(f"{self.path}: DAMAGED ({bad} finding{'s' if bad != 1 else ''}); the log is sound up to "
                       f"event {self.last_sound} of {self.events}")
        if self.repair_note:
            out.append(self.repair_note)
        return out


class _Walk:
    """The state of one check: findings so far and what the fold has built."""

    def __init__(self, path: Path):
        self.path = path
        self.findings: list[Finding] = []
        self.first_bad: int | None = None

    def add(self, seq: int, ok: bool, text: str) -> None:
        self.findings.append(Finding(seq, ok, text))
        if not ok and seq and (self.first_bad is None or seq < self.first_bad):
            self.first_bad = seq


def check_table(path: Path, repair: bool = False) -> CheckReport:
    conn = _open(path)
    walk = _Walk(path)
    try:
        rows, states, rules = _walk_file(conn, walk)
    finally:
        conn.close()
    events = rows[-1][0] if rows and isinstance(rows[-1][0], int) else 0
    last_sound = (walk.first_bad - 1) if walk.first_bad is not None else events
    report = CheckReport(path, tuple(walk.findings), events, max(last_sound, 0))
    if not repair:
        return report
    if report.sound:
        return CheckReport(**{**report.__dict__, "repair_note": "nothing to repair: no file was written"})
    if rules is None or last_sound < 1:
        raise TableError(f"{path} cannot be repaired: not even its setup (event 1) is sound")
    target = _repair(path, rules, rows[:last_sound], states)
    again = check_table(target)
    verdict = "sound" if again.sound else "NOT sound (please report this)"
    note = (f"repaired: events 1-{last_sound} written to {target} ({verdict}); "
            f"{path} was left as it is")
    return CheckReport(**{**report.__dict__, "repaired": target, "repair_note": note})


def _open(path: Path) -> sqlite3.Connection:
    """Read-only, never upgrading or settling anything; refused as opening a table would be."""
    if not path.exists() or path.is_dir():
        db.open_table(path)  # raises its words: no file, a folder, a WAL without its table
    conn = db.connection(path)
    if conn.meta.get("format") != db.FORMAT:
        conn.close()
        raise TableError(f"{path} is an SQLite database of another program (no referee-table mark), "
                         "not a referee table")
    if conn.meta.get("schema") == "1":
        conn.close()
        raise TableError(f"{path} is an old table (schema 1) without checksums to check; any referee command "
                         "(e.g. `referee status`) upgrades it, keeping a copy, and then it can be checked")
    return conn


def _walk_file(conn: sqlite3.Connection, walk: _Walk) -> tuple[list[tuple], dict[int, State], GameRules | None]:
    try:
        problems = [r[0] for r in conn.execute("PRAGMA integrity_check(20)")]
    except sqlite3.DatabaseError as exc:
        problems = [str(exc)]
    if problems == ["ok"]:
        walk.add(0, True, "SQLite's integrity check passes")
    else:
        walk.add(0, False, f"SQLite's integrity check fails: {'; '.join(problems[:5])}")
    meta = getattr(conn, "meta", {})
    if meta.get("sum") is None:
        walk.add(0, False, f"the header is not sealed (table schema {meta.get('schema')}: "
                           "any referee command upgrades it)")
    elif meta["sum"] != chain.meta_sum(meta):
        walk.add(0, False, "the header's checksum fails: its game, seed or version were changed")
    else:
        walk.add(0, True, f"header sealed ({meta.get('game')}, seed {meta.get('seed')}, "
                          f"last written by referee {meta.get('referee')})")
    try:
        rows = conn.execute(f"SELECT {log.ALL} FROM events ORDER BY seq").fetchall()
    except sqlite3.Error as exc:
        walk.add(1, False, f"the log cannot be read: {failures.explain(exc, walk.path)}")
        return [], {}, None
    _chain(rows, meta.get("head"), walk)
    newer = _newer(meta)
    if newer:
        walk.add(0, True, f"written by {newer}, this is referee {__version__}: what this referee cannot apply "
                          "is not checked")
    rules, states = _fold(rows, walk, bool(newer))
    if rules is not None:
        _snapshots(conn, rules, states, rows, walk)
    walk.findings.sort(key=lambda f: f.seq)
    return rows, states, rules


def _chain(rows: list[tuple], head: str | None, walk: _Walk) -> None:
    prev = chain.GENESIS
    for expected, row in enumerate(rows, start=1):
        seq = row[0]
        if seq != expected:
            walk.add(expected, False, f"the row is missing (the next is numbered {seq!r})")
            return
        try:
            chain.verify_rows([row], prev, seq)
        except TableError as exc:
            walk.add(seq, False, getattr(exc, "detail", str(exc)))
        prev = row[-1]
    if rows:
        last = rows[-1]
        if head != chain.head_mark(last[0], last[-1]):
            marked = (head or "").partition(":")[0]
            walk.add(last[0], False, f"the header says the log ends at event {marked or '?'}, "
                                     f"but its last row is event {last[0]}")
    else:
        walk.add(1, False, "the log has no setup event")


def _newer(meta: dict[str, str]) -> str | None:
    schema, written = meta.get("schema", ""), meta.get("referee", "")
    if schema.isdigit() and int(schema) > int(db.SCHEMA_VERSION):
        return f"table schema {schema}"
    if written and db._version(written) > db._version(__version__):
        return f"referee {written}"
    return None


def _fold(rows: list[tuple], walk: _Walk, newer: bool = False) -> tuple[GameRules | None, dict[int, State]]:
    """Apply the log from its setup up to the first damage (a newer referee's
    table: up to the first event this referee cannot apply); each row gets its finding."""
    states: dict[int, State] = {}
    rules, lost = None, False  # lost: past the first event a newer referee wrote that this one cannot apply
    for row in rows:
        if lost:
            walk.add(row[0], True, "after what this referee cannot apply: not checked")
            continue
        seq = row[0]
        if walk.first_bad is not None and seq >= walk.first_bad:
            if not any(f.seq == seq for f in walk.findings):
                walk.add(seq, False, "not checked: it comes after damage")
            continue
        try:
            event = log._event(row)
            if rules is None:
                rules = _rules(event)
            state = _apply(rules, states, event)
        except (RefereeError, KeyError, TypeError, ValueError) as exc:
            if newer:
                walk.add(seq, True, f"not understood by this referee ({row[4]!s:.30}, written by referee "
                                    f"{row[17]}): not checked")
                lost = True
                continue
            walk.add(seq, False, f"{row[4]!s:.30}: does not apply again ({getattr(exc, 'detail', exc)})")
            continue
        if (state.turn, state.active_player.name) != (event.turn, event.active):
            walk.add(seq, False, f"{event.action}: the row says turn {event.turn}, {event.active} to act; "
                                 f"the fold says turn {state.turn}, {state.active_player.name}")
            continue
        walk.add(seq, True, f"{event.kind.value} {event.action}, by referee {row[17] or '(before 0.1.0)'}"
                            f"{f', rules {row[18]}' if row[18] else ''}")
    return rules, states


def _rules(event: Event) -> GameRules:
    if event.kind is not EventKind.SETUP:
        raise RefereeError("the log does not begin with a setup")
    try:
        return rules_for(GameSlug(event.args["game"]))
    except ValueError:
        raise RefereeError(f"a table for {event.args.get('game')!r}, a game this referee does not know") from None


def _apply(rules: GameRules, states: dict[int, State], event: Event) -> State:
    """The state after `event` (at its head), adding the node's state to `states`."""
    if event.kind is EventKind.SETUP:
        states[event.seq] = rules.setup(Setup.from_dict(event.args), event.dice)
    elif event.kind is EventKind.ACTION:
        if event.parent not in states:
            raise RefereeError(f"it applies to event {event.parent}, which is not a state")
        states[event.seq] = rules.apply(states[event.parent], event.to_action(), event.dice)  # type: ignore[index]
    if event.head not in states:
        raise RefereeError(f"it leaves the table at event {event.head}, which is not a state")
    return states[event.head]


def _snapshots(conn: sqlite3.Connection, rules: GameRules, states: dict[int, State], rows: list[tuple],
               walk: _Walk) -> None:
    hashes = {r[0]: r[-1] for r in rows}
    key = log.snapshot_key(rules)
    try:
        snaps = conn.execute("SELECT node, version, state, event_hash, sum FROM snapshots ORDER BY node").fetchall()
    except sqlite3.Error as exc:
        walk.findings.append(Finding(0, False, f"the saved states cannot be read ({exc})"))
        return
    for node, version, text, event_hash, summed in snaps:
        at = node if isinstance(node, int) else 0
        if summed != chain.snapshot_sum(node, version, text, event_hash):
            walk.findings.append(Finding(at, False, "its saved state fails its checksum (rebuilt from the log "
                                                    "when next read; the log is not affected)"))
        elif event_hash != hashes.get(node):
            walk.findings.append(Finding(at, False, "its saved state was made for another version of the event"))
        elif version != key:
            walk.findings.append(Finding(at, True, f"saved state made with {version}, ignored by these rules ({key})"))
        elif node in states and text != log._dumps(states[node].to_dict()):
            walk.findings.append(Finding(at, False, "its saved state differs from the fold of the log "
                                                    "(the log wins; the state is rebuilt when next read)"))
        elif node in states:
            walk.findings.append(Finding(at, True, "saved state agrees with the fold of the log"))
        else:
            walk.findings.append(Finding(at, True, "saved state of an event the fold did not reach: not compared"))


def repaired_name(path: Path) -> Path:
    candidate, n = path.with_name(f"{path.stem}.repaired{path.suffix}"), 2
    while candidate.exists():
        candidate, n = path.with_name(f"{path.stem}.repaired-{n}{path.suffix}"), n + 1
    return candidate


def _repair(path: Path, rules: GameRules, rows: list[tuple], states: dict[int, State]) -> Path:
    from referee.table.files import build_then_swap  # lazy: only a repair writes a table

    target = repaired_name(path)
    setup = json.loads(rows[0][5])

    def build(conn: sqlite3.Connection) -> None:
        with db.write(conn):
            db.init_schema(conn, {"game": setup["game"], "seed": str(setup["seed"]), "created": rows[0][1]})
            for row in rows:
                event = log._event(row)
                log.insert_stored(conn, row[:-1])
                if event.kind in (EventKind.SETUP, EventKind.ACTION) and event.depth % log.SNAPSHOT_EVERY == 0:
                    log.save_snapshot(conn, rules, event.seq, states[event.seq])
            head = rows[-1][9]
            log.save_snapshot(conn, rules, head, states[head])

    build_then_swap(target, build)
    return target
