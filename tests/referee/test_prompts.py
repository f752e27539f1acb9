"""The table waits for a card's prompt: other actions are refused, the answer
settles it, and it shows in status and in the command's output."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest
from click.testing import CliRunner

from referee.rules import prompts
from referee.cli.main import cli
from referee.errors import RuleViolation
from referee.rules import action_table, rules_for
from referee.model import Action, GameSlug, Setup


def _state():
    rules = rules_for(GameSlug.PETRI_DISH)
    setup = Setup(GameSlug.PETRI_DISH, (("ann", "white"), ("bo", "black")), 7)
    return rules, rules.setup(setup, rules.setup_dice(setup) and ())


def test_a_waiting_prompt_refuses_play_and_names_what_to_enter():
    rules, state = _state()
    asked = prompts.ask(state, "ann", "x-scout", "Scout", "played", "Look at the top card of a deck.")
    with pytest.raises(RuleViolation) as refused:
        rules.check(asked, Action("place", {"at": "d4"}, None))
    assert "Scout (played): Look at the top card of a deck." in str(refused.value)
    assert "referee resolve 1 done" in str(refused.value)
    rules.check(state, Action("place", {"at": "d4"}, None))  # without the prompt, the same action is fine


def test_resolve_settles_only_the_named_prompt_and_checks_choices():
    rules, state = _state()
    state = prompts.ask(state, "ann", "a", "Alpha", "played", "Do a thing.")
    state = prompts.ask(state, "bo", "b", "Beta", "end of turn", "Keep or lose it.", choices=("keep", "lose"))
    with pytest.raises(RuleViolation, match="2 prompts are waiting"):
        rules.check(state, Action("resolve", {}, None))
    with pytest.raises(RuleViolation, match="keep, lose"):
        rules.check(state, Action("resolve", {"prompt": 2, "answer": "maybe"}, None))
    with pytest.raises(RuleViolation, match="for bo, not ann"):
        rules.check(state, Action("resolve", {"prompt": 2, "answer": "keep"}, "ann"))
    action = Action("resolve", {"prompt": 2, "answer": "keep"}, "bo")
    rules.check(state, action)
    after = rules.apply(state, action, ())
    assert [p.number for p in prompts.pending(after)] == [1]
    after = rules.apply(after, Action("resolve", {}, None), ())
    assert prompts.pending(after) == ()
    with pytest.raises(RuleViolation, match="nothing is waiting"):
        rules.check(after, Action("resolve", {}, None))


def test_prompt_shows_in_status_and_resolve_works_from_the_command_line(tmp_path, monkeypatch):
    from referee.table import operations as table

    db = tmp_path / "t.db"
    runner = CliRunner()
    assert runner.invoke(cli, ["--db", str(db), "new", "petri-dish", "--player", "ann:white",
                               "--player", "bo:black", "--seed", "1"]).exit_code == 0
    out = runner.invoke(cli, ["--db", str(db), "resolve"])
    assert out.exit_code != 0 and "nothing is waiting" in out.output and "Traceback" not in out.output
    # a game's rules add prompts as they apply actions; here the fold is fed one directly
    rules = rules_for(GameSlug.PETRI_DISH)
    place = rules.actions["place"]

    def pass_and_ask(rules, state, action, dice):
        return prompts.ask(place.apply(rules, state, action, dice), "bo", "c", "Card", "played", "Count to three.")

    monkeypatch.setattr(rules, "actions", action_table(rules.actions.values(), [replace(place, apply=pass_and_ask)]))
    out = runner.invoke(cli, ["--db", str(db), "place", "d4"])
    assert "waiting for bo: Card (played): Count to three. Enter: referee resolve 1 done" in out.output, out.output
    status = runner.invoke(cli, ["--db", str(db), "status"]).output
    assert "waiting for bo: Card (played)" in status
    assert json.loads(runner.invoke(cli, ["--db", str(db), "status", "--json"]).output)["prompts"][0]["player"] == "bo"
    out = runner.invoke(cli, ["--db", str(db), "resolve", "1", "done"])
    assert out.exit_code == 0 and "prompt 1 (Card) answered" in out.output, out.output
    assert "waiting" not in runner.invoke(cli, ["--db", str(db), "status"]).output
    assert table.parse_resolve(["#3", "Keep"]) == (3, "keep")
