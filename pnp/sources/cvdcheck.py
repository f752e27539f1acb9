"""Do a game's decks stay apart for colour-blind players?

Each deck is identified by its `color` (game.yaml) and by its `icon`. For
every pair of decks and every simulation (protan, deutan, tritan, grey) the
CIEDE2000 difference of the two simulated colours is measured. A pair closer
than THRESHOLD is a problem unless the two decks carry different icons: the
icon is then the symbol that tells them apart. A one-card deck (a quick
reference) is no identity: it is told apart by its layout, not its colour.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from pnp.model import Game
from pnp.sources import colourblind as cb

THRESHOLD = 10.0  # ΔE00; about where two flat colours stop reading as "clearly different"


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

    def message(self) -> str:
        return (f"{self.game}: decks {self.first} and {self.second} are {self.delta_e:.1f} ΔE00 apart "
                f"under {self.simulation} simulation (under {THRESHOLD:g}) and share the icon, so a "
                f"colour-blind player cannot tell them apart: change a colour or give one its own icon")


def closest_pairs(game: Game) -> tuple[list[Closest], list[Clash]]:
    """The closest pair of deck colours under each simulation, and every clash."""
    decks = [d for d in game.decks if d.color and len(d.cards) > 1]
    closest, clashes = [], []
    for kind in cb.SIMULATIONS:
        best: Closest | None = None
        for a, b in combinations(decks, 2):
            de = cb.delta_e(cb.hex_rgb(a.color), cb.hex_rgb(b.color), kind)
            if best is None or de < best.delta_e:
                best = Closest(kind, a.id, b.id, de)
            if de < THRESHOLD and (not a.icon or a.icon == b.icon):
                clashes.append(Clash(game.slug, a.id, b.id, kind, de))
        if best is not None:
            closest.append(best)
    return closest, clashes
