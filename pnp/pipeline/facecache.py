# Saves about 0.4 s of 2.1 s CPU (20%) when every deck is redrawn with
# unchanged cards (`--force`, a new `--out`, another paper, printer, layout or
# ink); about 0.03 s on a one-card edit; costs nothing on a fully cold build
# (no cache folder: it stays off) and about 0.07 s on the build that first
# remembers the faces (keys, encoding, saving). benchmarks/run.py, figure 7.
"""Fitted card faces remembered between builds, so that a build redrawing
unchanged cards (or all but one edited card) need not put them through their
templates and the text fitting again.

A face is kept under a hash of everything it is made from: the card's
template context (its fields, deck, game and QR payload), the template files
it renders with their includes, the styles, icons and fonts (fitting depends
on font metrics), the game's effects.yaml (its phrases print the card texts)
and pnp's own code. One JSON file per deck in
`.pnp-cache/faces/<game>/<deck>.json`, never pickle; a damaged file is
ignored. Decks of more than MAX_CARDS distinct cards are not cached: their
faces are made as pages need them and dropped after, and holding and
writing thousands of them would cost more memory and time than it saves.
A fully cold build (no cache folder yet: a new checkout, after `pnp clean`)
has no faces to find and leaves the cache off; it makes the folder, and the
builds after it remember faces (pnp.pipeline.rebuild). Where the cache is off,
no key is hashed.
"""
from __future__ import annotations

import json
import os
from dataclasses import fields
from pathlib import Path
from typing import Any

from pnp.pipeline.incremental import content_hash, face_prefix
from pnp.caches import cache_root
from pnp.faces.elements import QR, Art, Circle, Face, Icon, Line, Paint, Polygon, Rect, Text
from pnp.write import replace_file

FORMAT = "pnp-faces-1"
MAX_CARDS = 500
_KINDS = {cls.__name__: cls for cls in (Rect, Circle, Line, Polygon, Icon, QR, Text, Art)}


_FIELDS = {cls: tuple(f.name for f in fields(cls)) for cls in (*_KINDS.values(), Paint)}
_PAINTS = {cls: tuple(i + 1 for i, f in enumerate(fields(cls)) if f.type in ("Paint", Paint)) for cls in _KINDS.values()}


def encode(face: Face) -> list:
    """The face as JSON values: each element its kind and fields. Tuples stay
    tuples (JSON writes them as arrays); a Paint becomes {"paint": [...]}."""
    out = []
    for el in face.elements:
        kind = type(el)
        row = [kind.__name__, *[getattr(el, name) for name in _FIELDS[kind]]]
        for i in _PAINTS[kind]:
            paint = row[i]
            row[i] = {"paint": [getattr(paint, name) for name in _FIELDS[Paint]]}
        out.append(row)
    return out


def decode(data: list) -> Face:
    elements = []
    for kind, *values in data:
        cls = _KINDS[kind]
        elements.append(cls(*(_typed(v) for v in values)))
    return Face(tuple(elements))


def _typed(v: Any) -> Any:
    if isinstance(v, dict):
        fill, stroke, width, opacity, dash = v["paint"]
        return Paint(fill, stroke, width, opacity, tuple(dash))
    if isinstance(v, list):
        return tuple(_typed(x) for x in v)
    return v


class FaceCache:
    """The remembered faces of one deck; `save` keeps just those used this time."""

    def __init__(self, project: Path, game: str, deck: str, enabled: bool = True):
        self.project, self.game = project, game
        self.path = cache_root(project) / "faces" / game / f"{deck}.json"
        self.enabled = enabled and not os.environ.get("PNP_NO_CACHE")
        self.stored: dict[str, Any] = self._load() if self.enabled else {}
        self.used: dict[str, Any] = {}

    def _load(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_bytes())
            return data["faces"] if data.get("format") == FORMAT and isinstance(data.get("faces"), dict) else {}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return {}

    def key(self, template: str, context: dict[str, Any]) -> str | None:
        """The face's key; None when the cache is off (nothing is looked up or kept)."""
        if not self.enabled:
            return None
        return content_hash(face_prefix(self.project, self.game, template), context)

    def get(self, key: str) -> Face | None:
        if not self.enabled or key not in self.stored:
            return None
        try:
            face = decode(self.stored[key])
        except (KeyError, TypeError, ValueError):
            return None
        if any(isinstance(el, Art) and not os.path.isfile(el.src) for el in face.elements):
            return None  # a picture it drew is gone: drawn again, so the template names the missing file
        self.used[key] = self.stored[key]
        return face

    def put(self, key: str, face: Face) -> None:
        if self.enabled:
            self.used[key] = encode(face)

    def save(self) -> None:
        if not self.enabled or self.used == self.stored:
            return
        data = json.dumps({"format": FORMAT, "faces": self.used}, separators=(",", ":")).encode("utf-8")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            replace_file(self.path, data, durable=False)  # a cache: speed, not safety
        except OSError:
            pass  # a read-only project still builds, just without remembering faces
