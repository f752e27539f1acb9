"""Noticing a change to the table file and keeping its snapshots.

`TableWatch.poll` reads the log's last sequence number through a read-only
connection (cheap: one query); only when it moved is the table read again
and the public snapshot rebuilt. Private snapshots are built on demand and
cached for the current version. Nothing here waits or sleeps: the server
calls `poll` every POLL_S seconds.
"""
from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from referee.errors import RefereeError
from referee.serve import snapshot, timer

POLL_S = 0.3


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class TableWatch:
    def __init__(self, path: Path):
        self.path = path
        self.marker: tuple[int, int, int] | None = None
        self.version = 0  # goes up by one whenever the snapshots change
        self.table: snapshot.TableNow | None = None
        self.error: str | None = None
        self._public = dumps({"error": "the table has not been read yet"})
        self._private: dict[str, str] = {}
        self._lock = threading.Lock()
        self.play = False  # `serve --play`: private pages offer moves (their snapshot says so)
        self.answer_timeout_s = 0.0  # `serve --play --answer-timeout`: the pages show the window's clock

    def poll(self) -> bool:
        """Read the table again if it changed; True if the snapshots changed."""
        now = snapshot.marker(self.path)
        if now is not None and now == self.marker and self.error is None:
            return False
        try:
            table = snapshot.read(self.path)
            public = dumps({**snapshot.public(table), **self._clock(table)})
            error = None
        except RefereeError as exc:
            message = self._scrub(str(exc))
            if self.error == message:
                return False
            table, public, error = self.table, dumps({"error": message}), message
        except Exception as exc:  # a damaged or half-replaced file: keep serving, say so
            message = f"cannot read the table just now ({type(exc).__name__})"
            if self.error == message:
                return False
            table, public, error = self.table, dumps({"error": message}), message
        with self._lock:
            self.marker = now if error is None else None
            self.table, self.error, self._public = table, error, public
            self._private = {}
            self.version += 1
        return True

    def _clock(self, table: snapshot.TableNow) -> dict:
        """`{"answer_clock": ...}` while an answer window's clock runs (timer.py), else nothing."""
        found = timer.waiting(table, self.answer_timeout_s)
        return {"answer_clock": found.to_json()} if found is not None else {}

    def _scrub(self, message: str) -> str:
        """An error as a page may show it: the table's folder (an absolute path
        on the scorekeeper's machine) left out, the file named by its name."""
        for form in {str(self.path.resolve()), str(self.path.absolute()), str(self.path)}:
            message = message.replace(form, self.path.name)
        for folder in {str(self.path.resolve().parent), str(self.path.absolute().parent)}:
            message = message.replace(folder + "/", "").replace(folder, "the table's folder")
        return message

    def public_json(self) -> str:
        return self._public

    def private_json(self, player: str) -> str:
        with self._lock:
            cached = self._private.get(player)
            table, error = self.table, self.error
        if cached is not None:
            return cached
        if error is not None or table is None:
            return dumps({"error": error or "the table has not been read yet"})
        try:
            text = dumps({**snapshot.private(table, player), **self._clock(table), "play": self.play})
        except RefereeError as exc:  # e.g. the player is not at this table any more
            text = dumps({"error": str(exc)})
        with self._lock:
            if self.table is table:
                self._private[player] = text
        return text

    def players(self) -> list[str]:
        return [p.name for p in self.table.state.players] if self.table is not None else []
