"""What every export shares as a target of the one pipeline
(pnp.pipeline.stages): one game, its chosen decks, and files that stream.

Each task (a sheet, a chunk of cards, a deck's PDF) draws its faces, encodes
them and writes its files at once into a staging folder beside the export's
folder, then drops them: no export holds every face or every image. The write
stage moves the staged files into place (each a rename, so each appears
whole), writes the saved objects, order lists and `export.json`, and removes
what an earlier export wrote and this one did not. A run that fails leaves
the last export as it was and removes the staging folder.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.errors import PnpError, Problem, ValidationFailed
from pnp.model import Deck, Game, Shop
from pnp.pipeline.stages import check_games
from pnp.pipeline.tasks import Job
from pnp.write import write_atomic, write_json

EXPORT_MANIFEST = "export.json"


def shop_folder(out_dir: Path, game: str, shop: Shop) -> Path:
    return out_dir / game / f"shop-{shop.value}"


@dataclass(frozen=True)
class ExportJob(Job):
    """What every task of an export shares: where its files are staged."""

    staging: str = ""

    def stage(self, name: str, data: bytes) -> None:
        """Write one of the export's files (its name relative to the export's folder) into the staging folder."""
        write_atomic(Path(self.staging) / name, data)


class ExportTarget:
    """An export of one game's chosen decks (all when none are named) into `folder`."""

    def __init__(self, project: Path, game_slug: str, folder: Path, decks: list[str] | None):
        self.project, self.game_slug, self.folder, self.decks = project, game_slug, folder, decks
        check_games(project, [game_slug])  # an unknown game makes no folder
        self.made = [d for d in (folder.parent, *folder.parent.parents) if not d.exists()]  # removed again on failure
        try:
            folder.parent.mkdir(parents=True, exist_ok=True)
            self.staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
        except OSError as exc:
            raise PnpError(f"cannot write {folder}: {exc.strerror or exc}; choose another folder with --out DIR") from None

    # 1. sources: an export draws its one game, always
    def changed(self, wanted: list[str]) -> list[str]:
        return wanted

    def known_ids(self, wanted: list[str], todo: list[str]) -> None:
        return None

    def nothing(self) -> Any:
        raise PnpError(f"nothing to export for {self.game_slug}")

    def chosen(self, game: Game) -> list[Deck]:
        """The decks asked for, checked; all when none are named."""
        known = [d.id for d in game.decks]
        unknown = [d for d in self.decks or [] if d not in known]
        if unknown:
            raise PnpError(f"{game.slug} has no deck {', '.join(unknown)}; its decks: {', '.join(known)}")
        return [d for d in game.decks if not self.decks or d.id in self.decks]

    @staticmethod
    def problems(results: list) -> None:
        """Every problem the tasks found, raised at once (nothing is written)."""
        found: list[Problem] = [p for problems, _ in results for p in problems]
        if found:
            raise ValidationFailed(found)

    # 5. write
    def commit(self, staged: list[str], made: list[tuple[str, bytes]]) -> list[Path]:
        """The staged files moved into place, then the files `made` here
        written; stale files of an earlier export removed. The paths, in order."""
        folder = self.folder
        for name in staged:
            target = folder / name
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(self.staging / name, target)
            except OSError as exc:
                raise PnpError(f"cannot write {target}: {exc.strerror or exc}") from None
        for name, data in made:
            write_atomic(folder / name, data)
        names = [*staged, *(name for name, _ in made)]
        forget_stale(folder, names)
        self.made = []
        self.discard()
        return [folder / name for name in names]

    def discard(self) -> None:
        """Remove the staging folder (after a failure: with whatever was staged,
        and the folders made for it, so a failed export leaves nothing behind)."""
        shutil.rmtree(self.staging, ignore_errors=True)
        for made in self.made:  # deepest first
            try:
                made.rmdir()
            except OSError:
                break


def forget_stale(folder: Path, names: list[str]) -> None:
    """Remove what an earlier export of this shop wrote and this one did not; record what this one wrote."""
    try:
        previous = json.loads((folder / EXPORT_MANIFEST).read_text(encoding="utf-8")).get("files", [])
    except (OSError, ValueError, AttributeError):
        previous = []
    now = sorted(names)
    for stale in set(previous) - set(now):
        target = folder / stale
        if target.resolve().is_relative_to(folder.resolve()):
            target.unlink(missing_ok=True)
            try:
                target.parent.rmdir() if target.parent != folder else None
            except OSError:
                pass   # not empty
    write_json(folder / EXPORT_MANIFEST, {"files": now})


def chunks(n: int, size: int) -> list[tuple[int, int]]:
    """(start, count) of consecutive chunks of at most `size` covering range(n)."""
    return [(start, min(size, n - start)) for start in range(0, n, size)]
