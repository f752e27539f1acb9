"""A rendered image as a colour-blind player sees it: every pixel through
the simulation of pnp.sources.colourblind (Machado et al. 2009, or grey)."""
from __future__ import annotations

from pnp.sources import colourblind as cb

def simulate_image(image, kind: str):
    """A new RGB PIL image: `image` under simulation `kind` (alpha dropped)."""
    rgb = image.convert("RGB")
    data = rgb.tobytes()
    out = bytearray(len(data))
    seen: dict[bytes, bytes] = {}
    for i in range(0, len(data), 3):
        px = data[i:i + 3]
        new = seen.get(px)
        if new is None:
            sim = cb.simulate((px[0] / 255, px[1] / 255, px[2] / 255), kind)
            new = seen[px] = bytes(round(c * 255) for c in sim)
        out[i:i + 3] = new
    rgb.frombytes(bytes(out))  # fills the copy made by convert() in place
    return rgb
