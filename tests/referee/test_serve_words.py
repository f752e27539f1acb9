"""The live page words the table as the command line does: its "Latest"
list is the log's own rows (render.log_line, one wording for both), and a
card's prompt waiting for someone is a field of its own, not only a line of
the folded "table in words"."""
from __future__ import annotations

import json
from dataclasses import replace

from click.testing import CliRunner

from conftest import Table
from helpers.serve_tables import cold_war
from referee.rules import prompts
from referee.cli.main import cli
from referee.rules import action_table, rules_for
from referee.model import GameSlug
from referee.serve import snapshot


def _page_rows(db) -> list[str]:
    return [row["text"] for row in snapshot.public(snapshot.read(db))["log"]]


def _log_rows(table: Table) -> str:
    return table.run("log").output


def test_the_debate_page_says_argues_as_the_log_does(tmp_path):
    t = Table(tmp_path / "debate.db")
    t.run("new debate --player Ana:Lincoln --player Ben:Truman --seed 12 --house-rule starting-crowd=0")
    t.run("argue deb-steelman-1 2")
    t.run("end-turn")
    t.run("argue deb-common-ground-1 2")
    rows = _page_rows(t.db)
    assert rows[-1] == "Ben argues Common Ground in thread 2"
    log = _log_rows(t)
    assert all(row in log for row in rows), (rows, log)
    assert not any("thread=" in row or "card=" in row for row in rows)


def test_the_cold_war_page_words_an_attack_and_its_outcome_as_the_log_does(tmp_path):
    db = cold_war(tmp_path)
    t = Table(db)
    t.run("attack Bo S1 cold-wm-supercarrier")
    rows = _page_rows(db)
    log = _log_rows(t)
    assert all(row in log for row in rows), (rows, log)
    attack = rows[-1]
    assert attack.startswith("Ann attacks Bo") and "Supercarrier" in attack and "at=" not in attack
    assert "target=" not in attack and "cold-wm-" not in attack


def test_a_waiting_prompt_is_its_own_field_of_the_page(tmp_path, monkeypatch):
    db = tmp_path / "t.db"
    runner = CliRunner()
    runner.invoke(cli, ["--db", str(db), "new", "petri-dish", "--player", "ann:white", "--player", "bo:black",
                        "--seed", "1"])
    rules = rules_for(GameSlug.PETRI_DISH)
    place = rules.actions["place"]

    def pass_and_ask(rules, state, action, dice):
        return prompts.ask(place.apply(rules, state, action, dice), "bo", "c", "Card", "played", "Count to three.")

    monkeypatch.setattr(rules, "actions", action_table(rules.actions.values(), [replace(place, apply=pass_and_ask)]))
    assert snapshot.public(snapshot.read(db))["prompts"] == []
    runner.invoke(cli, ["--db", str(db), "place", "d4"])
    page = snapshot.public(snapshot.read(db))
    assert page["prompts"] == ["waiting for bo: Card (played): Count to three. Enter: referee resolve 1 done"]
    assert json.loads(runner.invoke(cli, ["--db", str(db), "status", "--json"]).output)["prompts"]
