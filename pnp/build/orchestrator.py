"""The orchestrator: sources -> model -> faces (templates + fitting) -> layout
-> render -> write, always in that order. Everything is read and checked
before anything is written."""
from __future__ import annotations

import gc
import time
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from pnp import __version__
from pnp.errors import PnpError, Problems, ValidationFailed
from pnp.build.incremental import BuildState, effect_files, forget_files, game_digest, output_key, template_variables
from pnp.model import PAPERS, Backs, Card, Deck, Flip, Game, Ink, Layout, Size, Sources
from pnp.project import TEMPLATES_DIR
from pnp.write import write_atomic, write_json

if TYPE_CHECKING:
    from pnp.layout.sheets import DeckLayout
    from pnp.layout.printers import BackShift, PrinterProfile

# The source reader (YAML), ReportLab, Jinja and the drawing modules are
# imported where they are used: an up-to-date build never loads them, and a
# cold one starts its workers sooner.

MANIFEST = "manifest.json"
SHEET_FONT = "RobotoCondensed-Regular"


INK_SAVER_DIR = "ink-saver"   # an ink-saver build goes into <game>/ink-saver/, beside the normal one
COMMON_BACK_DIR = "common-back"  # decks with one neutral back go into <game>/common-back/
COMMON_BACK = {"id": "common", "name": "", "color": "#4a4a4a", "icon": "dice"}


@dataclass(frozen=True)
class BuildOptions:
    paper: Size = PAPERS["a4"]
    layout: Layout = Layout.DUPLEX
    flip: Flip = Flip.LONG
    printer: PrinterProfile | None = None   # corrects the back pages of duplex decks
    ink: Ink = Ink.NORMAL
    backs: Backs = Backs.DECK


def make_options(paper: str = "a4", layout: str = "duplex", flip: str | None = None,
                 printer: str | None = None, ink: str = "normal", backs: str = "deck") -> BuildOptions:
    """Build options from command-line values; `printer` names a stored profile.
    Without --flip, a profile's own flip is used; a different one is refused."""
    from pnp.layout.printers import get_profile

    profile = get_profile(printer) if printer else None
    chosen = Flip(flip) if flip else (profile.flip if profile and profile.flip else Flip.LONG)
    if profile is not None:
        if Layout(layout) is not Layout.DUPLEX:
            raise PnpError(f"printer profile {profile.name!r} corrects duplex back pages; "
                           f"the {layout} layout has none (leave out --printer)")
        if profile.flip is not None and profile.flip is not chosen:
            raise PnpError(f"printer {profile.name!r} was calibrated flipping on the {profile.flip.value} edge; "
                           f"build with --flip {profile.flip.value}, or calibrate again with --flip {chosen.value}")
    return BuildOptions(PAPERS[paper], Layout(layout), chosen, profile, Ink(ink), Backs(backs))


def game_dir(out_dir: Path, slug: str, options: BuildOptions) -> Path:
    """Where a game's files go: <out>/<game>/, or <out>/<game>/ink-saver/, and
    for decks with one common back a folder `common-back/` in that."""
    base = out_dir / slug / INK_SAVER_DIR if options.ink is Ink.SAVER else out_dir / slug
    return base / COMMON_BACK_DIR if options.backs is Backs.COMMON else base


@dataclass
class DeckFaces:
    deck: Deck
    fronts: dict[str, Any]    # card id -> Face
    back: Any                 # Face, or None for a one-sided deck


@dataclass
class BuiltFile:
    game: str
    path: Path
    kind: str
    pages: int
    cards: int


@dataclass
class BuildReport:
    files: list[BuiltFile] = field(default_factory=list)
    seconds: float = 0.0
    up_to_date: list[str] = field(default_factory=list)  # "game/file" left as they were
    ink: Any = None          # an ink-saver build: pnp.render.inksaver.InkReport

    @property
    def pages(self) -> int:
        return sum(f.pages for f in self.files)

    @property
    def cards(self) -> int:
        return sum(f.cards for f in self.files)


def deck_size(deck: Deck, game: Game) -> Size:
    return deck.size or game.card_size


