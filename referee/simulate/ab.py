"""A/B: what did an edit do? The same plan (seeds, seats, agents, factions)
played on two projects, and the two tallies compared.

Side A is the project the referee reads now; side B (`--against`) is another
project directory, or the same project's card sources at a git revision,
extracted with `git archive` into a temporary folder (the designer's work
tree is never touched). Both sides run the installed rules code: A/B
compares card sources and the game's data, not two versions of the engine.

Side B is always played in fresh worker processes that read only its
project, so nothing a process caches about one side's cards reaches the
other. Every difference is a two-proportion test (stats.difference); only
those significant at 95% reach the verdict.
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
from referee.simulate.stats import Difference, difference
from referee.simulate.summary import Tally


@dataclass(frozen=True)
class Against:
    """Side B: what was typed, what it is, and the project folder to read."""

    given: str
    kind: str  # "project" or "revision"
    project: Path
    revision: str | None = None  # the full commit id, for a revision

    def label(self) -> str:
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


# ---- the comparison --------------------------------------------------------------------

@dataclass(frozen=True)
class Comparison:
    """Side B against side A: each rate's difference, and game length."""

    factions: dict[str, Difference]
    seats: dict[str, Difference]
    first: Difference
    turns: tuple[float, float]  # mean turns on A, on B
    actions: tuple[float, float]
    cards: dict[str, dict[str, Any]]  # card -> its play rate and win-when-played on each side

    def to_json(self) -> dict[str, Any]:
        return {
            "win_rate_by_faction": {k: d.to_json() for k, d in self.factions.items()},
            "win_rate_by_seat": {k: d.to_json() for k, d in self.seats.items()},
            "first_player": self.first.to_json(),
            "mean_turns": {"a": self.turns[0], "b": self.turns[1]},
            "mean_actions": {"a": self.actions[0], "b": self.actions[1]},
            "cards": {c: {"plays_per_game": v["plays_per_game"], "win_when_played": v["win"].to_json()}
                      for c, v in self.cards.items()},
            "verdict": self.verdict(),
        }

    def verdict(self) -> list[str]:
        """The differences significant at 95%, most important first."""
        lines = []
        for name, d in self.factions.items():
            if name != "(none)" and d.significant:
                lines.append(f"{name} wins {_pct(d.a.value)} on A and {_pct(d.b.value)} on B (p={d.p_value:.3g})")
        for seat, d in self.seats.items():
            if d.significant:
                lines.append(f"seat {int(seat) + 1} wins {_pct(d.a.value)} on A and {_pct(d.b.value)} on B "
                             f"(p={d.p_value:.3g})")
        if self.first.significant:
            lines.append(f"the first player wins {_pct(self.first.a.value)} on A and {_pct(self.first.b.value)} "
                         f"on B (p={self.first.p_value:.3g})")
        for card, v in self.cards.items():
            d = v["win"]
            if d.significant and min(d.a.n, d.b.n) >= 30:
                lines.append(f"{card}: its player wins {_pct(d.a.value)} when it is played on A, "
                             f"{_pct(d.b.value)} on B (p={d.p_value:.3g})")
        if not lines:
            lines.append("no clear difference between A and B at these games")
        return lines


def compare(a: Tally, b: Tally) -> Comparison:
    fa, fb = a.figures(), b.figures()

    def rates(key: str) -> dict[str, Difference]:
        names = sorted(set(fa[key]) | set(fb[key]))
        return {n: _diff(fa[key].get(n), fb[key].get(n)) for n in names}

    cards: dict[str, dict[str, Any]] = {}
    for card in sorted(set(fa["cards"]) | set(fb["cards"])):
        ca, cb = fa["cards"].get(card), fb["cards"].get(card)
        cards[card] = {
            "plays_per_game": (_per_game(ca, a), _per_game(cb, b)),
            "win": _diff(ca["played"] if ca else None, cb["played"] if cb else None),
        }
    return Comparison(rates("factions"), rates("seats"), _diff(fa["first"], fb["first"]),
                      (_mean(a.turns), _mean(b.turns)), (_mean(a.actions), _mean(b.actions)), cards)


def biggest_card_changes(comparison: Comparison, n: int = 12) -> list[tuple[str, dict[str, Any]]]:
    """The cards whose play rate or win-when-played moved most between A and B."""
    def moved(item: tuple[str, dict[str, Any]]) -> float:
        a, b = item[1]["plays_per_game"]
        return abs(item[1]["win"].delta) + abs(b - a) / max(a, b, 1e-9)
    return sorted(comparison.cards.items(), key=moved, reverse=True)[:n]


def _diff(a, b) -> Difference:
    return difference(a.hits if a else 0, a.n if a else 0, b.hits if b else 0, b.n if b else 0)


def _per_game(card: dict[str, Any] | None, tally: Tally) -> float:
    return round(card["plays"] / tally.games, 3) if card and tally.games else 0.0


def _mean(counter) -> float:
    n = sum(counter.values())
    return round(sum(k * v for k, v in counter.items()) / n, 2) if n else 0.0


def _pct(value: float) -> str:
    return f"{value:.0%}"
