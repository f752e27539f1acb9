#!/usr/bin/env python3
"""Vendor the game-icons.net illustrations the games use into templates/art/.

    python scripts/vendor_art.py [--package DIR] [--authors DIR]
    python scripts/vendor_art.py --derived-only

Reads every `card_sources/<game>/art.yaml`, takes those icons (only those)
from the npm package `@iconify-json/game-icons` (`npm pack`ed into a temp
folder, or an unpacked package given with --package), writes each as
`templates/art/<name>.svg`, removes icons no game uses any more, and writes
`templates/art/ATTRIBUTION.md`: every icon with its author and the licence
(CC BY 3.0). Authors come from a checkout of github.com/game-icons/icons
(--authors DIR: one folder per author), else from the ATTRIBUTION already
there. Last it writes `templates/art/paths.json`, derived from the SVGs:
each icon's PDF path operators, which builds use instead of reading the SVG
with svglib while its SHA-256 still matches (pnp.faces.artpanel);
--derived-only writes just that file, from the SVGs already there (after
editing or adding an SVG by hand). Run it after editing an art.yaml; commit
what it writes.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pnp.faces.artpanel import derived_file  # noqa: E402
from pnp.faces.artpaths import DERIVED  # noqa: E402
from pnp.sources.art import ART_DIR, art_names  # noqa: E402

PACKAGE = "@iconify-json/game-icons"
LICENCE = "CC BY 3.0 (https://creativecommons.org/licenses/by/3.0/)"
_ROW = re.compile(r"^\| `([a-z0-9-]+)` \| ([^|]+) \|")


def icon_bodies(package: Path | None) -> tuple[dict, str]:
    if package is None:
        tmp = Path(tempfile.mkdtemp())
        subprocess.run(["npm", "pack", PACKAGE, "--silent"], cwd=tmp, check=True, capture_output=True)
        (tgz,) = tmp.glob("*.tgz")
        with tarfile.open(tgz) as archive:
            archive.extractall(tmp, filter="data")
        package = tmp / "package"
    data = json.loads((package / "icons.json").read_text())
    version = json.loads((package / "package.json").read_text()).get("version", "?")
    return data, version


def authors_from(checkout: Path | None, existing: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    if existing.is_file():
        for line in existing.read_text().splitlines():
            m = _ROW.match(line)
            if m:
                out[m.group(1)] = m.group(2).strip()
    if checkout is not None:
        for svg in checkout.glob("*/*.svg"):
            out[svg.stem] = " ".join(w.capitalize() for w in svg.parent.name.split("-"))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", type=Path, help="an unpacked @iconify-json/game-icons (default: npm pack it)")
    parser.add_argument("--authors", type=Path, help="a checkout of github.com/game-icons/icons")
    parser.add_argument("--derived-only", action="store_true",
                        help=f"only write templates/{ART_DIR}/{DERIVED} from the SVGs already there")
    args = parser.parse_args()
    folder = ROOT / "templates" / ART_DIR
    if args.derived_only:
        write_derived(folder)
        return 0
    wanted = art_names(ROOT)
    data, version = icon_bodies(args.package)
    icons = data["icons"]
    missing = sorted(n for n in wanted if n not in icons)
    if missing:
        print(f"not in game-icons {version}: {', '.join(missing)}", file=sys.stderr)
        return 1
    folder.mkdir(parents=True, exist_ok=True)
    attribution = folder / "ATTRIBUTION.md"
    authors = authors_from(args.authors, attribution)
    unknown = sorted(n for n in wanted if n not in authors)
    if unknown:
        print(f"no author known for: {', '.join(unknown)} (give --authors DIR)", file=sys.stderr)
        return 1
    size = data.get("width", 512)
    for name in wanted:
        body = icons[name]["body"]
        svg = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" width="{size}" height="{size}">'
               f'<!-- {name} by {authors[name]}, game-icons.net, {LICENCE} -->{body}</svg>\n')
        (folder / f"{name}.svg").write_text(svg)
    for old in folder.glob("*.svg"):
        if old.stem not in wanted:
            old.unlink()
    rows = "\n".join(f"| `{n}` | {authors[n]} | {', '.join(sorted(wanted[n]))} |" for n in sorted(wanted))
    attribution.write_text(f"""# Illustrations: attribution

The card illustrations in this folder are icons from **game-icons.net**
(https://game-icons.net), by the artists named below, licensed under
{LICENCE}. They were taken unchanged from the npm package `{PACKAGE}`
{version} (the icon set as SVG path data); pnp only colours them and sets them
on a background when it draws a card.

| icon | author | used in |
|---|---|---|
{rows}
""")
    print(f"{len(wanted)} icons in {folder.relative_to(ROOT)}; attribution in {attribution.relative_to(ROOT)}")
    write_derived(folder)
    return 0


def write_derived(folder: Path) -> None:
    """The icons' path operators, derived from the SVGs, for builds to use instead of svglib."""
    data = derived_file(folder)
    (folder / DERIVED).write_bytes(data)
    count = data.count(b'"sha256"')
    print(f"{count} icons' path operators in {(folder / DERIVED).relative_to(ROOT)}")


if __name__ == "__main__":
    raise SystemExit(main())
