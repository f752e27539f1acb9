"""Reading and appending rows of the event log, and folding them into state.

State is never stored as the truth; it is a fold over ACTION rows along the
chain of parents from a node back to the setup. Snapshots cut that walk
short: every SNAPSHOT_EVERY-th node on any chain stores its state, so finding
the state of any node reads one snapshot and applies fewer than
SNAPSHOT_EVERY actions, however long the game is. The newest action's node
keeps one too (replaced by the next action's), so the table as it is now is
read without applying anything: `status` needs no action code. A snapshot
records the rules version it was made with and is ignored when the rules
change.

Every row read is checked against the chain (store/chain.py): its own hash
after its predecessor's. A damaged event raises TableDamaged naming it; a
damaged snapshot is passed over (the state is folded from the log instead),
said once as a notice, and saved again (`heal`).
"""
from __future__ import annotations

import json
import sqlite3
from typing import Any

from referee import __version__
from referee.errors import TableDamaged
from referee.rules import GameRules
from referee.model import Event, EventKind, Seq, Setup, State
from referee.table.store import chain
from referee.errors import note

SNAPSHOT_EVERY = 32
STATE_FORMAT = "state-1"

COLUMNS = (
    "seq, time, actor, kind, action, args, dice, cards, parent, head, target, "
    "redo, redo_below, depth, rng, turn, active"
)
STORED = f"{COLUMNS}, referee, rules"  # what a row's hash covers
ALL = f"{STORED}, hash"
NAMES = tuple(c.strip() for c in STORED.split(","))


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _event(row: tuple) -> Event:
    """An Event from a row's first 17 columns (a row already checked against the chain)."""
    (seq, time, actor, kind, action, args, dice, cards, parent, head, target,
     redo, redo_below, depth, rng, turn, active) = row[:17]
    try:
        return Event(
            Seq(seq), time, actor, EventKind(kind), action, json.loads(args), tuple(json.loads(dice)),
            json.loads(cards), parent, head, target, redo, redo_below, depth, rng, turn, active,
        )
    except (TypeError, ValueError) as exc:
        what = f"its kind {kind!r} is unknown" if isinstance(exc, ValueError) and "EventKind" in str(exc) \
            else f"it cannot be read: {type(exc).__name__}"
        raise TableDamaged(seq if isinstance(seq, int) else 0, what) from None


def _head_mark(conn: sqlite3.Connection) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = 'head'").fetchone()
    return row[0] if row else None


def _check_end(conn: sqlite3.Connection, last: tuple, mark: str | None = "?") -> None:
    """The last row is the one the header says ends the log (no row lost from the end).
    `mark`: the header's head mark, if the caller read it already."""
    if mark == "?":
        mark = _head_mark(conn)
    if mark == chain.head_mark(last[0], last[-1]):
        return
    seq, _, _ = (mark or "").partition(":")
    if seq.isdigit() and int(seq) > last[0]:
        raise TableDamaged(last[0] + 1, f"the log ends at event {last[0]}, but its header says it runs to {seq}")
    raise TableDamaged(last[0], "the log's last row is not the one its header recorded")


def _prev_hash(conn: sqlite3.Connection, seq: int) -> str:
    if seq == 1:
        return chain.GENESIS
    row = conn.execute("SELECT hash FROM events WHERE seq = ?", (seq - 1,)).fetchone()
    if row is None:
        raise TableDamaged(seq - 1, "the row is missing from the log")
    return row[0]


def _verified(conn: sqlite3.Connection, seq: int) -> tuple[Event, str]:
    """Event `seq`, checked against the chain, and its hash."""
    rows = conn.execute(f"SELECT {ALL} FROM events WHERE seq BETWEEN ? AND ? ORDER BY seq",
                        (seq - 1, seq)).fetchall()
    if not rows or rows[-1][0] != seq:
        raise TableDamaged(seq, "the log refers to it, but the row is missing")
    if seq == 1:
        prev = chain.GENESIS
    elif len(rows) == 2:
        prev = rows[0][-1]
    else:
        raise TableDamaged(seq - 1, "the row is missing from the log")
    hashed = chain.verify_rows(rows[-1:], prev, seq)
    _remember(conn, seq, hashed)
    return _event(rows[-1]), hashed


