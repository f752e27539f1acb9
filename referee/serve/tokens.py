"""Each player's private link: an unguessable token per player.

Kept in a small JSON file beside the table (`table.db.serve-tokens.json`,
readable by its owner only), never in the event log, so a shared export or
log never carries one. The same tokens are reused each time the table is
served; a player added later gets a new one. `referee links --rotate
PLAYER` replaces one; a running server reads the file again when it changes,
so the old link stops working at once.
"""
from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Iterable

from pnp.write import replace_file
from referee.errors import TableError

SUFFIX = ".serve-tokens.json"
TOKEN_BYTES = 24


def token_file(table: Path) -> Path:
    return table.with_name(table.name + SUFFIX)


class TokenStore:
    """Player name -> token, loaded from and saved beside the table."""

    def __init__(self, table: Path, players: Iterable[str]):
        self.path = token_file(table)
        self.tokens: dict[str, str] = self._read() or {}
        self._seen = self._marker()
        names = list(players)
        changed = False
        for name in names:
            if name not in self.tokens:
                self.tokens[name] = secrets.token_urlsafe(TOKEN_BYTES)
                changed = True
        self.tokens = {n: self.tokens[n] for n in names}
        if changed or not self.path.exists():
            self._save()

    def _read(self) -> dict[str, str] | None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError):
            return None  # unreadable or damaged: new tokens replace it
        if not isinstance(data, dict):
            return None
        return {str(k): str(v) for k, v in data.items() if isinstance(v, str) and len(v) >= 16}

    def _marker(self) -> tuple[int, int, int] | None:
        try:
            st = self.path.stat()
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size, st.st_ino)

    def _save(self) -> None:
        try:
            replace_file(self.path, json.dumps(self.tokens, indent=2).encode("utf-8"), mode=0o600, durable=False)
        except OSError as exc:
            raise TableError(f"cannot write the private links' tokens to {self.path}: {exc.strerror}") from None
        self._seen = self._marker()

    def refresh(self) -> bool:
        """Read the file again if it changed (`referee links --rotate` in another
        process): a replaced token stops working at once. Players the file
        lost keep no link; a damaged file changes nothing. True if a token changed."""
        now = self._marker()
        if now == self._seen:
            return False
        self._seen = now
        found = self._read()
        if found is None:
            return False
        before = self.tokens
        self.tokens = {name: found[name] for name in self.tokens if name in found}
        return self.tokens != before

    def holds(self, player: str, token: str) -> bool:
        """Whether `token` is still `player`'s link (not rotated away), from what was last read."""
        known = self.tokens.get(player)
        return known is not None and secrets.compare_digest(known.encode(), token.encode())

    def rotate(self, player: str) -> str:
        """A new token for `player` (named as the table spells it); the old one stops working."""
        if player not in self.tokens:
            raise TableError(f"no private link for {player!r}; the players are {', '.join(self.tokens)}")
        self.tokens[player] = secrets.token_urlsafe(TOKEN_BYTES)
        self._save()
        return self.tokens[player]

    def player_of(self, token: str) -> str | None:
        """The player whose token this is (compared in constant time), or None."""
        self.refresh()
        found = None
        for name, known in list(self.tokens.items()):
            if secrets.compare_digest(known.encode(), token.encode()):
                found = name
        return found
