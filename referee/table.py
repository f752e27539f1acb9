"""The referee's core operations, one function per command.

cli.py parses arguments and calls exactly one of these; each opens the table
file, does its work in one transaction, closes the file and returns a result
from views.py. Nothing here prints or exits; failures are RefereeErrors.
"""
from __future__ import annotations

import os
import re
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Sequence

from referee import dice as dicelib
from referee import ledger
from referee.errors import RefereeError, TableError
from referee.games import GameRules, rules_for
from referee.model import Action, GameSlug, PlayerName, Setup
from referee.store import db
from referee.store import events as log
from referee.views import ActResult, CardUse, LogEntry, LogView, RollResult, StatusView

DEFAULT_DB = "table.db"
_CHANGE = re.compile(r"^([+\-=])\s*(\d+)$")


def table_path(option: str | None) -> Path:
    """--db if given, else $REFEREE_DB, else ./table.db."""
    return Path(option or os.environ.get("REFEREE_DB") or DEFAULT_DB)


@contextmanager
def opened(path: Path) -> Iterator[tuple[sqlite3.Connection, GameRules]]:
    """An open table and its game's rules; SQLite failures become TableErrors."""
    conn = db.open_table(path)
    try:
        with db.translate(path):
            game = log.meta(conn).get("game", "")
            try:
                rules = rules_for(GameSlug(game))
            except ValueError:
                raise TableError(f"{path} is a table for {game!r}, a game this referee does not know") from None
            yield conn, rules
    finally:
        conn.close()


def status_of(conn: sqlite3.Connection, rules: GameRules, path: Path) -> StatusView:
    last = log.last_event(conn)
    state, _ = log.state_at(conn, rules, last.head)
    return StatusView(state, rules.title, log.count(conn), path, int(log.meta(conn)["seed"]))


# ---- starting a table ------------------------------------------------------


def parse_players(specs: Sequence[str]) -> tuple[tuple[str, str | None], ...]:
    """`NAME` or `NAME:FACTION`, in seating order."""
    players = []
    for spec in specs:
        name, sep, faction = spec.partition(":")
        players.append((name.strip(), faction.strip() or None if sep else None))
    return tuple(players)


def parse_house_rules(specs: Sequence[str]) -> dict[str, str]:
    rules: dict[str, str] = {}
    for spec in specs:
        key, sep, value = spec.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise RefereeError(f"--house-rule {spec!r}: write it as KEY=VALUE, e.g. starting-life=60")
        rules[key.strip().lower()] = value.strip()
    return rules


def new_table(path: Path, game: str, players: Sequence[str], seed: int | None = None,
              life: int | None = None, house_rules: Sequence[str] = (), force: bool = False,
              dice_text: str | None = None) -> StatusView:
    """Start a table. Everything is checked before an old file is touched."""
    slug = GameSlug.parse(game)
    rules = rules_for(slug)
    if not players:
        raise RefereeError("name the players: --player NAME or --player NAME:FACTION, once per player")
    if seed is None:
        seed = int.from_bytes(os.urandom(6), "big")
    setup = Setup(slug, parse_players(players), seed, life, parse_house_rules(house_rules))
    faces = rules.setup_dice(setup)
    entered = dicelib.parse_entered(dice_text) if dice_text is not None else None
    if entered is not None:
        rolled, rng = dicelib.check_entered(entered, faces, f"setting up {slug.value}"), 0
    else:
        rolled, rng = dicelib.draw(seed, 0, faces), len(faces)
    rules.setup(setup, rolled)  # raises if the setup is not allowed
    clear_for_new(path, force)
    conn = db.create_table(path)
    try:
        with db.translate(path):
            ledger.start(conn, rules, setup, rolled, ledger.Stamp(rng=rng))
            return status_of(conn, rules, path)
    finally:
        conn.close()


