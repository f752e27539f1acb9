"""What a simulation run gives back: its progress while it runs, and its result."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from referee.simulate.runner import Plan
from referee.simulate.summary import Tally

if TYPE_CHECKING:
    from referee.simulate.ab import Against
    from referee.simulate.compare import Comparison


@dataclass(frozen=True)
class Progress:
    done: int
    total: int
    elapsed: float

    @property
    def rate(self) -> float:
        return self.done / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def left(self) -> float:
        return (self.total - self.done) / self.rate if self.rate > 0 else float("inf")


@dataclass(frozen=True)
class SimulationResult:
    tally: Tally
    plan: Plan
    seconds: float
    partial: bool
    json_path: Path | None
    pdf_path: Path | None
    kept: tuple[Path, ...]
    against: Against | None = None  # A/B: side B, its tally, and B against A
    tally_b: Tally | None = None
    comparison: Comparison | None = None

    @property
    def games_played(self) -> int:
        return self.tally.games + (self.tally_b.games if self.tally_b is not None else 0)