def card_context(card: Card, deck: Deck, game: Game) -> dict:
    from pnp.sources.qrpayload import format_payload

    payload = format_payload(card.id, card.revision)  # each printed copy adds its number when drawn
    size = deck_size(deck, game)
    fields = dict(card.fields)
    fields.update(id=card.id, revision=card.revision, deck=deck.id)
    return {
        "card": fields,
        "deck": {"id": deck.id, "name": deck.name, "color": deck.color, "icon": deck.icon},
        "game": {"slug": game.slug, "name": game.name, "players": list(game.players)},
        "size": {"w": size.width, "h": size.height},
        "payload": payload,
    }


def back_context(deck: Deck, game: Game, common: bool = False) -> dict:
    """The back's template context; `common`: one neutral back for every deck."""
    size = deck_size(deck, game)
    return {
        "deck": dict(COMMON_BACK) if common else {"id": deck.id, "name": deck.name, "color": deck.color, "icon": deck.icon},
        "game": {"slug": game.slug, "name": game.name, "players": list(game.players)},
        "size": {"w": size.width, "h": size.height},
        "payload": "",
    }


def _fit_face(face, style: dict, icons):
    from pnp.faces.elements import Icon, Text
    from pnp.faces.textfit import FitError, fit

    out = []
    for el in face.elements:
        if isinstance(el, Text):
            el = fit(el, style)
        elif isinstance(el, Icon) and el.name not in icons:
            raise FitError(f"unknown icon {el.name!r}")
        out.append(el)
    return replace(face, elements=tuple(out))


def prepare_game(game: Game, project: Path, icons, problems: Problems,
                 paper: Size = PAPERS["a4"]) -> tuple[list[DeckFaces], list]:
    """Render and fit every face of every deck and document, collecting every problem."""
    from pnp.render.documents import prepare_documents
    from pnp.faces.templates import TemplateSet

    templates = TemplateSet.load(project, game.slug)
    docs = prepare_documents(game, templates, paper, lambda face: _fit_face(face, templates.style, icons), problems)
    return _prepare_decks(game, templates, icons, problems), docs


def _prepare_decks(game: Game, templates, icons, problems: Problems, decks=None) -> list[DeckFaces]:
    result = []
    for deck in game.decks if decks is None else decks:
        fronts = {card.id: face for card in deck.cards
                  if (face := prepare_card(card, deck, game, templates, icons, problems)) is not None}
        back = prepare_back(deck, game, templates, icons, problems)
        if back is not BAD_BACK:
            result.append(DeckFaces(deck, fronts, back))
    return result


BAD_BACK = object()  # prepare_back's answer when the back has a problem (None means one-sided)


def prepare_card(card: Card, deck: Deck, game: Game, templates, icons, problems: Problems, cache=None):
    """A card's front, rendered and fitted (or remembered from an earlier
    build, see pnp.build.facecache); None, and its problems recorded, if it has any."""
    from pnp.faces.templates import TemplateProblem
    from pnp.faces.textfit import FitError

    ctype = game.card_types[card.type]
    context = card_context(card, deck, game)
    key = cache.key(ctype.template, context) if cache is not None else None
    if key is not None and (face := cache.get(key)) is not None:
        return face
    try:
        face = templates.render(ctype.template, context)
    except TemplateProblem as exc:
        problems.add(exc.path, exc.line, card.id, exc.message)
        return None
    try:
        fitted = _fit_face(face, templates.style, icons)
    except FitError as exc:
        field = _failing_field(face, templates.style, icons)
        problems.add(card.path, _line_of(card, field), card.id,
                     f"{field or 'text'}: {exc}" if field else str(exc))
        return None
    if key is not None:
        cache.put(key, fitted)
    return fitted


