"""Moves from a player's phone (`referee serve --play`): the core of the play API.

One path for every action: a phone sends a command line (as `referee moves`
gives it); `referee.cli.parse.plan` reads it with the CLI's own commands
into the Action the CLI would play, and `referee.table.operations.perform` checks and
applies it like any typed command, in one write transaction. The phone's
player is the actor: a move naming another actor is refused before the
rules see it, and the rules judge turn and phase with that actor. The event
carries the phone marker (model.VIA) as data, so the log says "Ann (phone)".

Concurrency: this server takes one phone move at a time (a lock), and the
transaction's guard checks that the table is still at the version the
command was read against; if another process (the scorekeeper's CLI) wrote
in between, the command is read again against the new table. Each move is
judged against the state it meets: none is lost, none applied twice. A
refused move whose page showed an older version gets 409 "no longer
possible: ...".

Nothing here prints or knows HTTP beyond the status code a refusal carries.
"""
from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Mapping

from referee.cli import parse as cli_parse
from referee.rules import legal
from referee.table import moves
from referee.rules import prompts
from referee.words import render
from referee.table import operations as table
from referee.errors import RefereeError, TableError
from referee.model import VIA, VIA_PHONE, Action, Event, State

MAX_BODY = 4096  # bytes of a POST's body
BURST = 8  # moves a token may send at once ...
RATE_PER_S = 5.0  # ... and then this many a second
RETRIES = 50  # times a command is read again when another process wrote first


class PlayError(RefereeError):
    """A refused request, with the HTTP status it answers with."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Acted:
    """A move played from a phone: the echo its player sees (their own
    face-down cards named), the echo everyone else may see, the new version."""

    player: str
    echo: str
    public_echo: str
    version: int

    def to_json(self) -> dict[str, Any]:
        return {"echo": self.echo, "version": self.version}


class RateLimit:
    """A token bucket per key: `burst` at once, then `rate` a second."""

    def __init__(self, burst: int = BURST, rate: float = RATE_PER_S, clock: Callable[[], float] = time.monotonic):
        self.burst, self.rate, self.clock = burst, rate, clock
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: str) -> bool:
        now = self.clock()
        with self._lock:
            level, then = self._buckets.get(key, (float(self.burst), now))
            level = min(float(self.burst), level + (now - then) * self.rate)
            if level < 1.0:
                self._buckets[key] = (level, now)
                return False
            self._buckets[key] = (level - 1.0, now)
            return True


class _Moved(Exception):
    """The table changed between reading a command and writing it: read again."""


def read_body(body: bytes) -> tuple[str, int | None]:
    """The command and optional version of a POST's JSON body; PlayError 400 otherwise."""
    if len(body) > MAX_BODY:
        raise PlayError(413, f"the request is larger than {MAX_BODY // 1024} KiB")
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise PlayError(400, 'the request is not JSON; send {"command": "...", "version": N}') from None
    if not isinstance(data, dict):
        raise PlayError(400, 'the request must be a JSON object: {"command": "...", "version": N}')
    command = data.get("command")
    if not isinstance(command, str) or not command.strip():
        raise PlayError(400, 'the request has no "command" (a command line as the moves list gives it)')
    if legal.CARD_PLACEHOLDER in command:
        raise PlayError(400, f"the command still holds {legal.CARD_PLACEHOLDER}: choose the card first")
    version = data.get("version")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise PlayError(400, '"version" must be a whole number (the version the moves came from)')
    return command.strip(), version


