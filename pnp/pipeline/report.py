"""What a build reports: the files it wrote, what was already up to date,
how long it took and, for an ink-saver build, the ink it saves."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class BuiltFile:
    game: str
    path: Path
    kind: str
    pages: int
    cards: int


@dataclass
class BuildReport:
    files: list[BuiltFile] = field(default_factory=list)
    seconds: float = 0.0
    up_to_date: list[str] = field(default_factory=list)  # "game/file" left as they were
    ink: Any = None          # an ink-saver build: pnp.pipeline.inkcoverage.InkReport
    warnings: list[str] = field(default_factory=list)  # faces' warnings, once per kind of card (pnp.pipeline.facewarnings)
    settings: list[str] = field(default_factory=list)  # a cutter build: what to set in the machine's software

    @property
    def pages(self) -> int:
        return sum(f.pages for f in self.files)

    @property
    def cards(self) -> int:
        return sum(f.cards for f in self.files if f.kind != "cut")  # a cutting file's cards are its deck's
