"""Rebuilding the games that changed: the workers started (before the
sources are read, when several games changed), each changed game read and
its changed outputs handed to the workers as tasks, the results collected
into files, manifests and build states, which are written once every task
has succeeded. Called by pnp.pipeline.orchestrator.build."""
from __future__ import annotations

import gc
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

from pnp.pipeline.incremental import BuildState, deck_key, doc_key
from pnp.pipeline.manifest import MANIFEST, belongs, deck_filename, doc_filenames, game_manifest
from pnp.pipeline.options import BuildOptions, game_dir
from pnp.pipeline.pool import Pool, Run
from pnp.pipeline.report import BuiltFile
from pnp.pipeline.tasks import Task, can_fork, worker_count
from pnp.caches import cache_root
from pnp.errors import ValidationFailed
from pnp.model import Backs, Game
from pnp.sources.loader import load_sources
from pnp.write import write_atomic, write_json


def rebuild(project: Path, wanted: list[str], todo: list[str], states: dict[str, BuildState],
            digests: dict[str, str], out_dir: Path, options: BuildOptions,
            progress: Callable[[int, int, str], None] | None, force: bool) -> tuple[list[BuiltFile], list[str]]:
    """Rebuild the games in `todo` (of the `wanted` ones): the files written,
    and the names ("game/file") of their outputs that were up to date."""
    dirs = {slug: game_dir(out_dir, slug, options) for slug in wanted}
    faces = _faces_remembered(project)
    pool = _early_pool(project, todo)
    try:
        run = Run({"project": project, "options": options, "out_dir": out_dir, "faces": faces}, pool, progress)
        plans: dict[str, tuple[list, list]] = {}

        def changed(slug: str, game: Game) -> None:
            """A changed game, read and sound: its outputs go to the workers
            at once, while the next game is read."""
            plans[slug] = _plan_game(project, game, states[slug], dirs[slug], options, force, run)

        unchanged = {slug: states[slug].card_ids() for slug in wanted if slug not in todo}
        with _collector_paused():  # reading makes many objects and little garbage: collect once, after
            sources = load_sources(project, todo, known_ids={k: v for k, v in unchanged.items() if v is not None},
                                   on_game=changed)
        for slug in todo:
            if slug not in plans:  # read again after an id clash: already checked, now planned
                changed(slug, sources.games[slug])
        results = run.results()
        outputs, manifests, new_states = _collect(sources, todo, run.tasks, results, states, digests, out_dir,
                                                  options, progress)
    except BaseException:
        if pool is not None:
            pool.close(abort=True)
        raise
    if pool is not None:
        pool.close()
    written: list[BuiltFile] = []
    try:
        _write(outputs, manifests, states, new_states, dirs, written)
    finally:
        if pool is not None:
            pool.reap()  # the workers left while the files were written
    names = [f"{slug}/{n}" for slug in todo for n in new_states[slug].outputs
             if n not in {b.path.name for b in written if b.game == slug}]
    return written, names


def _faces_remembered(project: Path) -> bool:
    """Whether this build uses the face cache: not when it is fully cold (no
    cache folder yet), as it has no faces to find and remembering them all
    only costs (pnp.pipeline.facecache). It makes the folder, so that the builds
    after it remember faces."""
    root = cache_root(project)
    if root.is_dir():
        return True
    try:
        (root / "faces").mkdir(parents=True, exist_ok=True)
    except OSError:
        pass  # a cache folder that cannot be made: no cache, as before
    return False


def _write(outputs, manifests, states, new_states, dirs, written: list[BuiltFile]) -> None:
    """The write stage: each rendered file, then each game's manifest and build
    state; files a game no longer makes are removed."""
    for path, data, built in outputs:
        write_atomic(path, data)
        written.append(built)
    for slug, manifest in manifests.items():
        write_json(dirs[slug] / MANIFEST, manifest)
        for stale in set(states[slug].outputs) - set(new_states[slug].outputs):
            (dirs[slug] / stale).unlink(missing_ok=True)
        write_atomic(new_states[slug].path, new_states[slug].dump())


@contextmanager
def _collector_paused():
    """No garbage collection inside (it runs again after)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _early_pool(project: Path, todo: list[str]) -> Pool | None:
    """Worker processes started before the sources are read, when the build
    will surely draw several outputs (several games changed); otherwise
    workers start once the build knows it has more than one task."""
    workers = worker_count(len(todo))
    if workers < 2 or not can_fork():
        return None
    return Pool(project, workers)


def _plan_game(project: Path, game: Game, state: BuildState, game_out: Path, options: BuildOptions, force: bool,
               run: Run) -> tuple[list, list]:
    """The changed game's decks and documents whose inputs changed (all of
    them with `force`), handed to `run` as one task each."""
    slug = game.slug
    keys = {(slug, "deck", d.id): deck_key(project, game, d, options) for d in game.decks}
    keys.update({(slug, "doc", d.id): doc_key(project, game, d, options) for d in game.documents})
    decks = [d for d in game.decks if force or not state.fresh(deck_filename(d), keys[slug, "deck", d.id], game_out)]
    docs = [d for d in game.documents if options.backs is Backs.DECK  # a common-back build is decks only
            if force or not all(state.fresh(n, keys[slug, "doc", d.id], game_out) for n in doc_filenames(d))]
    tasks = [Task(slug, "deck", i, f"{slug}/{d.id}", len(d.cards) + d.copies // 4) for i, d in enumerate(decks)]
    tasks += [Task(slug, "doc", i, f"{slug}/{d.id}", 30) for i, d in enumerate(docs)]
    run.add({"games": {slug: game}, "decks": {slug: decks}, "docs": {slug: docs}, "keys": keys}, tasks)
    return decks, docs


def _collect(sources, todo, tasks, results, states, digests, out_dir, options, progress):
    """The rendered files, manifests and build states, once every task has
    succeeded; all the problems found, if any has not."""
    problems = [p for found, _ in results for p in found]
    if problems:
        raise ValidationFailed(problems)
    outputs, manifests, new_states = [], {}, {}
    for slug in todo:
        game, old = sources.games[slug], states[slug]
        fresh: dict[str, dict] = {}
        for task, (_, files) in zip(tasks, results):
            if task.game != slug:
                continue
            for name, data, info, entry in files:
                path = game_dir(out_dir, slug, options) / name
                outputs.append((path, data, BuiltFile(slug, path, info["kind"], info["pages"], info["cards"])))
                fresh[name] = entry
        state = BuildState(old.path, {"digest": digests[slug], "outputs": {}})
        names = [deck_filename(d) for d in game.decks]
        for d in game.documents:
            names += [n for n in [*fresh, *old.outputs] if belongs(n, d)]
        for name in dict.fromkeys(names):
            entry = fresh.get(name) or old.outputs.get(name)
            if entry:
                state.outputs[name] = entry
        manifests[slug] = game_manifest(game, options, state.outputs)
        new_states[slug] = state
    if progress:
        progress(len(tasks), len(tasks), "writing")
    return outputs, manifests, new_states