class Play:
    """The play API of one served table."""

    def __init__(self, path: Path, commands: Any, on_act: Callable[[Acted], None] | None = None,
                 limit: RateLimit | None = None):
        """`commands`: the `referee` click group, whose commands read a phone's
        command line exactly as they read a typed one; `on_act`: told of each
        move played (the scorekeeper's terminal echoes it)."""
        self.path = path
        self.commands = commands
        self.on_act = on_act
        self.limit = limit if limit is not None else RateLimit()
        self._lock = threading.Lock()
        self._held = _hold(path)

    def close(self) -> None:
        if self._held is not None:
            self._held.close()
            self._held = None

    # ---- GET /p/<token>/moves ----------------------------------------------------

    def moves(self, player: str) -> dict[str, Any]:
        """What `player` may do now, for their page."""
        status = self._status()
        state = status.state
        view = moves.moves_view(state, player)
        out: list[dict[str, Any]] = []
        for move in view.moves:
            item: dict[str, Any] = {"kind": move.kind, "text": move.text, "command": move.command,
                                    "details": _plain(move.details)}
            if legal.CARD_PLACEHOLDER in move.command:
                item["cards"] = usable_cards(state, view.player, move.kind, move.details)
            out.append(item)
        return {"player": view.player, "version": status.log_length, "waiting": waiting(state, view, bool(out)),
                "moves": out}

    # ---- POST /p/<token>/act -----------------------------------------------------

    def act(self, player: str, body: bytes) -> Acted:
        """Play the command in a POST's body as `player`; PlayError when refused."""
        if not self.limit.allow(player):
            raise PlayError(429, "too many moves at once; wait a moment and send it again")
        command, version = read_body(body)
        return self.submit(player, command, version)

    def submit(self, player: str, command: str, version: int | None = None) -> Acted:
        with self._lock:
            for _ in range(RETRIES):
                try:
                    acted = self._try(player, command, version)
                except _Moved:
                    continue
                if self.on_act is not None:
                    with contextlib.suppress(OSError, ValueError):  # a closed terminal never undoes a played move
                        self.on_act(acted)
                return acted
        raise PlayError(503, "the table kept changing while this move was read; send it again")

    def _try(self, player: str, command: str, version: int | None) -> Acted:
        status = self._status()
        state, seen = status.state, status.log_length
        stale = version is not None and version != seen
        if state.finished:
            why = f"the game is over (won by {state.winner})" if state.winner else "the game is over"
            raise PlayError(409 if stale else 422, f"no longer possible: {why}" if stale else why)
        try:
            planned = cli_parse.plan(self.commands, self.path, command, state.player(player).name, state.game.value)
        except cli_parse.NotAMove as exc:
            raise PlayError(400, str(exc)) from None
        except TableError as exc:
            raise PlayError(503, _scrub(str(exc), self.path)) from None
        except RefereeError as exc:
            raise _refusal(_scrub(str(exc), self.path), stale) from None
        action = _as_player(state, planned.action, player)

        def guard(last: Event, before: State, checked: Action) -> None:
            if last.seq != seen:
                raise _Moved()

        try:
            shown, own = table.perform(self.path, action, planned.entered, guard, planned.warnings, planned.drawn)
        except _Moved:
            raise
        except TableError as exc:
            raise PlayError(503, _scrub(str(exc), self.path)) from None
        except RefereeError as exc:
            raise _refusal(_scrub(str(exc), self.path), stale) from None
        return Acted(state.player(player).name, _echo(own), _echo(shown), own.event.seq)

    def _status(self):
        try:
            return table.status(self.path)
        except RefereeError as exc:
            raise PlayError(503, _scrub(str(exc), self.path)) from None


def _echo(result: Any) -> str:
    """The CLI's echo of a played move; the move is in the log already, so a
    failure to word it never turns into a refusal."""
    try:
        return render.act(result)
    except Exception:  # wording only: the bare row
        return f"#{result.event.seq} {result.event.action}"