def prepare_back(deck: Deck, game: Game, templates, icons, problems: Problems, cache=None, common: bool = False):
    """The deck's back, None for a one-sided deck, or BAD_BACK (problems recorded)."""
    from pnp.faces.templates import TemplateProblem
    from pnp.faces.textfit import FitError

    if deck.back is None:
        return None
    context = back_context(deck, game, common)
    key = cache.key(deck.back, context) if cache is not None else None
    if key is not None and (face := cache.get(key)) is not None:
        return face
    try:
        face = _fit_face(templates.render(deck.back, context), templates.style, icons)
    except TemplateProblem as exc:
        problems.add(exc.path, exc.line, f"{deck.id} (back)", exc.message)
        return BAD_BACK
    except FitError as exc:
        problems.add(templates.template_path(deck.back), 0, f"{deck.id} (back)", str(exc))
        return BAD_BACK
    if key is not None:
        cache.put(key, face)
    return face


def _failing_field(face, style: dict, icons) -> str:
    from pnp.faces.elements import Icon, Text
    from pnp.faces.textfit import FitError, fit

    for el in face.elements:
        if isinstance(el, Text):
            try:
                fit(el, style)
            except FitError:
                return el.field
        if isinstance(el, Icon) and el.name not in icons:
            return ""
    return ""


def _line_of(card: Card, field: str) -> int:
    return card.field_lines.get(field, card.line)


def deck_filename(deck: Deck) -> str:
    return f"deck-{deck.id}.pdf"


def _deck_key(project: Path, game: Game, deck: Deck, options: BuildOptions) -> str:
    types = sorted({c.type for c in deck.cards})
    content = {
        "game": [game.name, game.card_size, list(game.players)],
        "deck": [deck.id, deck.name, deck.back, deck.color, deck.icon, deck.size],
        "types": {t: [game.card_types[t].template, repr(game.card_types[t].fields)] for t in types},
        "cards": [[c.fields, c.revision] for c in deck.cards],
    }
    names = [game.card_types[t].template for t in types] + ([deck.back] if deck.back else [])
    return output_key(project, game.slug, options, content, names, effect_files(project, game.slug))


def _doc_key(project: Path, game: Game, doc, options: BuildOptions) -> str:
    from pnp.model import DocKind

    content = {"game": [game.name, list(game.players)],
               "doc": [doc.id, doc.kind.value, doc.name, doc.template, doc.size, doc.data]}
    if doc.kind is not DocKind.RULES and template_variables(project, game.slug, [doc.template]) & {"decks", "*"}:
        content["decks"] = [(d.id, d.name, d.color, d.icon) for d in game.decks]  # only if the template reads them
    if doc.kind is DocKind.RULES:
        source = doc.path.parent / doc.template
        text = source.read_text(encoding="utf-8") if source.is_file() else ""
        diagrams = [line.split()[1] for line in text.splitlines() if line.strip().startswith("@diagram ") and len(line.split()) > 1]
        return output_key(project, game.slug, options, content, diagrams, [source])
    return output_key(project, game.slug, options, content, [doc.template])


def doc_filenames(doc) -> list[str]:
    from pnp.model import DocKind

    if doc.kind is DocKind.RULES:
        return [f"rules-{doc.id}.pdf"]
    return [f"{doc.kind.value}-{doc.id}.pdf"]


def build(
    project: Path,
    games: list[str] | None,
    out_dir: Path,
    options: BuildOptions,
    progress: Callable[[int, int, str], None] | None = None,
    force: bool = False,
) -> BuildReport:
    """Build what changed since the last build (everything with `force`)."""
    started = time.perf_counter()
    forget_files()
    report = BuildReport()
    wanted = check_games(project, games)
    dirs = {slug: game_dir(out_dir, slug, options) for slug in wanted}
    states = {slug: BuildState.load(dirs[slug]) for slug in wanted}
    digests = {slug: game_digest(project, slug, options) for slug in wanted}
    todo = [slug for slug in wanted if force or not states[slug].up_to_date(digests[slug], dirs[slug])]
    report.up_to_date = [f"{slug}/{name}" for slug in wanted if slug not in todo for name in states[slug].outputs]
    if not todo:
        _measure_ink(project, wanted, out_dir, options, report)
        report.seconds = time.perf_counter() - started
        return report
    pool = _early_pool(project, todo)
    try:
        from pnp.build.pool import Run
        from pnp.sources.loader import load_sources

        run = Run({"project": project, "options": options, "out_dir": out_dir}, pool, progress)
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
        outputs, manifests, new_states = _collect(sources, [(slug, *plans[slug]) for slug in todo], run.tasks,
                                                  results, states, digests, out_dir, options, progress)
    except BaseException:
        if pool is not None:
            pool.close(abort=True)
        raise
    if pool is not None:
        pool.close()
    try:
        _write(outputs, manifests, states, new_states, dirs, report)
    finally:
        if pool is not None:
            pool.reap()  # the workers left while the files were written
    report.up_to_date += [f"{slug}/{n}" for slug in todo for n in new_states[slug].outputs
                          if n not in {b.path.name for b in report.files if b.game == slug}]
    _measure_ink(project, wanted, out_dir, options, report)
    report.seconds = time.perf_counter() - started
    return report


