"""Do a game's colour identities stay apart, for every player?

A colour identity is a colour that tells things apart at the table: each
deck's `color` (game.yaml), and every set a game's style.yaml declares under
`identities:` (Culture War's event bands, Petri dish's player colours and
prime areas, Cold War's card types, ...; pnp.sources.cvdsets reads them).

For every pair in a set, the CIEDE2000 difference of the two colours is
measured as they are (`normal`) and as protan, deutan and tritan viewers
(Machado et al. 2009) and in grey see them. A pair is a problem

- when it is closer than SAME to normal vision: that is one colour for two
  identities, which tells neither apart, whatever symbols they carry;
- when it is closer than THRESHOLD, to normal vision or under a simulation,
  and no symbol tells the two apart: two different icons, or both printed
  with their name (a set declared `named: true`, such as an event band that
  says "Flash").

A one-card deck (a quick reference) is no identity: it is told apart by its
layout, not its colour.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from pnp.model import Game
from pnp.sources import colourblind as cb

THRESHOLD = 10.0  # ΔE00; about where two flat colours stop reading as "clearly different"
SAME = 2.0        # ΔE00; under it two colours differ only to close observation: one colour
NORMAL = "normal"
VIEWS = (NORMAL, *cb.SIMULATIONS)


@dataclass(frozen=True)
class Member:
    name: str
    colour: str             # #rrggbb
    icon: str = ""          # the icon printed with it ("": none)
    named: bool = False     # its name is printed beside its colour
    line: int = 0           # where it is written


@dataclass(frozen=True)
class ColourSet:
    game: str
    what: str               # "deck", "event band", "prime area", ... (one member)
    path: Path
    members: tuple[Member, ...]


@dataclass(frozen=True)
class Closest:
    simulation: str
    first: str
    second: str
    delta_e: float


@dataclass(frozen=True)
class Clash:
    game: str
    first: str
    second: str
    simulation: str
    delta_e: float
    what: str = "deck"
    path: Path = Path()
    line: int = 0

    def message(self) -> str:
        pair = f"{self.game}: {self.what}s {self.first} and {self.second} are {self.delta_e:.1f} ΔE00 apart"
        if self.simulation == NORMAL and self.delta_e < SAME:
            return (f"{pair} to normal vision (under {SAME:g}): that is one colour for two {self.what}s, which "
                    "tells neither apart, whatever their icons; give one its own colour")
        seen = "to normal vision" if self.simulation == NORMAL else f"under {self.simulation} simulation"
        who = "a player" if self.simulation == NORMAL else "a colour-blind player"
        if self.what == "deck":
            return (f"{pair} {seen} (under {THRESHOLD:g}) and share the icon, so {who} "
                    f"cannot tell them apart: change a colour or give one its own icon")
        return (f"{pair} {seen} (under {THRESHOLD:g}) and no icon or printed name "
                f"tells them apart, so {who} cannot: change a colour, give each its own icon, "
                f"or print each one's name (`named: true` in the style's identities)")


def deck_set(game: Game) -> ColourSet:
    decks = [d for d in game.decks if d.color and len(d.cards) > 1]
    return ColourSet(game.slug, "deck", game.path,
                     tuple(Member(d.id, d.color, d.icon or "", False, d.line) for d in decks))


def told_apart(a: Member, b: Member) -> bool:
    """A symbol other than colour tells them apart."""
    return bool(a.icon and b.icon and a.icon != b.icon) or (a.named and b.named)


def measure(sets: list[ColourSet]) -> tuple[list[tuple[ColourSet, list[Closest]]], list[Clash]]:
    """Per set, the closest pair under each view; and every clash."""
    report, clashes = [], []
    for cs in sets:
        closest = []
        for view in VIEWS:
            best: Closest | None = None
            for a, b in combinations(cs.members, 2):
                de = cb.delta_e(cb.hex_rgb(a.colour), cb.hex_rgb(b.colour), None if view == NORMAL else view)
                if best is None or de < best.delta_e:
                    best = Closest(view, a.name, b.name, de)
                if (view == NORMAL and de < SAME) or (de < THRESHOLD and not told_apart(a, b)):
                    clashes.append(Clash(cs.game, a.name, b.name, view, de, cs.what, cs.path, b.line))
            if best is not None:
                closest.append(best)
        if closest:
            report.append((cs, closest))
    return report, clashes


def closest_pairs(game: Game) -> tuple[list[Closest], list[Clash]]:
    """The closest pair of deck colours under each view, and every clash of deck colours."""
    report, clashes = measure([deck_set(game)])
    return (report[0][1] if report else []), clashes
