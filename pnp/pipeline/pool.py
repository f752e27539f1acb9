"""Where a build's tasks run: in worker processes, one per core, or in this
process. The first worker loads the drawing modules and fonts once and forks
the others from itself; the parent hands over each game as soon as it has
been read, and tasks go to workers that are ready, biggest first, each
keeping to the games whose templates it has compiled (pnp.pipeline.tasks.next_task).
The tasks themselves run in their job's `run` (a build's: pnp.pipeline.jobs;
an export's: its own module), which is loaded only where a task runs: in a
worker, or here when there is no pool. Builds and exports share this pool."""
from __future__ import annotations

import gc
import multiprocessing
import os
import pickle
import shutil
import signal
import tempfile
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any, Callable

from pnp.pipeline.tasks import BuildJob, Job, Task, Work, can_fork, next_task, worker_count
from pnp.errors import PnpError


def _jobs():
    """pnp.pipeline.jobs, which runs the tasks."""
    from pnp.pipeline import jobs  # lazy: it loads ReportLab and Jinja, which the parent of a pool never needs

    return jobs


def run_task(work: Work, task: Task) -> Any:
    """One task of the run: a build's by pnp.pipeline.jobs, an export's by its job's own `run`."""
    if isinstance(work.job, BuildJob):
        return _jobs().run_task(work.job, work, task)
    return work.job.run(work, task)


def early_pool(project: Path, todo: list[str]) -> "Pool | None":
    """Worker processes started before the sources are read, when the run
    will surely draw several outputs (several games changed); otherwise
    workers start once the run knows it has more than one task."""
    workers = worker_count(len(todo))
    if workers < 2 or not can_fork():
        return None
    return Pool(project, workers)


class Run:
    """The tasks of one build or export, handed over game by game as each
    game's sources are read and found sound. With a pool, the workers start
    drawing the first game while the parent is still reading the next;
    otherwise the tasks run when their results are asked for.

    `job` (a frozen pnp.pipeline.tasks.Job) holds what every task shares;
    each `add` brings games' parts ({slug: part}, e.g. a GamePart) and their tasks."""

    def __init__(self, job: Job, pool: "Pool | None", progress: Callable[[int, int, str], None] | None):
        self.job = job
        self.parts: dict[str, Any] = {}
        self.pool, self.progress = pool, progress
        self.tasks: list[Task] = []
        if pool is not None:
            pool.start(job)

    def add(self, parts: dict[str, Any], tasks: list[Task]) -> None:
        self.parts.update(parts)
        self.tasks += tasks
        if self.pool is not None:
            self.pool.add(parts, tasks)

    def results(self) -> list:
        """Every task's result, in the order the tasks were added: from the
        pool; from new workers when there is more than one task and core; else
        run here, one after another."""
        if self.pool is None and worker_count(len(self.tasks)) > 1 and can_fork():
            with Pool(self.job.project, worker_count(len(self.tasks))) as fresh:
                fresh.start(self.job)
                fresh.add(self.parts, self.tasks)
                return fresh.finish(self.progress)
        if self.pool is not None:
            return self.pool.finish(self.progress)
        work = Work(self.job)
        work.add(self.parts)
        results = []
        for i, task in enumerate(self.tasks):
            if self.progress:
                self.progress(i, len(self.tasks), task.label)
            results.append(run_task(work, task))
        return results


def _first_worker(parent_ends: list, conns: list, project: Path, compiled: str) -> None:
    """The first worker warms up once, then forks the others from itself, so
    they start with the drawing modules and fonts already loaded (importing
    them is a tenth of a worker's time). It serves `conns[0]`; each worker it
    forks serves one of the rest. Stopping it stops them."""
    for end in parent_ends:
        end.close()
    gc.disable()  # what warming up makes lives as long as the worker: nothing for a collection to find
    try:
        _jobs().warm(project)
        failure = None
    except BaseException as exc:
        failure = exc
    gc.freeze()  # ... nor for any later collection to look at again
    gc.enable()
    children: list[int] = []

    def stop(*_):
        for pid in children:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except OSError:
                pass
        os._exit(1)

    signal.signal(signal.SIGTERM, stop)
    for i, conn in enumerate(conns[1:], 1):
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            for j, other in enumerate(conns):
                if j != i:
                    other.close()
            try:
                _serve(conn, failure, compiled)
            finally:
                os._exit(0)
        children.append(pid)
        conn.close()
    _serve(conns[0], failure, compiled)
    for pid in children:
        try:
            os.waitpid(pid, 0)
        except OSError:
            pass


def _serve(conn, failure: BaseException | None, compiled: str) -> None:
    """Say ready; take the job, then run the tasks the parent sends, one at a
    time, until told to stop."""
    work = None
    conn.send("ready")
    gc.set_threshold(20_000, 20, 20)  # a short-lived worker: collect less often (a third of the collector's time)
    tasks: list[Task] = []
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message is None:
            return
        if isinstance(message, tuple) and message[0] == "job":  # a new run: what its tasks share
            work = Work(message[1], compiled)
            tasks = []
            continue
        if isinstance(message, tuple):  # ("more", file holding games' parts of the job, their tasks)
            with open(message[1], "rb") as file:
                work.add(pickle.load(file))
            tasks += message[2]
            continue
        i = message
        try:
            if failure is not None:
                raise failure
            result = ("ok", run_task(work, tasks[i]))  # a build's jobs loaded already, as the first worker warmed up
        except BaseException as exc:  # handed to the parent, which raises it
            result = ("error", exc)
        try:
            conn.send((i, result))
        except Exception as exc:  # an exception that cannot be pickled
            conn.send((i, ("error", RuntimeError(f"{type(exc).__name__}: {exc}"))))


