"""Card illustrations: game-icons.net icons (CC BY 3.0), vendored as SVG files
in `templates/art/` and shipped with pnp, or pictures of a designer's own
(PNG, JPEG, SVG), chosen per card in `card_sources/<game>/art.yaml` or in the
card's own field `art` (a spreadsheet column), and drawn in a composed art
panel (pnp.faces.artpanel).

    # card_sources/<game>/art.yaml
    cards:
      anarchy-window-smasher: brick-wall      # templates/art/brick-wall.svg
      anarchy-brick-courier: courier.png      # a picture of your own in templates/art/
      anarchy-lookout:                        # blank: no picture
      ...

Each card with a picture gets the field `art`: the picture's path from the
project root (`templates/art/brick-wall.svg`), which templates draw with
`<art src="{{ card.art }}" .../>` and `pnp list --json` shows. An icon name
the project's own `templates/art/` lacks is looked up among the icons pnp
ships (`find_art`), so any project may name them. Checks, each one line
`file:line: card-id: message`: an id that is no card of the game, a name that
is neither an icon nor a picture there, a picture given twice, and in our five
games a card without art or two differently named cards of one deck sharing
an illustration (their house rules).
"""
from __future__ import annotations

import dataclasses
import hashlib
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from pnp.errors import Problems, did_you_mean
from pnp.model import GAME_SLUGS
from pnp.project import TEMPLATES_DIR, installed_project
from pnp.sources.yamlio import YamlSyntaxError, load_marked

ART_FILE = "art.yaml"
ART_DIR = "art"  # under templates/
ART_CREDIT = "card illustrations: game-icons.net (Lorc, Delapouite and others), CC BY 3.0"
_NAME = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*(?:\.(?:svg|png|jpg|jpeg))?$", re.IGNORECASE)
UNREAD = "*"  # in the ids seen: a deck whose cards could not be read (no id can be "*")
BROKEN = "!"  # in art.yaml's mapping: a picture named with a problem (reported there, once)


def art_path(name: str) -> str:
    """The project-relative path of illustration `name`: an icon name
    (templates/art/NAME.svg) or a file in templates/art/ with its suffix
    (dragon.png, sunset.jpg, map.svg)."""
    return f"{TEMPLATES_DIR}/{ART_DIR}/{name}" if "." in name else f"{TEMPLATES_DIR}/{ART_DIR}/{name}.svg"


@lru_cache(maxsize=1)
def shipped_art() -> Path | None:
    """The folder of the icons pnp ships (templates/art of the checkout it
    runs from, or of the project the wheel carries), resolved."""
    root = installed_project()
    folder = root / TEMPLATES_DIR / ART_DIR if root is not None else None
    return folder.resolve() if folder is not None and folder.is_dir() else None


def find_art(project: Path, src: str) -> Path | None:
    """See `_find_art`; remembered in this process while the file it found
    is still there (every face with a picture asks: pnp watch, big decks)."""
    key = (str(project), src)
    if key in _found:
        found, own = _found[key]
        if os.path.isfile(found) and (own is None or not os.path.isfile(own)):  # a picture of its own wins
            return found
    found = _find_art(project, src)
    if found is not None:
        if len(_found) > 4096:
            _found.clear()
        own = os.path.join(project, src)
        _found[key] = (found, None if found.is_relative_to(project.resolve()) else own)
    return found


_found: dict[tuple[str, str], tuple[Path, str | None]] = {}  # -> (the file, the project's own it stands in for)


def _find_art(project: Path, src: str) -> Path | None:
    """The file a picture's path names (from the project root, or absolute):
    the project's own, else for templates/art/NAME the icon pnp ships by that
    name. None when there is none, or when the path leads outside the project
    (`..`, an absolute path elsewhere, a link out) and is not a shipped icon."""
    root = project.resolve()
    path = (root / src).resolve()
    if path.is_file() and (path.is_relative_to(root) or _is_in_shipped(path)):
        return path
    if not path.is_relative_to(root):
        return None
    prefix = f"{TEMPLATES_DIR}/{ART_DIR}/"
    rel = path.relative_to(root).as_posix()
    shipped = shipped_art()
    if shipped is None or not rel.startswith(prefix) or "/" in rel[len(prefix):]:
        return None
    candidate = (shipped / rel[len(prefix):]).resolve()
    return candidate if candidate.is_file() else None


def _is_in_shipped(path: Path) -> bool:
    """Whether `path` (resolved) is one of the icons pnp ships."""
    shipped = shipped_art()
    return shipped is not None and path.parent == shipped


def picture_problem(name: Any, project: Path) -> str | None:
    """Why `name` names no picture (None: it does)."""
    if not isinstance(name, str) or not _NAME.match(name):
        return (f"art {name!r} is not an icon name (e.g. brick-wall) or a picture in templates/art/ "
                "(e.g. dragon.png, sunset.jpg)")
    if find_art(project, art_path(name)) is not None:
        return None
    if "." in name:
        return f"no illustration {art_path(name)}; put the picture there"
    shipped = shipped_art()
    known = sorted(p.stem for p in shipped.glob("*.svg")) if shipped is not None else []
    return (f"no illustration {art_path(name)}: {name!r} is no picture in this project and none of the "
            f"{len(known)} icons pnp ships (game-icons.net names)" + did_you_mean(name, known))


