"""The icons' derived file, `templates/art/paths.json`: each vendored SVG's
PDF path operators, written by `scripts/vendor_art.py` (pnp.faces.artpanel
derives them with svglib) so that a build need not read the SVGs with
svglib. Read here without ReportLab: the drawing uses an entry, and the
rebuild keys (pnp.pipeline.incremental) weigh it.

    {"format": "pnp-art-paths-1", "note": "...", "icons": {
    "anchor": {"sha256": "<the SVG's>", "viewBox": [0, 0, 512, 512],
               "width": 384.0, "height": 384.0, "ops": "q .75 0 0 -0.75 0 384 cm @fill 90.53 23 m ... f Q"},
    ...}}

`@fill` stands where the icon's currentColor fill goes (`r g b rg`). An
entry counts only while the SVG's bytes have its sha256."""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

DERIVED = "paths.json"   # beside the SVGs
FORMAT = "pnp-art-paths-1"
FILL = "@fill"


def entries(folder: str | Path) -> dict[str, dict]:
    """icon name -> its entry in `folder`'s derived file ({} when there is none
    or it cannot be read). Read again when the file changes (pnp watch)."""
    stamp = _stamp(folder)
    return _load(*stamp) if stamp else {}


def _stamp(folder: str | Path) -> tuple[str, int, int] | None:
    try:
        st = (Path(folder) / DERIVED).stat()
    except OSError:
        return None
    return str(folder), st.st_mtime_ns, st.st_size


@lru_cache(maxsize=8)
def _load(folder: str, mtime_ns: int, size: int) -> dict[str, dict]:
    try:
        data = json.loads((Path(folder) / DERIVED).read_bytes())
        icons = data["icons"] if data.get("format") == FORMAT and isinstance(data.get("icons"), dict) else {}
        return {name: entry for name, entry in icons.items() if _sound(entry)}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def _sound(entry) -> bool:
    return (isinstance(entry, dict) and isinstance(entry.get("sha256"), str) and isinstance(entry.get("ops"), str)
            and all(isinstance(entry.get(k), (int, float)) for k in ("width", "height")))


def entry_for(svg: Path, data: bytes) -> dict | None:
    """The entry of the SVG `svg`, whose bytes are `data`, if the derived file holds this very SVG."""
    entry = entries(svg.parent).get(svg.stem)
    return entry if entry is not None and entry["sha256"] == hashlib.sha256(data).hexdigest() else None


def weight(svg: Path) -> str | None:
    """What a build's drawing of `svg` takes from the derived file, as a short
    hash for rebuild keys (None: nothing, svglib reads the SVG). The SVG's own
    bytes are weighed apart, as a file."""
    stamp = _stamp(svg.parent)
    return _weight(*stamp, svg.stem) if stamp else None


@lru_cache(maxsize=4096)
def _weight(folder: str, mtime_ns: int, size: int, name: str) -> str | None:
    entry = _load(folder, mtime_ns, size).get(name)
    if entry is None:
        return None
    return hashlib.sha256(json.dumps(entry, sort_keys=True).encode()).hexdigest()[:32]
