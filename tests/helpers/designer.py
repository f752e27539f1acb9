"""A designer's own project, as `pnp new-game` starts one, for tests that
use pnp the way a new user does (CliRunner, real files in a tmp folder)."""
from __future__ import annotations

import os
from pathlib import Path

from click.testing import CliRunner

from pnp.cli import main

GAME = "dragon-market"
CARDS = ("dragon-market-scout", "dragon-market-builder", "dragon-market-messenger", "dragon-market-wildcard")
ART_PANEL = ('{% if "art" in card %}<art src="{{ card.art }}" x="{{ f + 1.5 }}" y="{{ f + style.title_h + 1.5 }}" '
             'w="{{ W - 2*f - 3 }}" h="{{ style.art_h }}" color="ink" background="#d9e4ec"/>{% endif %}\n</card>')


def new_game(folder: Path, art_panel: bool = False) -> Path:
    """A fresh project in `folder` holding the game dragon-market (four cards,
    one deck, a rule sheet); with `art_panel`, its card template draws the
    card's picture."""
    old = Path.cwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(main, ["new-game", GAME])
        assert result.exit_code == 0, result.output
    finally:
        os.chdir(old)
    if art_panel:
        template = folder / "templates" / GAME / "card.xml.j2"
        template.write_text(template.read_text().replace("</card>", ART_PANEL))
    return folder


def pnp(project: Path, *args: str):
    """`pnp --project PROJECT ARGS...` as a user types it."""
    return CliRunner().invoke(main, ["--project", str(project), *args])


def sources(project: Path) -> Path:
    return project / "card_sources" / GAME


def error_lines(output: str) -> list[str]:
    """The lines of an error report (the first one after `Error: `)."""
    return [line.removeprefix("Error: ") for line in output.strip().splitlines() if line.strip()]
