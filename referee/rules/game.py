"""A game as one record: which parts it has, each loaded on first use.

Every game package declares, in its `__init__.py`,

    GAME = Game(GameSlug.DEBATE, rules=RULES, parts=(Part.VIEW, Part.COMMANDS, ...))

and the rest of the referee reaches a game only through `game_of(slug)` and
the record's properties: `rules`, `commands` (its click commands), `report`,
`legal`, `selfplay`. `load` is the one place a game's module is imported by
name, so a game never loads for a table of another game, and a part a game
lacks is a plain None rather than a caught ModuleNotFoundError.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from enum import Enum
from types import ModuleType
from typing import Any

from referee.model import GameSlug


class Part(str, Enum):
    """The modules a game package may have beside its rules (docs/adding-a-game.md)."""

    VIEW = "view"  # what the table shows of itself: hidden cards masked, status lines
    WORDS = "words"  # its GameView (`VIEW`): status, change lines, labels, phrases
    PHRASES = "phrases"  # each action's phrase for echoes and the log
    COMMANDS = "commands"  # the table-level functions behind its commands
    CLI = "cli"  # its click commands (`COMMANDS`)
    REPORT = "report"  # its part of the match report (`REPORT`)
    LEGAL = "legal"  # its move generator (`legal_moves`, maybe `candidates`)
    SELFPLAY = "selfplay"  # its dealer, evaluation and movers for self-play
    POLICY = "policy"  # how a sensible player plays it (self-play's heuristic agent)


@dataclass(frozen=True)
class Game:
    """One game: its slug, its rules object, and the parts it has."""

    slug: GameSlug
    rules: Any  # its GameRules (referee.rules), which imports this module
    parts: frozenset[Part]

    def __init__(self, slug: GameSlug, rules: Any, parts: tuple[Part, ...]) -> None:
        object.__setattr__(self, "slug", slug)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "parts", frozenset(parts))

    def load(self, part: Part) -> ModuleType | None:
        """The game's module for `part`, imported now (None if the game has none)."""
        if part not in self.parts:
            return None
        return importlib.import_module(self.slug.module(part.value))  # lazy: only the part asked for

    def attribute(self, part: Part, name: str, default: Any = None) -> Any:
        """`name` of the game's `part` module, or `default` when either is missing."""
        module = self.load(part)
        return default if module is None else getattr(module, name, default)

    @property
    def commands(self) -> dict[str, Any]:
        """Its own click commands by name (none for a game without a `cli`)."""
        return dict(self.attribute(Part.CLI, "COMMANDS", {}))

    @property
    def legal(self) -> ModuleType:
        """Its move generator; every game has one."""
        module = self.load(Part.LEGAL)
        assert module is not None, f"{self.slug.value} declares no move generator"
        return module

    @property
    def view(self) -> Any:
        """Its words (referee.words.view.GameView), loaded on first use."""
        module = self.load(Part.WORDS)
        assert module is not None, f"{self.slug.value} declares no words"
        return module.VIEW

    @property
    def selfplay(self) -> ModuleType | None:
        return self.load(Part.SELFPLAY)


def game_of(game: GameSlug | str) -> Game:
    """The record of a game (its package's `GAME`); imports that game's package only."""
    slug = game if isinstance(game, GameSlug) else GameSlug.parse(game)
    return importlib.import_module(slug.module()).GAME  # lazy: only the game of the table
