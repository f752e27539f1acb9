"""A PNG-heavy designer game for `make bench` figure 9 (issue 37): what a new
user makes with `pnp new-game` and pictures of their own.

    python benchmarks/designer_png.py FOLDER    # writes the project there

dragon-market as `pnp new-game` starts it, with its card template drawing
the card's picture, grown to 26 cards and 40 printed copies in two decks
(a starter deck of 13 cards and a market deck of 13), each card with its own
PNG picture: 1200 x 800 px of smooth colour with grain, as a scan or a
painting is (it compresses to about 1.9 MB, as a photograph's PNG does, not
to a few kB as a flat colour would). The pictures are made from a fixed
seed, so every run draws the same game.
"""
from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from PIL import Image, ImageFilter

GAME = "dragon-market"
CARDS = 26
PICTURE_PX = (1200, 800)
ART_PANEL = ('{% if "art" in card %}<art src="{{ card.art }}" x="{{ f + 1.5 }}" y="{{ f + style.title_h + 1.5 }}" '
             'w="{{ W - 2*f - 3 }}" h="{{ style.art_h }}" color="ink" background="#d9e4ec"/>{% endif %}\n</card>')
DECKS = ("starter", "market")


def _picture(path: Path, seed: int) -> None:
    rng = random.Random(seed)
    w, h = PICTURE_PX
    small = Image.new("RGB", (12, 8))
    small.putdata([tuple(rng.randrange(256) for _ in range(3)) for _ in range(12 * 8)])
    image = small.resize((w, h), Image.Resampling.BICUBIC)
    grain = Image.frombytes("L", (w, h), rng.randbytes(w * h)).filter(ImageFilter.GaussianBlur(0.6))
    Image.merge("RGB", [Image.blend(band, grain, 0.18) for band in image.split()]).save(path)


def _cards(deck: str, first: int, count: int) -> str:
    lines = ["cards:"]
    for n in range(first, first + count):
        lines += [f"  - id: dm-{deck}-{n:02d}", f"    name: {deck.title()} {n}", "    type: card",
                  f"    cost: {n % 4}", f"    quantity: {2 if n % 2 == 0 else 1}",
                  f"    art: card-{n:02d}.png",
                  f"    text: \"Gain {n % 3 + 1} coin. **Steady**: at the end of your turn, draw a card.\"",
                  "    flavor: \"Bought at dawn, sold by noon.\""]
    return "\n".join(lines) + "\n"


def make(folder: Path, pnp: str) -> Path:
    """The project in `folder` (made with `pnp` = the pnp command); 26 cards, 40 copies, 26 PNGs."""
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run([pnp, "new-game", GAME], cwd=folder, check=True, stdout=subprocess.DEVNULL)
    template = folder / "templates" / GAME / "card.xml.j2"
    template.write_text(template.read_text().replace("</card>", ART_PANEL))
    art = folder / "templates" / "art"
    art.mkdir(parents=True, exist_ok=True)
    for n in range(1, CARDS + 1):
        _picture(art / f"card-{n:02d}.png", n)
    sources = folder / "card_sources" / GAME
    (sources / "starter.yaml").write_text(_cards("starter", 1, CARDS // 2))
    (sources / "market.yaml").write_text(_cards("market", CARDS // 2 + 1, CARDS - CARDS // 2))
    game = sources / "game.yaml"
    deck = game.read_text().split("  - id: starter", 1)[1].split("\ndocuments:", 1)[0]
    market = ("  - id: starter" + deck).replace("id: starter", "id: market").replace(
        "Starter deck", "Market deck").replace("starter.yaml", "market.yaml").replace("#3b6ea5", "#e0b040")
    game.write_text(game.read_text().replace("\ndocuments:", "\n" + market.rstrip("\n") + "\n\ndocuments:", 1))
    return folder


if __name__ == "__main__":
    make(Path(sys.argv[1]), str(Path(sys.executable).parent / "pnp"))
