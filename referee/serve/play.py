"""Moves from a player's phone (`referee serve --play`): the core of the play API.

One path for every action: a phone names one of its listed moves, as data
(the move's action, or its command words; `chosen.py`), and the server plays
the Action the rules' move generator made for it through
`referee.table.operations.perform`: the same `check` and `ledger.perform` as
a typed command, in one write transaction. Nothing here parses a command
line with the CLI (no click): what is not among the player's moves is
refused before the rules are asked. The phone's player is the actor; the
event carries the phone marker (model.VIA) as data, so the log says "Ann
(phone)".

Concurrency: this server takes one phone move at a time (a lock), and the
transaction's guard checks that the table is still at the version the move
was chosen against; if another process (the scorekeeper's CLI) wrote in
between, the move is chosen again against the new table. Each move is
judged against the state it meets: none is lost, none applied twice. A
refused move whose page showed an older version gets 409 "no longer
possible: ...". A refused move costs one read of the table and no write.

Nothing here prints or knows HTTP beyond the status code a refusal carries.
"""
from __future__ import annotations

import contextlib
import json
import re
import sqlite3
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from referee.rules import legal, prompts
from referee.serve import chosen
from referee.serve import hands
from referee.serve.hands import HandStore
from referee.serve.usable import usable_cards
from referee.table import moves
from referee.words import render
from referee.rules import rules_for
from referee.table import operations as table
from referee.errors import RefereeError, TableError
from referee.model import VIA, VIA_PHONE, VIA_TIMER, Action, Event, State
from referee.serve.limits import loads

MAX_BODY = 4096  # bytes of a POST's body
BURST = 8  # moves a token may send at once ...
RATE_PER_S = 5.0  # ... and then this many a second
READ_BURST = 20  # moves lists a token may ask for at once ...
READ_RATE_PER_S = 10.0  # ... and then this many a second (a page asks once per change of the table)
RETRIES = 50  # times a move is chosen again when another process wrote first


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
    via: str = VIA_PHONE  # how it reached the referee: a phone, or the answer window's timer

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


def read_body(body: bytes) -> tuple[dict[str, Any], int | None]:
    """The move a POST's JSON body names and its optional version; PlayError 400 otherwise."""
    data = json_object(body, '{"action": {...}, "version": N} or {"command": "..."}')
    if "action" not in data and "command" not in data:
        raise PlayError(400, 'the request names no move: send {"action": ...} or {"command": ...} as the moves list gives it')
    version = data.get("version")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise PlayError(400, '"version" must be a whole number (the version the moves came from)')
    if "action" not in data:
        try:
            chosen.words_of(data.get("command"))
        except chosen.BadMove as exc:
            raise PlayError(400, str(exc)) from None
    return data, version


