"""Culture War event bands are told apart from every faction frame, and from
each other, at a glance: CIE L*a*b* distance (Delta E 1976) of at least 25,
and a hue at least 20 degrees from every faction's."""
from __future__ import annotations

import colorsys
import itertools
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
CLEARLY_DIFFERENT = 25.0  # Delta E 76: 2.3 is a just-noticeable difference, 25+ reads as another colour
HUE_GAP = 20.0


def _rgb(color: str) -> tuple[float, float, float]:
    value = color.lstrip("#")
    return tuple(int(value[i:i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def _lab(color: str) -> tuple[float, float, float]:
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in _rgb(color)]
    r, g, b = lin
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _delta_e(a: str, b: str) -> float:
    return sum((p - q) ** 2 for p, q in zip(_lab(a), _lab(b))) ** 0.5


def _hue_gap(a: str, b: str) -> float:
    ha, hb = (colorsys.rgb_to_hls(*_rgb(c))[0] * 360 for c in (a, b))
    return min(abs(ha - hb), 360 - abs(ha - hb))


def _colours():
    game = yaml.safe_load((ROOT / "card_sources/culture-war/game.yaml").read_text())
    factions = {d["id"]: d["color"] for d in game["decks"] if d.get("back") != "none" and d["id"] != "reference"}
    style = yaml.safe_load((ROOT / "templates/culture-war/style.yaml").read_text())
    return factions, style["event_colors"]


def test_event_colours_differ_clearly_from_every_faction_colour():
    factions, events = _colours()
    assert len(factions) == 5 and set(events) == {"mod", "flash", "happening", "operation"}
    for (event, ec), (faction, fc) in itertools.product(events.items(), factions.items()):
        assert _delta_e(ec, fc) >= CLEARLY_DIFFERENT, f"{event} {ec} is too close to {faction} {fc}"
        assert _hue_gap(ec, fc) >= HUE_GAP, f"{event} {ec} has nearly the hue of {faction} {fc}"


def test_event_colours_differ_from_each_other_and_carry_white_text():
    _, events = _colours()
    for (a, ca), (b, cb) in itertools.combinations(events.items(), 2):
        assert _delta_e(ca, cb) >= CLEARLY_DIFFERENT, f"{a} {ca} and {b} {cb} look alike"
    for event, color in events.items():
        lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in _rgb(color)]
        luminance = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
        contrast = 1.05 / (luminance + 0.05)  # WCAG contrast of white title text on the band
        assert contrast >= 4.5, f"{event} {color}: white title text has contrast {contrast:.2f} (needs 4.5)"


def test_the_old_colours_would_have_failed():
    """The check can fail: the first wave's Flash orange sat next to the Libertarian frame."""
    assert _delta_e("#d98e04", "#c77d0a") < CLEARLY_DIFFERENT
