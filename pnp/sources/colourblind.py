"""Colour-vision-deficiency arithmetic, pure and dependency-free.

- sRGB <-> linear light (IEC 61966-2-1);
- simulated dichromacy with the severity-1.0 matrices of Machado, Oliveira &
  Fernandes, "A Physiologically-based Model for Simulation of Color Vision
  Deficiency", IEEE TVCG 15(6), 2009, applied to linear RGB;
- greyscale as Rec. 709 relative luminance;
- sRGB -> CIE L*a*b* (D65 white);
- CIEDE2000 colour difference, in the formulation of Sharma, Wu & Dalal,
  "The CIEDE2000 Color-Difference Formula: Implementation Notes...", 2005.
"""
from __future__ import annotations

import math

RGB = tuple[float, float, float]

# Machado et al. 2009, severity 1.0 (linear RGB in, linear RGB out).
MATRICES: dict[str, tuple[RGB, RGB, RGB]] = {
    "protan": ((0.152286, 1.052583, -0.204868),
               (0.114503, 0.786281, 0.099216),
               (-0.003882, -0.048116, 1.051998)),
    "deutan": ((0.367322, 0.860646, -0.227968),
               (0.280085, 0.672501, 0.047413),
               (-0.011820, 0.042940, 0.968881)),
    "tritan": ((1.255528, -0.076749, -0.178779),
               (-0.078411, 0.930809, 0.147602),
               (0.004733, 0.691367, 0.303900)),
}
SIMULATIONS = ("protan", "deutan", "tritan", "grey")
LUMA = (0.2126, 0.7152, 0.0722)


def to_linear(c: float) -> float:
    """One sRGB channel (0..1) to linear light."""
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def to_srgb(c: float) -> float:
    """One linear channel to sRGB (0..1), clipped to the gamut."""
    c = min(1.0, max(0.0, c))
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def simulate_linear(rgb: RGB, kind: str) -> RGB:
    """A linear-light colour as seen with deficiency `kind` (see SIMULATIONS)."""
    if kind == "grey":
        y = sum(w * c for w, c in zip(LUMA, rgb))
        return (y, y, y)
    m = MATRICES[kind]
    return tuple(sum(m[i][j] * rgb[j] for j in range(3)) for i in range(3))  # type: ignore[return-value]


def simulate(rgb: RGB, kind: str) -> RGB:
    """An sRGB colour (channels 0..1) as seen with deficiency `kind`, in sRGB."""
    lin = simulate_linear(tuple(to_linear(c) for c in rgb), kind)  # type: ignore[arg-type]
    return tuple(to_srgb(c) for c in lin)  # type: ignore[return-value]


def hex_rgb(text: str) -> RGB:
    """'#rrggbb' -> sRGB channels 0..1 (ValueError if it is not one)."""
    h = text.strip().lstrip("#")
    if len(h) != 6:
        raise ValueError(f"not a #rrggbb colour: {text!r}")
    return tuple(int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


_WHITE = (0.95047, 1.0, 1.08883)  # D65


def lab(rgb: RGB) -> RGB:
    """sRGB (0..1) -> CIE L*a*b* under D65."""
    r, g, b = (to_linear(c) for c in rgb)
    xyz = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b,
           0.2126729 * r + 0.7151522 * g + 0.0721750 * b,
           0.0193339 * r + 0.1191920 * g + 0.9503041 * b)

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = (f(v / w) for v, w in zip(xyz, _WHITE))
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def ciede2000(lab1: RGB, lab2: RGB) -> float:
    """CIEDE2000 difference of two L*a*b* colours (kL = kC = kH = 1)."""
    L1, a1, b1 = lab1
    L2, a2, b2 = lab2
    cbar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cbar ** 7 / (cbar ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)

    def hue(b: float, ap: float) -> float:
        return 0.0 if b == 0 and ap == 0 else math.degrees(math.atan2(b, ap)) % 360

    h1p, h2p = hue(b1, a1p), hue(b2, a2p)
    dl, dc = L2 - L1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    else:
        dh = h2p - h1p
        if dh > 180:
            dh -= 360
        elif dh < -180:
            dh += 360
    dH = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lbar, cbarp = (L1 + L2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbar = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hbar = (h1p + h2p + 360) / 2
    else:
        hbar = (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hbar - 30)) + 0.24 * math.cos(math.radians(2 * hbar))
         + 0.32 * math.cos(math.radians(3 * hbar + 6)) - 0.20 * math.cos(math.radians(4 * hbar - 63)))
    dtheta = 30 * math.exp(-(((hbar - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbarp ** 7 / (cbarp ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc = 1 + 0.045 * cbarp
    sh = 1 + 0.015 * cbarp * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dH / sh) ** 2
                     + rt * (dc / sc) * (dH / sh))


def delta_e(rgb1: RGB, rgb2: RGB, kind: str | None = None) -> float:
    """CIEDE2000 between two sRGB colours, both first simulated under `kind` if given."""
    if kind is not None:
        rgb1, rgb2 = simulate(rgb1, kind), simulate(rgb2, kind)
    return ciede2000(lab(rgb1), lab(rgb2))
