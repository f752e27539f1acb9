"""The story of a Culture War action: the facts its steps tell (`narrate`,
recorded by the ledger), each worded once here and read by its fields
(referee/rules/facts.py)."""
from __future__ import annotations

from typing import Sequence

from referee.rules.facts import Fact, Kind, Outcome, Roll


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
