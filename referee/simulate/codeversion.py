"""Which code a process plays with: the referee's rules and the pnp code that
reads the card sources, as one name (`code_version`). A Dask worker must play
with the same code as the machine that sent the games, or a run would mix two
engines' games in one report; cluster.py compares every worker's name with
its own before a game is sent, and each batch checks it again on its worker
(a worker that joins mid-run), refusing with one clear error.

The name is the packages' version and a SHA-256 of their source files (code
and the data files they read), so an edit that has not been installed on a
worker is caught as surely as another release.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import referee
from referee.errors import RefereeError

SOURCE_SUFFIXES = frozenset({".py", ".yaml", ".yml", ".json", ".j2", ".html", ".css", ".js", ".txt", ".md"})


class OtherCode(RefereeError):
    """A worker that plays with other code than the machine that sent the games."""


_NAMED: list[str] = []  # once per process: not an lru_cache, which sources.forget_cards clears between packets


def code_version() -> str:
    """This process's code, read the first time it is asked (a worker is asked as the run connects)."""
    if not _NAMED:
        _NAMED.append(_read())
    return _NAMED[0]


def _read() -> str:
    import pnp  # lazy: only a cluster run names its code

    digest = hashlib.sha256()
    for package in (referee, pnp):
        root = Path(package.__file__).resolve().parent
        for path in sorted(p for p in root.rglob("*") if p.suffix in SOURCE_SUFFIXES and "__pycache__" not in p.parts):
            digest.update(f"{package.__name__}/{path.relative_to(root).as_posix()}\0".encode())
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return f"referee {referee.__version__} (code {digest.hexdigest()[:16]})"


def check_here(expected: str | None, where: str = "this worker") -> None:
    """On a worker: refuse a batch sent by a machine with other code."""
    if expected is not None and code_version() != expected:
        raise OtherCode(f"{where} plays with {code_version()}, but the games were sent by {expected}: "
                        "start every worker from the same code (install the same commit) and run again")
