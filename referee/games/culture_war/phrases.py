"""Culture War actions in words (see referee/wording.py)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from referee.model import State

if TYPE_CHECKING:  # annotations only: status never words an action
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
    "donate": "{from} gives {to} {amount} life",
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


_ROLL = re.compile(r"roll \S+ (\d+) \+ (-?\d+) = (-?\d+)\s+vs\s+\S+ (\d+) \+ (-?\d+) = (-?\d+)\s*(?:->\s*(.*))?")
_SHORT = {"the attack kills": "kill", "the attack fails": "fails", "tie, roll again": "tie"}


def roll_text(note: str) -> str:
    """A battle's roll line (`roll ann 3 + 2 = 5  vs  bo 6 + 0 = 6  -> the attack fails`)
    as the log shows it: `3+2=5 v 6+0=6 fails`."""
    m = _ROLL.search(note)
    if m is None:
        return note.strip()
    a, atk, left, d, dfn, right, result = m.groups()
    result = _SHORT.get((result or "").strip(), (result or "").strip())
    return f"{a}+{atk}={left} v {d}+{dfn}={right}" + (f" {result}" if result else "")


_PIECE_LINE = re.compile(r"^\S+: #(\d+) .*(?: coins \d+ -> \d+/\d+| in play| gone)$")


def covered(notes: Any, line: str) -> bool:
    """A change line for a piece's coins, or for a piece entering or leaving
    play, that the story already told ("pays 1 ... from #1", "produces 1
    (now 2/3)", "enters play as #5", "#5 Window Smasher leaves play")."""
    m = _PIECE_LINE.match(line)
    if m is None:
        return False
    handle = f"#{m.group(1)}"
    return any(re.search(rf"{handle}\b", note) for note in notes)
