"""Every game has the same shape (docs/adding-a-game.md): one registry entry,
the same files, and a table of actions the rules dispatch through. (No
import cycles and no unexplained import inside a function: tests/test_import_graph.py.)"""
from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from referee.rules import ActionSpec, action_table, rules_for
from referee.rules.generic import GenericRules
from referee.rules.shared import SHARED_ACTIONS
from referee.model import GameSlug

ROOT = Path(__file__).resolve().parents[2]
REFEREE = ROOT / "referee"
GAMES = list(GameSlug)
EVERY_GAME_HAS = ("__init__.py", "rules.py", "actions.py", "phrases.py", "view.py", "words.py", "commands.py", "cli.py", "report.py")
# Helpers in commands.py and cli.py whose first string argument is the name of the action they log.
EMITTERS = {"act", "_act", "_rolled", "simple", "Action", "play", "remove", "_laid"}


def _package(game: GameSlug) -> Path:
    return REFEREE / "games" / game.package


# ---- the registry -------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES, ids=[g.value for g in GAMES])
def test_the_registry_entry_finds_the_game(game):
    rules = rules_for(game)
    assert rules.slug is game and rules.title == game.game_title
    assert isinstance(rules, GenericRules)
    assert _package(game).is_dir() and importlib.import_module(game.module()).RULES is rules


def test_pnp_lists_the_same_games_as_the_registry():
    from pnp.model import GAME_SLUGS  # pnp keeps its own list (it never imports the referee)

    assert list(GAME_SLUGS) == [g.value for g in GameSlug]


@pytest.mark.parametrize("game", GAMES, ids=[g.value for g in GAMES])
def test_every_game_has_the_same_files(game):
    present = {p.name for p in _package(game).glob("*.py")}
    assert set(EVERY_GAME_HAS) <= present, set(EVERY_GAME_HAS) - present
    assert not (_package(game) / "text.py").exists(), "the words of a game live in view.py"


# ---- the table of actions -------------------------------------------------------------


def _own_actions(game: GameSlug) -> tuple[ActionSpec, ...]:
    rules = importlib.import_module(game.module("rules"))
    if hasattr(rules, "ACTIONS"):
        return rules.ACTIONS
    return importlib.import_module(game.module("action_table")).ACTIONS  # a table loaded on first use (Culture War)


@pytest.mark.parametrize("game", GAMES, ids=[g.value for g in GAMES])
def test_each_table_names_every_action_once_and_keeps_the_shared_ones(game):
    own = _own_actions(game)
    names = [spec.name for spec in own]
    assert len(names) == len(set(names)), f"{game.value} lists an action twice: {names}"
    table = rules_for(game).actions
    assert dict(table) == dict(action_table(SHARED_ACTIONS, own))
    assert {spec.name for spec in SHARED_ACTIONS} <= set(table)
    for name, spec in table.items():
        assert spec.name == name and callable(spec.check) and callable(spec.apply)


@pytest.mark.parametrize("game", GAMES, ids=[g.value for g in GAMES])
def test_every_phrase_words_an_action_of_the_table(game):
    from referee.words.view import view_for

    rules, phrases = rules_for(game), view_for(game).phrases
    assert set(phrases) <= set(rules.actions), set(phrases) - set(rules.actions)


def test_a_table_listing_an_action_twice_is_refused():
    life = SHARED_ACTIONS[0]
    with pytest.raises(ValueError, match="listed twice"):
        action_table([life, life])


def _emitted(path: Path) -> set[str]:
    """The action names a module hands to the table: the string literal that is
    the first text argument of a call to one of the EMITTERS."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Call):
            continue
        func = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        if func not in EMITTERS:
            continue
        literal = next((a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)), None)
        if literal is not None:
            names.add(literal)
    return names


@pytest.mark.parametrize("game", GAMES, ids=[g.value for g in GAMES])
def test_every_action_the_game_commands_log_is_in_its_table(game):
    emitted = _emitted(_package(game) / "commands.py") | _emitted(_package(game) / "cli.py")
    assert emitted, f"no action found in {game.value}'s commands: the scan is broken"
    missing = emitted - set(rules_for(game).actions)
    assert not missing, f"{game.value}'s commands log actions its table lacks: {missing}"


def test_every_action_the_core_commands_log_is_shared():
    emitted = _emitted(REFEREE / "cli" / "main.py") | {"life", "capital"}  # `life`/`capital` share one command
    assert emitted <= {spec.name for spec in SHARED_ACTIONS}, emitted


@pytest.mark.parametrize("game", GAMES, ids=[g.value for g in GAMES])
def test_no_action_is_found_by_its_method_name(game):
    """Actions live in the table only: a check_X or apply_X method would be dead code."""
    hooks = {"check_prompt_answer", "apply_prompt_answer"}
    stray = [n for n in dir(type(rules_for(game))) if n.startswith(("check_", "apply_", "_do_")) and n not in hooks]
    assert not stray, stray


def test_the_core_never_looks_up_a_rules_attribute_by_name():
    for path in REFEREE.rglob("*.py"):
        text = path.read_text()
        assert not re.search(r"(getattr|hasattr)\((self|rules|type\(self\))\b", text), path
        assert not re.search(r"getattr\([^)]*\+", text), f"{path} builds a name to look up"
