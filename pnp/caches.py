"""Where pnp (and the referee's card index) keep their caches.

In the project, `.pnp-cache/`, when the project can be written; a project
that cannot (an installed example, a read-only share) uses the user's cache
folder instead: `$XDG_CACHE_HOME/pnp/<project-hash>/` (default
`~/.cache/pnp/...`). Caches are only ever speed: removing them (`pnp clean`)
loses nothing."""
from __future__ import annotations

import hashlib
import os
import shutil
from functools import lru_cache
from pathlib import Path

CACHE_DIR = ".pnp-cache"


def user_cache(project: Path) -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    tag = hashlib.sha256(str(project.resolve()).encode()).hexdigest()[:16]
    return base / "pnp" / f"{project.resolve().name}-{tag}"


@lru_cache(maxsize=32)
def _writable(folder: Path) -> bool:
    target = folder / CACHE_DIR
    if target.is_dir():
        return os.access(target, os.W_OK | os.X_OK)
    return os.access(folder, os.W_OK | os.X_OK)


def cache_root(project: Path) -> Path:
    """The folder holding this project's caches (it may not exist yet)."""
    project = Path(project)
    return project / CACHE_DIR if _writable(project) else user_cache(project)


def clean(project: Path) -> list[Path]:
    """Remove the project's caches, in the project and in the user cache; the removed folders."""
    removed = []
    for folder in (Path(project) / CACHE_DIR, user_cache(Path(project))):
        if folder.is_dir():
            shutil.rmtree(folder)
            removed.append(folder)
    return removed
