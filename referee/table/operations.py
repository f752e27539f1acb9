"""The referee's core operations, one function per command.

cli.py parses arguments and calls exactly one of these; each opens the table
file, does its work in one transaction, closes the file and returns a result
from views.py. Nothing here prints or exits; failures are RefereeErrors.
"""
from __future__ import annotations

import os
import re
import sqlite3
import threading
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Sequence

from referee import __version__
from referee.errors import RefereeError, TableError, note
from referee.rules import GameRules, rules_for
from referee.model import Action, GameSlug, PlayerName, Setup
from referee.table.public import public_event
from referee.table.store import db
from referee.table.store import events as log
from referee.table.views import StatusView

if TYPE_CHECKING:  # annotations only: what an action returns is built only when one is played
    from referee.model import CardUse
    from referee.table.results import ActResult, RollResult

DEFAULT_DB = "table.db"
# `-5` / `+3` change by an amount; `=10`, `=-10`, `= -10`, `=+4` set a value.
_CHANGE = re.compile(r"^(?:(?P<sign>[+\-])|=\s*(?P<to_sign>[+\-]?))\s*(?P<number>\d+)$")


def table_path(option: str | None) -> Path:
    """--db if given, else $REFEREE_DB, else ./table.db."""
    return Path(option or os.environ.get("REFEREE_DB") or DEFAULT_DB)


# The tables one command has open (see `one_open`): file -> (its inode, connection, rules),
# with the thread that may use them; None outside a command.
_OPEN: ContextVar[tuple[int, dict] | None] = ContextVar("referee_open_tables", default=None)


@contextmanager
def one_open() -> Iterator[None]:
    """One command, one open: inside it every `opened(path)` of the same file, in
    this thread, shares one connection, closed when the command ends. A file
    replaced meanwhile (`new --force`, `replay`) is opened again, never read
    through the old one; other threads (the phone server's) open their own."""
    token = _OPEN.set((threading.get_ident(), {}))
    try:
        yield
    finally:
        shared = _OPEN.get()
        _OPEN.reset(token)
        for _, conn, _ in (shared[1] if shared else {}).values():
            conn.close()


@contextmanager
def opened(path: Path) -> Iterator[tuple[sqlite3.Connection, GameRules]]:
    """An open table and its game's rules; SQLite failures become TableErrors
    and damage names the file. Snapshots found damaged while reading are
    saved again when the work is done (if the table may be written).
    Inside `one_open` the file's connection is shared by every step of the command."""
    shared = _OPEN.get()
    shared = shared[1] if shared is not None and shared[0] == threading.get_ident() else None
    key = str(path.resolve()) if shared is not None else ""
    if shared is not None and key in shared:
        inode, conn, rules = shared[key]
        if _inode(path) == inode:
            with db.translate(path):
                yield conn, rules
            return
        del shared[key]
        conn.close()
    conn = db.open_table(path)
    keep = False
    try:
        with db.translate(path):
            game = conn.meta.get("game", "")
            try:
                rules = rules_for(GameSlug(game))
            except ValueError:
                raise TableError(f"{path} is a table for {game!r}, a game this referee does not know") from None
            if conn.newer is not None:
                note(f"the table {path} was written by {conn.newer}, this is referee {__version__}: "
                             "it is read as far as this referee understands it; upgrade to play on")
            if shared is not None:
                shared[key], keep = (_inode(path), conn, rules), True
            yield conn, rules
            if conn.heal and conn.refusal is None:
                from referee.table import ledger  # lazy: only a table whose snapshot failed heals it

                try:  # best effort: what was read is right either way, and the next read heals it
                    with db.write(conn):
                        ledger.heal(conn, rules)
                except (TableError, sqlite3.Error):
                    pass
    finally:
        if not keep:
            conn.close()


def _inode(path: Path) -> int | None:
    try:
        return path.stat().st_ino
    except OSError:
        return None


def game_at(path: Path) -> str | None:
    """The game of the table at `path`, or None where there is no readable table
    (for routing a game's own commands; opens it once for the command)."""
    if not path.is_file():
        return None
    try:
        with opened(path) as (_, rules):
            return rules.slug.value
    except RefereeError:  # damaged or not ours: the command itself says so; route by the file's word alone
        return db.peek_game(path)


