"""`pnp preview CARD --cvd KIND` writes the card as a colour-blind player sees it."""
from __future__ import annotations

from PIL import Image

from helpers.designer import CARDS, new_game, pnp
from pnp.sources import colourblind as cb


def test_preview_cvd_writes_the_simulated_colours(tmp_path):
    project = new_game(tmp_path)
    plain, seen = tmp_path / "plain.png", tmp_path / "deutan.png"
    assert pnp(project, "preview", CARDS[0], "--dpi", "40", "--out", str(plain)).exit_code == 0
    result = pnp(project, "preview", CARDS[0], "--dpi", "40", "--cvd", "deutan", "--out", str(seen))
    assert result.exit_code == 0, result.output
    a, b = Image.open(plain).convert("RGB"), Image.open(seen).convert("RGB")
    assert a.size == b.size
    changed = 0
    for xy in [(x, y) for x in range(0, a.width, 7) for y in range(0, a.height, 7)]:
        want = tuple(round(c * 255) for c in cb.simulate(tuple(v / 255 for v in a.getpixel(xy)), "deutan"))
        got = b.getpixel(xy)
        assert max(abs(g - w) for g, w in zip(got, want)) <= 1, (xy, got, want)
        changed += got != a.getpixel(xy)
    assert changed > 0  # the card's blue frame does shift for a deutan
