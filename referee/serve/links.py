"""`referee links`: each player's private link path, and replacing one."""
from __future__ import annotations

from pathlib import Path

from referee.table import operations as table
from referee.serve.tokens import TokenStore


def private_links(path: Path, rotate: str | None = None) -> dict[str, str]:
    """Player -> `/p/TOKEN` for the table in `path` (tokens made on first use);
    with `rotate`, that player's token is replaced first."""
    state = table.status(path).state
    tokens = TokenStore(path, [p.name for p in state.players])
    if rotate is not None:
        tokens.rotate(state.player(rotate).name)
    return {name: f"/p/{token}" for name, token in tokens.tokens.items()}
