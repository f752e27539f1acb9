"""Short codes: at most 5 characters, unique in a game, stable when cards are
added, printed beside the QR code, and accepted wherever a card is."""
from __future__ import annotations

import json
from pathlib import Path

import pypdfium2 as pdfium
import yaml
import pytest
from click.testing import CliRunner

from pnp.cli import main as pnp_main
from pnp.sources.codes import CODE
from pnp.sources.loader import load_sources

ROOT = Path(__file__).resolve().parents[2]


def test_every_card_has_a_short_unique_code():
    sources = load_sources(ROOT)
    for game in sources.games.values():
        codes = [c.fields["code"] for c in game.cards]
        assert all(CODE.match(c) and len(c) <= 5 for c in codes), game.slug
        assert len(set(codes)) == len(codes), game.slug


def test_codes_do_not_move_when_cards_are_added(mini_project):
    before = {c.id: c.fields["code"] for c in load_sources(mini_project).cards.values()}
    deck = mini_project / "card_sources/culture-war/anarchy.yaml"
    data = yaml.safe_load(deck.read_text())
    data["cards"].insert(0, {"id": "test-newcomer", "name": "Newcomer", "type": "unit", "cost": 1, "atk": 1,
                             "def": 1, "unit_type": "Mob"})
    deck.write_text(yaml.safe_dump(data, sort_keys=False))
    after = {c.id: c.fields["code"] for c in load_sources(mini_project).cards.values()}
    assert {k: after[k] for k in before} == before and "test-newcomer" in after


def test_a_clash_or_a_bad_code_is_named(mini_project):
    deck = mini_project / "card_sources/culture-war/anarchy.yaml"
    data = yaml.safe_load(deck.read_text())
    data["cards"][0]["code"] = "ZZ1"
    data["cards"][1]["code"] = "zz1"
    data["cards"][2]["code"] = "TOO-LONG"
    deck.write_text(yaml.safe_dump(data, sort_keys=False))
    result = CliRunner().invoke(pnp_main, ["--project", str(mini_project), "validate"])
    assert result.exit_code != 0
    assert "short code ZZ1 is also test-recruit's" in result.output
    assert "code 'TOO-LONG' must be 2 to 5 letters or digits" in result.output


@pytest.mark.pdf
def test_list_json_has_the_code_and_the_face_prints_it(mini_project, tmp_path):
    rows = json.loads(CliRunner().invoke(pnp_main, ["--project", str(mini_project), "list", "--json"]).output)
    codes = {r["id"]: r["code"] for r in rows}
    out = tmp_path / "out"
    assert CliRunner().invoke(pnp_main, ["--project", str(mini_project), "build", "--out", str(out)]).exit_code == 0
    doc = pdfium.PdfDocument(out / "culture-war/deck-anarchy.pdf")
    text = doc[0].get_textpage().get_text_range()
    for card_id in ("test-recruit", "test-brawler"):
        assert codes[card_id] in text


def test_the_referee_takes_a_code_in_any_case(table):
    from referee.cards import lookup

    card = lookup("anarchy-window-smasher").card
    code = card.fields["code"]
    assert lookup(code.lower()).card.id == card.id
    table.run("new culture-war --player ann:anarchy --player bo:technocracy --seed 1 --house-rule first-player=seating")
    table.run("capital ann +3")
    result = table.run(f"deploy {code.lower()}")
    assert "Window Smasher" in result.output
    wrong = table.fail("deploy QQQQ9")
    assert "Traceback" not in wrong.output and "QQQQ9" in wrong.output.upper()


def test_tab_completion_offers_commands_and_cards(monkeypatch):
    """What click's shell completion (bash, zsh, fish) offers, through its own API."""
    from click.shell_completion import ShellComplete

    from referee.cli.main import cli

    def offers(args, incomplete):
        return [c.value for c in ShellComplete(cli, {}, "referee", "_REFEREE_COMPLETE").get_completions(args, incomplete)]

    assert "status" in offers([], "sta")
    assert "anarchy-window-smasher" in offers(["card"], "anarchy-wind")
    from referee.cards import lookup

    code = lookup("anarchy-window-smasher").card.fields["code"]
    assert code in offers(["card"], code[:3].lower())


