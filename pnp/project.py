"""Finding the project a command works on, the way git finds its repository."""
from __future__ import annotations

from pathlib import Path

from pnp.errors import PnpError

SOURCES_DIR = "card_sources"
TEMPLATES_DIR = "templates"
GAME_FILE = "game.yaml"
FONTS_DIR = "fonts"  # under templates/
PACKAGE_FONTS = Path(__file__).parent / "assets" / "fonts"  # Roboto and Roboto Condensed, Apache 2.0


def is_project(path: Path) -> bool:
    return (path / SOURCES_DIR).is_dir() and (path / TEMPLATES_DIR).is_dir()


def available_games(root: Path) -> list[str]:
    """The project's games: the folders of card_sources/ that hold a game.yaml."""
    base = root / SOURCES_DIR
    if not base.is_dir():
        raise PnpError(f"{base}: no card_sources folder")
    return sorted(p.name for p in base.iterdir() if (p / GAME_FILE).is_file())


def find_project(start: Path | None = None) -> Path:
    """The nearest directory, from `start` (default: cwd) upward, holding both
    `card_sources/` and `templates/`."""
    here = (start or Path.cwd()).resolve()
    for candidate in (here, *here.parents):
        if is_project(candidate):
            return candidate
    raise PnpError(
        f"no pnp project found in {here} or its parents "
        f"(a project has both {SOURCES_DIR}/ and {TEMPLATES_DIR}/); use --project DIR"
    )


PACKAGED_PROJECT = Path(__file__).parent / "assets" / "project"  # the five games' sources, carried in the wheel


def installed_project() -> Path | None:
    """The checkout this package runs from (an editable install), else the
    five games' card sources and templates the wheel carries."""
    for root in (Path(__file__).resolve().parents[1], PACKAGED_PROJECT):
        if is_project(root):
            return root
    return None


def font_folder(templates: Path) -> Path:
    """The project's own fonts (templates/fonts/*.ttf) if it has any, else the
    ones pnp ships with, so a new project needs no fonts of its own."""
    own = templates / FONTS_DIR
    return own if any(own.glob("*.ttf")) else PACKAGE_FONTS
