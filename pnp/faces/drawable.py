"""The protocol of a card face's elements (pnp.faces.elements).

Every element keeps it, after ReportLab's platypus flowables (`wrap`, then
`drawOn`), so whoever draws a face needs to know no kind of element:

- `measure(avail, surface) -> Size`: the room its ink takes, in mm, when it
  is given `avail` (a text wraps to its width; a shape has its own size);
- `draw(canvas, origin, surface)`: draw itself, `origin` being where the
  card's top-left trim corner lies on the canvas (mm, y upward);
- `per_copy`: whether each printed copy draws it itself over the shared face
  (a QR code, which carries its copy's payload: `for_copy`).

`surface` is what every element of a face is drawn on and with: the card's
size, its bleed, the game's styles and icons. Platypus keeps these on the
flowable; ours are frozen values, cached on disk, that name a style instead.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from pnp.model import Point, Size


@dataclass(frozen=True)
class Surface:
    """What a face is drawn on and with: the card's trim size (mm), how far its
    bleed runs beyond the trim (mm), the game's styles (style.yaml) and icons."""

    card: Size
    bleed: float = 0.0
    style: dict[str, Any] = field(default_factory=dict)
    icons: Any = None  # a pnp.faces.icons.IconSet


class Element:
    """The protocol (see the module's docstring); every kind in pnp.faces.elements keeps it."""

    per_copy: ClassVar[bool] = False

    def measure(self, avail: Size, surface: Surface) -> Size:
        raise NotImplementedError

    def draw(self, canvas, origin: Point, surface: Surface) -> None:
        raise NotImplementedError


def extent(points) -> Size:
    """The size of the box around `points` (mm)."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return Size(max(xs) - min(xs), max(ys) - min(ys))