def _write(outputs, manifests, states, new_states, dirs, report: BuildReport) -> None:
    """The write stage: each rendered file, then each game's manifest and build
    state; files a game no longer makes are removed."""
    for path, data, built in outputs:
        write_atomic(path, data)
        report.files.append(built)
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


def _measure_ink(project: Path, games: list[str], out_dir: Path, options: BuildOptions, report: BuildReport) -> None:
    if options.ink is Ink.SAVER:
        from pnp.render.inksaver import measure_coverage

        report.ink = measure_coverage(project, games, out_dir, options)


def _belongs(name: str, doc) -> bool:
    """Whether output file `name` is one of `doc`'s (its main file or a paper variant)."""
    main = doc_filenames(doc)[0]
    return name == main or name.startswith(main[:-4] + "-")


def check_games(project: Path, games: list[str] | None) -> list[str]:
    from pnp.project import available_games

    available = available_games(project)
    unknown = [g for g in games or [] if g not in available]
    if unknown:
        raise PnpError(f"unknown game {', '.join(unknown)}; this project has: {', '.join(available) or 'none'}")
    return list(games) if games else available


def _early_pool(project: Path, todo: list[str]):
    """Worker processes started before the sources are read, when the build
    will surely draw several outputs (several games changed); otherwise
    workers start once the build knows it has more than one task."""
    from pnp.build.jobs import can_fork, worker_count
    from pnp.build.pool import Pool

    workers = worker_count(len(todo))
    if workers < 2 or not can_fork():
        return None
    return Pool(project, workers)


