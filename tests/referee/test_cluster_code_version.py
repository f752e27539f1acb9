"""`--scheduler`: every worker must play with the code of the machine that
sends the games. A LocalCluster of one worker (as test_simulate_cluster.py)
is joined by a `dask worker` process that imports a copy of the referee with
one line changed: the run is refused with one clear error naming the worker,
nothing is written, and once that worker leaves the same cluster plays."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

from referee.errors import RefereeError  # noqa: E402
from referee.simulate.codeversion import OtherCode, check_here, code_version  # noqa: E402
from referee.simulate.runner import make_plan, run  # noqa: E402
from referee.simulate.session import simulate  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DASK = str(Path(sys.executable).parent / "dask")


def test_a_batch_sent_by_other_code_is_refused_on_its_worker():
    check_here(code_version())  # the same code: played
    with pytest.raises(OtherCode, match=r"worker tcp://w:1 plays with referee .* \(code [0-9a-f]{16}\), but the "
                                        r"games were sent by referee 0\.0 \(code 0{16}\)"):
        check_here("referee 0.0 (code 0000000000000000)", "worker tcp://w:1")


@pytest.mark.slow
def test_a_worker_with_other_code_is_refused_with_one_clear_error(tmp_path):
    other = tmp_path / "other-code"
    for package in ("referee", "pnp"):
        shutil.copytree(ROOT / package, other / package, ignore=shutil.ignore_patterns("__pycache__"))
    rules = other / "referee" / "games" / "petri_dish" / "rules.py"
    rules.write_text(rules.read_text() + "\n# an edit this worker has and the sender has not\n")
    out = tmp_path / "out"
    out.mkdir()
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        address = cluster.scheduler_address
        plan = make_plan("petri-dish", None, (), (), 4, seed=3, scheduler=address)
        log = (tmp_path / "worker.log").open("w")
        worker = subprocess.Popen([DASK, "worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard"],
                                  env={**os.environ, "PYTHONPATH": str(other)}, cwd=tmp_path, stdout=log,
                                  stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 90
            while len(client.nthreads()) < 2:
                assert time.monotonic() < deadline and worker.poll() is None, (tmp_path / "worker.log").read_text()
                time.sleep(0.2)
            files = client.run(eval, "__import__('referee').__file__")  # a builtin: no test module on the worker
            strangers = [w for w, f in files.items() if Path(f).is_relative_to(other)]
            assert len(strangers) == 1  # the joined worker truly imports the edited copy
            with pytest.raises(RefereeError) as refused:
                simulate(plan, json_path=out / "games.json")
            message = str(refused.value)
            assert message.startswith(f"--scheduler {address}: worker {strangers[0]} plays with referee ")
            assert f"but this machine with {code_version()}" in message and "same commit" in message
            assert list(out.iterdir()) == []  # refused before a game was played or a file written
        finally:
            worker.terminate()
            worker.wait(30)
            log.close()
        deadline = time.monotonic() + 30
        while len(client.nthreads()) > 1 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert [r.seed for r in run(plan)] == [3, 4, 5, 6]  # the worker gone, the same cluster plays
        assert list(run(plan)) == list(run(replace(plan, scheduler=None)))