def _remember(conn: sqlite3.Connection, seq: int, hashed: str) -> None:
    """Note a row checked in this read (`_seen`: kept only by a TableConn, cleared by db.read)."""
    seen = getattr(conn, "seen", None)
    if seen is not None:
        seen[seq] = hashed


def last_event(conn: sqlite3.Connection) -> Event:
    rows = conn.execute(f"SELECT {ALL}, (SELECT value FROM meta WHERE key = 'head') FROM events "
                        "ORDER BY seq DESC LIMIT 2").fetchall()
    if not rows:  # init_schema and the setup row share one transaction
        raise TableDamaged(1, "the log has no setup event")
    mark = rows[0][-1]
    rows = [r[:-1] for r in rows]
    last = rows[0]
    if not isinstance(last[0], int) or last[0] < 1:
        raise TableDamaged(0, f"a row numbered {last[0]!r} ends the log")
    if last[0] == 1:
        prev = chain.GENESIS
    elif len(rows) == 2 and rows[1][0] == last[0] - 1:
        prev = rows[1][-1]
    else:
        raise TableDamaged(last[0] - 1, "the row is missing from the log")
    chain.verify_rows([last], prev, last[0])
    _check_end(conn, last, mark)
    _remember(conn, last[0], last[-1])
    return _event(last)


def get_event(conn: sqlite3.Connection, seq: int) -> Event:
    return _verified(conn, seq)[0]


def last_change(conn: sqlite3.Connection) -> Event:
    """The last row that changed the table's state (an action, an undo, a redo
    or the setup; not a dice roll on the side): what the table now shows began
    at its time (an answer window's clock starts there)."""
    row = conn.execute("SELECT MAX(seq) FROM events WHERE kind != ?", (EventKind.ROLL.value,)).fetchone()
    if row is None or row[0] is None:
        raise TableDamaged(1, "the log has no setup event")
    return get_event(conn, int(row[0]))


def all_events(conn: sqlite3.Connection, after: int = 0) -> list[Event]:
    """The rows after `after`, every one checked against the chain, to the log's end."""
    rows = conn.execute(f"SELECT {ALL} FROM events WHERE seq >= ? ORDER BY seq", (max(after, 1),)).fetchall()
    if after >= 1:
        if not rows or rows[0][0] != after:
            raise TableDamaged(after, "the row is missing from the log")
        prev, rows = rows[0][-1], rows[1:]
    else:
        prev = chain.GENESIS
    if after == 0 and not rows:
        raise TableDamaged(1, "the log has no setup event")
    chain.verify_rows(rows, prev, after + 1)
    if rows:
        _check_end(conn, rows[-1])
    return [_event(r) for r in rows]


def count(conn: sqlite3.Connection) -> int:
    return conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]


def insert(conn: sqlite3.Connection, event: Event, rules: GameRules) -> Event:
    """Append a row, chained to the one before it, stamped with the referee
    and rules versions writing it; the header's end-of-log mark follows it."""
    values = event.to_dict()
    for key in ("args", "dice", "cards"):
        values[key] = _dumps(values[key])
    values["referee"], values["rules"] = __version__, rules.version
    stored = tuple(values[n] for n in NAMES)
    hashed = chain.row_hash(_prev_hash(conn, event.seq), stored)
    conn.execute(f"INSERT INTO events ({ALL}) VALUES ({', '.join('?' * (len(NAMES) + 1))})", (*stored, hashed))
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('head', ?)", (chain.head_mark(event.seq, hashed),))
    _stamp_writer(conn)
    return event


def insert_stored(conn: sqlite3.Connection, stored: tuple) -> str:
    """Append a row as another table stored it (all its columns but `hash`),
    chained anew; for a repair, which copies the sound part of a log."""
    hashed = chain.row_hash(_prev_hash(conn, stored[0]), stored)
    conn.execute(f"INSERT INTO events ({ALL}) VALUES ({', '.join('?' * (len(NAMES) + 1))})", (*stored, hashed))
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('head', ?)", (chain.head_mark(stored[0], hashed),))
    return hashed


def _stamp_writer(conn: sqlite3.Connection) -> None:
    """The header names the newest referee that wrote to the table (and is resealed when it changes)."""
    meta = getattr(conn, "meta", None)
    if meta is None or meta.get("referee") == __version__:
        return
    meta = {**dict(conn.execute("SELECT key, value FROM meta").fetchall()), "referee": __version__}
    meta["sum"] = chain.meta_sum(meta)
    conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                     [("referee", __version__), ("sum", meta["sum"])])
    conn.meta = meta  # type: ignore[attr-defined]


