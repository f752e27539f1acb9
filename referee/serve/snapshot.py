"""What the served page may show: the table now, as plain JSON-ready data.

Everything is read through a read-only SQLite connection (the server never
takes the write lock) and drawn from the game's public view: the state as
`visible_state(state, ())` masks it and the log as `public_event` words it.
A player's private view is the public view plus that player's own entries
of the revealed state (`visible_state(state, (player,))`), taken key by key
for that player's name only, so nobody else's hidden cards can come along.
"""
from __future__ import annotations

import json
import re
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

from referee.words import render
from referee.cards.index import load_index, project_root
from referee.errors import CardError, TableDamaged, TableError
from referee.rules import GameRules, rules_for, visible_state
from referee.model import VIA, Event, GameSlug, State, actor_label
from referee.table.public import public_event
from referee.table.store import db
from referee.table.store import events as log
from referee.words.view import view_for

LOG_LINES = 8  # the last few log lines the page shows
CORE_STATS = ("life", "capital")


def connect_read_only(path: Path) -> sqlite3.Connection:
    """A connection that can only read: it never blocks a writer's lock."""
    if not path.is_file():
        raise TableError(f"no table file at {path}")
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=5, isolation_level=None)
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.Error as exc:
        raise TableError(f"cannot read the table {path}: {exc}") from None
    if meta.get("format") != db.FORMAT:
        conn.close()
        raise TableError(f"{path} is not a referee table")
    return conn


def marker(path: Path) -> tuple[int, int, int] | None:
    """What changes whenever the table does: the file's identity and the log's
    last sequence number (every change, undo and redo included, appends a row).
    None when the table cannot be read just now."""
    try:
        inode = path.stat().st_ino
        conn = connect_read_only(path)
    except (OSError, TableError):
        return None
    try:
        seq = conn.execute("SELECT MAX(seq), COUNT(*) FROM events").fetchone()
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    return inode, int(seq[0] or 0), int(seq[1] or 0)


@dataclass(frozen=True)
class TableNow:
    """One consistent read of the table: its rules, state and the last rows."""

    path: Path
    rules: GameRules
    state: State
    seq: int
    seed: int | None
    recent: tuple[tuple[Event, bool, Event | None], ...]  # (public event, undone, public target)
    texts: tuple[str, ...] = ()  # each recent row in the log's words (render.log_line)
    changed: str = ""  # the time the log recorded for the last change of the state (log.last_change)


def read(path: Path, last: int = LOG_LINES) -> TableNow:
    conn = connect_read_only(path)
    try:
        conn.execute("BEGIN")  # one snapshot of the log for every query below
        try:
            meta = log.meta(conn)
            try:
                rules = rules_for(GameSlug(meta.get("game", "")))
            except ValueError:
                raise TableError(f"{path} is a table for a game this referee does not know") from None
            head = log.last_event(conn)
            changed = head if head.kind.value != "roll" else log.last_change(conn)
            state, _ = log.state_at(conn, rules, head.head)
            live = log.in_effect(conn, head.head)
            rows = conn.execute("SELECT seq FROM events ORDER BY seq DESC LIMIT ?", (last,)).fetchall()
            recent, texts = [], []
            states = _States(conn, rules, _memo_for(path, meta))
            for (seq,) in reversed(rows):
                event = log.get_event(conn, seq)
                target = log.get_event(conn, event.target) if event.target is not None else None
                shown, shown_target = public_event(rules, event), public_event(rules, target)
                recent.append((shown, event.kind.value == "action" and event.seq not in live, shown_target))
                before = after = None
                if event.kind.value == "action" and event.parent is not None:
                    before, after = states.seen(event.parent), states.seen(event.seq)
                texts.append(render.log_line(shown, shown_target, rules, before, after))
        finally:
            conn.execute("COMMIT")
    except TableDamaged as exc:  # named with the file, as the command line names it
        raise (exc.at(path) if exc.path is None else exc) from None
    except sqlite3.Error as exc:
        raise TableError(f"cannot read the table {path}: {exc}") from None
    finally:
        conn.close()
    return TableNow(path, rules, state, head.seq, log.seed_text(meta.get("seed")), tuple(recent), tuple(texts),
                    changed.time)


MEMO_NODES = 64  # states kept per table between reads: a change then costs one action's fold
_MEMOS: dict[tuple[str, int, str], dict[int, State]] = {}
_MEMO_LOCK = threading.Lock()


def _memo_for(path: Path, meta: Mapping[str, str]) -> dict[int, State]:
    """The states already folded for this table file (a log only grows, so a
    node's state never changes; a new table at the same path is another key)."""
    try:
        key = (str(path.resolve()), path.stat().st_ino, str(meta.get("created", "")))
    except OSError:
        return {}
    with _MEMO_LOCK:
        if key not in _MEMOS and len(_MEMOS) >= 16:
            _MEMOS.pop(next(iter(_MEMOS)))
        return _MEMOS.setdefault(key, {})


class _States:
    """The table at log nodes, as players see it, each folded once: the
    recent rows of a read share the replay of their common past, and the
    next read starts from the states this one kept (the first read of a
    long table pays one replay, like `referee log`)."""

    def __init__(self, conn: sqlite3.Connection, rules: GameRules, memo: dict[int, State] | None = None):
        self.conn, self.rules = conn, rules
        self.memo: dict[int, State] = memo if memo is not None else {}

    def at(self, node: int) -> State:
        pending: list[Event] = []
        current: int | None = node
        state = None
        while current is not None and current not in self.memo:
            event = log.get_event(self.conn, current)
            if event.kind.value != "action":
                state, _ = log.state_at(self.conn, self.rules, current)
                self.memo[current] = state
                break
            pending.append(event)
            current = event.parent
        state = self.memo[current] if current is not None else state
        for event in reversed(pending):
            state = self.rules.apply(state, event.to_action(), event.dice)
            self.memo[event.seq] = state
        found = self.memo[node]
        with _MEMO_LOCK:
            for old in sorted(self.memo)[:-MEMO_NODES]:
                self.memo.pop(old, None)
        return found

    def seen(self, node: int) -> State:
        return visible_state(self.at(node), ()) if self.rules.has_hidden_cards else self.at(node)


