#!/usr/bin/env python3
"""Regenerate the pictures of the README and the docs from a real build (`make pictures`).

Builds every game into a temporary folder, then renders into docs/images/:
one card of every game (face, at 150 dpi, cut at its trim box as the
manifest gives it), a fronts sheet, the Petri dish board and a rule-sheet
page, a card previewed with its print guides; then a self-play balance report's first page (`referee simulate`).
The README and docs/*.md show exactly these files (tests/test_docs_site.py
holds them to this list), so they never go stale.
"""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DPI = 150
CARDS = [  # (file, game, card id)
    ("card-technocracy.png", "culture-war", "technocracy-data-intern"),
    ("card-community.png", "culture-war", "community-community-gardener"),
    ("card-coldwar-1.png", "cold-war", "cold-wm-supercarrier"),
    ("card-dc-01.png", "divide-and-conquer", "dc-left-prestige-media"),
    ("card-debate-1.png", "debate", "deb-lincoln"),
    ("card-petri.png", "petri-dish", "petri-germ-white"),
]
PAGES = [  # (file, game, pdf, page, scale)
    ("sheet-anarchy-01.png", "culture-war", "deck-anarchy.pdf", 1, 0.55),
    ("board-petri-1.png", "petri-dish", "board-dish-a3.pdf", 1, 0.4),
    ("rules-debate-1.png", "debate", "rules-rules.pdf", 1, 0.55),
]

GUIDES = ("preview-guides.png", "cold-wm-supercarrier", 120)   # `pnp preview --guides` (docs/printing.md)
SELFPLAY = ("selfplay-report-1.png", "culture-war", 3, 300, 0.55)  # (file, game, players, games, scale)


def render(pdf: Path, page: int, scale: float):
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        return doc[page - 1].render(scale=scale).to_pil().convert("RGB"), doc[page - 1].get_height()
    finally:
        doc.close()


def guides(images: Path) -> None:
    from pnp.extras.preview import preview

    name, card_id, dpi = GUIDES
    preview(ROOT, card_id, dpi, guides=True).image.convert("RGB").save(images / name, optimize=True)
    print(f"docs/images/{name}: pnp preview {card_id} --guides --dpi {dpi}")


def main() -> int:
    from pnp.pipeline.options import BuildOptions
    from pnp.pipeline.orchestrator import build

    images = ROOT / "docs" / "images"
    images.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        build(ROOT, None, out, BuildOptions())
        for name, game, card_id in CARDS:
            manifest = json.loads((out / game / "manifest.json").read_text())
            card = next((c for c in manifest["cards"] if c["id"] == card_id), None)
            if card is None:
                print(f"{card_id} is no card of {game}; edit CARDS in {Path(__file__).name}", file=sys.stderr)
                return 1
            image, height_pt = render(out / game / card["file"], card["front"]["page"], DPI / 72)
            s = DPI / 25.4
            height = height_pt / 72 * 25.4
            x0, y0, x1, y1 = card["front"]["trim_mm"]
            image.crop((round(x0 * s), round((height - y1) * s), round(x1 * s), round((height - y0) * s))).save(
                images / name, optimize=True)
            print(f"docs/images/{name}: {card_id}")
        for name, game, pdf, page, scale in PAGES:
            image, _ = render(out / game / pdf, page, scale)
            image.save(images / name, optimize=True)
            print(f"docs/images/{name}: {game}/{pdf} page {page}")
        guides(images)
        name, game, players, games, scale = SELFPLAY
        selfplay_report(out / "selfplay.pdf", game, players, games)
        image, _ = render(out / "selfplay.pdf", 1, scale)
        image.save(images / name, optimize=True)
        print(f"docs/images/{name}: referee simulate {game} --players {players} --games {games}")
    return 0


def selfplay_report(pdf: Path, game: str, players: int, games: int) -> None:
    """A real balance report: every core, fixed seeds."""
    import os

    from referee.simulate.runner import make_plan
    from referee.simulate.session import simulate

    plan = make_plan(game, players, (), ("random",), games, seed=1, jobs=os.cpu_count() or 1)
    simulate(plan, pdf_path=pdf)


if __name__ == "__main__":
    raise SystemExit(main())
