"""What `referee tune` may change (`--vary`), and a change applied to a copy
of the card sources.

    CARD.FIELD=LO..HI         one card's printed number, within LO..HI
    deck:FACTION.FIELD=-1..+1 every card of a deck that prints FIELD, shifted together
                              (but its Base Unit, whose numbers the deck rules fix)
    house-rule:KEY=V1,V2,...  a house rule's values, in order (a step is the next one)
    house-rule:KEY=LO..HI     a whole-number house rule's values LO to HI (e.g. a seat's bonus)
    auto                      each card's printed numbers within one step either way

A knob's values never leave the card schema's bounds (game.yaml: `int>=0`);
printed numbers the schema leaves unbounded are kept at 0 or more. The deck
composition rules and everything else pnp checks are held by loading the
edited copy through pnp's loader: a change it refuses is never played.
"""
from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from referee.errors import RefereeError

STRONGER = {"atk": 1, "def": 1, "production": 1, "capacity": 1, "life": 1, "capital": 1, "influence": 1,
            "strength": 1, "defence": 1, "cost": -1}  # which way a number makes its card stronger
NUMBERS = tuple(STRONGER)
_RANGE = re.compile(r"^\s*([+-]?\d+)\s*\.\.\s*([+-]?\d+)\s*$")


@dataclass(frozen=True)
class Knob:
    kind: str  # "card", "deck" or "house-rule"
    target: str  # card id, faction (deck) or house rule key
    field: str  # "" for a house rule
    values: tuple[Any, ...]  # absolute values (card), shifts (deck), strings (house rule)
    now: Any  # the value today (card), 0 (deck), the default (house rule)
    faction: str | None = None  # the deck a card belongs to
    named: bool = True  # given by name (its whole range is searched), not by auto (one step either way)

    @property
    def name(self) -> str:
        return f"house-rule:{self.target}" if self.kind == "house-rule" else \
            (f"deck:{self.target}.{self.field}" if self.kind == "deck" else f"{self.target}.{self.field}")


def parse_vary(texts: Sequence[str], game: str, root: Path) -> tuple[Knob, ...]:
    cards = _cards(game, root)
    knobs: list[Knob] = []
    for text in texts:
        if text.strip() == "auto":
            for card in cards.values():
                for name in NUMBERS:
                    value = card.fields.get(name)
                    if isinstance(value, int) and not isinstance(value, bool):
                        low = max(_minimum(root, game, card.type, name), value - 1)
                        knobs.append(Knob("card", card.id, name, tuple(range(low, value + 2)), value, card.deck,
                                          named=False))
            continue
        head, sep, spec = text.partition("=")
        if not sep:
            raise RefereeError(f"--vary {text!r}: give KNOB=RANGE, e.g. 'anarchy-window-smasher.atk=1..4', or auto")
        head = head.strip()
        if head.startswith("house-rule:"):
            key = head.split(":", 1)[1]
            if _RANGE.match(spec):
                low, high = _range(text, spec)
                values = tuple(str(v) for v in range(low, high + 1))
            else:
                values = tuple(v.strip() for v in spec.split(",") if v.strip())
            if not values:
                raise RefereeError(f"--vary {text!r}: name the house rule's values, e.g. {key}=20,25 or {key}=0..4")
            knobs.append(Knob("house-rule", key, "", values, None))
            continue
        if head.startswith("deck:"):
            faction, dot, name = head[5:].partition(".")
            deck = [c for c in cards.values() if c.deck == faction]
            if not deck:
                raise RefereeError(f"--vary {text!r}: {game} has no deck {faction!r}; decks: "
                                   + ", ".join(sorted({c.deck for c in cards.values()})))
            if not dot or not any(isinstance(c.fields.get(name), int) for c in deck):
                raise RefereeError(f"--vary {text!r}: no card of deck {faction} prints a number {name!r}")
            low, high = _range(text, spec)
            knobs.append(Knob("deck", faction, name, tuple(range(low, high + 1)), 0, faction))
            continue
        card_id, dot, name = head.rpartition(".")
        card = cards.get(card_id)
        if card is None:
            raise RefereeError(f"--vary {text!r}: no card {card_id or head!r} in {game}")
        value = card.fields.get(name)
        if not isinstance(value, int) or isinstance(value, bool):
            printed = ", ".join(k for k, v in card.fields.items() if isinstance(v, int) and not isinstance(v, bool))
            raise RefereeError(f"--vary {text!r}: card {card_id} ({card.path}:{card.line}) prints no number "
                               f"{name!r}; its numbers: {printed or 'none'}")
        low, high = _range(text, spec)
        floor = _minimum(root, game, card.type, name)
        if low < floor:
            raise RefereeError(f"--vary {text!r}: {name} of a {card.type} is {floor} or more in "
                               f"card_sources/{game}/game.yaml, not {low}")
        knobs.append(Knob("card", card.id, name, tuple(range(low, high + 1)), value, card.deck))
    return tuple(knobs)


def _range(text: str, spec: str) -> tuple[int, int]:
    found = _RANGE.match(spec)
    if not found or int(found.group(1)) > int(found.group(2)):
        raise RefereeError(f"--vary {text!r}: a range is LOW..HIGH with LOW <= HIGH, e.g. 1..4 or -1..+1")
    return int(found.group(1)), int(found.group(2))


def _cards(game: str, root: Path) -> Mapping[str, Any]:
    from referee.cards.index import load_index  # lazy: card sources only when tuning

    index = load_index(root)
    return {c.id: c for c in index.cards.values() if c.game == game}


def _minimum(root: Path, game: str, card_type: str, name: str) -> int:
    """The schema's lower bound of a card type's number (0 when it gives none)."""
    from pnp.sources.schema import parse_type  # lazy: game.yaml only when tuning

    path = root / "card_sources" / game / "game.yaml"
    spec = ((_schema(path, path.stat().st_mtime_ns).get(card_type) or {}).get("fields") or {}).get(name)
    found = parse_type(spec).minimum if spec else None
    return max(0, found) if found is not None else 0


@lru_cache(maxsize=4)
def _schema(path: Path, mtime: int) -> dict[str, Any]:
    import yaml  # lazy: as above

    return yaml.safe_load(path.read_text(encoding="utf-8")).get("card_types") or {}


# ---- a change written into a copy of the sources ------------------------------------------

def edit_line(lines: list[str], start: int, name: str, value: int) -> bool:
    """Set `name: value` in the YAML card block starting at line `start` (1-based)."""
    head = lines[start - 1]
    indent = len(head) - len(head.lstrip(" -"))
    pattern = re.compile(rf"^(\s*){re.escape(name)}:\s*(-?\d+)(\s*(#.*)?)$")
    for i in range(start - 1, len(lines)):
        line = lines[i]
        if i > start - 1 and line.strip().startswith("- ") and len(line) - len(line.lstrip(" -")) <= indent:
            return False
        found = pattern.match(line.rstrip("\n"))
        if found and len(found.group(1)) >= indent - 2:
            lines[i] = f"{found.group(1)}{name}: {value}{found.group(3)}\n"
            return True
    return False
