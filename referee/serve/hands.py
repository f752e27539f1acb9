"""A player's hand kept on their own phone (issue 36 item 2).

A player who keeps their hand on their phone names each card as they draw
it (`POST /p/TOKEN/hand {"drew": [...]}`, a card id or its QR text, or
`referee hand PLAYER --drew CARD`); the referee then knows that hand, for
that player only: their moves become concrete (the generator lists them
with the hand known, as self-play does), and a card played leaves the kept
hand. The hand is kept in a small JSON file beside the table
(`TABLE.serve-hands.json`, readable by its owner only), never in the event
log, so no log, export, report, TV or other player's page ever holds it;
only that player's token reads it.

The kept hand is held to the table's public count of that hand (the rules'
`hand_size`): a card drawn beyond the count, or a card played that is not
kept, is one error naming the player and the rule, and nothing is written.
When the table's count drops below the kept hand (a card played or
discarded at the terminal), the hand says so in a warning and keeps every
card until the player marks the ones that went.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

from pnp.write import replace_file
from referee.errors import RefereeError, TableError
from referee.model import Action, State

SUFFIX = ".serve-hands.json"
MAX_HAND = 60  # cards: far above any game's hand
RULE = "a hand kept on the phone holds no more cards than the table counts in that hand"


def hand_file(table: Path) -> Path:
    return table.with_name(table.name + SUFFIX)


@dataclass(frozen=True)
class KeptHand:
    """A player's kept hand beside the table's count of it."""

    player: str
    kept: bool  # False: the player keeps no hand on the phone (moves stay as for an unknown hand)
    cards: tuple[str, ...]
    counted: int | None  # the table's count of the hand; None: they hold no hand now
    known: tuple[str, ...] = ()  # the cards the table knows are in the hand (seen going back to it)

    @property
    def warnings(self) -> tuple[str, ...]:
        """What disagrees with the table, in words for the player."""
        n = len(self.cards)
        if self.counted is None and n:
            return (f"{n} card{'s' if n != 1 else ''} kept, but {self.player} holds no hand now",)
        if self.counted is not None and n > self.counted:
            return (f"{n} cards kept, the table says {self.counted}: mark the cards that left the hand as played",)
        if not self.kept:
            return ()
        left, unkept = list(self.cards), []
        for card in self.known:
            if card in left:
                left.remove(card)
            else:
                unkept.append(card)
        return tuple(f"the table knows {c} is in {self.player}'s hand, and it is not kept: add it" for c in unkept)

    @property
    def missing(self) -> int:
        """Cards the table counts in the hand that are not kept yet."""
        return max(0, (self.counted or 0) - len(self.cards))


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

    def change(self, player: str, drew: Iterable[str] = (), played: Iterable[str] = (),
               counted: int | None = None, limited: bool = False) -> list[str]:
        """Take out the cards played and add the cards drawn; the hand after.
        `limited`: held to the table's count `counted` (None: no hand now).
        Refused as a whole, nothing written, when a played card is not kept or
        the hand would outgrow the count."""
        hands = self._read()
        hand = list(hands.get(player, []))
        for card in played:
            if card not in hand:
                raise RefereeError(f"{card} is not in the hand {player} keeps on the phone, so it cannot leave it "
                                   "(only a kept card is marked played)")
            hand.remove(card)
        drew = list(drew)
        hand += drew
        if limited and drew and counted is None:
            raise RefereeError(f"{player} holds no hand now, so the phone keeps none ({RULE})")
        if limited and counted is not None and drew and len(hand) > counted:
            raise RefereeError(f"{player}'s hand would hold {len(hand)} cards on the phone, and the table counts "
                               f"{counted} ({RULE}); mark the cards that left it as played first")
        if len(hand) > MAX_HAND:
            raise RefereeError(f"a hand of more than {MAX_HAND} cards")
        hands[player] = hand
        self._save(hands)
        return hand

    def forget_played(self, player: str, rules: Any, before: State, action: Action) -> None:
        """After a move from a kept hand: each card it took from the hand
        (the rules' `cards_from_hand`, else every card named in its public
        args) leaves the kept hand."""
        hand = self.kept(player)
        if not hand:
            return
        named = rules.cards_from_hand(before, action)
        named = list(_strings(action.args)) if named is None else list(named)
        gone = []
        for card in list(hand):
            if card in named:
                named.remove(card)
                gone.append(card)
        if gone:
            self.change(player, played=gone)


def held(rules: Any, state: State, store: HandStore, player: str) -> KeptHand:
    """`player`'s kept hand (the table's spelling) and the table's count of it."""
    cards = store.kept(player)
    return KeptHand(player, cards is not None, tuple(cards or ()), rules.hand_size(state, player),
                    tuple(rules.known_in_hand(state, player)))


def keep(rules: Any, state: State, store: HandStore, player: str, drew: Iterable[str] = (),
         played: Iterable[str] = ()) -> KeptHand:
    """`player`'s kept hand after the cards (ids) drawn and played, held to
    the table's count; RefereeError (nothing written) when it cannot be."""
    drew, played = list(drew), list(played)
    if drew:
        _check_copies(rules, state, player, [*(store.kept(player) or ()), *drew], drew)
    if drew or played:
        store.change(player, drew, played, rules.hand_size(state, player), limited=True)
    return held(rules, state, store, player)


def _check_copies(rules: Any, state: State, player: str, hand: list[str], drew: list[str]) -> None:
    """Refuse a drawn card whose printed copies are all where every player
    sees them (on the table, in a discard pile): public places only, so the
    refusal tells nothing hidden. A copy known to be in a hand is not counted
    (it is the one kept)."""
    from referee.cards.index import load_index, project_root  # lazy: the card index, only when a card is drawn

    try:
        index = load_index(project_root()).cards
    except Exception:  # no card sources at hand: the count alone holds the hand
        return
    for cid in dict.fromkeys(drew):
        card = index.get(cid)
        printed = getattr(card, "quantity", None)
        if not isinstance(printed, int) or printed < 1:
            continue
        seen = [place for place in rules.copy_places(state, cid, player) if "hand" not in place]
        if len(seen) + hand.count(cid) > printed:
            copies = "its printed copy is" if printed == 1 else f"its {printed} printed copies are"
            raise RefereeError(f"{player}'s hand cannot hold {card.name} ({cid}) now: {copies} "
                               f"{', '.join(seen)}{' or kept already' if hand.count(cid) > 1 else ''} "
                               "(a kept hand holds only cards that may be in it)")


def kept_hand(table: Path, player: str, drew: Iterable[str] = (), played: Iterable[str] = ()) -> KeptHand:
    """`referee hand`: PLAYER's kept hand after the cards drawn and played
    (codes read as cards of the table's game)."""
    from referee.cards import resolve  # lazy: the card index, only when a card is named
    from referee.rules import rules_for  # lazy: the rules, only for `hand`
    from referee.table import operations  # lazy: the table, only for `hand`

    state = operations.status(table).state
    name = state.player(player).name
    game = state.game.value
    drawn = [resolve(code, game).card_id for code in drew]
    gone = [resolve(code, game).card_id for code in played]
    return keep(rules_for(state.game), state, HandStore(table), name, drawn, gone)


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