def clear_for_new(path: Path, force: bool) -> None:
    if not path.exists():
        db.remove_table(path)  # stale -wal/-shm files from an old table
        return
    if not force:
        try:
            with opened(path) as (conn, rules):
                status = status_of(conn, rules, path)
        except TableError as exc:
            raise TableError(f"{exc}; pass --force to replace the file") from None
        if status.state.winner is None:
            raise TableError(
                f"{path} holds an unfinished {status.state.game.value} game "
                f"(turn {status.state.turn}, {status.log_length} events); "
                "finish it, choose another --db, or pass --force to replace it"
            )
    db.remove_table(path)


# ---- reading ---------------------------------------------------------------


def status(path: Path) -> StatusView:
    with opened(path) as (conn, rules), db.read(conn):
        return status_of(conn, rules, path)


def history(path: Path, last: int | None = None) -> LogView:
    with opened(path) as (conn, rules), db.read(conn):
        events = log.all_events(conn)
        live = log.in_effect(conn, events[-1].head)
        by_seq = {e.seq: e for e in events}
        entries = [
            LogEntry(e, e.kind.value == "action" and e.seq not in live,
                     by_seq.get(e.target) if e.target is not None else None)
            for e in events
        ]
    if last is not None:
        entries = entries[-last:] if last > 0 else []
    return LogView(tuple(entries), len(events))


# ---- changing ---------------------------------------------------------------


def parse_change(text: str, what: str) -> dict[str, int]:
    """`-5` / `+3` change by an amount, `=10` sets a value."""
    cleaned = text.strip().replace("\u2212", "-")
    match = _CHANGE.match(cleaned)
    if not match:
        if cleaned.isdigit():
            raise RefereeError(
                f"{what}: write +{cleaned} to add, -{cleaned} to take away, or ={cleaned} to set it"
            )
        raise RefereeError(f"{what}: {text!r} is not an amount; write -5, +3 or =10")
    sign, number = match.groups()
    value = int(number)
    if sign == "=":
        return {"to": value}
    return {"by": value if sign == "+" else -value}


def act(path: Path, name: str, args: dict[str, object], actor: str | None = None,
        cards: Sequence[str] = (), dice_text: str | None = None) -> ActResult:
    """Check and apply one game action (life, capital, crowd, end-turn, win ...)."""
    entered = dicelib.parse_entered(dice_text) if dice_text is not None else None
    with opened(path) as (conn, rules):
        uses = _cards(cards, rules.slug)
        action = Action(
            name, {k: v for k, v in args.items() if v is not None},
            PlayerName(actor) if actor is not None else None,
            {u.card_id: u.revision for u in uses},
        )
        outcome = ledger.perform(conn, rules, action, entered)
    warnings = tuple(u.warning for u in uses if u.warning)
    return ActResult(outcome.event, outcome.before, outcome.after, warnings)


def _cards(codes: Sequence[str], game: GameSlug) -> list[CardUse]:
    if not codes:
        return []
    from referee.cards import resolve  # loads the card index only when a card is named

    return [resolve(code, game.value) for code in codes]


def roll(path: Path, expr_text: str, dice_text: str | None = None, actor: str | None = None,
         reason: str | None = None) -> RollResult:
    expr = dicelib.parse_expr(expr_text)
    entered = dicelib.parse_entered(dice_text) if dice_text is not None else None
    with opened(path) as (conn, rules):
        outcome = ledger.roll(conn, rules, expr, entered, actor, reason)
    return RollResult(outcome.event)


def undo(path: Path, actor: str | None = None) -> ActResult:
    with opened(path) as (conn, rules):
        outcome = ledger.undo(conn, rules, actor)
        target = log.get_event(conn, outcome.event.target)  # type: ignore[arg-type]
    return ActResult(outcome.event, outcome.before, outcome.after, undone=target)


def redo(path: Path, actor: str | None = None) -> ActResult:
    with opened(path) as (conn, rules):
        outcome = ledger.redo(conn, rules, actor)
        target = log.get_event(conn, outcome.event.target)  # type: ignore[arg-type]
    return ActResult(outcome.event, outcome.before, outcome.after, undone=target)


def games() -> list[GameRules]:
    """Every game the referee knows, with its player counts and house rules."""
    return [rules_for(slug) for slug in GameSlug]