def status_of(conn: sqlite3.Connection, rules: GameRules, path: Path) -> StatusView:
    last = log.last_event(conn)
    try:
        state, steps = log.state_at(conn, rules, last.head)
    except RefereeError:
        if getattr(conn, "newer", None) is None:
            raise
        from referee.table.known import known_state  # lazy: only a newer referee's table needs it

        state, upto = known_state(conn, rules)
        note(f"the table {path} is shown up to event {upto}, the last this referee can read")
        return StatusView(state, rules.title, last.seq, path, log.seed_of(conn))
    if steps and getattr(conn, "heal", None) is not None and not any(n == last.head for n, _ in conn.heal):
        conn.heal.append((last.head, state))  # type: ignore[attr-defined]  # a missing head snapshot: save one
    return StatusView(state, rules.title, last.seq, path, log.seed_of(conn))


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
    from referee.rules import dice as dicelib  # lazy: dice, the ledger, results: not needed to read a table
    from referee.table import ledger  # lazy: dice, the ledger, results: not needed to read a table
    slug = GameSlug.parse(game)
    rules = rules_for(slug)
    if not players:
        raise RefereeError("name the players: --player NAME or --player NAME:FACTION, once per player")
    setup = Setup(slug, parse_players(players), seed, life, parse_house_rules(house_rules), rules.version)
    faces = rules.setup_dice(setup)
    entered = dicelib.parse_entered(dice_text) if dice_text is not None else None
    if entered is not None:
        rolled, rng = dicelib.check_entered(entered, faces, f"setting up {slug.value}"), 0
    else:
        rolled, rng = dicelib.draw(seed, 0, faces), len(faces)  # seed None: the OS's randomness, now
    rules.setup(setup, rolled)  # raises if the setup is not allowed
    ensure_replaceable(path, force)

    def build(conn: sqlite3.Connection) -> None:
        ledger.start(conn, rules, setup, rolled, ledger.Stamp(rng=rng))

    from referee.table.files import build_then_swap  # lazy: only `new` writes a whole table (and it loads datetime)

    archived = build_then_swap(path, build)
    view = status(path)
    _backed_up(path, view.log_length, "new")
    return replace(view, archived=archived)


def _backed_up(path: Path, seq: int, reason: str | None = None) -> None:
    """A rolling backup, if one is due after writing event `seq` (table/backups.py)."""
    from referee.table import backups  # lazy: only a command that wrote takes a backup

    backups.after_write(path, seq, reason)


def ensure_replaceable(path: Path, force: bool) -> None:
    """Refuse to start over in a file that already holds a table (finished or
    not) or anything else, unless forced; forced, the old file is kept as an
    archive beside the new one (build_then_swap). Touches nothing."""
    if not path.exists() or force:
        return
    try:
        with opened(path) as (conn, rules):
            status = status_of(conn, rules, path)
    except TableError as exc:
        raise TableError(f"{exc}; pass --force to start anyway (the file is kept, renamed beside the new table)") from None
    s = status.state
    what = f"a finished {s.game.value} game (won by {s.winner}" if s.winner else \
        f"an unfinished {s.game.value} game (turn {s.turn}"
    raise TableError(
        f"{path} already holds {what}, {status.log_length} events); "
        "choose another --db, or pass --force to start anyway: the old table is then kept, "
        "renamed beside the new one"
    )


# ---- reading ---------------------------------------------------------------


def status(path: Path) -> StatusView:
    with opened(path) as (conn, rules), db.read(conn):
        return status_of(conn, rules, path)


# ---- changing ---------------------------------------------------------------


def parse_change(text: str, what: str) -> dict[str, int]:
    """`-5` / `+3` change by an amount, `=10` sets a value and `=-10` (or
    `= -10`) sets a negative one. Only the form is checked here: whether the
    field may go below 0 (life and capital may not, the crowd and fortitude
    may) is the rules' call, refused there with the player and the rule named."""
    cleaned = text.strip().replace("\u2212", "-")
    match = _CHANGE.match(cleaned)
    if not match:
        if cleaned.isdigit():
            raise RefereeError(
                f"{what}: write +{cleaned} to add, -{cleaned} to take away, or ={cleaned} to set it"
            )
        raise RefereeError(f"{what}: {text!r} is not an amount; write -5, +3, =10 or =-10")
    value = int(match["number"])
    if match["sign"] is None:
        return {"to": -value if match["to_sign"] == "-" else value}
    return {"by": value if match["sign"] == "+" else -value}


def parse_resolve(words: Sequence[str]) -> tuple[int | None, str | None]:
    """`resolve [N] [ANSWER]`: the prompt's number if the first word is one, then the answer."""
    words = [w for w in words if w.strip()]
    number = None
    if words and words[0].lstrip("#").isdigit():
        number = int(words.pop(0).lstrip("#"))
    if len(words) > 1:
        raise RefereeError(f"resolve takes one answer word, not {' '.join(words)!r}; e.g. resolve 3 done")
    return number, (words[0].lower() if words else None)


