"""`--without CARD`: what a card is worth, by intervention. Side B is this
project with every copy of CARD taken out of its deck (a temporary copy of
the card sources, the card's entry and its picture line removed); side A is
the project as it is. The A/B then reads from B to A: what having the card
does to its faction's win rate, paired game by game, with its interval.
"""
from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from referee.errors import RefereeError

_ENTRY = re.compile(r"^(\s*)- id:\s*['\"]?([A-Za-z0-9_.-]+)['\"]?\s*$")


def _cut(text: str, card: str) -> str | None:
    """The YAML text without the list entry whose id is `card` (None: no such entry)."""
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        m = _ENTRY.match(line)
        if not m or m.group(2) != card:
            continue
        indent = len(m.group(1))
        end = i + 1
        while end < len(lines):
            nxt = lines[end]
            if nxt.strip() and not nxt.lstrip().startswith("#") and len(nxt) - len(nxt.lstrip()) <= indent:
                break  # the next entry, or the next key of the file
            end += 1
        while end > i + 1 and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
            end -= 1  # blank lines and comments before the next entry stay with it
        return "".join(lines[:i] + lines[end:])
    return None


def project_without(here: Path, game: str, card: str, folder: Path) -> Path:
    """A copy of the project at `here` in `folder` with `card` taken out of `game`'s sources."""
    sources = here / "card_sources" / game
    if not sources.is_dir():
        raise RefereeError(f"--without {card}: this project has no card sources for {game} ({sources})")
    if not any(_cut(p.read_text(encoding="utf-8"), card) is not None for p in sources.glob("*.yaml")):
        raise RefereeError(f"--without {card}: no card with that id in {sources}")
    shutil.copytree(here / "card_sources", folder / "card_sources")
    shutil.copytree(here / "templates", folder / "templates")
    found = None
    for path in sorted((folder / "card_sources" / game).glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        cut = _cut(text, card)
        if cut is not None:
            path.write_text(cut, encoding="utf-8")
            found = path
        else:  # a mapping from card id to something (the pictures): its line goes too
            kept = "".join(line for line in text.splitlines(keepends=True)
                           if not re.match(rf"^\s+{re.escape(card)}\s*:", line))
            if kept != text:
                path.write_text(kept, encoding="utf-8")
    if found is None:
        raise RefereeError(f"--without {card}: no card with that id in {sources}")
    return folder


class Without:
    """Side B of `--without CARD` for the length of a run (the copy is removed at the end)."""

    def __init__(self) -> None:
        self._tmp: tempfile.TemporaryDirectory | None = None

    def __enter__(self) -> Without:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def resolve(self, card: str, game: str, here: Path):
        from referee.simulate.ab import Against  # lazy: as the A/B

        self._tmp = tempfile.TemporaryDirectory(prefix="referee-without-")
        folder = project_without(here, game, card, Path(self._tmp.name))
        return Against(f"this project without {card}", "without", folder)
