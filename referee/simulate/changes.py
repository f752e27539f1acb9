"""What changed between side B and side A of an A/B: pnp's card diff
(pnp.extras.carddiff, the same comparison `pnp diff` prints), card by card,
read from B (before) to A (this project), as every A/B figure reads."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.errors import RefereeError


@dataclass(frozen=True)
class CardEdit:
    card: str
    name: str
    change: str  # added, removed, changed
    what: tuple[str, ...]  # each field's change in words: "attack 2 -> 6"

    def line(self) -> str:
        if self.change == "changed":
            return f"{self.card}: " + "; ".join(self.what)
        return f"{self.card} ({self.name}): {self.change} on A"

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "name": self.name, "change": self.change, "what": list(self.what)}


def card_edits(project_a: Path, project_b: Path, game: str) -> tuple[CardEdit, ...]:
    """The cards of `game` that differ from B's sources to A's."""
    from pnp.errors import PnpError  # lazy: pnp only for an A/B
    from pnp.extras.carddiff import Change, describe, diff, snapshots  # lazy: as above
    from pnp.sources.loader import load_sources  # lazy: as above

    def read(project: Path, side: str) -> dict:
        if not (project / "card_sources" / game).is_dir():
            return {}
        try:
            return snapshots(load_sources(project, [game]), project, [game])
        except PnpError as exc:
            first = (str(exc).splitlines() or ["a problem"])[0]
            raise RefereeError(f"side {side}'s card sources do not read ({project}): {first}") from None
    edits = diff(read(project_b, "B"), read(project_a, "A"))
    return tuple(CardEdit(c.card, c.name, c.change.value,
                          tuple(describe(f) for f in c.fields) if c.change is Change.CHANGED else ())
                 for c in edits)