class Pool:
    """Worker processes, forked early so that they import the drawing modules
    and read the fonts while the parent is still reading sources. The first
    worker does that once and forks the others from itself."""

    def __init__(self, project: Path, workers: int):
        # this build's shared files: the job's parts, and templates compiled by one worker
        # for the others (kept for this build only: a cold build stays cold)
        self.folder = tempfile.mkdtemp(prefix=f"pnp-build-{os.getpid()}-")
        self.compiled = os.path.join(self.folder, "templates")
        os.mkdir(self.compiled)
        self.loaded: dict[Any, set[str]] = {}  # connection -> games that worker has loaded
        self.busy: dict[Any, int] = {}  # connection -> tasks sent to that worker and not yet answered
        self.ready: set = set()  # connections of the workers that have warmed up
        pipes = [multiprocessing.Pipe() for _ in range(workers)]
        heres, theres = [here for here, _ in pipes], [there for _, there in pipes]
        gc.freeze()  # the workers' collector leaves the parent's objects alone (no copy-on-write of them)
        self.pid = os.fork()
        if self.pid == 0:  # never returns: the worker's whole life is here
            code = 1
            try:
                _first_worker(heres, theres, project, self.compiled)
                code = 0
            finally:
                os._exit(code)
        gc.unfreeze()
        for here, there in pipes:
            there.close()
            self.loaded[here] = set()

    def __enter__(self) -> "Pool":
        return self

    def __exit__(self, kind, *_) -> None:
        self.close(abort=kind is not None)
        self.reap()

    def start(self, job: Job) -> None:
        """A new run: what all its tasks share. Tasks follow with `add`."""
        for conn in self.loaded:
            conn.send(("job", job))
            self.loaded[conn] = set()
        self.busy = {conn: 0 for conn in self.loaded}
        self.tasks: list[Task] = []
        self.pending: list[int] = []  # biggest first
        self.results: list[Any] = []
        self.done = 0
        self.reading = True  # more tasks may come: keep workers two tasks deep

    def add(self, part: dict[str, Any], tasks: list[Task]) -> None:
        """More tasks, and the parts of the job they need. While the parent goes
        on reading, each ready worker is kept two tasks deep, so none runs dry.

        The part goes through a file: a game is bigger than a pipe holds, and
        sending it would wait until a busy worker finished its task."""
        path = os.path.join(self.folder, f"part-{len(self.tasks)}.pickle")
        with open(path, "wb") as file:
            pickle.dump(part, file, protocol=pickle.HIGHEST_PROTOCOL)
        for conn in self.loaded:
            conn.send(("more", path, tasks))
        first = len(self.tasks)
        self.tasks += tasks
        self.results += [None] * len(tasks)
        self.pending = sorted(self.pending + list(range(first, len(self.tasks))), key=lambda i: -self.tasks[i].weight)
        self._collect(timeout=0, progress=None)
        self._fill()

    def finish(self, progress) -> list:
        """Every task's result, in the order added, once all are done."""
        self.reading = False
        self._fill()
        while self.done < len(self.tasks):
            self._collect(timeout=None, progress=progress)
        return self.results

    def _fill(self) -> None:
        """Tasks for ready workers: one each first, then (while reading, once
        all are ready, so that none is left without) a second."""
        for depth in (1, 2) if self.reading and len(self.ready) == len(self.loaded) else (1,):
            for conn in self.ready:
                while self.busy[conn] < depth and self._hand_out(conn):
                    pass

    def _hand_out(self, conn) -> bool:
        if not self.pending:
            return False
        others = set().union(*(games for c, games in self.loaded.items() if c is not conn))
        i = next_task(self.pending, self.tasks, self.loaded[conn], others)
        self.pending.remove(i)
        self.loaded[conn].add(self.tasks[i].game)
        conn.send(i)
        self.busy[conn] += 1
        return True

    def _collect(self, timeout: float | None, progress) -> None:
        """Take what the workers have said (waiting up to `timeout`): that one
        is ready, having warmed up, or a task's answer. Either way that worker
        gets its next task. Tasks are handed out only to ready workers, so that
        the first ones go to different games (fewer templates compiled twice)."""
        for conn in wait([c for c in self.loaded if self.busy[c] or c not in self.ready], timeout):
            try:
                message = conn.recv()
            except EOFError:
                raise PnpError("a build worker stopped unexpectedly (out of memory?); try PNP_JOBS=1") from None
            if message == "ready":
                self.ready.add(conn)
            else:
                i, (status, value) = message
                self.busy[conn] -= 1
                if status == "error":
                    raise value
                self.results[i] = value
                self.done += 1
                if progress:
                    progress(self.done, len(self.tasks), self.tasks[i].label)
            self._fill()

    def close(self, abort: bool = False) -> None:
        """Stop the workers. After a build that succeeded they are told to, and
        leave while it writes its files (`reap` waits for them); after one that
        failed (`abort`), or with a task still running, they are stopped at once."""
        if not self.loaded:
            return
        abort = abort or any(self.busy.values())
        if abort:
            os.kill(self.pid, signal.SIGTERM)
        for conn in self.loaded:
            try:
                conn.send(None)
            except OSError:
                pass
        if abort:
            self.reap()

    def reap(self) -> None:
        """Wait until the workers have gone, then remove this build's shared files."""
        if not self.loaded:
            return
        first = next(iter(self.loaded))  # closes when the first worker, the last to leave, has gone
        if not wait([first], timeout=5):
            os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        for conn in self.loaded:
            conn.close()
        self.loaded = {}
        shutil.rmtree(self.folder, ignore_errors=True)
