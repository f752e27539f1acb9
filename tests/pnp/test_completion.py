"""Tab completion as a shell asks for it (click's completion protocol):
game names for the commands that take a game, card ids for `pnp preview`,
and the referee's games for `referee new`."""
from __future__ import annotations

from pathlib import Path

from click.shell_completion import ShellComplete

from pnp.cli import main as pnp_main
from referee.cli.main import cli as referee_cli

ROOT = Path(__file__).resolve().parents[2]
FIVE = ["cold-war", "culture-war", "debate", "divide-and-conquer", "petri-dish"]


def offers(cli, prog: str, args: list[str], incomplete: str) -> list[str]:
    return [item.value for item in ShellComplete(cli, {}, prog, "_COMPLETE").get_completions(args, incomplete)]


def test_pnp_commands_that_take_a_game_offer_the_projects_games(monkeypatch):
    monkeypatch.chdir(ROOT)
    for command in (["build"], ["watch"], ["export"], ["convert"]):
        assert offers(pnp_main, "pnp", command, "") == FIVE, command
        assert offers(pnp_main, "pnp", command, "c") == ["cold-war", "culture-war"], command
    assert offers(pnp_main, "pnp", ["build", "culture-war"], "c") == ["cold-war"]   # not twice
    assert offers(pnp_main, "pnp", ["preview", "--sheet"], "d") == ["debate", "divide-and-conquer"]


def test_the_project_named_on_the_line_is_the_one_completed(mini_project, monkeypatch):
    monkeypatch.chdir("/")
    assert offers(pnp_main, "pnp", ["build"], "") == []   # no project here
    assert offers(pnp_main, "pnp", ["--project", str(mini_project), "build"], "") == ["culture-war"]
    assert offers(pnp_main, "pnp", ["--project", str(mini_project), "preview"], "test-") == [
        "test-recruit", "test-brawler", "test-squat", "test-shield"]


def test_pnp_preview_offers_card_ids(monkeypatch):
    monkeypatch.chdir(ROOT)
    found = offers(pnp_main, "pnp", ["preview"], "anarchy-window")
    assert found == ["anarchy-window-smasher"]


def test_referee_new_offers_the_games_it_plays(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert sorted(offers(referee_cli, "referee", ["new"], "")) == FIVE
    assert sorted(offers(referee_cli, "referee", ["new"], "d")) == ["debate", "divide-and-conquer"]


def test_referee_card_completion_offers_the_tables_game_and_the_named_project(mini_project, tmp_path, monkeypatch):
    from click.testing import CliRunner

    monkeypatch.chdir(ROOT)
    db = str(tmp_path / "t.db")
    assert "cold-vk-marshal" in offers(referee_cli, "referee", ["--db", db, "card"], "cold-vk-m")   # no table yet
    started = CliRunner().invoke(referee_cli, ["--db", db, "new", "culture-war", "--player", "ann:anarchy",
                                               "--player", "bo:technocracy", "--seed", "7"])
    assert started.exit_code == 0, started.output
    assert offers(referee_cli, "referee", ["--db", db, "card"], "cold-vk-m") == []   # not this table's game
    assert "anarchy-window-smasher" in offers(referee_cli, "referee", ["--db", db, "card"], "anarchy-w")
    other = offers(referee_cli, "referee", ["--project", str(mini_project), "card"], "test-")
    assert sorted(other) == ["test-brawler", "test-recruit", "test-shield", "test-squat"]
