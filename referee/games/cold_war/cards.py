"""Card data for 15 Minute Cold War, read through the referee's card index.

A country is a deck of card_sources/cold-war holding a Leader. At setup the
rules copy every card's stats into the table's state, so the rules never read
YAML while a game is played and a log replays the same even if the sources
change later. The game notes (the Propaganda defence value) come from the
`notes:` of card_sources/cold-war/game.yaml.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.errors import CardError, RefereeError

GAME = "cold-war"
CARD_TYPES = ("leader", "military", "science", "assistant", "special")
STAT_KEYS = ("defence", "attack", "triad", "triad_leg", "shield", "effects", "text", "fallen_draw", "fallen_name")
TYPE_WORDS = {
    "leader": "Leader", "military": "Military Power", "science": "Science & Culture",
    "assistant": "Assistant Leader", "special": "Special",
}


def stats_of(info: Any) -> dict[str, Any]:
    """The fields of a CardInfo the rules use, as plain JSON values."""
    out: dict[str, Any] = {"id": info.id, "name": info.name, "type": info.type,
                           "quantity": max(1, int(info.quantity or 1))}
    for key in STAT_KEYS:
        value = info.fields.get(key)
        if value is not None:
            out[key] = value
    return out


def _index():
    from referee.cards.index import load_index, project_root  # lazy: the card index, read only when card data is needed

    try:
        return load_index(project_root())
    except (CardError, OSError) as exc:
        raise RefereeError(f"cannot read the Cold War country decks: {exc}") from None


def countries() -> dict[str, dict[str, Any]]:
    """Every country: deck id -> {"name", "leader", "cards": {id: stats}} in deck order."""
    index = _index()
    decks: dict[str, list[Any]] = {}
    for info in sorted((c for c in index.cards.values() if c.game == GAME and c.type in CARD_TYPES),
                       key=lambda c: (c.path, c.line)):
        decks.setdefault(info.deck, []).append(info)
    out: dict[str, dict[str, Any]] = {}
    for deck, infos in decks.items():
        leaders = [c for c in infos if c.type == "leader"]
        if len(leaders) != 1:
            continue  # not a country deck
        cards = {c.id: stats_of(c) for c in infos}
        out[deck] = {"name": _deck_name(deck), "leader": leaders[0].id, "cards": cards}
    if not out:
        raise RefereeError("the card sources hold no Cold War country deck (a deck with a Leader card)")
    return out


def _deck_name(deck: str) -> str:
    notes = _game_yaml()
    for entry in notes.get("decks") or []:
        if isinstance(entry, dict) and entry.get("id") == deck:
            return str(entry.get("name") or deck)
    return deck


_GAME_CACHE: dict[str, Any] = {}


def _game_yaml() -> dict[str, Any]:
    """card_sources/cold-war/game.yaml as plain data (read once per process)."""
    from referee.cards.index import project_root  # lazy: the card index, read only when card data is needed

    path = project_root() / "card_sources" / GAME / "game.yaml"
    key = f"{path}:{path.stat().st_mtime_ns if path.is_file() else 0}"
    if key not in _GAME_CACHE:
        _GAME_CACHE.clear()
        _GAME_CACHE[key] = _read_yaml(path)
    return _GAME_CACHE[key]


def _read_yaml(path: Path) -> dict[str, Any]:
    import yaml  # lazy: PyYAML is heavy; the game notes are read once, at setup

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise RefereeError(f"cannot read {path}: {exc}") from None
    return data if isinstance(data, dict) else {}


def propaganda_defence() -> int:
    """notes.propaganda_defence of the game file: what a Propaganda card adds."""
    value = (_game_yaml().get("notes") or {}).get("propaganda_defence")
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RefereeError(
            "card_sources/cold-war/game.yaml has no notes.propaganda_defence (a whole number); "
            "set it there or give --house-rule propaganda-defence=N"
        )
    return value


def resolve_id(code: str) -> str:
    """The card id a code (card id or QR payload) names; it must be a Cold War card."""
    from referee.cards import lookup  # lazy: the card index, read only when card data is needed

    found = lookup(code)
    if found.card.game != GAME:
        raise CardError(f"card {found.card.id} belongs to {found.card.game}, but this table plays {GAME}")
    return found.card.id
