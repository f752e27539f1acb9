"""Dice: the usual notation, physical dice typed in, and the seeded roller.

Notation: `d6`, `2d6`, `3d6+2`, `2d6-1`, `4d6kh3` (keep the highest 3),
`4d6kl1` (keep the lowest 1). Case and spaces do not matter.

The seeded roller is reproducible on every machine: die number `i` of a table
with seed `s` comes from its own `random.Random("referee:s:i")`. Seeding a
Random with a str hashes it with SHA-512 (seeding version 2, the default since
Python 3.2) and Mersenne Twister output is defined bit for bit, so the same
(seed, i) gives the same bits everywhere. We turn bits into a face ourselves by
rejection sampling on `getrandbits`, so no library shortcut can change the
sequence. Giving every die its own generator lets a table resume at die `i`
without replaying the dice before it.

A live table (started without `--seed`) has no seed: each die comes from
the operating system's randomness (`secrets`) at the moment it is rolled,
so a copy of the table file cannot tell the next roll. Every die is
recorded in the log either way, and a replay plays the recorded dice, so
replays stay exact. The seed is for self-play and tests.
"""
from __future__ import annotations

import random
import re
import secrets
from dataclasses import dataclass
from enum import Enum
from typing import Sequence

from referee.errors import DiceError

MAX_DICE = 100
MAX_FACES = 1000

_EXPR = re.compile(
    r"^(?P<count>\d*)d(?P<faces>\d+)(?:(?P<keep>kh|kl|k)(?P<keep_n>\d+))?(?P<mods>(?:[+-]\d+)*)$"
)
_MOD = re.compile(r"[+-]\d+")


class Keep(str, Enum):
    HIGHEST = "kh"
    LOWEST = "kl"


@dataclass(frozen=True)
class DiceExpr:
    count: int
    faces: int
    keep: Keep | None = None
    keep_n: int = 0
    modifier: int = 0

    @property
    def text(self) -> str:
        """The expression written the canonical way, e.g. `4d6kh3+2`."""
        keep = f"{self.keep.value}{self.keep_n}" if self.keep else ""
        mod = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.faces}{keep}{mod}"

    @property
    def dice_faces(self) -> tuple[int, ...]:
        """The faces of each die this expression needs, in rolling order."""
        return (self.faces,) * self.count

    def kept(self, dice: Sequence[int]) -> tuple[int, ...]:
        """The dice that count, in the order they were rolled."""
        if self.keep is None:
            return tuple(dice)
        order = sorted(range(len(dice)), key=lambda i: dice[i], reverse=self.keep is Keep.HIGHEST)
        chosen = set(order[: self.keep_n])
        return tuple(d for i, d in enumerate(dice) if i in chosen)

    def total(self, dice: Sequence[int]) -> int:
        return sum(self.kept(dice)) + self.modifier


def parse_expr(text: str) -> DiceExpr:
    """Read dice notation; DiceError names the expression and what is wrong."""
    compact = re.sub(r"\s+", "", text).lower()
    match = _EXPR.match(compact)
    if not match:
        raise DiceError(
            f"cannot read the dice expression {text!r}; write it like d6, 2d6, 3d6+2, 2d6-1 or 4d6kh3"
        )
    count = int(match["count"] or 1)
    faces = int(match["faces"])
    if not 1 <= count <= MAX_DICE:
        raise DiceError(f"{text!r}: roll between 1 and {MAX_DICE} dice, not {count}")
    if not 2 <= faces <= MAX_FACES:
        raise DiceError(f"{text!r}: a die needs between 2 and {MAX_FACES} faces, not {faces}")
    keep, keep_n = None, 0
    if match["keep"]:
        keep = Keep.LOWEST if match["keep"] == "kl" else Keep.HIGHEST
        keep_n = int(match["keep_n"])
        if not 1 <= keep_n <= count:
            raise DiceError(f"{text!r}: can keep between 1 and {count} of {count} dice, not {keep_n}")
    modifier = sum(int(m) for m in _MOD.findall(match["mods"]))
    return DiceExpr(count, faces, keep, keep_n, modifier)


def parse_entered(text: str) -> tuple[int, ...]:
    """Read physical dice typed as `5,3` or `5 3`."""
    parts = [p for p in re.split(r"[\s,]+", text.strip()) if p]
    if not parts:
        raise DiceError("--dice was given but holds no values; type them like 5,3")
    values = []
    for part in parts:
        try:
            values.append(int(part))
        except ValueError:
            raise DiceError(f"--dice: {part!r} is not a die value; type whole numbers like 5,3") from None
    return tuple(values)


def check_entered(values: Sequence[int], faces: Sequence[int], what: str) -> tuple[int, ...]:
    """Refuse typed dice that the dice needed for `what` could not show."""
    if len(values) != len(faces):
        word = "die" if len(faces) == 1 else "dice"
        raise DiceError(f"{what} needs {len(faces)} {word} ({_describe(faces)}), but --dice gave {len(values)}")
    for i, (value, face) in enumerate(zip(values, faces), start=1):
        if not 1 <= value <= face:
            raise DiceError(
                f"{what}: die {i} of {len(faces)} shows {value}, but a d{face} only has faces 1 to {face}"
            )
    return tuple(values)


def _describe(faces: Sequence[int]) -> str:
    if not faces:
        return "no dice"
    if len(set(faces)) == 1:
        return f"{len(faces)}d{faces[0]}"
    return " + ".join(f"d{f}" for f in faces)


def seeded_die(seed: int, index: int, faces: int) -> int:
    """Die number `index` (0-based) of the table seeded with `seed`."""
    rng = random.Random(f"referee:{seed}:{index}")
    bits = (faces - 1).bit_length()
    while True:
        value = rng.getrandbits(bits)
        if value < faces:
            return value + 1


def fresh_die(faces: int) -> int:
    """A die nobody can predict: the operating system's randomness, now."""
    return secrets.randbelow(faces) + 1


def die(seed: int | None, index: int, faces: int) -> int:
    """Die number `index` of a table: seeded (self-play, tests, `--seed`), or fresh (seed None)."""
    return fresh_die(faces) if seed is None else seeded_die(seed, index, faces)


def draw(seed: int | None, start: int, faces: Sequence[int]) -> tuple[int, ...]:
    """The next dice of a table, beginning at die number `start`: from the
    seeded generator, or (seed None) from the OS's randomness as they are rolled."""
    return tuple(die(seed, start + i, f) for i, f in enumerate(faces))


class OutOfDice(DiceError):
    """The typed dice ran out before the rules were done with them."""


class Drawn:
    """Dice handed out one at a time as the rules ask for them, for an action
    that takes as many as it rolls (a battle rolls ties again): the typed
    dice in order (OutOfDice past their end), else the table's seeded dice
    from die number `start`. `taken`: every die handed out, the dice the log
    records."""

    def __init__(self, seed: int | None, start: int, typed: Sequence[int] | None = None, faces: int = 6):
        self.seed, self.start, self.faces = seed, start, faces
        self.typed = tuple(typed) if typed is not None else None
        self.taken: list[int] = []

    def __call__(self) -> int:
        i = len(self.taken)
        if self.typed is None:
            value = die(self.seed, self.start + i, self.faces)
        elif i < len(self.typed):
            value = self.typed[i]
        else:
            raise OutOfDice(f"the {len(self.typed)} dice typed ran out")
        self.taken.append(value)
        return value
