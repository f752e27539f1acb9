"""Culture War actions in words (see referee/words/wording.py), a piece's
label, a battle's roll as the log shows it, and which change lines a story
already told. The story's facts themselves are made by the steps, with
`story.py`'s constructors."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from referee.rules.facts import Fact, Outcome, Roll
from referee.model import State

if TYPE_CHECKING:  # annotations only: status never words an action
    from referee.words.wording import Words


def _battle(w: Words) -> str:
    text = f"{w['attacker']} attacks {w['defender']}"
    return text + (" (no counter-attack)" if w.args.get("counter") is False else "")


_PLAY_VERBS = {"unit": "deploys", "real-estate": "buys"}  # the rulebook's verbs (and the commands'); else "plays"


def _play(w: Words) -> str:
    kind = (w.args.get("_card") or {}).get("type")
    text = f"{w['who']} {_PLAY_VERBS.get(kind, 'plays')} {w['card']}"
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


def _unally(w: Words) -> str:
    players = w.args.get("players") or []
    if len(players) == 1:  # `unally ann`: every alliance of hers ends
        return f"{w['players']} leaves every alliance"
    return f"{w['players']} are no longer allies"


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
    "unally": _unally,
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


def roll_text(r: Roll) -> str:
    """A battle's roll as the log shows it: `3+2=5 v 6+0=6 fails`."""
    said = (f"an enemy 6: {r.loser} is Predictable and loses" if r.outcome is Outcome.PREDICTABLE
            else r.outcome.value)
    return f"{r.a}+{r.atk}={r.left} v {r.d}+{r.dfn}={r.right} {said}"


def covered(facts: Sequence[Fact], line: Fact) -> bool:
    """A change line for a piece's coins, or for a piece entering or leaving
    play, that the story already told (it paid from the piece, the piece
    produced, entered play or left it)."""
    told = {h for f in facts for h in f.pieces}
    return any(h in told for h in line.pieces)
