"""Export a table's log as JSON, and rebuild a table from such a file.

Replay runs every recorded event through the same rules and ledger code a
live table uses, feeding each action the dice it was recorded with, and
checks after every event that the rebuilt row agrees with the recorded one
(state node, undo target, turn, player to act). A file that does not replay
to the same table is refused, naming the first event that disagrees.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from pnp.write import replace_file
from referee.rules import dice as dicelib
from referee.table import ledger
from referee.errors import RefereeError, TableError
from referee.rules import rules_for
from referee.model import Action, Event, EventKind, GameSlug, PlayerName, Setup
from referee.table.public import public_event
from referee.table.store import db
from referee.table.store import events as log
from referee.table.files import build_then_swap
from referee.table.operations import ensure_replaceable, opened, status_of
from referee.table.views import StatusView

EXPORT_FORMAT = "referee-log"
EXPORT_VERSION = 1
CHECKED = ("seq", "kind", "action", "head", "target", "turn", "active")


@dataclass(frozen=True)
class ExportResult:
    path: Path
    events: int


@dataclass(frozen=True)
class ReplayStep:
    """One replayed event and the table right after it."""

    event: Event
    status: StatusView


@dataclass(frozen=True)
class ReplayResult:
    status: StatusView
    events: int
    steps: tuple[ReplayStep, ...] = ()
    archived: Path | None = None  # where --force kept the table it replaced


def export(path: Path, target: Path, force: bool = False, full: bool = False) -> ExportResult:
    """The log as JSON. Without `full`, hidden cards are left out (an export
    players may read); with it, everything, so the whole game replays."""
    if target.exists() and target.resolve() == path.resolve():
        raise RefereeError(f"{target} is the table itself; export to a different file")
    if target.exists() and not force and not _is_export(target):
        raise RefereeError(f"{target} exists and is not a referee export; pass --force to overwrite it")
    with opened(path) as (conn, rules), db.read(conn):
        events = log.all_events(conn)
        status = status_of(conn, rules, path)
    left_out = False
    if not full:
        shown = [public_event(rules, e) for e in events]
        left_out = any(a is not b for a, b in zip(shown, events))
        events = shown
    data = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "game": status.state.game.value,
        "seed": status.seed,
        "exported": ledger.now(),
        "full": full or not left_out,
        "events": [e.to_dict() for e in events],
        "final": status.to_json(),
    }
    try:
        replace_file(target, (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8"), durable=False)
    except OSError as exc:
        raise RefereeError(f"cannot write {target}: {exc.strerror}") from None
    return ExportResult(target, len(events))


def _is_export(path: Path) -> bool:
    try:
        with path.open(encoding="utf-8") as handle:
            head = handle.read(200)
    except (OSError, UnicodeDecodeError):
        return False
    return f'"format": "{EXPORT_FORMAT}"' in head


def read_export(source: Path) -> dict[str, Any]:
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RefereeError(f"no export file at {source}") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise RefereeError(f"{source} is not a referee export: it cannot be read as JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise RefereeError(f"{source} is JSON but not a referee export (no \"format\": \"{EXPORT_FORMAT}\")")
    if data.get("version") != EXPORT_VERSION:
        raise RefereeError(f"{source} is export version {data.get('version')}; this referee reads {EXPORT_VERSION}")
    events = data.get("events")
    if not isinstance(events, list) or not events or events[0].get("kind") != "setup":
        raise RefereeError(f"{source} has no events, or does not begin with the table's setup")
    return data


def replay(source: Path, path: Path, step: bool = False, force: bool = False,
           upto: int | None = None) -> ReplayResult:
    data = read_export(source)
    events = data["events"]
    try:
        first = events[0]
        setup = Setup.from_dict(first["args"])
    except (KeyError, TypeError, ValueError) as exc:
        raise RefereeError(f"{source}: the setup event cannot be read ({exc})") from None
    rules = rules_for(GameSlug.parse(setup.game.value))
    rules.setup(setup, first.get("dice", []))  # refuse a bad setup before touching files
    if data.get("full") is False:
        raise RefereeError(f"{source} is an export for players: it leaves the hidden cards out, so the "
                           "game cannot be rebuilt from it; replay an export made with `referee export --full`")
    ensure_replaceable(path, force)
    result: list = []

    def build(conn) -> None:
        result.extend(_rebuild(conn, path, rules, setup, events, step, upto))
        status = result[0]
        final = data.get("final")
        if upto is None and isinstance(final, dict) and _comparable(final) != _comparable(status.to_json()):
            raise TableError(f"{source} replays to a different table than the one it recorded")

    archived = build_then_swap(path, build)
    status, steps = result
    from referee.table import backups  # lazy: only a command that wrote takes a backup

    backups.take(path, status.log_length, "import")
    return ReplayResult(status, status.log_length, tuple(steps), archived)


def _rebuild(conn, path: Path, rules, setup: Setup, events: list, step: bool,
             upto: int | None) -> tuple[StatusView, list[ReplayStep]]:
    """Append every recorded event to a fresh table, checking each one."""
    steps: list[ReplayStep] = []
    conn.execute("PRAGMA synchronous = OFF")  # a rebuilt table; made durable at the end
    first = events[0]
    outcome = ledger.start(conn, rules, setup, first.get("dice", []), _stamp(first))
    _agree(first, outcome.event)
    if step:
        steps.append(ReplayStep(outcome.event, status_of(conn, rules, path)))
    for raw in events[1:]:
        if upto is not None and raw.get("seq", 0) > upto:
            break
        event = _replay_one(conn, rules, raw)
        _agree(raw, event)
        if step:
            steps.append(ReplayStep(public_event(rules, event), status_of(conn, rules, path)))
    conn.execute("PRAGMA synchronous = FULL")
    return status_of(conn, rules, path), steps


def _stamp(raw: Mapping[str, Any]) -> ledger.Stamp:
    return ledger.Stamp(time=raw.get("time"), rng=raw.get("rng"))


def _replay_one(conn, rules, raw: Mapping[str, Any]) -> Event:
    seq = raw.get("seq")
    try:
        kind = EventKind(raw["kind"])
        actor = raw.get("actor")
        dice = tuple(raw.get("dice") or ())
        if kind is EventKind.ACTION:
            action = Action(raw["action"], dict(raw.get("args") or {}),
                            PlayerName(actor) if actor else None, dict(raw.get("cards") or {}))
            return ledger.perform(conn, rules, action, dice, _stamp(raw)).event
        if kind is EventKind.ROLL:
            args = raw.get("args") or {}
            expr = dicelib.parse_expr(args["expr"])
            return ledger.roll(conn, rules, expr, dice, actor, args.get("reason"), _stamp(raw)).event
        if kind is EventKind.UNDO:
            return ledger.undo(conn, rules, actor, _stamp(raw)).event
        if kind is EventKind.REDO:
            return ledger.redo(conn, rules, actor, _stamp(raw)).event
    except RefereeError as exc:
        raise RefereeError(f"event {seq} ({raw.get('action')}) does not replay: {exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise RefereeError(f"event {seq} in the export cannot be read ({exc})") from None
    raise RefereeError(f"event {seq} has kind {raw.get('kind')!r}, which only a setup may have")


def _agree(raw: Mapping[str, Any], event: Event) -> None:
    rebuilt = event.to_dict()
    for key in CHECKED:
        if key in raw and raw[key] != rebuilt[key]:
            raise TableError(
                f"replay disagrees with the export at event {raw.get('seq')} ({raw.get('action')}): "
                f"{key} was {raw[key]!r} but replays as {rebuilt[key]!r}"
            )


def _comparable(status: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in status.items() if k not in ("title",)}
