"""What `referee moves` and the phones list: one player's moves at a table,
from the rules' generators (`referee.rules.legal`), hands unknown."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.model import PlayerName, State
from referee.rules import rules_for
from referee.rules.legal import CARD_PLACEHOLDER, Move, grouped, legal_moves
from referee.table import operations as table


@dataclass(frozen=True)
class MovesView:
    """What `referee moves` shows: one player's moves at the table in use."""

    game: str
    player: str
    moves: tuple[Move, ...]
    over: str | None  # why no one has moves: the game is over

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "player": self.player, "count": len(self.moves), "game_over": self.over,
                "moves": [m.to_json() for m in self.moves]}

    def lines(self) -> list[str]:
        """The moves grouped by kind, each with the command that plays it."""
        if self.over:
            return [f"no moves: the game is over ({self.over})"]
        if not self.moves:
            return [f"{self.player} has no moves now (another player is to act)"]
        count = len(self.moves)
        out = [f"{self.player} has {count} move{'s' if count != 1 else ''}:"]
        for kind, group in grouped(self.moves).items():
            out.append(f"{kind} ({len(group)}):")
            width = max(len(m.command) for m in group) + len("referee ")
            out += [f"  {('referee ' + m.command).ljust(width)}  {m.text}" for m in group]
        if any(m.action is None for m in self.moves):
            out.append(f"{CARD_PLACEHOLDER}: a card from the hand, as the line says (the referee does not see hands)")
        return out


def table_moves(path: Any, player: str | None = None) -> MovesView:
    """The moves of PLAYER (default: the one to act) at the table in `path`.
    The referee does not see hands, so card plays from a hand are listed by
    what they may be (a `<CARD>` in the command)."""
    return moves_view(table.status(path).state, player)


def moves_view(state: State, player: str | None = None, hand: list[str] | None = None) -> MovesView:
    """The moves of PLAYER (default: the one to act) in `state`, hands
    unknown, or (`hand`) with PLAYER's own hand known (kept on their phone)."""
    rules = rules_for(state.game)
    name = state.player(player).name if player else state.active_player.name
    over = None
    if state.finished:
        over = f"won by {state.winner}" if state.winner else str(state.result)
    hands = {PlayerName(name): list(hand)} if hand is not None else None
    found = [] if over else legal_moves(rules, state, PlayerName(name), hands)
    return MovesView(state.game.value, name, tuple(found), over)
