"""A player's hand kept on their own phone (issue 36 item 2, the API part).

A player who keeps their hand on their phone names each card as they draw
it (`POST /p/TOKEN/hand {"drew": [...]}`, a card id or its QR text); the
referee then knows that hand, for that player only: their moves become
concrete (the generator lists them with the hand known, as self-play does),
and a card played leaves the kept hand. The hand is kept in a small JSON
file beside the table (`TABLE.serve-hands.json`, readable by its owner
only), never in the event log, so no log, export, report, TV or other
player's page ever holds it; only that player's token reads it.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Mapping

from pnp.write import replace_file
from referee.errors import RefereeError, TableError

SUFFIX = ".serve-hands.json"
MAX_HAND = 60  # cards: far above any game's hand


def hand_file(table: Path) -> Path:
    return table.with_name(table.name + SUFFIX)


class HandStore:
    """Player -> the card ids of the hand they keep on their phone."""

    def __init__(self, table: Path):
        self.path = hand_file(table)

    def _read(self) -> dict[str, list[str]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {str(k): [str(c) for c in v] for k, v in data.items() if isinstance(v, list)}

    def _save(self, hands: Mapping[str, list[str]]) -> None:
        try:
            replace_file(self.path, json.dumps(dict(hands), indent=1).encode("utf-8"), mode=0o600, durable=False)
        except OSError as exc:
            raise TableError(f"cannot keep the hand beside the table: {exc.strerror}") from None

    def kept(self, player: str) -> list[str] | None:
        """The hand `player` keeps on their phone, or None when they keep none."""
        return self._read().get(player)

    def change(self, player: str, drew: Iterable[str] = (), played: Iterable[str] = ()) -> list[str]:
        """Add the cards drawn and take out the cards played; the hand after."""
        hands = self._read()
        hand = list(hands.get(player, []))
        hand += list(drew)
        for card in played:
            if card not in hand:
                raise RefereeError(f"{card} is not in the hand {player} keeps on the phone")
            hand.remove(card)
        if len(hand) > MAX_HAND:
            raise RefereeError(f"a hand of more than {MAX_HAND} cards")
        hands[player] = hand
        self._save(hands)
        return hand

    def forget_played(self, player: str, args: Mapping[str, Any]) -> None:
        """After a move from a kept hand: each of its cards named in the move's args leaves the hand."""
        hand = self.kept(player)
        if not hand:
            return
        named = list(_strings(args))
        gone = []
        for card in list(hand):
            if card in named:
                named.remove(card)
                gone.append(card)
        if gone:
            self.change(player, played=gone)


def kept_hand(table: Path, player: str, drew: Iterable[str] = (), played: Iterable[str] = ()) -> tuple[str, list[str]]:
    """`referee hand`: PLAYER's kept hand after the cards drawn and played
    (codes read as cards of the table's game); (the player's name, the card ids)."""
    from referee.cards import resolve  # lazy: the card index, only when a card is named
    from referee.table import operations  # lazy: the table, only for `hand`

    state = operations.status(table).state
    name = state.player(player).name
    game = state.game.value
    store = HandStore(table)
    drawn = [resolve(code, game).card_id for code in drew]
    gone = [resolve(code, game).card_id for code in played]
    if drawn or gone:
        return name, store.change(name, drawn, gone)
    return name, store.kept(name) or []


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if not str(key).startswith("_"):  # the rules' own data (a card's stats) is not the move
                yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)
