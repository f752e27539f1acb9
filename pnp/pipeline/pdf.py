"""The PDF build as a target of the pipeline (pnp.pipeline.stages): which games
changed (stage 1), each changed game's changed outputs as tasks (stage 3,
drawn by pnp.pipeline.jobs in stage 4), and the write stage: the rendered
files, manifests and build states, written once every task has succeeded."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from pnp.errors import ValidationFailed
from pnp.model import Backs, Game
from pnp.pipeline.facewarnings import warning_lines
from pnp.pipeline.incremental import BuildState, deck_key, doc_key, game_digest, picture_record
from pnp.pipeline.options import BuildOptions, game_dir
from pnp.pipeline.report import BuildReport, BuiltFile
from pnp.pipeline.tasks import BuildJob, GamePart, Task
from pnp.write import write_atomic, write_json


class PdfTarget:
    """A build of every changed output into `out_dir` (all of them with `force`)."""

    def __init__(self, project: Path, out_dir: Path, options: BuildOptions, force: bool = False, progress=None):
        self.project, self.out_dir, self.options, self.force, self.progress = project, out_dir, options, force, progress
        self.report = BuildReport()
        self._job: BuildJob | None = None
        self.colours: dict[str, list[str]] = {}  # each planned game's colour-identity warnings

    @property
    def job(self) -> BuildJob:
        if self._job is None:  # only a build that draws decides on the face cache (it may make the cache folder)
            self._job = BuildJob(self.project, self.options, self.out_dir, _faces_remembered(self.project))
        return self._job

    # 1. sources: what changed since the last build
    def changed(self, wanted: list[str]) -> list[str]:
        self.wanted = wanted
        self.dirs = {slug: game_dir(self.out_dir, slug, self.options) for slug in wanted}
        self.states = {slug: BuildState.load(self.dirs[slug]) for slug in wanted}
        self.digests = {slug: game_digest(self.project, slug, self.options) for slug in wanted}
        todo = [slug for slug in wanted
                if self.force or not self.states[slug].up_to_date(self.digests[slug], self.dirs[slug])]
        self.report.up_to_date = [f"{slug}/{name}" for slug in wanted if slug not in todo
                                  for name in self.states[slug].outputs]
        self.todo = todo
        return todo

    def known_ids(self, wanted: list[str], todo: list[str]) -> dict[str, Any]:
        unchanged = {slug: self.states[slug].card_ids() for slug in wanted if slug not in todo}
        return {k: v for k, v in unchanged.items() if v is not None}

    # 3. layout: the changed game's decks and documents whose inputs changed, one task each
    def plan(self, game: Game) -> tuple[dict[str, GamePart], list[Task]]:
        from pnp.pipeline.manifest import deck_filename, doc_filenames  # lazy: a build with nothing to draw never loads it

        from pnp.pipeline.prepare import colour_identity_warnings  # lazy: as the manifest

        slug, options, state, game_out = game.slug, self.options, self.states[game.slug], self.dirs[game.slug]
        self.colours[slug] = colour_identity_warnings(self.project, game)
        keys = {(slug, "deck", d.id): deck_key(self.project, game, d, options) for d in game.decks}
        keys.update({(slug, "doc", d.id): doc_key(self.project, game, d, options) for d in game.documents})
        decks = [d for d in game.decks
                 if self.force or not all(state.fresh(n, keys[slug, "deck", d.id], game_out)
                                          for n in _deck_outputs(state.outputs, deck_filename(d)))]
        docs = [d for d in game.documents if options.backs is Backs.DECK and options.cutter is None  # decks only
                if self.force or not all(state.fresh(n, keys[slug, "doc", d.id], game_out) for n in doc_filenames(d))]
        tasks = [Task(slug, "deck", i, f"{slug}/{d.id}", len(d.cards) + d.copies // 4) for i, d in enumerate(decks)]
        tasks += [Task(slug, "doc", i, f"{slug}/{d.id}", 30) for i, d in enumerate(docs)]
        return {slug: GamePart(game, tuple(decks), tuple(docs), keys)}, tasks

    # 5. write
    def write(self, sources, tasks: list[Task], results: list) -> BuildReport:
        from pnp.pipeline.manifest import MANIFEST  # lazy: as in `plan`

        outputs, manifests, new_states = self._collect(sources, tasks, results)
        written: list[BuiltFile] = []
        for path, data, built in outputs:
            write_atomic(path, data)
            written.append(built)
        for slug, manifest in manifests.items():
            write_json(self.dirs[slug] / MANIFEST, manifest)
            for stale in set(self.states[slug].outputs) - set(new_states[slug].outputs):
                (self.dirs[slug] / stale).unlink(missing_ok=True)
            write_atomic(new_states[slug].path, new_states[slug].dump())
        self.report.files += written
        self._warn(new_states)
        self.report.up_to_date += [f"{slug}/{n}" for slug in new_states for n in new_states[slug].outputs
                                   if n not in {b.path.name for b in written if b.game == slug}]
        return self.report

    def nothing(self) -> BuildReport:
        self._warn({slug: self.states[slug] for slug in self.wanted})
        return self.report

    def _warn(self, states: dict[str, BuildState]) -> None:
        """The faces' warnings of every game asked for, from its decks' entries in the build state."""
        for slug in self.wanted:
            state = states.get(slug) or self.states[slug]
            entries = [n for entry in state.outputs.values() for n in entry.get("notes", [])]
            self.report.warnings += warning_lines(slug, entries) + state.colours

    def _collect(self, sources, tasks, results):
        """The rendered files, manifests and build states, once every task has
        succeeded; all the problems found, if any has not."""
        from pnp.pipeline.manifest import belongs, deck_filename, game_manifest  # lazy: as in `plan`

        problems = [p for found, _ in results for p in found]
        if problems:
            raise ValidationFailed(problems)
        outputs, manifests, new_states = [], {}, {}
        for slug in self.todo:
            game, old = sources.games[slug], self.states[slug]
            fresh: dict[str, dict] = {}
            for task, (_, files) in zip(tasks, results):
                if task.game != slug:
                    continue
                for name, data, info, entry in files:
                    path = self.dirs[slug] / name
                    outputs.append((path, data, BuiltFile(slug, path, info["kind"], info["pages"], info["cards"])))
                    fresh[name] = entry
                    if "cutter" in entry["file"]:
                        self.report.settings.append(f"{name}: {entry['file']['cutter']['settings']}")
            state = BuildState(old.path, {"digest": self.digests[slug], "outputs": {},
                                          "colours": self.colours.get(slug, [])})
            names = []
            for d in game.decks:  # a deck's PDF and, in a cutter build, its cutting files (this build's if it drew them)
                main = deck_filename(d)
                names += _deck_outputs(fresh if main in fresh else old.outputs, main)
            for d in game.documents:
                names += [n for n in [*fresh, *old.outputs] if belongs(n, d)]
            for name in dict.fromkeys(names):
                entry = fresh.get(name) or restamped(old.outputs.get(name))
                if entry:
                    state.outputs[name] = entry
            manifests[slug] = game_manifest(game, self.options, state.outputs)
            new_states[slug] = state
        if self.progress:
            self.progress(len(tasks), len(tasks), "writing")
        return outputs, manifests, new_states


def _deck_outputs(outputs: dict, main: str) -> list[str]:
    """A deck's output files among `outputs`: its PDF first, then its cutter files."""
    from pnp.pipeline.cutfiles import is_cutter_file  # lazy: as in `plan`

    return [main] + [n for n in outputs if is_cutter_file(n, main)]


def restamped(entry: dict | None) -> dict | None:
    """An output kept as it was, its pictures' record renewed (their bytes
    were found unchanged, so a touched picture is not looked at again)."""
    if not entry or not isinstance(entry.get("pictures"), dict):
        return entry
    return {**entry, "pictures": picture_record(entry["pictures"])}


def _faces_remembered(project: Path) -> bool:
    """Whether this build uses the face cache: not when it is fully cold (no
    cache folder yet), as it has no faces to find and remembering them all
    only costs (pnp.pipeline.facecache). It makes the folder, so that the builds
    after it remember faces."""
    from pnp.caches import cache_root  # lazy: it loads shutil, which a build with nothing to draw never needs

    root = cache_root(project)
    if root.is_dir():
        return True
    try:
        (root / "faces").mkdir(parents=True, exist_ok=True)
    except OSError:
        pass  # a cache folder that cannot be made: no cache, as before
    return False
