"""A candidate (knob -> value) written into a fresh copy of the card sources,
checked by pnp's loader, packed for the workers, and shown as a diff."""
from __future__ import annotations

import difflib
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from referee.errors import RefereeError
from referee.simulate.sources import Packet, pack
from referee.simulate.tune.knobs import Knob, _cards, _minimum, edit_line


@dataclass(frozen=True)
class Written:
    packet: Packet
    house_rules: tuple[tuple[str, str], ...]
    files: Mapping[str, tuple[str, str]]  # relative path -> (before, after)

    def diff(self) -> str:
        out = []
        for rel, (before, after) in sorted(self.files.items()):
            out += difflib.unified_diff(before.splitlines(True), after.splitlines(True), f"a/{rel}", f"b/{rel}")
        return "".join(out)


class Refused(RefereeError):
    """A candidate the card schema or the deck rules refuse: never played."""


def write(base: Path, work: Path, game: str, knobs: Mapping[str, Knob], change: Mapping[str, Any]) -> Written:
    """The sources of `base` with `change` in a new folder under `work`."""
    cards = _cards(game, base)
    edits: dict[str, list[tuple[int, str, int]]] = {}
    rules: list[tuple[str, str]] = []
    for name, value in sorted(change.items()):
        knob = knobs[name]
        if knob.kind == "house-rule":
            rules.append((knob.target, str(value)))
            continue
        targets = [cards[knob.target]] if knob.kind == "card" else \
            [c for c in cards.values() if c.deck == knob.target and isinstance(c.fields.get(knob.field), int)
             and "base" not in (c.fields.get("traits") or [])]  # the Base Unit's numbers are fixed by the rules
        for card in targets:
            new = value if knob.kind == "card" else card.fields[knob.field] + value
            if new < _minimum(base, game, card.type, knob.field):
                raise Refused(f"{card.id}.{knob.field} would be {new}, below the schema's bound")
            edits.setdefault(card.path, []).append((card.line, knob.field, new))
    folder = work / f"candidate-{len(list(work.glob('candidate-*')))}"
    shutil.copytree(base / "card_sources", folder / "card_sources")
    shutil.copytree(base / "templates", folder / "templates")
    files = {}
    for rel, changes in edits.items():
        path = folder / rel if not Path(rel).is_absolute() else folder / Path(rel).relative_to(base)
        before = path.read_text(encoding="utf-8")
        lines = before.splitlines(True)
        for line, field, new in changes:
            if not edit_line(lines, line, field, new):
                raise RefereeError(f"{rel}:{line}: cannot find {field} in the card's block to change it")
        path.write_text("".join(lines), encoding="utf-8")
        files[str(path.relative_to(folder))] = (before, "".join(lines))
    _check(folder, game)
    return Written(pack(folder), tuple(rules), files)


def _check(folder: Path, game: str) -> None:
    from pnp.errors import PnpError  # lazy: pnp's checks only when tuning
    from pnp.sources.loader import load_sources  # lazy: as above

    try:
        load_sources(folder, [game])
    except PnpError as exc:
        first = str(exc).strip().splitlines()[:2]
        raise Refused("the card checks refuse it: " + " / ".join(first)) from None
