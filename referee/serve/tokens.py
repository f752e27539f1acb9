"""Each player's private link: an unguessable token per player.

Kept in a small JSON file beside the table (`table.db.serve-tokens.json`,
readable by its owner only), never in the event log, so a shared export or
log never carries one. The same tokens are reused each time the table is
served; a player added later gets a new one.
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
        self.tokens: dict[str, str] = {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if isinstance(data, dict):
                self.tokens = {str(k): str(v) for k, v in data.items() if isinstance(v, str) and len(v) >= 16}
        except FileNotFoundError:
            pass
        except (OSError, ValueError):
            pass  # unreadable or damaged: new tokens replace it
        names = list(players)
        changed = False
        for name in names:
            if name not in self.tokens:
                self.tokens[name] = secrets.token_urlsafe(TOKEN_BYTES)
                changed = True
        self.tokens = {n: self.tokens[n] for n in names}
        if changed or not self.path.exists():
            self._save()

    def _save(self) -> None:
        try:
            replace_file(self.path, json.dumps(self.tokens, indent=2).encode("utf-8"), mode=0o600, durable=False)
        except OSError as exc:
            raise TableError(f"cannot write the private links' tokens to {self.path}: {exc.strerror}") from None

    def player_of(self, token: str) -> str | None:
        """The player whose token this is (compared in constant time), or None."""
        found = None
        for name, known in self.tokens.items():
            if secrets.compare_digest(known.encode(), token.encode()):
                found = name
        return found
