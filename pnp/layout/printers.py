"""Printer profiles: how a duplex printer misplaces the backs, and the
correction pnp applies to back pages. Pure data and geometry (mm); the
profiles live in the user's config directory as JSON.

A profile's dx and dy are the shift to apply to everything on a back page,
in that page's own coordinates (x to the right, y up, as the back is seen
when looking at it), and `scale` the factor to apply about the page centre.
`pnp calibrate` prints a sheet from which these values are read directly.
"""
from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path

from pnp.errors import PnpError
from pnp.model import Flip, Size
from pnp.write import write_json

CONFIG_FILE = "printers.json"
MAX_OFFSET = 10.0            # mm: more than this is not a misalignment but a mistake
SCALE_LIMITS = (0.95, 1.05)
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$")

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class PrinterProfile:
    name: str
    dx: float = 0.0       # mm, applied to back pages
    dy: float = 0.0       # mm
    scale: float = 1.0    # applied to back pages about the page centre
    flip: Flip | None = None  # the flip the profile was measured with, if known

    def to_json(self) -> dict:
        return {"dx_mm": self.dx, "dy_mm": self.dy, "scale": self.scale,
                "flip": self.flip.value if self.flip else None}


def check_profile(profile: PrinterProfile) -> PrinterProfile:
    if not _NAME.match(profile.name):
        raise PnpError(f"printer name {profile.name!r}: use letters, digits, '.', '_' or '-' (at most 40), "
                       "starting with a letter or digit")
    for axis, value in (("dx", profile.dx), ("dy", profile.dy)):
        if not math.isfinite(value) or abs(value) > MAX_OFFSET:
            raise PnpError(f"{axis} {value:g} mm is out of range: a printer profile corrects at most "
                           f"{MAX_OFFSET:g} mm; check the calibration sheet again")
    lo, hi = SCALE_LIMITS
    if not math.isfinite(profile.scale) or not lo <= profile.scale <= hi:
        raise PnpError(f"scale {profile.scale:g} is out of range {lo:g}..{hi:g}; a scale of 0.995 means 99.5%")
    return profile


def config_dir() -> Path:
    """$XDG_CONFIG_HOME/pnp, or ~/.config/pnp (a relative XDG_CONFIG_HOME is ignored, as the spec says)."""
    base = os.environ.get("XDG_CONFIG_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".config"
    return root / "pnp"


def profiles_path() -> Path:
    return config_dir() / CONFIG_FILE


def _profile_from(name: str, raw: object, path: Path) -> PrinterProfile:
    if not isinstance(raw, dict):
        raise PnpError(f"{path}: printer {name!r} is not an object; fix or delete the file")
    try:
        flip = raw.get("flip")
        return PrinterProfile(name, float(raw.get("dx_mm", 0.0)), float(raw.get("dy_mm", 0.0)),
                              float(raw.get("scale", 1.0)), Flip(flip) if flip else None)
    except (TypeError, ValueError) as exc:
        raise PnpError(f"{path}: printer {name!r} has a bad value ({exc}); fix or delete the file") from None


def load_profiles(path: Path | None = None) -> dict[str, PrinterProfile]:
    path = path or profiles_path()
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise PnpError(f"{path}: cannot read the printer profiles ({exc}); fix or delete the file") from None
    printers = data.get("printers") if isinstance(data, dict) else None
    if not isinstance(printers, dict):
        raise PnpError(f"{path}: expected {{\"printers\": {{...}}}}; fix or delete the file")
    return {name: _profile_from(name, raw, path) for name, raw in sorted(printers.items())}


def _save(profiles: dict[str, PrinterProfile], path: Path) -> None:
    write_json(path, {"version": 1, "printers": {n: p.to_json() for n, p in sorted(profiles.items())}})


def add_profile(profile: PrinterProfile, path: Path | None = None) -> tuple[PrinterProfile, bool]:
    """Store (or replace) a profile. Returns it and whether one of that name existed."""
    path = path or profiles_path()
    check_profile(profile)
    profiles = load_profiles(path)
    existed = profile.name in profiles
    profiles[profile.name] = profile
    _save(profiles, path)
    return profile, existed


def remove_profile(name: str, path: Path | None = None) -> PrinterProfile:
    path = path or profiles_path()
    profiles = load_profiles(path)
    if name not in profiles:
        raise PnpError(_unknown(name, profiles, path))
    gone = profiles.pop(name)
    _save(profiles, path)
    return gone


def get_profile(name: str, path: Path | None = None) -> PrinterProfile:
    path = path or profiles_path()
    profiles = load_profiles(path)
    if name not in profiles:
        raise PnpError(_unknown(name, profiles, path))
    return profiles[name]


def _unknown(name: str, profiles: dict, path: Path) -> str:
    known = ", ".join(profiles) if profiles else "none yet"
    return (f"no printer profile {name!r} (known: {known}; stored in {path}); "
            f"add one with `pnp printer add {name} --dx DX --dy DY` after `pnp calibrate`")


@dataclass(frozen=True)
class BackShift:
    """The correction drawn around a back page: scale about the page centre
    (cx, cy), then shift by (dx, dy). Millimetres."""

    dx: float
    dy: float
    scale: float
    cx: float
    cy: float

    def point(self, x: float, y: float) -> tuple[float, float]:
        return (self.cx + self.scale * (x - self.cx) + self.dx, self.cy + self.scale * (y - self.cy) + self.dy)

    def box(self, box: Box) -> Box:
        x0, y0 = self.point(box[0], box[1])
        x1, y1 = self.point(box[2], box[3])
        return (x0, y0, x1, y1)

    def matrix(self) -> tuple[float, float, float, float, float, float]:
        """(a, b, c, d, e, f) as in a PDF `cm`, with e and f in mm."""
        s = self.scale
        return (s, 0.0, 0.0, s, (1 - s) * self.cx + self.dx, (1 - s) * self.cy + self.dy)

    @property
    def is_identity(self) -> bool:
        return self.dx == 0 and self.dy == 0 and self.scale == 1


def back_shift(profile: PrinterProfile, paper: Size) -> BackShift:
    """The correction for a back page of `paper` (as oriented on the page)."""
    return BackShift(profile.dx, profile.dy, profile.scale, paper.width / 2, paper.height / 2)
