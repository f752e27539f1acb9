"""Spreading a build over worker processes: the same bytes as one process,
workers kept on the games they have loaded, and a failure in a worker
reaching the caller as itself."""
from pathlib import Path

import pytest

from pnp import jobs
from pnp.build import BuildOptions, build
from pnp.errors import PnpError
from pnp.jobs import Task, next_task

GAME = "card_sources/culture-war/game.yaml"


@pytest.fixture
def three_decks(mini_project: Path) -> Path:
    game = mini_project / GAME
    text = game.read_text()
    for deck, color in (("second", "#2e7d4f"), ("third", "#1f4e9c")):
        text += (f"  - id: {deck}\n    name: {deck.title()}\n    file: {deck}.yaml\n    back: back\n"
                 f"    color: \"{color}\"\n    icon: community\n")
        src = (mini_project / "card_sources/culture-war/anarchy.yaml").read_text()
        (mini_project / f"card_sources/culture-war/{deck}.yaml").write_text(src.replace("id: test-", f"id: {deck}-"))
    game.write_text(text)
    return mini_project


def pdfs(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((out / "culture-war").glob("*.pdf"))}


def test_workers_write_the_same_bytes_as_one_process(three_decks, tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_JOBS", "1")
    build(three_decks, None, tmp_path / "one", BuildOptions(), force=True)
    monkeypatch.setenv("PNP_JOBS", "2")
    build(three_decks, None, tmp_path / "two", BuildOptions(), force=True)
    one, two = pdfs(tmp_path / "one"), pdfs(tmp_path / "two")
    assert len(one) == 3
    assert one == two


def test_a_free_worker_stays_on_a_game_it_has_loaded():
    tasks = [Task("a", "deck", 0, "a/big", 90), Task("b", "deck", 0, "b/mid", 50),
             Task("a", "doc", 0, "a/small", 10), Task("c", "deck", 0, "c/tiny", 5)]
    pending = [0, 1, 2, 3]  # biggest first
    assert next_task(pending, tasks, mine={"a"}, others={"b"}) == 0
    assert next_task([1, 2, 3], tasks, mine={"a"}, others={"b"}) == 2
    # nothing of its own left: a game nobody has loaded before one another worker holds
    assert next_task([1, 3], tasks, mine={"a"}, others={"b"}) == 3
    # only other workers' games left: the biggest, so no worker idles
    assert next_task([1], tasks, mine={"a"}, others={"b"}) == 1
    assert next_task([1, 2], tasks, mine=set(), others={"a", "b"}) == 1


def test_an_error_in_a_worker_reaches_the_caller(three_decks, tmp_path, monkeypatch):
    real = jobs.run_task

    def failing(task):
        if task.label.endswith("/third"):
            raise PnpError("templates/culture-war/unit.xml.j2:3: third-recruit: made to fail")
        return real(task)

    monkeypatch.setattr(jobs, "run_task", failing)  # the forked workers inherit it
    monkeypatch.setenv("PNP_JOBS", "2")
    out = tmp_path / "out"
    with pytest.raises(PnpError, match="third-recruit: made to fail"):
        build(three_decks, None, out, BuildOptions(), force=True)
    assert not (out / "culture-war").exists() or not list((out / "culture-war").glob("*.pdf"))
