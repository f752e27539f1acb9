"""Preparing and rendering changed outputs, one task per deck or document,
spread over the machine's cores. Each task validates its own output and
renders it in memory; nothing is written until every task has succeeded."""
from __future__ import annotations

import gc
import multiprocessing
import os
import pickle
import shutil
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from pnp.errors import PnpError, Problem, Problems
from pnp.model import Ink

_JOB: dict[str, Any] = {}        # what the tasks work on (in a worker: as the parent sent it)
_TOOLS: dict[str, Any] = {}      # per process: game -> (templates, icons, render context)
_SHARED: dict[str, Any] = {}     # in a pool's workers: "compiled" -> folder of templates compiled this build


class _Invalid(Exception):
    """A card has a problem: stop drawing, keep checking."""


@dataclass(frozen=True)
class Task:
    game: str
    kind: str    # "deck" or "doc"
    index: int   # position in the game's list of changed decks / documents
    label: str
    weight: int = 1  # a rough cost (faces to draw), so the biggest tasks start first


def _tools(slug: str):
    if slug not in _TOOLS:
        from pnp.build import SHEET_FONT
        from pnp.fonts import register_fonts
        from pnp.icons import IconSet
        from pnp.project import TEMPLATES_DIR
        from pnp.render import RenderContext
        from pnp.sources import icon_files
        from pnp.templates import TemplateSet

        project = _JOB["project"]
        register_fonts(project / TEMPLATES_DIR)
        icons = IconSet.load(*icon_files(project, slug))
        templates = TemplateSet.load(project, slug)
        if "compiled" in _SHARED:  # a template one worker compiled, the others load instead of compiling
            from jinja2 import FileSystemBytecodeCache

            templates.env.bytecode_cache = FileSystemBytecodeCache(_SHARED["compiled"])
        _TOOLS[slug] = (templates, icons, RenderContext(templates.style, icons, SHEET_FONT))
    return _TOOLS[slug]


def run_task(task: Task) -> tuple[list[Problem], list[tuple[str, bytes, dict, dict]]]:
    """(problems, [(file name, PDF bytes, built info, state entry)]) for one output."""
    from pnp import build as b

    project, options, out_dir = _JOB["project"], _JOB["options"], _JOB["out_dir"]
    game = _JOB["games"][task.game]
    templates, icons, ctx = _tools(task.game)
    problems = Problems(project)
    saver = options.ink is Ink.SAVER
    if saver:
        from pnp.inksaver import saver_context, saver_face

        ctx = saver_context(ctx)
    if task.kind == "deck":
        from pnp.facecache import MAX_CARDS, FaceCache
        from pnp.layout import plan_deck
        from pnp.render import render_deck

        deck = _JOB["decks"][task.game][task.index]
        size = b.deck_size(deck, game)
        cache = FaceCache(project, task.game, deck.id, enabled=len(deck.cards) <= MAX_CARDS)
        back = b.prepare_back(deck, game, templates, icons, problems, cache)
        if saver and back not in (None, b.BAD_BACK):
            back = saver_face(back, size)
        copies = [card for card in deck.cards for _ in range(card.quantity)]
        cards = {card.id: card for card in deck.cards}
        done: set[str] = set()

        def face_of(card_id: str):
            """Each distinct front made when the renderer first needs it, then
            dropped once drawn: a huge deck never holds all its faces."""
            done.add(card_id)
            face = b.prepare_card(cards[card_id], deck, game, templates, icons, problems, cache)
            if face is None:
                raise _Invalid
            return saver_face(face, size) if saver else face

        plan = plan_deck(len(copies), size, options.paper, options.layout, options.flip, back is not None)
        shift = b.deck_back_shift(plan, options)
        data = None
        if not problems:
            try:
                data = render_deck(f"{game.name} — {deck.name}", plan, size, [c.id for c in copies], back, ctx,
                                   back_shift=shift, face_of=face_of)
            except _Invalid:
                pass
        if data is None:  # still check every card, so all problems are reported at once
            for card in deck.cards:
                if card.id not in done:
                    b.prepare_card(card, deck, game, templates, icons, problems, cache)
            return problems.items, []
        cache.save()
        path = out_dir / task.game / b.deck_filename(deck)
        entry = {"key": _JOB["keys"][task.game, "deck", deck.id], "file": b._file_entry(path, deck, plan, options),
                 "cards": b._card_entries(path, copies, plan, game, shift)}
        return [], [(path.name, data, {"kind": "deck", "pages": plan.pages, "cards": len(copies)}, entry)]
    from pnp.documents import prepare_documents, render_documents

    doc = _JOB["docs"][task.game][task.index]
    prepared = prepare_documents(game, templates, options.paper,
                                 lambda face: b._fit_face(face, templates.style, icons), problems, [doc])
    if problems:
        return problems.items, []
    key = _JOB["keys"][task.game, "doc", doc.id]
    accent = game.decks[0].color if game.decks else "#333333"
    tints = None
    if saver:
        from pnp.inksaver import saver_docs, saver_rule_tints, saver_text_color

        prepared, accent, tints = saver_docs(prepared), saver_text_color(accent), saver_rule_tints()
    out = []
    for name, data, entry in render_documents(prepared, game, options.paper, ctx, accent, tints):
        out.append((name, data, {"kind": entry["kind"], "pages": entry.get("pages") or 0, "cards": 0},
                    {"key": key, "file": {"file": name, **entry}, "cards": []}))
    return [], out


def worker_count(tasks: int) -> int:
    wanted = os.environ.get("PNP_JOBS")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    n = int(wanted) if wanted and wanted.isdigit() else cores
    return max(1, min(n, tasks))


