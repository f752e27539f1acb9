"""Culture War effects: who is acting and at what moment (`Ctx`), the one
protection test every effect that touches a piece asks (`guarded`), and the
players an effect's `who` names (`players`). Shared by the effect kinds
(stat_changes.py, life_and_capital.py, handlers.py) and the moments that
run them (handlers.py, turn_effects.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from referee.games.culture_war.table.board import Board
from referee.games.culture_war.effects.static import card_type, shielded, trace

Dice = Callable[[], int]


@dataclass
class Ctx:
    owner: str
    source: Mapping[str, Any]                 # the card: name, card (id), deck
    this: str | None = None                   # handle of the piece the effect is on
    mod: Mapping[str, Any] | None = None      # the Mod the effect is on
    host: str | None = None                   # the piece that Mod is attached to
    that_player: str | None = None            # the other player of the moment
    target_player: str | None = None          # a player named with --on
    target: str | None = None                 # a piece named with --on
    unit: str | None = None                   # the unit the moment is about
    dice: Dice | None = None
    battle: dict[str, Any] = field(default_factory=dict)   # saved / failed flags of a battle
    moment: str = "played"

    @property
    def name(self) -> str:
        return self.source.get("name") or "?"

    @property
    def type(self) -> str | None:
        """The card type of the source: unit, real-estate, operation, mod, flash or happening."""
        return "mod" if self.mod is not None else card_type(self.source)

    @property
    def card_id(self) -> str | None:
        """The card's id: a piece or Mod keeps it as `card`, a card being played as `id`."""
        return self.source.get("card") or self.source.get("id")


def guarded(board: Board, handle: str | None, ctx: Ctx, targeted: bool = True) -> bool:
    """True, with a note, when a protection keeps this card off piece `handle`
    (effects.shielded: the one rule every kind that touches a piece asks)."""
    if handle is None or handle not in board.pieces:
        return False
    guard = shielded(board, handle, ctx.owner, ctx.type, targeted)
    if guard:
        board.note(f"{ctx.name} does not affect {board.label(handle)}: {guard[1]}")
        trace(ctx.card_id, "protected")
    return guard is not None


def players(board: Board, who: str | None, ctx: Ctx) -> list[str]:
    live = board.live()
    pick = {None: [ctx.owner], "you": [ctx.owner], "each-opponent": [n for n in live if n != ctx.owner],
            "each-player": live, "that-player": [ctx.that_player], "attacking-player": [ctx.that_player],
            "target-player": [ctx.target_player]}[who]
    return [n for n in pick if n in live]