def test_tab_completion_knows_the_tables_game_commands_players_and_cards(tmp_path, monkeypatch):
    from click.shell_completion import ShellComplete

    from referee.cli.main import cli
    from referee.cards import lookup
    from click.testing import CliRunner

    db = tmp_path / "t.db"
    assert CliRunner().invoke(cli, ["--db", str(db), "new", "culture-war", "--player", "ann:anarchy",
                                    "--player", "bo:technocracy"]).exit_code == 0
    monkeypatch.setenv("REFEREE_DB", str(db))

    def offers(args, incomplete):
        return [c.value for c in ShellComplete(cli, {}, "referee", "_REFEREE_COMPLETE").get_completions(args, incomplete)]

    assert "battle" in offers([], "bat")                     # a Culture War command, from the table in use
    assert offers(["life"], "a") == ["ann"]                 # the table's players
    assert "anarchy-window-smasher" in offers(["deploy"], "anarchy-wind")
    code = lookup("anarchy-window-smasher").card.fields["code"]
    assert code in offers(["deploy"], code[:2])


def test_tab_completion_offers_what_is_on_the_table(tmp_path, monkeypatch):
    """Units by handle in Culture War, groups in Divide & Conquer, points of the dish."""
    from click.shell_completion import ShellComplete
    from click.testing import CliRunner

    from referee.cli.main import cli

    def offers(db, args, incomplete):
        monkeypatch.setenv("REFEREE_DB", str(db))
        return [c.value for c in ShellComplete(cli, {}, "referee", "_REFEREE_COMPLETE").get_completions(args, incomplete)]

    def run(db, *lines):
        for line in lines:
            assert CliRunner().invoke(cli, ["--db", str(db), *line.split()]).exit_code == 0, line

    cw = tmp_path / "cw.db"
    run(cw, "new culture-war --player ann:anarchy --player bo:technocracy --house-rule first-player=seating",
        "capital ann +5", "deploy anarchy-window-smasher")
    assert offers(cw, ["battle"], "ann/w") == ["ann/window-smasher"]
    assert offers(cw, ["battle", "ann/window-smasher"], "b") == ["bo", "bo/co-working-hub", "bo/technocrat-recruit"]
    dc = tmp_path / "dc.db"
    run(dc, "new divide-and-conquer --player Ana --player Ben --player Cy --player Dee --seed 1",
        "recruit dc-left-campus-outrage")
    assert offers(dc, ["attack"], "g") == ["g1"]
    pd = tmp_path / "pd.db"
    run(pd, "new petri-dish --player Ann --player Bo", "place c2")
    assert "c2" in offers(pd, ["grow"], "c") and "a3" not in offers(pd, ["grow"], "c")


def test_cold_war_offers_the_stacks_on_the_table(table):
    """Stacks are named from the stored desks (M1, S2, ...), not only the leader."""
    import shlex
    from pathlib import Path

    import yaml

    from referee.rules import rules_for
    from referee.table.store import db
    from referee.table.store import events as log
    from test_ref_scenarios import new_command

    scenario = yaml.safe_load((Path(__file__).parent / "scenarios" / "cold-war-attack.yaml").read_text())
    table.run(new_command(scenario["setup"]))
    for step in scenario["steps"][:6]:
        if "run" in step and "error" not in step:
            table.run(shlex.split(step["run"]))
    conn = db.open_table(table.db)
    try:
        rules = rules_for("cold-war")
        state, _ = log.state_at(conn, rules, log.last_event(conn).head)
    finally:
        conn.close()
    from referee.words.view import view_for

    spots = dict(view_for("cold-war").pieces(state))
    assert {"L", "M1", "S1"} <= set(spots) and spots["M1"] == "a military stack"