class Run:
    """The tasks of one build, handed over game by game as each changed game's
    sources are read and found sound. With a pool, the workers start drawing
    the first game while the parent is still reading the next; otherwise the
    tasks run when their results are asked for.

    `job` holds what every task shares (project, options, out_dir); each
    `add` brings one game's part: {"games": {slug: Game}, "decks": {slug: [...]},
    "docs": {slug: [...]}, "keys": {(slug, kind, id): key}}."""

    def __init__(self, job: dict[str, Any], pool: "Pool | None", progress: Callable[[int, int, str], None] | None):
        self.job = {**job, "games": {}, "decks": {}, "docs": {}, "keys": {}}
        self.pool, self.progress = pool, progress
        self.tasks: list[Task] = []
        if pool is not None:
            pool.start(job)

    def add(self, part: dict[str, dict], tasks: list[Task]) -> None:
        for name, values in part.items():
            self.job[name].update(values)
        self.tasks += tasks
        if self.pool is not None:
            self.pool.add(part, tasks)

    def results(self) -> list:
        """Every task's result, in the order the tasks were added: from the
        pool; from new workers when there is more than one task and core; else
        run here, one after another."""
        if self.pool is None and worker_count(len(self.tasks)) > 1 and can_fork():
            with Pool(self.job["project"], worker_count(len(self.tasks))) as fresh:
                fresh.start({name: self.job[name] for name in ("project", "options", "out_dir")})
                fresh.add({name: self.job[name] for name in ("games", "decks", "docs", "keys")}, self.tasks)
                return fresh.finish(self.progress)
        if self.pool is not None:
            return self.pool.finish(self.progress)
        _JOB.clear()
        _JOB.update(self.job)
        _TOOLS.clear()
        results = []
        for i, task in enumerate(self.tasks):
            if self.progress:
                self.progress(i, len(self.tasks), task.label)
            results.append(run_task(task))
        return results


def can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def next_task(pending: list[int], tasks: list[Task], mine: set[str], others: set[str]) -> int:
    """Which pending task (kept biggest first) a free worker takes: one of a
    game it has loaded already (its templates compiled, its fonts read), else
    one of a game no worker has loaded, else the biggest left."""
    for wanted in (lambda t: t.game in mine, lambda t: t.game not in others, lambda t: True):
        for i in pending:
            if wanted(tasks[i]):
                return i
    raise IndexError("no task pending")


def warm(project: Path) -> None:
    """What every task needs, loaded ahead: the drawing modules and the project's fonts."""
    import pnp.documents  # noqa: F401
    import pnp.layout  # noqa: F401
    import pnp.render  # noqa: F401
    import pnp.rulesheet  # noqa: F401
    from pnp.fonts import register_fonts
    from pnp.project import TEMPLATES_DIR

    register_fonts(project / TEMPLATES_DIR)


def _first_worker(parent_ends: list, conns: list, project: Path, compiled: str) -> None:
    """The first worker warms up once, then forks the others from itself, so
    they start with the drawing modules and fonts already loaded (importing
    them is a tenth of a worker's time). It serves `conns[0]`; each worker it
    forks serves one of the rest. Stopping it stops them."""
    for end in parent_ends:
        end.close()
    _SHARED["compiled"] = compiled
    gc.disable()  # what warming up makes lives as long as the worker: nothing for a collection to find
    try:
        warm(project)
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
                _serve(conn, failure)
            finally:
                os._exit(0)
        children.append(pid)
        conn.close()
    _serve(conns[0], failure)
    for pid in children:
        try:
            os.waitpid(pid, 0)
        except OSError:
            pass


def _serve(conn, failure: BaseException | None) -> None:
    """Say ready; take the job, then run the tasks the parent sends, one at a
    time, until told to stop."""
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
        if isinstance(message, tuple) and message[0] == "job":  # a new build: what its tasks share
            _JOB.clear()
            _JOB.update(message[1])
            _TOOLS.clear()
            tasks = []
            continue
        if isinstance(message, tuple):  # ("more", file holding one game's part of the job, its tasks)
            with open(message[1], "rb") as file:
                part = pickle.load(file)
            for name, values in part.items():
                _JOB.setdefault(name, {}).update(values)
            tasks += message[2]
            continue
        i = message
        try:
            if failure is not None:
                raise failure
            result = ("ok", run_task(tasks[i]))
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
        import tempfile

        # this build's shared files: the job's parts, and templates compiled by one worker
        # for the others (kept for this build only: a cold build stays cold)
        self.folder = tempfile.mkdtemp(prefix="pnp-build-")
        self.compiled = os.path.join(self.folder, "templates")
        os.mkdir(self.compiled)
        self.loaded: dict[Any, set[str]] = {}  # connection -> games that worker has loaded
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

    def start(self, job: dict[str, Any]) -> None:
        """A new build: what all its tasks share. Tasks follow with `add`."""
        for conn in self.loaded:
            conn.send(("job", job))
            self.loaded[conn] = set()
        self.busy = {conn: 0 for conn in self.loaded}  # tasks sent to each worker and not yet answered
        self.tasks: list[Task] = []
        self.pending: list[int] = []  # biggest first
        self.results: list[Any] = []
        self.done = 0
        self.reading = True  # more tasks may come: keep workers two tasks deep

    def add(self, part: dict[str, dict], tasks: list[Task]) -> None:
        """More tasks, and the part of the job they need. While the parent goes
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
        """Tasks for ready workers: one each first, then (while reading) a second."""
        for depth in (1, 2) if self.reading else (1,):
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
        from multiprocessing.connection import wait

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
        abort = abort or any(getattr(self, "busy", {}).values())
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
        from multiprocessing.connection import wait

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
