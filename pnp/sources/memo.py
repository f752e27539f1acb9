"""A small on-disk memo for work that depends only on a file's bytes
(parsed YAML, template analysis), kept in the project's `.pnp-cache/`.

Stored as JSON, never pickle: a cache folder that came with someone else's
project can at worst be wrong data (it is keyed by content hash), never code.
Callers give `encode`/`decode` to turn their values into JSON and back."""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Callable

from pnp.caches import cache_root
from pnp.write import replace_file

FORMAT = b"pnp-memo-1"
_recent: dict[str, Any] = {}  # digest -> value, this process's last few (callers must not mutate values)
RECENT = 64
RECENT_MAX_BYTES = 256 * 1024  # bigger files (a 10,000-card deck) are not kept: their parse is large


def _root(path: Path) -> Path | None:
    """The project folder holding `path` (the nearest parent with card_sources/)."""
    for parent in path.resolve().parents:
        if (parent / "card_sources").is_dir():
            return parent
    return None


def memo_file(kind: str, path: Path, compute: Callable[[bytes], Any],
              encode: Callable[[Any], Any] = lambda v: v, decode: Callable[[Any], Any] = lambda v: v) -> Any:
    """`compute(bytes of path)`, remembered by the file's content hash."""
    data = path.read_bytes()
    digest = hashlib.sha256(FORMAT + kind.encode() + b"\0" + data).hexdigest()
    if digest in _recent:
        return _recent[digest]
    value = _stored(kind, path, data, digest, compute, encode, decode)
    if len(data) > RECENT_MAX_BYTES:
        return value
    _recent[digest] = value
    while len(_recent) > RECENT:
        del _recent[next(iter(_recent))]
    return value


def _stored(kind: str, path: Path, data: bytes, digest: str, compute, encode, decode) -> Any:
    root = _root(path)
    if root is None or os.environ.get("PNP_NO_CACHE"):
        return compute(data)
    store = cache_root(root) / kind / f"{digest}.json"
    try:
        return decode(json.loads(store.read_bytes()))
    except (OSError, ValueError, TypeError, KeyError, IndexError):
        pass
    value = compute(data)
    try:
        payload = json.dumps(encode(value), separators=(",", ":"))
    except (TypeError, ValueError):
        return value  # not representable as JSON: computed every time
    try:
        store.parent.mkdir(parents=True, exist_ok=True)
        replace_file(store, payload.encode("utf-8"), durable=False)  # a cache: speed, not safety
    except OSError:
        pass  # a read-only project still builds, just without the memo
    return value
