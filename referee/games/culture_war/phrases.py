"""Culture War actions in words (see referee/wording.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from referee.rules.facts import Fact, Kind, Outcome, Roll
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


# ---- the story of an action: facts worded here, read by their fields ------------


def life(name: str, actual: int, why: str) -> Fact:
    """`ann loses 5 life (unit killed: #5 Window Smasher)`."""
    return Fact(f"{name} {'loses' if actual < 0 else 'gains'} {abs(actual)} life ({why})", Kind.LIFE, name, actual)


def pays(name: str, cost: int, why: str, what: str, spent: Sequence[tuple[int, str, str]]) -> Fact:
    """`ann pays 3: base 3; for Window Smasher: 2 anarchy from #1, 1 plain from the bank`;
    `spent`: (coins, faction, handle or "bank") for each source."""
    breakdown = f": {why};" if why else ""
    where = ", ".join(f"{n} {f} from {'the bank' if key == 'bank' else '#' + key}" for n, f, key in spent)
    return Fact(f"{name} pays {cost}{breakdown} for {what}: " + where, Kind.PAY, name, cost,
                pieces=tuple(dict.fromkeys(key for _, _, key in spent if key != "bank")))


def draws(name: str, n: int, why: str, hand: int, pile: int) -> Fact:
    """`ann draws 1 card (start of turn): hand 4, draw pile 30`."""
    return Fact(f"{name} draws {n} card{'' if n == 1 else 's'} ({why}): hand {hand}, draw pile {pile}",
                Kind.DRAW, name, n)


def enters(name: str, card: str, handle: str, extra: str = "") -> Fact:
    """`ann's Window Smasher enters play as #5`."""
    return Fact(f"{name}'s {card} enters play as #{handle}{extra}", pieces=(handle,))


def leaves(owner: str, handle: str, card: str, how: str) -> Fact:
    """`ann's #5 Window Smasher leaves play (killed by #6 Security Robot)`."""
    return Fact(f"{owner}'s #{handle} {card} {how}", pieces=(handle,))


def produces(name: str, handle: str, card: str, made: int, now: int, room: int) -> Fact:
    """`ann's #1 Real Estate produces 1 (now 2/3)`."""
    return Fact(f"{name}'s #{handle} {card} produces {made} (now {now}/{room})", pieces=(handle,))


_OUTCOME = {Outcome.KILL: "the attack kills", Outcome.FAIL: "the attack fails", Outcome.TIE: "tie, roll again"}


def roll(r: Roll) -> Fact:
    """`  roll ann 3 + 2 = 5  vs  bo 6 + 0 = 6  -> the attack fails`."""
    said = (f"an enemy 6: {r.loser} is Predictable and loses" if r.outcome is Outcome.PREDICTABLE
            else _OUTCOME[r.outcome])
    return Fact(f"  roll {r.attacker} {r.a} + {r.atk} = {r.left}  vs  {r.defender} {r.d} + {r.dfn} = {r.right}"
                f"  -> {said}", Kind.ROLL, roll=r)


def critical(name: str) -> Fact:
    """`critical failure: ann rolled a 1 and failed`."""
    return Fact(f"critical failure: {name} rolled a 1 and failed", Kind.CRITICAL, name)


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