# ---- what a page shows ---------------------------------------------------------


def public(table: TableNow) -> dict[str, Any]:
    """The table as anyone at it may see it."""
    shown = visible_state(table.state, ()) if _hides(table.rules) else table.state
    out = _common(table, shown)
    out["cards"] = card_info(table.state.game.value, _strings(out))
    return out


def private(table: TableNow, player: str) -> dict[str, Any]:
    """The public view plus `player`'s own hidden cards, nobody else's."""
    out = public(table)
    mine: dict[str, Any] = {}
    name = table.state.player(player).name
    if _hides(table.rules):
        public_fields = visible_state(table.state, ()).fields
        revealed = visible_state(table.state, (name,)).fields
        for key, value in revealed.items():
            if isinstance(value, Mapping) and name in value:
                before = public_fields.get(key)
                own = _added(_plain(value[name]), _plain(before.get(name)) if isinstance(before, Mapping) else None)
                if own is not _SAME:
                    mine[key] = {name: own}
    out["you"] = {"player": name, "hidden": mine}
    out["cards"].update(card_info(table.state.game.value, _strings(mine)))
    return out


_SAME = object()


def _added(revealed: Any, shown: Any) -> Any:
    """What `revealed` holds beyond `shown`: differing keys of mappings, kept
    whole where a value differs otherwise; _SAME when nothing differs."""
    if isinstance(revealed, dict) and isinstance(shown, dict):
        out = {}
        for key, value in revealed.items():
            extra = _added(value, shown.get(key))
            if extra is not _SAME:
                out[key] = extra
        return out if out else _SAME
    return _SAME if revealed == shown else revealed


def _hides(rules: GameRules) -> bool:
    return rules.has_hidden_cards


def _tv(s: State) -> dict[str, Any]:
    """A game's own figures for the shared screen (its words' `tv(state)`,
    from the public state), as `{"tv": ...}`; nothing for a game without."""
    shown = view_for(s.game).tv(s)
    return {"tv": _plain(shown)} if shown is not None else {}


def _common(table: TableNow, s: State) -> dict[str, Any]:
    rules = table.rules
    players = []
    for i, p in enumerate(s.players):
        players.append({
            "name": p.name, "faction": p.faction, "life": p.life, "capital": p.capital,
            "eliminated": p.eliminated, "active": i == s.active and s.winner is None,
            "winner": p.name == s.winner, "fields": _plain(dict(p.fields)),
        })
    phase = rules.phase(table.state) if s.winner is None else None
    lines = view_for(s.game).render_lines(s)
    waiting = render.prompt_lines(s)  # a card waiting for someone: shown at the top of the page, not folded away
    lines += waiting
    return {
        **_tv(s),
        "game": s.game.value,
        "title": rules.title,
        "turn": s.turn,
        "round": s.round,
        "active": s.active_player.name,
        "phase": phase,
        "winner": s.winner,
        "crowd": s.crowd,
        "seq": table.seq,
        "players": players,
        "fields": _plain(dict(s.fields)),
        "lines": list(lines),
        "prompts": list(waiting),
        "log": [{"seq": e.seq, "actor": actor_label(e), "turn": e.turn, "undone": undone,
                 "text": named(s.game.value, text), **({"via": e.args[VIA]} if VIA in e.args else {})}
                for (e, undone, target), text in zip(table.recent, table.texts or _plain_texts(table))],
    }


def _plain_texts(table: TableNow) -> list[str]:
    return [render.describe(e, target) for e, _, target in table.recent]


_CARD_WORD = re.compile(r"\b([a-z0-9][a-z0-9-]*[a-z0-9])(@[0-9A-Za-z]+)?")


def named(game: str, text: str) -> str:
    """A log line with each card id (and its revision) of `game` written as the card's name."""
    index = _index()

    def name(match: re.Match) -> str:
        info = index.get(match[1])
        return info.name if info is not None and info.game == game else match[0]

    return _CARD_WORD.sub(name, text)


def _plain(value: Any) -> Any:
    """JSON-ready: mappings and sequences become dicts and lists, keys strings."""
    return json.loads(json.dumps(value, default=str))


def _strings(value: Any) -> set[str]:
    found: set[str] = set()

    def walk(v: Any) -> None:
        if isinstance(v, str):
            found.add(v)
        elif isinstance(v, Mapping):
            for k, item in v.items():
                walk(item)
        elif isinstance(v, (list, tuple)):
            for item in v:
                walk(item)

    walk(value)
    return found


def card_info(game: str, ids: Iterable[str]) -> dict[str, Any]:
    """Name, type and number stats of every card of `game` among `ids`."""
    index = _index()
    out: dict[str, Any] = {}
    for cid in ids:
        info = index.get(cid)
        if info is None or info.game != game:
            continue
        stats = {k: v for k, v in info.fields.items()
                 if isinstance(v, int) and not isinstance(v, bool) and k not in ("quantity", "copies")}
        out[cid] = {"name": info.name, "type": info.type, "stats": dict(list(stats.items())[:6])}
    return out


_INDEX: dict[str, Any] | None = None


def _index() -> Mapping[str, Any]:
    global _INDEX
    if _INDEX is None:
        try:
            _INDEX = dict(load_index(project_root()).cards)
        except (CardError, OSError):
            _INDEX = {}
    return _INDEX