def load_art(folder: Path, project: Path, problems: Problems) -> dict[str, tuple[str | None, int]] | None:
    """card id -> (project-relative picture path, or None for a blank: no
    picture; line in art.yaml); None when the game has no art.yaml."""
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
    if data is None:
        return {}  # an empty art.yaml: no pictures yet
    if not isinstance(data, dict) or not isinstance(data.get("cards") or {}, dict):
        problems.add(path, getattr(data, "line", 1), None, "art.yaml is a mapping with `cards:`, card id -> icon name")
        return {}
    cards = data.get("cards") or {}
    out: dict[str, tuple[str | None, int]] = {}
    for card_id, name in cards.items():
        line = cards.line_of(card_id)
        if name is None or (isinstance(name, str) and not name.strip()):
            out[str(card_id)] = (None, line)  # a blank: this card has no picture
            continue
        if isinstance(name, str):
            name = name.strip()
        if (why := picture_problem(name, project)) is not None:
            problems.add(path, line, str(card_id), why)
            out[str(card_id)] = (BROKEN, line)
            continue
        out[str(card_id)] = (art_path(name), line)
    return out


def check_art(game_folder: Path, art: dict[str, tuple[str | None, int]], decks, problems: Problems,
              seen: set[str] = frozenset()) -> None:
    """art.yaml names only cards of the game (`seen`: every id read, also of
    cards left out for a problem of their own, which is reported once, there);
    in our five games, also every card has art and no two differently named
    cards of one deck share an illustration (house rules of theirs: a
    designer's game may give art to some cards and reuse a picture)."""
    house = game_folder.name in GAME_SLUGS
    path = game_folder / ART_FILE
    known = {card.id for deck in decks for card in deck.cards} | set(seen)
    if UNREAD not in known:  # a deck file that could not be read: its ids are unknown, so no card is "missing"
        for card_id, (_, line) in art.items():
            if card_id not in known:
                problems.add(path, line, card_id, "no card with this id in the game")
    for deck in decks:
        users: dict[str, str] = {}
        for card in deck.cards:
            src = card.fields.get("art")
            if src is None:
                if house and art.get(card.id, (None,))[0] is not BROKEN:
                    problems.add(card.path, card.line, card.id, f"no illustration: give it one in {path.name}")
                continue
            other = users.setdefault(src, card.name)
            if house and other != card.name:
                problems.add(path, art[card.id][1] if card.id in art else card.line, card.id,
                             f"{card.name} shares its illustration {Path(src).stem} with {other} in deck {deck.id}")


def with_art(card, art: dict[str, tuple[str | None, int]], folder: Path, problems: Problems):
    """The card with its picture's path as the field `art` (given in art.yaml
    or by name in the card's own `art`), without the field when it has none;
    None, with the problem recorded, for a picture that is not there."""
    own = card.fields.get("art")
    fields = {k: v for k, v in card.fields.items() if k != "art"}
    if own is not None:
        own = own.strip()
        line = card.field_lines.get("art", card.line)
        if card.id in art:
            problems.add(card.path, line, card.id, f"a picture is given here and in {folder.name}/art.yaml "
                                                   f"(line {art[card.id][1]}); give it in one place")
            return None
        if own:
            if (why := picture_problem(own, folder.parent.parent)) is not None:
                problems.add(card.path, line, card.id, why)
                return None
            return dataclasses.replace(card, fields={**fields, "art": art_path(own)})
    src = art.get(card.id, (None, 0))[0]
    return dataclasses.replace(card, fields=fields if src in (None, BROKEN) else {**fields, "art": src})


def art_credit(project: Path, cards) -> str | None:
    """The rule sheet's credit for the cards' illustrations: game-icons.net
    when at least one card shows one of the icons pnp ships; None otherwise
    (a game with no art, or only pictures of its designer's own)."""
    for card in cards:
        src = card.fields.get("art")
        if isinstance(src, str) and src.lower().endswith(".svg") and is_shipped_icon(find_art(project, src)):
            return ART_CREDIT
    return None


def is_shipped_icon(path: Path | None) -> bool:
    """Whether the picture at `path` is one of the game-icons.net icons pnp
    ships: that very file, or a copy of it under its name."""
    shipped = shipped_art()
    if path is None or shipped is None:
        return False
    twin = shipped / path.name
    if not twin.is_file():
        return False
    return path.resolve() == twin.resolve() or _sha(path) == _sha(twin)


def _sha(path: Path) -> str:
    st = path.stat()
    return _sha_of(str(path), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=1024)
def _sha_of(path: str, mtime_ns: int, size: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


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
