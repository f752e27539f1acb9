"""A project's card sources as one packet a worker can play from.

A worker on another machine has the referee installed but not the designer's
project folder (nor side B's, nor a balance search's candidate), so the
sources travel with the games: `pack` makes a gzipped tar of card_sources/ and
templates/ (the referee reads the card sources, and checks each card's
illustration is there), about 1 MB, named by its SHA-256; `unpacked` gives a worker a folder of it, extracted once per
process and kept for the process's life.

A process caches what it has read of a project's cards (lru_caches in the
games' modules), so `playing_from` forgets those caches whenever the
process moves to another packet: each batch plays exactly as it would in a
fresh process.
"""
from __future__ import annotations

import gzip
import hashlib
import io
import sys
import tarfile
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

@dataclass(frozen=True)
class Packet:
    digest: str
    data: bytes


def pack(root: Path) -> Packet:
    """card_sources/ and templates/, in a stable order with no times (the
    same sources give the same digest)."""
    buffer = io.BytesIO()
    files = [p for folder in ("card_sources", "templates") for p in sorted((root / folder).rglob("*")) if p.is_file()]
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as zipped, tarfile.open(fileobj=zipped, mode="w") as tar:
        for folder in ("card_sources", "templates"):
            info = tarfile.TarInfo(folder)
            info.type, info.mode = tarfile.DIRTYPE, 0o755
            tar.addfile(info)
        for path in files:
            data = path.read_bytes()
            info = tarfile.TarInfo(path.relative_to(root).as_posix())
            info.size, info.mode = len(data), 0o644
            tar.addfile(info, io.BytesIO(data))
    data = buffer.getvalue()
    return Packet(hashlib.sha256(data).hexdigest(), data)


_FOLDERS: dict[str, Path] = {}
_KEEP: list[tempfile.TemporaryDirectory] = []
_LOCK = threading.Lock()  # one batch at a time in a process: the chosen project and caches are process-wide
_CURRENT: list[str | None] = [None]


def unpacked(packet: Packet) -> Path:
    """This process's folder holding the packet's project."""
    folder = _FOLDERS.get(packet.digest)
    if folder is None:
        tmp = tempfile.TemporaryDirectory(prefix=f"referee-sources-{packet.digest[:12]}-")
        _KEEP.append(tmp)
        with tarfile.open(fileobj=io.BytesIO(packet.data), mode="r:gz") as tar:
            tar.extractall(tmp.name, filter="data")
        folder = _FOLDERS[packet.digest] = Path(tmp.name)
    return folder


@contextmanager
def playing_from(packet: Packet) -> Iterator[Path]:
    """Hold the process while a batch plays from the packet's project;
    the cards cached from another project are forgotten first."""
    with _LOCK:
        folder = unpacked(packet)
        if _CURRENT[0] != packet.digest:
            forget_cards()
            _CURRENT[0] = packet.digest
        yield folder


def forget_cards() -> None:
    """Clear every functools cache in the referee's loaded modules (each is
    only a cache: clearing one costs a re-read, never a different answer)."""
    for name, module in list(sys.modules.items()):
        if not name.startswith("referee.") or module is None:
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", None) == name:
                clear()