def _plan_game(project: Path, game: Game, state: BuildState, game_out: Path, options: BuildOptions, force: bool,
               run) -> tuple[list, list]:
    """The changed game's decks and documents whose inputs changed (all of
    them with `force`), handed to `run` as one task each."""
    from pnp.build.jobs import Task

    slug = game.slug
    keys = {(slug, "deck", d.id): _deck_key(project, game, d, options) for d in game.decks}
    keys.update({(slug, "doc", d.id): _doc_key(project, game, d, options) for d in game.documents})
    decks = [d for d in game.decks if force or not state.fresh(deck_filename(d), keys[slug, "deck", d.id], game_out)]
    docs = [d for d in game.documents if options.backs is Backs.DECK  # a common-back build is decks only
            if force or not all(state.fresh(n, keys[slug, "doc", d.id], game_out) for n in doc_filenames(d))]
    tasks = [Task(slug, "deck", i, f"{slug}/{d.id}", len(d.cards) + d.copies // 4) for i, d in enumerate(decks)]
    tasks += [Task(slug, "doc", i, f"{slug}/{d.id}", 30) for i, d in enumerate(docs)]
    run.add({"games": {slug: game}, "decks": {slug: decks}, "docs": {slug: docs}, "keys": keys}, tasks)
    return decks, docs


def _collect(sources, plans, tasks, results, states, digests, out_dir, options, progress):
    """The rendered files, manifests and build states, once every task has
    succeeded; all the problems found, if any has not."""
    problems = [p for found, _ in results for p in found]
    if problems:
        raise ValidationFailed(problems)
    outputs, manifests, new_states = [], {}, {}
    for slug, _, _ in plans:
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
            names += [n for n in [*fresh, *old.outputs] if _belongs(n, d)]
        for name in dict.fromkeys(names):
            entry = fresh.get(name) or old.outputs.get(name)
            if entry:
                state.outputs[name] = entry
        manifests[slug] = {"game": slug, "name": game.name, "pnp_version": __version__,
                           "card_size_mm": [game.card_size.width, game.card_size.height],
                           "ink": options.ink.value,
                           "files": [e["file"] for e in state.outputs.values()],
                           "cards": [c for e in state.outputs.values() for c in e["cards"]]}
        new_states[slug] = state
    if progress:
        progress(len(tasks), len(tasks), "writing")
    return outputs, manifests, new_states


def deck_back_shift(plan: DeckLayout, options: BuildOptions) -> BackShift | None:
    """The printer correction for this deck's back pages, if any apply."""
    from pnp.layout.printers import back_shift

    if options.printer is None or plan.layout is not Layout.DUPLEX or not plan.backs:
        return None
    return back_shift(options.printer, plan.paper)


def _file_entry(path: Path, deck: Deck, plan: DeckLayout, options: BuildOptions) -> dict:
    entry = {
        "file": path.name, "kind": "deck", "deck": deck.id, "paper": options.paper.name,
        "paper_mm": [round(plan.paper.width, 3), round(plan.paper.height, 3)],
        "layout": plan.layout.value if plan.backs else "one-sided",
        "flip": plan.flip.value if plan.layout is Layout.DUPLEX and plan.backs else None,
        "pages": plan.pages, "cards_per_page": plan.per_page, "sides": 2 if plan.backs else 1,
    }
    shift = deck_back_shift(plan, options)
    if shift is not None:
        entry["printer"] = {"name": options.printer.name, "dx_mm": shift.dx, "dy_mm": shift.dy,
                            "scale": shift.scale, "applied_to": "back pages, about the page centre"}
    if options.ink is Ink.SAVER:
        entry["ink"] = options.ink.value
    return entry


def copy_numbers(copies: list[Card]) -> list[int]:
    """Which printed copy of its card each entry is: 1, 2, ... per card id."""
    seen: dict[str, int] = {}
    out = []
    for card in copies:
        seen[card.id] = seen.get(card.id, 0) + 1
        out.append(seen[card.id])
    return out


def copy_payloads(copies: list[Card]) -> list[str]:
    """The QR payload printed on each copy: it names the very card on the table."""
    from pnp.sources.qrpayload import format_payload

    return [format_payload(card.id, card.revision, n) for card, n in zip(copies, copy_numbers(copies))]


def _card_entries(path: Path, copies: list[Card], plan: DeckLayout, game: Game,
                  back_shift: BackShift | None = None) -> list[dict]:
    out = []
    numbers, payloads = copy_numbers(copies), copy_payloads(copies)
    backs = plan.backs or [None] * len(plan.fronts)
    for front, back in zip(plan.fronts, backs):
        card = copies[front.copy]
        out.append({
            "id": card.id, "copy": numbers[front.copy], "deck": card.deck,
            "qr": payloads[front.copy],
            "file": path.name,
            "front": {"page": front.page, "trim_mm": [round(v, 3) for v in front.slot.trim]},
            "back": None if back is None else {"page": back.page, "trim_mm": [round(v, 3) for v in _shifted(back.slot.trim, back_shift)],
                                               "rotation": back.slot.rotate},
        })
    return out


def _shifted(box, shift: BackShift | None):
    return box if shift is None else shift.box(box)


def validate(project: Path, games: list[str] | None) -> Sources:
    """Everything `build` checks, without writing."""
    from pnp.render.fonts import register_fonts
    from pnp.faces.icons import IconSet
    from pnp.sources.loader import icon_files, load_sources

    sources = load_sources(project, games)
    register_fonts(project / TEMPLATES_DIR)
    problems = Problems(project)
    for slug, game in sources.games.items():
        prepare_game(game, project, IconSet.load(*icon_files(project, slug)), problems)  # decks and documents
    problems.raise_if_any()
    return sources
