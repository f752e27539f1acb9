"""Spreading a build over worker processes: the same bytes as one process,
workers kept on the games they have loaded, and a failure in a worker
reaching the caller as itself."""
import multiprocessing
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from pnp.pipeline import jobs, pool
from pnp.pipeline.options import BuildOptions
from pnp.pipeline.orchestrator import build
from pnp.pipeline.tasks import Task, next_task
from pnp.errors import PnpError, ValidationFailed
from pnp.sources import loader as sources

pytestmark = pytest.mark.pdf

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

    def failing(job, work, task):
        if task.label.endswith("/third"):
            raise PnpError("templates/culture-war/unit.xml.j2:3: third-recruit: made to fail")
        return real(job, work, task)

    monkeypatch.setattr(jobs, "run_task", failing)  # the forked workers inherit it
    monkeypatch.setenv("PNP_JOBS", "2")
    out = tmp_path / "out"
    with pytest.raises(PnpError, match="third-recruit: made to fail"):
        build(three_decks, None, out, BuildOptions(), force=True)
    assert not (out / "culture-war").exists() or not list((out / "culture-war").glob("*.pdf"))


@pytest.fixture
def two_games(mini_project: Path) -> Path:
    """culture-war and a copy of it, culture-xtra, read second (games are read in name order)."""
    shutil.copytree(mini_project / "card_sources/culture-war", mini_project / "card_sources/culture-xtra")
    shutil.copytree(mini_project / "templates/culture-war", mini_project / "templates/culture-xtra")
    deck = mini_project / "card_sources/culture-xtra/anarchy.yaml"
    deck.write_text(deck.read_text().replace("id: test-", "id: xtra-"))
    return mini_project


def events_of_a_build(project: Path, out: Path, monkeypatch) -> list[str]:
    """What the parent did, in order: games handed to the workers, and the check across games."""
    seen: list[str] = []
    add, check = pool.Pool.add, sources._check_unique_ids

    def recording_add(self, part, tasks):
        seen.append("drawing " + ",".join(sorted(part)))  # {game: its GamePart}
        return add(self, part, tasks)

    def recording_check(games, problems):
        seen.append("ids checked")
        return check(games, problems)

    monkeypatch.setattr(pool.Pool, "add", recording_add)
    monkeypatch.setattr(sources, "_check_unique_ids", recording_check)
    monkeypatch.setenv("PNP_JOBS", "2")
    shared_before = set(Path(tempfile.gettempdir()).glob(f"pnp-build-{os.getpid()}-*"))
    try:
        build(project, None, out, BuildOptions(), force=True)
    finally:  # no worker left behind, even after a failure (the first worker forks the others)
        assert multiprocessing.active_children() == []
        assert forks_of_this_process() == set()
        assert set(Path(tempfile.gettempdir()).glob(f"pnp-build-{os.getpid()}-*")) == shared_before  # nor their shared files
    return seen


def _parent(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


def forks_of_this_process() -> set[int]:
    """Live descendants of this process running its command line (a forked
    worker keeps its parent's); another test run on the machine is no fork of ours."""
    me = Path("/proc/self/cmdline").read_bytes()
    found = set()
    for proc in Path("/proc").iterdir():
        try:
            if not proc.name.isdigit() or int(proc.name) == os.getpid() or (proc / "cmdline").read_bytes() != me:
                continue
            pid = int(proc.name)
            while pid > 1 and pid != os.getpid():
                pid = _parent(pid)
            if pid == os.getpid():
                found.add(int(proc.name))
        except (OSError, ValueError, IndexError):
            pass
    return found


def test_workers_start_on_a_game_while_the_next_is_read(two_games, tmp_path, monkeypatch):
    seen = events_of_a_build(two_games, tmp_path / "out", monkeypatch)
    assert seen == ["drawing culture-war", "drawing culture-xtra", "ids checked"]
    assert len(list((tmp_path / "out/culture-xtra").glob("*.pdf"))) == 1


def test_a_problem_in_a_later_game_still_stops_the_build_before_any_write(two_games, tmp_path, monkeypatch):
    deck = two_games / "card_sources/culture-xtra/anarchy.yaml"
    deck.write_text(deck.read_text().replace("    cost: 2\n", "    cost: 2\n    colour: red\n"))
    out = tmp_path / "out"
    with pytest.raises(ValidationFailed) as failure:
        events_of_a_build(two_games, out, monkeypatch)
    assert "culture-xtra/anarchy.yaml" in str(failure.value) and "colour" in str(failure.value)
    assert not out.exists() or not list(out.rglob("*.pdf"))


def test_an_id_clash_found_after_drawing_began_stops_the_build(two_games, tmp_path, monkeypatch):
    deck = two_games / "card_sources/culture-xtra/anarchy.yaml"
    deck.write_text(deck.read_text().replace("id: xtra-brawler", "id: test-brawler"))
    out = tmp_path / "out"
    with pytest.raises(ValidationFailed, match="duplicate id 'test-brawler'"):
        events_of_a_build(two_games, out, monkeypatch)
    assert not out.exists() or not list(out.rglob("*.pdf"))


def test_a_failure_stops_the_other_workers_mid_task(two_games, tmp_path, monkeypatch):
    """One task fails while the other worker is still drawing: that worker is
    stopped at once, not left running after the build has given up."""
    real, me = jobs.run_task, os.getpid()

    def slow_or_failing(job, work, task):
        if os.getppid() == me:  # the first worker fails...
            raise PnpError("card_sources/culture-war/anarchy.yaml:1: made to fail")
        time.sleep(1.5)  # ...while the one it forked is busy
        return real(job, work, task)

    monkeypatch.setattr(jobs, "run_task", slow_or_failing)
    with pytest.raises(PnpError, match="made to fail"):
        events_of_a_build(two_games, tmp_path / "out", monkeypatch)
