"""Self-play on a Dask cluster (`--scheduler`): a LocalCluster of two worker
processes on loopback, started in the test. The same seeds give the same
games as a local run; a worker killed mid-run loses no game and counts none
twice; an unreachable scheduler is one clear error."""
from __future__ import annotations

import os
import shutil
import signal
import threading
from dataclasses import replace
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

from referee.errors import RefereeError  # noqa: E402
from referee.simulate.runner import make_plan, run  # noqa: E402
from referee.simulate.session import simulate  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0") as c:
        yield c


@pytest.mark.slow
def test_the_cluster_plays_the_same_games_as_a_local_run(cluster, tmp_path):
    plan = make_plan("petri-dish", None, (), (), 12, seed=5)
    local = list(run(plan))
    remote = list(run(replace(plan, scheduler=cluster.scheduler_address)))
    assert [r.seed for r in remote] == [r.seed for r in local]  # in seed order
    assert remote == local
    a = simulate(plan, json_path=tmp_path / "local.json")
    b = simulate(replace(plan, scheduler=cluster.scheduler_address), json_path=tmp_path / "cluster.json")
    assert a.tally.figures() == b.tally.figures()
    strip = lambda text: [line for line in text.splitlines() if '"seconds"' not in line and "per_second" not in line]  # noqa: E731
    assert strip((tmp_path / "local.json").read_text()) == strip((tmp_path / "cluster.json").read_text())


def _smasher_project(tmp_path: Path, quantity: int) -> Path:
    """The project with fewer Window Smashers in anarchy's deck (every deal changes)."""
    project = tmp_path / f"smashers-{quantity}"
    shutil.copytree(ROOT / "card_sources", project / "card_sources")
    shutil.copytree(ROOT / "templates", project / "templates")
    deck = project / "card_sources" / "culture-war" / "anarchy.yaml"
    text = deck.read_text()
    at = text.index("id: anarchy-window-smasher")
    tail = text[at:].replace("quantity: 3", f"quantity: {quantity}", 1)
    deck.write_text(text[:at] + tail)
    return project


@pytest.mark.slow
def test_each_batch_reads_the_sources_sent_with_it(cluster, tmp_path):
    """Two projects on the same worker processes, one after the other and
    back: each plays as it does alone in a fresh process (A/B's side B)."""
    plan = make_plan("culture-war", 2, ("anarchy", "community"), (), 6, seed=11, turn_cap=30)
    strong = str(_smasher_project(tmp_path, 1))
    here = list(run(plan))
    there = list(run(replace(plan, project=strong, jobs=2)))
    address = cluster.scheduler_address
    assert list(run(replace(plan, scheduler=address))) == here
    assert list(run(replace(plan, scheduler=address, project=strong))) == there
    assert list(run(replace(plan, scheduler=address))) == here
    assert here != there  # the edit shows in the games, so the test can fail


@pytest.mark.slow
def test_tune_on_the_cluster_evaluates_as_on_local_cores(cluster, tmp_path):
    from referee.simulate.tune.run import tune
    from referee.simulate.tune.setup import make_spec

    spec, base = make_spec("culture-war", "faction=fair", 2.0, ["anarchy-window-smasher.atk=1..3"], 8, 8, 8, 12, 1,
                           2, ("anarchy", "community"), (), 3, 12)
    local = tune(spec, base, tmp_path / "local.json")
    remote = tune(spec, base, tmp_path / "remote.json", scheduler=cluster.scheduler_address)
    assert remote.report["evaluations"] == local.report["evaluations"]
    assert remote.report["verification"] == local.report["verification"]


@pytest.mark.slow
def test_a_killed_worker_loses_no_game(cluster):
    """Last in the module: the cluster's nanny starts a new worker after the kill."""
    plan = make_plan("petri-dish", None, (), (), 32, seed=21)
    local = list(run(plan))
    c = cluster
    with distributed.Client(c) as client:
        pids = client.run(os.getpid)
        killed = []

        def kill_one_busy_worker() -> None:
            busy = [w for w, tasks in client.processing().items() if tasks]
            victim = busy[0] if busy else next(iter(pids))
            killed.append((victim, len(client.processing().get(victim, ()))))
            os.kill(pids[victim], signal.SIGKILL)

        records = []
        for record in run(replace(plan, scheduler=c.scheduler_address)):
            records.append(record)
            if len(records) == 2:
                threading.Thread(target=kill_one_busy_worker).start()
    assert killed and killed[0][1] >= 1  # it died with batches on it
    assert [r.seed for r in records] == [r.seed for r in local]  # none lost, none twice
    assert records == local


def test_an_unreachable_scheduler_is_one_clear_error(tmp_path, monkeypatch):
    from referee.simulate import cluster
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "1s")
    plan = make_plan("petri-dish", None, (), (), 2, scheduler="tcp://127.0.0.1:9")
    with pytest.raises(RefereeError, match="cannot reach a Dask scheduler"):
        simulate(plan, json_path=tmp_path / "out.json")
    assert list(tmp_path.iterdir()) == []
