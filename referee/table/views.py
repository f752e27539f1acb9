"""What `status` hands back to the command line (an action's results are in
results.py). It knows its JSON form; render.py turns it into text for a person.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from referee.rules import rules_for, visible_state
from referee.model import State


@dataclass(frozen=True)
class StatusView:
    """The table as `status` shows it."""

    state: State
    title: str
    log_length: int
    path: Path
    seed: int | None  # None: dice from the OS's randomness, unpredictable
    archived: Path | None = None  # where `new --force` kept the table it replaced

    def to_json(self, reveal: Sequence[str] = ()) -> dict[str, Any]:
        """The status for scripts. The fields every game shares sit at the top
        level and in each player; a game's own state goes under one key,
        `state`, at the top (the table's) and in each player (that player's).
        docs/status-json.md documents each game's shape. Hidden cards stay
        hidden unless their owner is in `reveal`."""
        s = visible_state(self.state, reveal)
        players = []
        for p in s.players:
            entry: dict[str, Any] = {
                "name": p.name, "faction": p.faction, "life": p.life,
                "capital": p.capital, "eliminated": p.eliminated,
            }
            entry["state"] = dict(p.fields)
            players.append(entry)
        out: dict[str, Any] = {
            "game": s.game.value,
            "title": self.title,
            "turn": s.turn,
            "round": s.round,
            "active": s.active_player.name,
            "winner": s.winner,
            "crowd": s.crowd,
            "log_length": self.log_length,
            "players": players,
            "house_rules": dict(s.house_rules),
            "seed": self.seed,
        }
        out["phase"] = _phase(self.state)
        out["result"] = s.fields.get("result")  # how a game ended without a winner (a draw)
        out["prompts"] = list(s.fields.get("prompts") or ())  # cards waiting for a person
        out["copies"] = dict(s.fields.get("printed_copies") or {})  # printed copies named by number: where each is
        out["state"] = {k: v for k, v in s.fields.items() if k not in _CORE_FIELDS}
        return out


# Kept in a game's fields but shared by every game, so shown at the top level.
_CORE_FIELDS = ("result", "prompts", "printed_copies")


def _phase(state: State) -> str | None:
    """The game's named phase now (None for a game without phases, or once it is won)."""
    return rules_for(state.game).phase(state) if state.winner is None else None
