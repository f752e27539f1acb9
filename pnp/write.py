"""Writing files atomically (a temporary file beside the target, then a
rename), for pnp and the referee: a reader never sees half a file, and a
failure leaves the old file as it was. `replace_file` is the one writer;
`write_atomic` words its failures for pnp's users."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pnp.errors import PnpError

_UMASK = os.umask(0o022)
os.umask(_UMASK)
FILE_MODE = 0o666 & ~_UMASK  # what `open()` would give: mkstemp's 0600 is for the temp file only


def replace_file(path: Path, data: bytes, mode: int = FILE_MODE, durable: bool = True) -> None:
    """Write all of `data` to `path` or nothing, with permissions `mode`;
    `durable`: on disk (fsync) before it replaces the old file. The folder
    must exist. OSError as raised: each caller words it its own way."""
    _fill(*_temp_beside(path), path, data, mode, durable)


def write_atomic(path: Path, data: bytes) -> None:
    """Write all of `data` or nothing (creating the folder); PnpError naming the file if it cannot."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = _temp_beside(path)
    except OSError as exc:
        raise PnpError(f"cannot write {path}: {exc.strerror or exc}; choose another folder with --out DIR") from None
    try:
        _fill(fd, tmp, path, data, FILE_MODE, durable=True)
    except OSError as exc:
        raise PnpError(f"cannot write {path}: {exc.strerror or exc}") from None


def _temp_beside(path: Path) -> tuple[int, str]:
    import tempfile  # lazy: not loaded by a build that writes nothing

    return tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)


def _fill(fd: int, tmp: str, path: Path, data: bytes, mode: int, durable: bool) -> None:
    """Write the temporary file and rename it over `path`; on any failure it is removed."""
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            if durable:
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
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
