"""The one error base for pnp, and the validation problem report."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


class PnpError(Exception):
    """Any failure pnp reports to a user as a readable message."""


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the sources, located as `path:line: card-id: message`."""

    path: str
    line: int
    card: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.card or '-'}: {self.message}"


def did_you_mean(name: str, known, prefix: str = "; ") -> str:
    """`; did you mean X?` for a near-miss of one of `known`, else "" (as the referee does)."""
    import difflib  # lazy: only a mistake needs it

    close = difflib.get_close_matches(str(name), [str(k) for k in known], n=2, cutoff=0.6)
    return f"{prefix}did you mean {' or '.join(close)}?" if close else ""


MAX_NAMED = 3  # cards named in a problem shared by many


def report_lines(problems: list[Problem]) -> list[str]:
    """One line per distinct problem. The same message at the same place in a
    template (an error in a shared partial hits every card that includes it)
    is one line naming the first cards and how many more."""
    groups: dict[tuple[str, int, str], list[str]] = {}
    for p in problems:
        groups.setdefault((p.path, p.line, p.message), []).append(p.card)
    lines = []
    for (path, line, message), cards in groups.items():
        named = [c for c in cards if c][:MAX_NAMED]
        more = len([c for c in cards if c]) - len(named)
        who = ", ".join(named) + (f" and {more} more card{'' if more == 1 else 's'}" if more else "")
        lines.append(f"{path}:{line}: {who or '-'}: {message}")
    return lines


class ValidationFailed(PnpError):
    """Every problem found in one validation run."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(set(problems))
        super().__init__("\n".join(report_lines(self.problems)))


class Problems:
    """Collects problems during a stage; raises them all at once."""

    def __init__(self, root: Path | None = None):
        self.root = root
        self.items: list[Problem] = []

    def add(self, path: Path | str, line: int | None, card: str | None, message: str) -> None:
        self.items.append(Problem(self._display(path), line or 0, card or "", message))

    def extend(self, other: "Problems") -> None:
        self.items.extend(other.items)

    def _display(self, path: Path | str) -> str:
        p = Path(path)
        if self.root is not None:
            try:
                return str(p.resolve().relative_to(self.root.resolve()))
            except ValueError:
                pass
        return str(p)

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise ValidationFailed(self.items)