class Play:
    """The play API of one served table."""

    def __init__(self, path: Path, on_act: Callable[[Acted], None] | None = None,
                 limit: RateLimit | None = None, reads: RateLimit | None = None):
        """`on_act`: told of each move played (the scorekeeper's terminal
        echoes it); `limit`: moves per token; `reads`: moves lists per token."""
        self.path = path
        self.on_act = on_act
        self.limit = limit if limit is not None else RateLimit()
        self.reads = reads if reads is not None else RateLimit(READ_BURST, READ_RATE_PER_S)
        self._lock = threading.Lock()
        self._held = _hold(path)
        self.hands = HandStore(path)

    def close(self) -> None:
        if self._held is not None:
            self._held.close()
            self._held = None

    # ---- GET /p/<token>/moves ----------------------------------------------------

    def moves(self, player: str, limited: bool = True) -> dict[str, Any]:
        """What `player` may do now, for their page (`limited`: counted against
        the token's rate here; the HTTP route counts it before a thread is used)."""
        if limited and not self.reads.allow(player):
            raise PlayError(429, "too many requests for the moves at once; wait a moment")
        status = self._status()
        state = status.state
        kept = self._kept(state, state.player(player).name)
        view = moves.moves_view(state, player, kept)
        words = _own_words(state, view.player, kept is not None)
        out: list[dict[str, Any]] = []
        for move in view.moves:
            item: dict[str, Any] = {"kind": move.kind, "text": words(move.text), "command": move.command,
                                    "action": _named(move.action), "details": _plain(move.details)}
            own = _own_face_down(state, view.player, move.action)
            if own:
                item["own"] = own
            if legal.CARD_PLACEHOLDER in move.command:
                item["cards"] = usable_cards(state, view.player, move.kind, move.details)
            out.append(item)
        found = {"player": view.player, "version": status.log_length, "waiting": waiting(state, view, bool(out)),
                 "hand_kept": kept is not None, "moves": out}
        if kept is not None:  # the kept cards' printed names, for the page's narrowing of a long list
            from referee.serve.snapshot import card_info  # lazy: the card index, only with a kept hand

            found["names"] = {c: info["name"] for c, info in card_info(state.game.value, kept).items()}
        return found

    # ---- GET and POST /p/<token>/hand ----------------------------------------------

    def hand(self, player: str, body: bytes | None = None) -> dict[str, Any]:
        """The hand `player` keeps on their phone, beside the table's count of
        it; with a POST's body (`{"drew": [CODE...], "played": [CODE...]}`),
        changed first (refused whole, 422, when it would not fit the count)."""
        state = self._status().state
        me = state.player(player).name
        rules = rules_for(state.game)
        if body is not None:
            data, _ = _object(body)
            ids = {key: _card_ids(state, data.get(key, []), key) for key in ("drew", "played")}
            try:
                kept = hands.keep(rules, state, self.hands, me, ids["drew"], ids["played"])
            except TableError as exc:
                raise PlayError(503, _scrub(str(exc), self.path)) from None
            except RefereeError as exc:
                raise PlayError(422, str(exc)) from None
        else:
            kept = hands.held(rules, state, self.hands, me)
        from referee.serve.snapshot import card_info, named  # lazy: names, only for the hand's page

        names = card_info(state.game.value, kept.cards)
        return {"player": me, "kept": kept.kept, "count": len(kept.cards), "table_count": kept.counted,
                "missing": kept.missing, "warnings": [named(state.game.value, w) for w in kept.warnings],
                "cards": [{"id": c, "name": names.get(c, {}).get("name", c)} for c in kept.cards],
                "deck": usable_cards(state, me, "", {}) if kept.counted is not None else []}

    def _kept(self, state: State, name: str) -> list[str] | None:
        """The hand `name` keeps, when they keep one and hold a hand now (a Fallen Leader holds none)."""
        kept = self.hands.kept(name)
        if kept is None or rules_for(state.game).hand_size(state, name) is None:
            return None
        return kept

    # ---- POST /p/<token>/act -----------------------------------------------------

    def act(self, player: str, body: bytes, limited: bool = True) -> Acted:
        """Play the move a POST's body names as `player`; PlayError when refused
        (`limited`: as for `moves`)."""
        if limited and not self.limit.allow(player):
            raise PlayError(429, "too many moves at once; wait a moment and send it again")
        sent, version = read_body(body)
        return self.submit(player, sent, version)

    def submit(self, player: str, sent: Mapping[str, Any] | str, version: int | None = None) -> Acted:
        """Play the move `sent` names (a body's object, or a listed command's words)."""
        if isinstance(sent, str):
            sent = {"command": sent}
        with self._lock:
            for _ in range(RETRIES):
                try:
                    acted = self._try(player, sent, version)
                except _Moved:
                    continue
                if self.on_act is not None:
                    with contextlib.suppress(OSError, ValueError):  # a closed terminal never undoes a played move
                        self.on_act(acted)
                return acted
        raise PlayError(503, "the table kept changing while this move was read; send it again")

    def _try(self, player: str, sent: Mapping[str, Any], version: int | None) -> Acted:
        status = self._status()
        state, seen = status.state, status.log_length
        stale = version is not None and version != seen
        if state.finished:
            why = f"the game is over (won by {state.winner})" if state.winner else "the game is over"
            raise PlayError(409 if stale else 422, f"no longer possible: {why}" if stale else why)
        me = state.player(player).name
        kept = self._kept(state, me)
        try:
            move = chosen.choose(rules_for(state.game), state, me, sent, kept)
        except chosen.BadMove as exc:
            raise PlayError(400, str(exc)) from None
        except chosen.OthersMove as exc:
            raise PlayError(403, str(exc)) from None
        except RefereeError as exc:
            raise _refusal(_scrub(str(exc), self.path), stale) from None
        action = replace(move.action, actor=me, args={**move.action.args, VIA: VIA_PHONE})

        def guard(last: Event, before: State, checked: Action) -> None:
            if last.seq != seen:
                raise _Moved()

        try:
            shown, own = table.perform(self.path, action, None, guard, (), move.drawn)
        except _Moved:
            raise
        except TableError as exc:
            raise PlayError(503, _scrub(str(exc), self.path)) from None
        except RefereeError as exc:
            raise _refusal(_scrub(str(exc), self.path), stale) from None
        if kept is not None:  # the cards the move took leave the hand kept on the phone
            with contextlib.suppress(RefereeError):
                self.hands.forget_played(me, rules_for(state.game), state, own.event.to_action())
        from referee.table.printnotes import stated  # lazy: only a move naming cards words their prints

        aloud = stated(rules_for(state.game).hides_cards(action.name),
                       dict(shown.event.args) if shown.event else {}, move.uses)
        return Acted(me, _noted(_echo(own), move.warnings), _noted(_echo(shown), aloud), own.event.seq)

    # ---- the answer window's timer (timer.py) -------------------------------------

    def expire(self, action: Action, seq: int) -> Acted | None:
        """Record `action` (the rules' timed answer: `answer --timeout` under the
        target's name) when the log still ends at `seq`, the table the window's
        time ran out on; None when anything was written since (an answer came
        first, or an undo) or the table cannot be written just now (the timer
        tries again). One write, like a move; the rules' refusal is raised."""
        timed = replace(action, args={**action.args, VIA: VIA_TIMER})

        def guard(last: Event, before: State, checked: Action) -> None:
            if last.seq != seq:
                raise _Moved()

        with self._lock:
            try:
                shown, own = table.perform(self.path, timed, None, guard)
            except (_Moved, TableError):
                return None
            acted = Acted(str(action.actor), _echo(shown), _echo(shown), own.event.seq, VIA_TIMER)
            if self.on_act is not None:
                with contextlib.suppress(OSError, ValueError):
                    self.on_act(acted)
            return acted

    def _status(self):
        try:
            return table.status(self.path)
        except RefereeError as exc:
            raise PlayError(503, _scrub(str(exc), self.path)) from None


