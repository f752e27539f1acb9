"""Card illustrations: game-icons.net icons (CC BY 3.0), vendored as SVG files
in `templates/art/`, chosen per card in `card_sources/<game>/art.yaml`, and
drawn as vectors in a composed art panel (pnp.faces.artpanel).

    # card_sources/<game>/art.yaml
    cards:
      anarchy-window-smasher: brick-wall      # templates/art/brick-wall.svg
      ...

Each card of the game gets the field `art`: the SVG's path from the project
root (`templates/art/brick-wall.svg`), which templates draw with
`<art src="{{ card.art }}" .../>` and `pnp list --json` shows. Checks, each
one line `file:line: card-id: message`: a card without art, an id that is no
card of the game, an icon whose file is missing, and two differently named
cards of one deck sharing an illustration.

"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from pnp.errors import Problems
from pnp.model import GAME_SLUGS
from pnp.sources.yamlio import YamlSyntaxError, load_marked

ART_FILE = "art.yaml"
ART_DIR = "art"  # under templates/
_NAME = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*(?:\.(?:svg|png|jpg|jpeg))?$", re.IGNORECASE)


def art_path(name: str) -> str:
    """The project-relative path of illustration `name`: an icon name
    (templates/art/NAME.svg) or a file in templates/art/ with its suffix
    (dragon.png, sunset.jpg, map.svg)."""
    return f"templates/{ART_DIR}/{name}" if "." in name else f"templates/{ART_DIR}/{name}.svg"


def load_art(folder: Path, project: Path, problems: Problems) -> dict[str, tuple[str, int]] | None:
    """card id -> (project-relative SVG path, line in art.yaml); None when the game has no art.yaml."""
    path = folder / ART_FILE
    if not path.is_file():
        return None
    try:
        data, duplicates = load_marked(path)
    except YamlSyntaxError as exc:
        problems.add(path, exc.line, None, exc.message)
        return {}
    for line, key in duplicates:
        problems.add(path, line, str(key), f"card {key!r} is given art twice")
    if not isinstance(data, dict) or not isinstance(data.get("cards"), dict):
        problems.add(path, getattr(data, "line", 1), None, "art.yaml is a mapping with `cards:`, card id -> icon name")
        return {}
    cards = data["cards"]
    out = {}
    for card_id, name in cards.items():
        line = cards.line_of(card_id)
        if not isinstance(name, str) or not _NAME.match(name):
            problems.add(path, line, str(card_id), f"art {name!r} is not an icon name (e.g. brick-wall) or a "
                                                    "file in templates/art/ (e.g. dragon.png, sunset.jpg)")
            continue
        if not (project / art_path(name)).is_file():
            problems.add(path, line, str(card_id), f"no illustration {art_path(name)}; "
                         + ("put the picture there" if "." in name else "vendor it with scripts/vendor_art.py"))
            continue
        out[str(card_id)] = (art_path(name), line)
    return out


def check_art(game_folder: Path, art: dict[str, tuple[str, int]], decks, problems: Problems) -> None:
    """Every card has art and art.yaml names only cards of the game; in our
    five games, also no two differently named cards of one deck share an
    illustration (a house rule of theirs: a designer's game may reuse one)."""
    distinct = game_folder.name in GAME_SLUGS
    path = game_folder / ART_FILE
    known = {card.id for deck in decks for card in deck.cards}
    for card_id, (_, line) in art.items():
        if card_id not in known:
            problems.add(path, line, card_id, "no card with this id in the game")
    for deck in decks:
        users: dict[str, str] = {}
        for card in deck.cards:
            if card.id not in art:
                problems.add(card.path, card.line, card.id, f"no illustration: give it one in {path.name}")
                continue
            src = art[card.id][0]
            other = users.setdefault(src, card.name)
            if distinct and other != card.name:
                problems.add(path, art[card.id][1], card.id,
                             f"{card.name} shares its illustration {Path(src).stem} with {other} in deck {deck.id}")


def art_names(project: Path) -> dict[str, Any]:
    """Every icon named in any game's art.yaml: name -> the games using it (for vendoring)."""
    out: dict[str, list[str]] = {}
    for path in sorted((project / "card_sources").glob(f"*/{ART_FILE}")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for name in (data.get("cards") or {}).values():
            out.setdefault(str(name), [])
            if path.parent.name not in out[str(name)]:
                out[str(name)].append(path.parent.name)
    return out
