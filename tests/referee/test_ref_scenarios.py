"""Scenario files (tests/referee/scenarios/*.yaml) played through the CLI.

A scenario is data: a `setup` (game, players, seed, life, house_rules),
`steps` (a command line as typed after `referee`, then either `expect`, a
partial status to match, or `error`, words the refusal must contain), and a
final `expect`. A refused step must leave the table exactly as it was.
`reveal` (a list of players) shows their hidden cards in every status
checked; a step's own `reveal` overrides it for that step's `expect`.
Players in an `expect` are keyed by name; any field not mentioned is not
checked. A game's own fields (under `state` in `status --json`, for the
table and for each player) are written in an `expect` beside the shared ones,
and looked up under `state`.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.yaml"))


def new_command(setup: dict[str, Any]) -> list[str]:
    argv = ["new", setup["game"]]
    for player in setup["players"]:
        argv += ["--player", player]
    if "seed" in setup:
        argv += ["--seed", str(setup["seed"])]
    if setup.get("life") is not None:
        argv += ["--life", str(setup["life"])]
    for key, value in (setup.get("house_rules") or {}).items():
        argv += ["--house-rule", f"{key}={value}"]
    return argv


def assert_matches(actual: Any, expected: Any, where: str = "status") -> None:
    if where == "status.players" and isinstance(expected, dict):
        by_name = {p["name"]: p for p in actual}
        for name, fields in expected.items():
            assert name in by_name, f"{where}: no player {name}"
            assert_matches(by_name[name], fields, f"{where}.{name}")
        return
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected a mapping, got {actual!r}"
        for key, value in expected.items():
            found = actual
            if key not in actual and isinstance(actual.get("state"), dict):
                found = actual["state"]  # a game's own field
            assert key in found, f"{where}: no key {key!r}"
            assert_matches(found[key], value, f"{where}.{key}")
        return
    assert actual == expected, f"{where}: expected {expected!r}, got {actual!r}"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path, table) -> None:
    scenario = yaml.safe_load(path.read_text())
    table.run(new_command(scenario["setup"]))
    table.reveal = list(scenario.get("reveal") or [])
    for number, step in enumerate(scenario.get("steps") or [], start=1):
        line = step.get("run")
        if line and "error" in step:
            result = table.fail(line)
            for words in step["error"]:
                assert words in result.output, f"step {number} `{line}`: {words!r} not in {result.output!r}"
            continue
        if line:
            said_in_words(table.run(line).output, f"step {number} `{line}`")
        if "expect" in step:
            assert_matches(table.status(step.get("reveal")), step["expect"], "status")
    if "expect" in scenario:
        assert_matches(table.status(), scenario["expect"], "status")
    for row in table.run("log").output.splitlines():
        said_in_words(row, "log")


INTERNAL = re.compile(r"\b[a-z_]+=\S")  # an argument as the command got it: attacker=5, onto=g1


def said_in_words(output: str, where: str) -> None:
    """An echo's first line, or a log row, says what happened in words."""
    first = output.splitlines()[0] if output.strip() else ""
    assert not INTERNAL.search(first), f"{where}: {first!r} shows an internal argument"


def test_the_matcher_notices_a_difference(table) -> None:
    table.run("new culture-war --player A --player B")
    with pytest.raises(AssertionError):
        assert_matches(table.status(), {"players": {"A": {"life": 99}}})
    with pytest.raises(AssertionError):
        assert_matches(table.status(), {"players": {"Z": {}}})
