"""Stage 5: writing files atomically (temp file, then rename)."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pnp.errors import PnpError

_UMASK = os.umask(0o022)
os.umask(_UMASK)
FILE_MODE = 0o666 & ~_UMASK  # what `open()` would give: mkstemp's 0600 is for the temp file only


def write_atomic(path: Path, data: bytes) -> None:
    """Write all of `data` or nothing: a reader never sees a half-written file."""
    import tempfile  # lazy: not loaded by a build that writes nothing

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise PnpError(f"cannot write {path}: {exc.strerror or exc}; choose another folder with --out DIR") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), FILE_MODE)
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise PnpError(f"cannot write {path}: {exc.strerror or exc}") from None
        raise


def write_json(path: Path, value: Any) -> None:
    write_atomic(path, (readable_json(value) + "\n").encode("utf-8"))


def readable_json(value: Any, indent: str = "") -> str:
    """JSON for people: an object's keys one per line, a list's items one per
    line, each item on a single line. (Much faster than `indent=`, which
    drops to the pure-Python encoder, on manifests of thousands of cards.)"""
    inner = indent + "  "
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(str(k))}: {readable_json(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and value and any(isinstance(v, (dict, list)) for v in value):
        return "[\n" + ",\n".join(inner + json.dumps(v, ensure_ascii=False) for v in value) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False)
