"""Facts: what an action did, as values the echo, the log, the live page and
the match report read by their fields.

A game's story of an action (`rules.narrate`) and the table's change lines
(`render.change_facts`) are Facts. Each keeps its words in `text` (worded
once, by the game's phrases or the core's), and says by its fields what it
is about: whose numbers it tells (`who`, `kind`, `amount`), which pieces on
the table it tells the fate of (`pieces`), and a battle's roll (`roll`). So
`render.merged` and a game's `covered` decide what a fact already said from
those fields, never by reading the sentence back.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Iterable


class Kind(Enum):
    """What a fact tells. A closed set: the core acts on LIFE, PAY and DRAW
    (a player's totals), ROLL (a battle's dice, for the log) and CHANGE (a
    line of the table's changes); a game acts on CRITICAL (Culture War's
    window preview and its word on missing dice); STORY is everything else
    told."""

    STORY = "story"
    LIFE = "life"  # `who` loses or gains `amount` life (negative: loses)
    PAY = "pay"  # `who` pays `amount` capital
    DRAW = "draw"  # `who` draws `amount` cards (the line gives the hand and pile after)
    ROLL = "roll"  # one roll of a battle (`roll`)
    CRITICAL = "critical"  # a battle's critical failure: `who` rolled a 1 and failed
    CHANGE = "change"  # a line of what changed on the table (render.change_facts)


# The player's numbers a fact of each kind tells, so their change lines need
# not repeat them; and the total an echo adds to the fact's line.
COVERS: dict[Kind, tuple[str, ...]] = {Kind.LIFE: ("life",), Kind.PAY: ("capital",),
                                       Kind.DRAW: ("hand", "draw_pile")}
TOTAL: dict[Kind, str] = {Kind.LIFE: "life", Kind.PAY: "capital"}


class Outcome(Enum):
    """How one roll of a battle came out."""

    KILL = "kill"
    FAIL = "fails"
    TIE = "tie"
    PREDICTABLE = "predictable"  # an enemy 6 against a Predictable unit decides it


@dataclass(frozen=True)
class Roll:
    """One roll of a battle: each side's owner, die, stat and total, and how it came out."""

    attacker: str
    a: int
    atk: int
    defender: str
    d: int
    dfn: int
    outcome: Outcome
    loser: str | None = None  # PREDICTABLE: the unit that loses

    @property
    def left(self) -> int:
        return self.a + self.atk

    @property
    def right(self) -> int:
        return self.d + self.dfn


@dataclass(frozen=True)
class Fact:
    """One thing an action did, in words (`text`) and as values.

    who:     the player it is about (None: no one player);
    kind:    what it tells (Kind);
    amount:  how much, for LIFE, PAY and DRAW;
    pieces:  the handles of the pieces whose arrival, departure or coins it tells;
    roll:    a battle's roll (kind ROLL);
    items:   a CHANGE line about a player: (key, words) for each of their
             numbers that moved, so a fact that told one can leave it out.
    """

    text: str
    kind: Kind = Kind.STORY
    who: str | None = None
    amount: int | None = None
    pieces: tuple[str, ...] = ()
    roll: Roll | None = None
    items: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        return self.text

    @property
    def covers(self) -> tuple[str, ...]:
        """The keys of `who`'s numbers this fact tells."""
        return COVERS.get(self.kind, ())

    @property
    def total(self) -> str | None:
        """The player's total this fact's line ends with in an echo (life, capital), or None."""
        return TOTAL.get(self.kind)

    def without(self, keys: set[str] | frozenset[str]) -> Fact | None:
        """A player's CHANGE line without the numbers in `keys` (told already);
        None when nothing is left to say."""
        if not self.items or self.who is None:
            return self
        kept = tuple((k, words) for k, words in self.items if k not in keys)
        if len(kept) == len(self.items):
            return self
        if not kept:
            return None
        return replace(self, text=player_line(self.who, kept), items=kept)


def player_line(who: str, items: tuple[tuple[str, str], ...]) -> str:
    """A player's change line: `ann: life 20 -> 15, capital 3 -> 2`."""
    return f"{who}: " + ", ".join(words for _, words in items)


def story(text: str) -> Fact:
    """A fact that only tells (a STORY)."""
    return Fact(text)


def change(text: str) -> Fact:
    """A line of what changed on the table that names no player's number nor piece."""
    return Fact(text, Kind.CHANGE)


def texts(facts: Iterable[Fact]) -> list[str]:
    """The words of each fact, in order."""
    return [f.text for f in facts]
