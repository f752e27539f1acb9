"""The answer window's clock (`referee serve --play --answer-timeout SECONDS`).

When the rules wait for one player's answer (`rules.timed_answer`: a Cold
War attack, Special, Triad or Fallen Leader attack aimed at that player, or
a challenge's loser choosing), the window has SECONDS to be answered. Its
clock starts at the time the log recorded for the last change of the table
(`log.last_change`: the action that opened the window, or the undo or redo
that brought it back), never at a page's own clock, so every phone, the TV
and the server count down to the same moment, and an undone timeout gives
the target a fresh SECONDS.

Once the time is up, the server records exactly what `referee answer
--timeout` records, under the target's name (the log says "Bo (timer)"),
through the same rules and the same guarded write as a phone's move
(Play.expire): an answer that reached the table first wins, and the
timeout is then not recorded at all. Replay reads it like any other answer.

Whether a window waits, and for how long, is decided from public facts only
(the rules open the window from what every player can see; SECONDS is the
server's setting), so the countdown tells nothing hidden.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Callable

from referee.errors import RefereeError
from referee.model import Action

DEFAULT_S = 60.0  # `serve --answer-timeout`'s default; 0 waits for ever
TICK_S = 0.25  # how often the server looks whether a window's time is up


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def parse_time(text: str) -> datetime:
    """A log row's time (ISO 8601, "Z" for UTC) as an aware datetime."""
    when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return when if when.tzinfo is not None else when.replace(tzinfo=timezone.utc)


def time_text(when: datetime) -> str:
    """A time as the log writes it (UTC, milliseconds, "Z")."""
    return when.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class Waiting:
    """An answer window the clock runs for: what is recorded when time is up
    (`action`, its actor the player waited for), when the window (re)opened,
    its length, and the log's length it was read at."""

    action: Action
    opened: datetime
    seconds: float
    seq: int

    @property
    def player(self) -> str:
        return str(self.action.actor)

    @property
    def deadline(self) -> datetime:
        return self.opened + timedelta(seconds=self.seconds)

    def due(self, now: datetime) -> bool:
        return now >= self.deadline

    def to_json(self) -> dict[str, Any]:
        """What the pages show: who answers, and the recorded times the countdown runs between."""
        return {"player": self.player, "opened": time_text(self.opened), "seconds": self.seconds,
                "deadline": time_text(self.deadline)}


def waiting(table: Any, seconds: float) -> Waiting | None:
    """The window the clock runs for on `table` (a snapshot.TableNow), or None:
    no answer is waited for, the game is over, or `seconds` is 0 (no clock)."""
    if table is None or seconds <= 0 or table.state.finished or not table.changed:
        return None
    action = table.rules.timed_answer(table.state)
    if action is None or action.actor is None:
        return None
    return Waiting(action, parse_time(table.changed), float(seconds), table.seq)


class AnswerTimer:
    """The server's side of the clock: it reads the watch's latest snapshot and,
    once a window's time is up, has the play API record the timeout."""

    def __init__(self, watch: Any, play: Any, seconds: float, clock: Callable[[], datetime] = utc_now,
                 warn: Callable[[str], None] | None = None):
        """`warn`: told, once per window, when the rules refuse its timeout (the scorekeeper's terminal)."""
        self.watch, self.play, self.seconds, self.clock = watch, play, float(seconds), clock
        self.warn = warn
        self._refused: int | None = None  # the log's length at a window whose timeout was refused
        self._troubles: set[str] = set()  # unexpected failures already told

    def due(self) -> Waiting | None:
        found = waiting(self.watch.table, self.seconds) if self.watch.error is None else None
        if found is None or found.seq == self._refused:
            return None
        return found if found.due(self.clock()) else None

    def fire(self) -> Any:
        """Record the timeout of the window whose time is up (Play.expire); None
        when none is due, or the table moved on first (an answer came in time)."""
        found = self.due()
        if found is None:
            return None
        try:
            return self.play.expire(found.action, found.seq)
        except RefereeError as exc:  # (the rules' own timed answer refused: said once, not retried)
            self._refused = found.seq
            if self.warn is not None:
                self.warn(f"{found.player}'s answer window timed out, but the timeout was refused: {exc}; "
                          f"record it with `referee answer --timeout`")
            return None

    def trouble(self, exc: BaseException) -> None:
        """An unexpected failure of a tick: told once on the terminal; the next tick tries again."""
        text = f"{type(exc).__name__}: {exc}"
        if text not in self._troubles and self.warn is not None:
            self._troubles.add(text)
            self.warn(f"the answer window's timer failed ({text}); it tries again, and "
                      "`referee answer --timeout` records a timeout by hand")
