"""Culture War actions in words (see referee/wording.py)."""
from __future__ import annotations

from typing import Any

from referee.model import State
from referee.wording import Words


def _battle(w: Words) -> str:
    text = f"{w['attacker']} attacks {w['defender']}"
    return text + (" (no counter-attack)" if w.args.get("counter") is False else "")


def _play(w: Words) -> str:
    text = f"{w['who']} plays {w['card']}"
    if w.has("on"):
        text += f" on {w['on']}"
    if w.has("from"):
        text += f", paying from {w['from']}"
    if w.has("cost"):
        text += f" (cost set to {w['cost']})"
    return text


def _gift(w: Words) -> str:
    coins = f"{w['amount']} {w['faction']} coin" if w.has("faction") else f"{w['amount']} coin"
    return f"{w['from']} gives {w['to']} {coins}{'' if w.args.get('amount') == 1 else 's'}"


PHRASES: dict[str, Any] = {
    "battle": _battle,
    "window": "{attacker} attacks {defender}: the dice are shown, the battle waits for `settle`",
    "settle": "the battle is settled",
    "play": _play,
    "seize": ["{player} seizes {piece}, paying from {from}", "{player} seizes {piece}"],
    "discard": "{piece} is discarded",
    "discard-hand": "{player} discards {card} from their hand",
    "draw": "{player} draws {count}",
    "donate": "{from} gives {to} {amount} capital",
    "gift": _gift,
    "ally": "{players} become allies",
    "unally": "{players} are no longer allies",
    "rolloff": "roll-off for the first player",
}


def label(state: State, key: str, value: Any) -> str | None:
    """A piece's handle as "ann's #6 Window Smasher"."""
    if key not in ("attacker", "defender", "piece", "on"):
        return None
    piece = (state.fields.get("pieces") or {}).get(str(value))
    if piece is None:
        return None
    return f"{piece['owner']}'s #{value} {piece.get('name') or piece.get('card')}"
