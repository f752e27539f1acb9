"""A small on-disk memo for work that depends only on a file's bytes
(parsed YAML, template analysis), kept in the project's `.pnp-cache/`."""
from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path
from typing import Any, Callable

CACHE_DIR = ".pnp-cache"
FORMAT = b"pnp-memo-1"


def _root(path: Path) -> Path | None:
    """The project folder holding `path` (the nearest parent with card_sources/)."""
    for parent in path.resolve().parents:
        if (parent / "card_sources").is_dir():
            return parent
    return None


def memo_file(kind: str, path: Path, compute: Callable[[bytes], Any]) -> Any:
    """`compute(bytes of path)`, remembered by the file's content hash."""
    data = path.read_bytes()
    digest = hashlib.sha256(FORMAT + kind.encode() + b"\0" + data).hexdigest()
    root = _root(path)
    if root is None or os.environ.get("PNP_NO_CACHE"):
        return compute(data)
    store = root / CACHE_DIR / kind / f"{digest}.pickle"
    try:
        return pickle.loads(store.read_bytes())
    except (OSError, pickle.PickleError, EOFError, AttributeError, ValueError):
        pass
    value = compute(data)
    try:
        store.parent.mkdir(parents=True, exist_ok=True)
        tmp = store.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(tmp, store)
    except OSError:
        pass  # a read-only project still builds, just without the memo
    return value
