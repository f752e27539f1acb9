"""A/B: what did an edit do? The same plan (seeds, seats, agents, factions)
played on two projects, and the two tallies compared.

Side A is the project the referee reads now; side B (`--against`) is another
project directory, or the same project's card sources at a git revision,
extracted with `git archive` into a temporary folder (the designer's work
tree is never touched). Both sides run the installed rules code: A/B
compares card sources and the game's data, not two versions of the engine.

Side B is always played in fresh worker processes that read only its
project, so nothing a process caches about one side's cards reaches the
other. The same seed on both sides is a pair (paired.py); the comparison
(compare.py) tests within pairs and controls the false discovery rate over
every test of the run.
"""
from __future__ import annotations

import io
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.errors import RefereeError


@dataclass(frozen=True)
class Against:
    """Side B: what was typed, what it is, and the project folder to read."""

    given: str
    kind: str  # "project", "revision", or "without" (this project less one card: without.py)
    project: Path
    revision: str | None = None  # the full commit id, for a revision

    def label(self) -> str:
        if self.kind == "without":
            return self.given
        return f"{self.given} ({self.revision[:10]})" if self.revision else str(self.project)

    def to_json(self) -> dict[str, Any]:
        return {"given": self.given, "kind": self.kind, "project": str(self.project), "revision": self.revision}


class Workspace:
    """Side B's project for the length of a run: a folder given, or a
    revision extracted into a temporary folder removed at the end."""

    def __init__(self) -> None:
        self._tmp: tempfile.TemporaryDirectory | None = None

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def resolve(self, given: str, here: Path) -> Against:
        """`given` as a project folder, else as a revision of the git
        repository holding the project at `here`; else one clear error."""
        from pnp.project import is_project  # lazy: pnp only for A/B

        path = Path(given).expanduser()
        if path.is_dir():
            if not is_project(path):
                raise RefereeError(f"--against {given}: the folder is not a project (a project has "
                                   "card_sources/ and templates/)")
            return Against(given, "project", path.resolve())
        commit = _commit_of(given, here)
        if commit is None:
            raise RefereeError(f"--against {given} is neither a project folder nor a revision of the git "
                               f"repository at {here}")
        self._tmp = tempfile.TemporaryDirectory(prefix="referee-against-")
        folder = Path(self._tmp.name)
        _extract(here, commit, folder)
        if not is_project(folder):
            raise RefereeError(f"--against {given}: revision {commit[:10]} has no card_sources/ and templates/ "
                               f"at {here.name}")
        return Against(given, "revision", folder, commit)


PROJECT_PARTS = ("card_sources", "templates")  # what a project is: the rest of the revision is not read


def _git(here: Path, *args: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", "-C", str(here), *args], capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RefereeError(f"--against needs git to read a revision, and git could not run: {exc}") from None


def _commit_of(given: str, here: Path) -> str | None:
    if given.startswith("-"):
        return None  # never an option to git
    found = _git(here, "rev-parse", "--verify", "--quiet", f"{given}^{{commit}}")
    return found.stdout.decode().strip() or None if found.returncode == 0 else None


def _extract(here: Path, commit: str, folder: Path) -> None:
    """The project's folder (its path inside the repository) at `commit`."""
    prefix = _git(here, "rev-parse", "--show-prefix").stdout.decode().strip()
    archive = _git(here, "archive", "--format=tar", f"{commit}:{prefix}" if prefix else commit)
    if archive.returncode != 0:
        raise RefereeError(f"--against: git could not read revision {commit[:10]}: "
                           f"{archive.stderr.decode(errors='replace').strip()}")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        wanted = [m for m in tar.getmembers() if (m.isfile() or m.isdir()) and m.name.split("/", 1)[0] in PROJECT_PARTS]
        tar.extractall(folder, members=wanted, filter="data")