def act(path: Path, name: str, args: dict[str, object], actor: str | None = None,
        cards: Sequence[str] = (), dice_text: str | None = None, drawn: bool = False,
        unchecked: bool = False) -> ActResult:
    """Check and apply one game action (life, capital, crowd, end-turn, win ...).
    `drawn`: it takes as many dice as it rolls, drawn as it is played (ledger.perform).
    `unchecked`: a card it keeps hidden was given by its QR text, which is not
    checked aloud for an old printing (referee.table.printnotes)."""
    from referee.rules import copy_register  # lazy: dice, the ledger, results: not needed to read a table
    from referee.rules import dice as dicelib  # lazy: dice, the ledger, results: not needed to read a table
    from referee.table import ledger  # lazy: dice, the ledger, results: not needed to read a table
    from referee.table import results  # lazy: dice, the ledger, results: not needed to read a table
    entered = dicelib.parse_entered(dice_text) if dice_text is not None else None
    with opened(path) as (conn, rules):
        uses = _cards(cards, rules.slug)
        numbered = copy_register.args_for(uses)  # the printed copies named by their QR codes
        action = Action(
            name, {**{k: v for k, v in args.items() if v is not None},
                   **({copy_register.ARG: numbered} if numbered else {})},
            PlayerName(actor) if actor is not None else None,
            {u.card_id: u.revision for u in uses},
        )
        outcome = ledger.perform(conn, rules, action, entered, drawn=drawn)
    _backed_up(path, outcome.event.seq)
    from referee.table.printnotes import stated  # lazy: only an action naming cards words their prints

    shown = public_event(rules, outcome.event)
    warnings = stated(rules.hides_cards(name), dict(shown.args) if shown else {}, uses, unchecked)
    return results.ActResult(shown, outcome.before, outcome.after, warnings, facts=outcome.facts)


def perform(path: Path, action: Action, entered: Sequence[int] | None = None,
            guard: Callable | None = None, warnings: Sequence[str] = (),
            drawn: bool = False) -> tuple[ActResult, ActResult]:
    """Check and apply an Action already built (a phone's chosen move), in one write
    transaction with `guard` (ledger.Guard). Returns the result as the log
    and every other player see it, and as the actor sees it (their own
    face-down cards named)."""
    from referee.table import ledger  # lazy: the ledger and results are not needed to read a table
    from referee.table import results  # lazy: the ledger and results are not needed to read a table
    with opened(path) as (conn, rules):
        outcome = ledger.perform(conn, rules, action, entered, guard=guard, drawn=drawn)
    _backed_up(path, outcome.event.seq)
    shown = results.ActResult(public_event(rules, outcome.event), outcome.before, outcome.after, tuple(warnings),
                              facts=outcome.facts)
    return shown, replace(shown, event=outcome.event)


def _cards(codes: Sequence[str], game: GameSlug) -> list[CardUse]:
    if not codes:
        return []
    from referee.cards import resolve  # lazy: the card index, only when a card is named

    return [resolve(code, game.value) for code in codes]


def roll(path: Path, expr_text: str, dice_text: str | None = None, actor: str | None = None,
         reason: str | None = None) -> RollResult:
    from referee.rules import dice as dicelib  # lazy: dice, the ledger, results: not needed to read a table
    from referee.table import ledger  # lazy: dice, the ledger, results: not needed to read a table
    from referee.table import results  # lazy: dice, the ledger, results: not needed to read a table
    expr = dicelib.parse_expr(expr_text)
    entered = dicelib.parse_entered(dice_text) if dice_text is not None else None
    with opened(path) as (conn, rules):
        outcome = ledger.roll(conn, rules, expr, entered, actor, reason)
    _backed_up(path, outcome.event.seq)
    return results.RollResult(outcome.event)


def undo(path: Path, actor: str | None = None) -> ActResult:
    from referee.table import ledger  # lazy: the ledger and results are not needed to read a table
    from referee.table import results  # lazy: the ledger and results are not needed to read a table
    with opened(path) as (conn, rules):
        outcome = ledger.undo(conn, rules, actor)
        target = log.get_event(conn, outcome.event.target)  # type: ignore[arg-type]
    _backed_up(path, outcome.event.seq, "undo" if outcome.before.turn != outcome.after.turn else None)
    return results.ActResult(outcome.event, outcome.before, outcome.after, undone=public_event(rules, target))


def redo(path: Path, actor: str | None = None) -> ActResult:
    from referee.table import ledger  # lazy: the ledger and results are not needed to read a table
    from referee.table import results  # lazy: the ledger and results are not needed to read a table
    with opened(path) as (conn, rules):
        outcome = ledger.redo(conn, rules, actor)
        target = log.get_event(conn, outcome.event.target)  # type: ignore[arg-type]
    _backed_up(path, outcome.event.seq)
    return results.ActResult(outcome.event, outcome.before, outcome.after, undone=public_event(rules, target))


def games() -> list[GameRules]:
    """Every game the referee knows, with its player counts and house rules."""
    return [rules_for(slug) for slug in GameSlug]