def _own_words(state: State, player: str, kept: bool) -> Callable[[str], str]:
    """How a move's words read on `player`'s own phone: with their hand kept,
    every card id by its printed name."""
    from referee.serve.snapshot import named  # lazy: the card index, only for a phone's moves

    game = state.game.value
    return (lambda text: named(game, text)) if kept else (lambda text: text)


def _own_face_down(state: State, player: str, action: Action | None) -> list[dict[str, Any]]:
    """The player's own face-down cards a move names by their spot (a Cold
    War regroup, a challenge's loss), each with the cards' names: shown on
    that player's own phone only."""
    if action is None:
        return []
    found = rules_for(state.game).own_face_down(state, player, action)
    if not found:
        return []
    from referee.serve.snapshot import card_info  # lazy: the card index, only for a move naming them

    names = card_info(state.game.value, {c for _, cards in found for c in cards})
    return [{"spot": spot, "cards": [names.get(c, {}).get("name", c) for c in cards]} for spot, cards in found]


def _noted(echo: str, notes: Sequence[str]) -> str:
    """An echo with its notes: on the player's own phone, every copy they
    scanned (their own cards, hidden or not); on the table's screen, only what
    the other players may hear (referee.table.printnotes)."""
    return "\n".join([echo, *(f"warning: {note}" for note in notes)])


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


def json_object(body: bytes, shape: str) -> dict[str, Any]:
    """A POST's body as one JSON object (PlayError 413 when too large, 400 when not JSON or not
    an object, `shape` saying what it should look like)."""
    if len(body) > MAX_BODY:
        raise PlayError(413, f"the request is larger than {MAX_BODY // 1024} KiB")
    try:
        data = loads(body)
    except ValueError as exc:
        raise PlayError(400, str(exc)) from None
    if not isinstance(data, dict):
        raise PlayError(400, f"the request must be a JSON object: {shape}")
    return data


def _object(body: bytes) -> tuple[dict[str, Any], None]:
    return json_object(body, '{"drew": [...], "played": [...]}'), None


def _card_ids(state: State, codes: Any, key: str) -> list[str]:
    """The card ids of `codes` (ids or QR texts), cards of the table's game; PlayError otherwise."""
    if not isinstance(codes, list) or not all(isinstance(c, str) and c.strip() for c in codes):
        raise PlayError(400, f'"{key}" must be a list of card codes')
    from referee.cards import resolve  # lazy: the card index, only when a card is named

    out = []
    for code in codes:
        try:
            out.append(resolve(code.strip(), state.game.value).card_id)
        except RefereeError as exc:  # the card index's own words (a copy never printed), no folder named
            why = re.sub(r" in the card sources at \S+", "", str(exc))
            raise PlayError(422, f"`{code[:80]}` is not a card of this table's game: {why}") from None
    return out


def _named(action: Action | None) -> dict[str, Any] | None:
    """A listed move's action as the phone sends it back: its name and args,
    without the `_`-data the rules derive themselves."""
    if action is None:
        return None
    return {"name": action.name, "args": _plain({k: v for k, v in action.args.items() if not k.startswith("_")})}


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))
