"""`pnp convert`: a deck file from one format to another (YAML, CSV, Excel).

The deck's source is read as written (not with defaults filled in), written
in the new format beside the old file, read back and compared card by card;
only when it reads back identical does the game file point at the new file.
The old file is left where it was, no longer used.
"""
from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.errors import PnpError, Problems
from pnp.sources.loader import COMMON_FIELDS, load_sources
from pnp.sources.spreadsheet import FORMATS, is_spreadsheet, read_deck, write_deck
from pnp.sources.yamlio import load_marked, plain
from pnp.write import write_atomic


@dataclass(frozen=True)
class ConvertReport:
    game: str
    deck: str
    old: Path
    new: Path
    cards: int


def convert_deck(project: Path, game_slug: str, deck_id: str, fmt: str, force: bool = False) -> ConvertReport:
    if fmt not in FORMATS:
        raise PnpError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    sources = load_sources(project, [game_slug])  # a deck with problems is not converted
    game = sources.games[game_slug]
    deck = next((d for d in game.decks if d.id == deck_id), None)
    if deck is None:
        raise PnpError(f"{game_slug} has no deck {deck_id!r}; its decks: {', '.join(d.id for d in game.decks)}")
    old = deck.path
    suffix = {"yaml": ".yaml", "csv": ".csv", "xlsx": ".xlsx"}[fmt]
    if old.suffix.lower() in ((".yaml", ".yml") if fmt == "yaml" else (suffix,)):
        raise PnpError(f"{_shown(old, project)} is already {fmt}")
    new = old.with_suffix(suffix)
    if new.exists() and not force:
        raise PnpError(f"{_shown(new, project)} already exists; use --force to replace it")
    schemas = {name: {**COMMON_FIELDS, **ctype.fields} for name, ctype in game.card_types.items()}
    cards = _raw_cards(old, schemas, project)
    if fmt != "yaml":
        _check_trimmed(cards, old, project)
    data = write_deck(cards, fmt)
    _check_round_trip(cards, data, new, schemas, project)
    write_atomic(new, data)
    _point_game_file(game.path, deck_id, old.name, new.name, project)
    return ConvertReport(game_slug, deck_id, old, new, len(cards))


def _raw_cards(path: Path, schemas, project: Path) -> list[dict[str, Any]]:
    if is_spreadsheet(path):
        problems = Problems(project)
        data = read_deck(path, schemas, problems)
        problems.raise_if_any()
    else:
        data, _ = load_marked(path)
    return [plain(card) for card in data["cards"]]


def _check_trimmed(cards, path: Path, project: Path) -> None:
    """A spreadsheet's text cells are trimmed when read: text with spaces or
    line breaks at its ends would come back changed (another revision, another
    QR code), so it is named instead of converted."""
    for card in cards:
        for key, value in card.items():
            if isinstance(value, str) and value != value.strip():
                raise PnpError(f"{_shown(path, project)}: {card.get('id', '?')}: {key} {value[:30]!r} has spaces or "
                               "line breaks at its ends, which a spreadsheet cell drops; remove them first (the "
                               "card's revision changes with them); nothing was written")


def _check_round_trip(cards, data: bytes, new: Path, schemas, project: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / new.name
        probe.write_bytes(data)
        back = _raw_cards(probe, schemas, project)
    if back != cards:
        first = next((i for i, (a, b) in enumerate(zip(cards, back)) if a != b), min(len(cards), len(back)))
        card = cards[first].get("id", first + 1) if first < len(cards) else "?"
        raise PnpError(f"converting to {new.suffix[1:]} would change card {card}; nothing was written "
                       "(please report this as a bug)")


def _point_game_file(game_file: Path, deck_id: str, old: str, new: str, project: Path) -> None:
    """Rewrite the deck's `file:` line in game.yaml, keeping every comment."""
    data, _ = load_marked(game_file)
    raw = next(d for d in data["decks"] if str(d.get("id")) == deck_id)
    number = raw.line_of("file")
    lines = game_file.read_text(encoding="utf-8").splitlines(keepends=True)
    line = lines[number - 1]
    pattern = re.compile(r"(file:\s*[\"']?)" + re.escape(old) + r"([\"']?)")
    if not pattern.search(line):
        raise PnpError(f"{_shown(game_file, project)}:{number}: expected `file: {old}` for deck {deck_id}; "
                       f"point it at {new} by hand")
    lines[number - 1] = pattern.sub(lambda m: m.group(1) + new + m.group(2), line, count=1)
    write_atomic(game_file, "".join(lines).encode("utf-8"))


def _shown(path: Path, project: Path) -> str:
    try:
        return str(path.relative_to(project))
    except ValueError:
        return str(path)