def _hold(path: Path) -> sqlite3.Connection | None:
    """An idle read-only connection kept open while the table is served: the
    many short connections of moves and polls then never close the table's
    last one, which would fold the WAL back and delete it each time (a few
    milliseconds of every move). It holds no lock and no transaction."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
        conn.execute("SELECT COUNT(*) FROM meta").fetchone()  # a read joins the WAL; the transaction ends here
        return conn
    except (sqlite3.Error, OSError):
        return None


def _refusal(message: str, stale: bool) -> PlayError:
    return PlayError(409, f"no longer possible: {message}") if stale else PlayError(422, message)


def _scrub(message: str, path: Path) -> str:
    """An error as a page may show it: the table named by its file name, no folders."""
    for form in {str(path.resolve()), str(path.absolute()), str(path)}:
        message = message.replace(form, path.name)
    return message


def _as_player(state: State, action: Action, player: str) -> Action:
    """The action with `player` as its actor, marked as sent from a phone;
    PlayError 403 when it is another player's (by its actor, or, for an
    action without one, by the player it is about)."""
    me = state.player(player).name
    if action.actor is not None:
        if state.player(action.actor).name != me:
            raise PlayError(403, f"{me}'s link can only make {me}'s moves, not {state.player(action.actor).name}'s")
    else:
        about = action.args.get("player")
        if isinstance(about, str) and _name(state, about) not in (None, me):
            raise PlayError(403, f"{me}'s link can only make {me}'s moves, not {_name(state, about)}'s")
    return replace(action, actor=me, args={**action.args, VIA: VIA_PHONE})


def _name(state: State, text: str) -> str | None:
    try:
        return state.player(text).name
    except RefereeError:
        return None


def waiting(state: State, view: moves.MovesView, has_moves: bool) -> str | None:
    """Why the player has no move now, in words; None when they have one."""
    if view.over:
        return f"the game is over ({view.over})"
    if has_moves:
        return None
    others = sorted({p.player for p in prompts.pending(state) if p.player != view.player})
    if others:
        return "waiting for " + ", ".join(others)
    return f"{state.active_player.name}'s turn"


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


NEUTRAL_DECKS = ("shared", "devices", "arguments")  # decks every player draws from
NEVER_HELD = {"reference", "leader", "potus", "token", "coin"}  # card types no hand holds
KIND_TYPES = {  # (game, move kind) -> the card types its <CARD> may be, where the move's details do not say
    ("cold-war", "attack"): {"military"}, ("cold-war", "special"): {"special"},
    ("debate", "argue"): {"argument"}, ("debate", "device"): {"rhetorical-device"},
    ("divide-and-conquer", "event"): {"event"}, ("divide-and-conquer", "recruit"): {"group"},
    ("divide-and-conquer", "unaffiliate"): {"group"}, ("divide-and-conquer", "attach"): {"asset", "deficit"},
}


def usable_cards(state: State, player: str, kind: str, details: Mapping[str, Any]) -> list[dict[str, str]]:
    """The printed cards `player` may put where a move says `<CARD>`: the
    cards of the table's game from the player's own deck (their faction) or
    a deck every player shares, of the types the move takes (its details'
    `type`, else the kind's), within its `max_cost`. The referee does not see
    hands, so this is what the hand may hold, not what it holds."""
    from referee.cards.index import load_index, project_root  # lazy: the card index, only for a move with a card

    try:
        index = load_index(project_root())
    except Exception:  # no card sources at hand: the page offers a typed code only
        return []
    game = state.game.value
    faction = (state.player(player).faction or "").lower()
    cards = [c for c in index.cards.values() if c.game == game and c.type not in NEVER_HELD]
    own = [c for c in cards if c.deck.lower() == faction]
    if own:
        cards = own + [c for c in cards if c.deck.lower() in NEUTRAL_DECKS]
    else:
        cards = [c for c in cards if c.deck.lower() in NEUTRAL_DECKS or c.deck.lower() not in _faction_decks(game)]
    wanted = _types(details) or KIND_TYPES.get((game, kind), set())
    if wanted:
        cards = [c for c in cards if c.type in wanted]
    top = details.get("max_cost")
    if isinstance(top, int):
        cards = [c for c in cards if not isinstance(c.fields.get("cost"), int) or c.fields["cost"] <= top]
    return [{"id": c.id, "name": c.name, "code": str(c.fields.get("code") or "")} for c in cards]


def _faction_decks(game: str) -> set[str]:
    return {"culture-war": {"anarchy", "community", "conservative", "libertarian", "technocracy"},
            "cold-war": {"albion", "grauberg", "vostokia", "westmark"}}.get(game, set())


def _types(details: Mapping[str, Any]) -> set[str]:
    value = details.get("type")
    if isinstance(value, str):
        return {value}
    if isinstance(value, (list, tuple)):
        return {str(v) for v in value}
    return set()