def in_effect(conn: sqlite3.Connection, head: int) -> set[int]:
    """The setup and action rows whose effects make up the state at `head`."""
    rows = conn.execute(
        """WITH RECURSIVE chain(seq) AS (
               SELECT ?
               UNION ALL
               SELECT e.parent FROM events e JOIN chain c ON e.seq = c.seq
               WHERE e.parent IS NOT NULL)
           SELECT seq FROM chain""",
        (head,),
    )
    return {r[0] for r in rows}


def snapshot_key(rules: GameRules) -> str:
    return f"{STATE_FORMAT}/{rules.version}"


def save_snapshot(conn: sqlite3.Connection, rules: GameRules, node: int, state: State) -> None:
    row = conn.execute("SELECT hash FROM events WHERE seq = ?", (node,)).fetchone()
    event_hash = row[0] if row else ""
    key, text = snapshot_key(rules), _dumps(state.to_dict())
    conn.execute(
        "INSERT OR REPLACE INTO snapshots (node, version, state, event_hash, sum) VALUES (?, ?, ?, ?, ?)",
        (node, key, text, event_hash, chain.snapshot_sum(node, key, text, event_hash)),
    )


def drop_snapshot(conn: sqlite3.Connection, node: int) -> None:
    """Forget a node's snapshot (any rules version): a cache, never the truth."""
    conn.execute("DELETE FROM snapshots WHERE node = ?", (node,))


def _snapshot(conn: sqlite3.Connection, key: str, node: int) -> tuple[State | None, str | None]:
    """The snapshot saved at `node` if it passes its checks; else None and why not."""
    row = conn.execute(
        "SELECT state, event_hash, sum FROM snapshots WHERE node = ? AND version = ?", (node, key)
    ).fetchone()
    if row is None:
        return None, None
    text, event_hash, summed = row
    if not isinstance(text, str) or summed != chain.snapshot_sum(node, key, text, event_hash):
        return None, "its checksum fails"
    seen = getattr(conn, "seen", None) or {}
    if event_hash != (seen.get(node) or _verified(conn, node)[1]):
        return None, "it was made for another version of that event"
    try:
        return State.from_dict(json.loads(text)), None
    except (KeyError, TypeError, ValueError) as exc:  # sealed but unreadable: made by a faulty writer
        return None, f"it cannot be read ({type(exc).__name__})"


def state_at(conn: sqlite3.Connection, rules: GameRules, node: int) -> tuple[State, int]:
    """The state at a setup/action node, and how many actions were replayed.
    A snapshot failing its checks is passed over, noted and queued to be
    saved again (`conn.heal`)."""
    key = snapshot_key(rules)
    pending: list[Event] = []
    current, bad = node, []
    while True:
        state, why = _snapshot(conn, key, current)
        if state is not None:
            break
        if why is not None:
            bad.append((current, why))
        event = get_event(conn, current)
        if event.kind is EventKind.SETUP:
            state = rules.setup(Setup.from_dict(event.args), event.dice)
            break
        if event.kind is not EventKind.ACTION or event.parent is None or event.parent >= current:
            raise TableDamaged(node, f"its chain of states runs through event {current}, a {event.kind.value} row")
        pending.append(event)
        current = event.parent
    folded = {}
    if bad:
        folded[current] = state
    for event in reversed(pending):
        state = rules.apply(state, event.to_action(), event.dice)
        folded[event.seq] = state
    for at, why in bad:
        where = getattr(conn, "path", None)
        note(f"the table{f' {where}' if where else ''}: its saved state at event {at} failed its check ({why}); "
             "it was rebuilt from the log")
        heal = getattr(conn, "heal", None)
        if heal is not None:
            heal.append((at, folded[at]))
    return state, len(pending)


def meta(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT key, value FROM meta").fetchall())


SEED_NONE = "none"  # meta's seed of a table whose dice come from the OS's randomness


def seed_text(text: str | None) -> int | None:
    """A seed as meta keeps it: a number, or SEED_NONE (None)."""
    return None if text in (None, SEED_NONE) else int(text)  # type: ignore[arg-type]


def seed_of(conn: sqlite3.Connection) -> int | None:
    """The table's dice seed, or None when its dice come from the OS's randomness."""
    return seed_text(meta(conn).get("seed"))
