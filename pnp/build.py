"""The orchestrator: sources -> model -> faces (templates + fitting) -> layout
-> render -> write, always in that order. Everything is read and checked
before anything is written."""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from pnp import __version__
from pnp.elements import Face, Icon, Text
from pnp.documents import prepare_documents, render_documents
from pnp.errors import PnpError, Problems
from pnp.fonts import register_fonts
from pnp.icons import IconSet
from pnp.layout import DeckLayout, plan_deck
from pnp.model import PAPERS, Card, Deck, Flip, Game, Layout, Size, Sources
from pnp.project import TEMPLATES_DIR
from pnp.qrpayload import format_payload
from pnp.render import RenderContext, render_deck
from pnp.sources import icon_files, load_sources
from pnp.templates import TemplateProblem, TemplateSet
from pnp.textfit import FitError, fit
from pnp.write import write_atomic, write_json

MANIFEST = "manifest.json"
SHEET_FONT = "RobotoCondensed-Regular"


@dataclass(frozen=True)
class BuildOptions:
    paper: Size = PAPERS["a4"]
    layout: Layout = Layout.DUPLEX
    flip: Flip = Flip.LONG


@dataclass
class DeckFaces:
    deck: Deck
    fronts: dict[str, Face]   # by card id
    back: Face | None


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

    @property
    def pages(self) -> int:
        return sum(f.pages for f in self.files)

    @property
    def cards(self) -> int:
        return sum(f.cards for f in self.files)


def deck_size(deck: Deck, game: Game) -> Size:
    return deck.size or game.card_size


def card_context(card: Card, deck: Deck, game: Game) -> dict:
    payload = format_payload(game.slug, card.id, card.revision)
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


def back_context(deck: Deck, game: Game) -> dict:
    size = deck_size(deck, game)
    return {
        "deck": {"id": deck.id, "name": deck.name, "color": deck.color, "icon": deck.icon},
        "game": {"slug": game.slug, "name": game.name, "players": list(game.players)},
        "size": {"w": size.width, "h": size.height},
        "payload": "",
    }


def _fit_face(face: Face, style: dict, icons: IconSet) -> Face:
    out = []
    for el in face.elements:
        if isinstance(el, Text):
            el = fit(el, style)
        elif isinstance(el, Icon) and el.name not in icons:
            raise FitError(f"unknown icon {el.name!r}")
        out.append(el)
    return replace(face, elements=tuple(out))


def prepare_game(game: Game, project: Path, icons: IconSet, problems: Problems,
                 paper: Size = PAPERS["a4"]) -> tuple[list[DeckFaces], list]:
    """Render and fit every face of every deck and document, collecting every problem."""
    templates = TemplateSet.load(project, game.slug)
    docs = prepare_documents(game, templates, paper, lambda face: _fit_face(face, templates.style, icons), problems)
    return _prepare_decks(game, templates, icons, problems), docs


def _prepare_decks(game: Game, templates: TemplateSet, icons: IconSet, problems: Problems) -> list[DeckFaces]:
    result = []
    for deck in game.decks:
        fronts: dict[str, Face] = {}
        for card in deck.cards:
            ctype = game.card_types[card.type]
            try:
                face = templates.render(ctype.template, card_context(card, deck, game))
            except TemplateProblem as exc:
                problems.add(exc.path, exc.line, card.id, exc.message)
                continue
            try:
                fronts[card.id] = _fit_face(face, templates.style, icons)
            except FitError as exc:
                field = _failing_field(face, templates.style, icons)
                problems.add(card.path, _line_of(card, field), card.id,
                             f"{field or 'text'}: {exc}" if field else str(exc))
        if deck.back is None:
            result.append(DeckFaces(deck, fronts, None))
            continue
        try:
            back = _fit_face(templates.render(deck.back, back_context(deck, game)), templates.style, icons)
        except TemplateProblem as exc:
            problems.add(exc.path, exc.line, f"{deck.id} (back)", exc.message)
            continue
        except FitError as exc:
            problems.add(templates.template_path(deck.back), 0, f"{deck.id} (back)", str(exc))
            continue
        result.append(DeckFaces(deck, fronts, back))
    return result


def _failing_field(face: Face, style: dict, icons: IconSet) -> str:
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


def build(
    project: Path,
    games: list[str] | None,
    out_dir: Path,
    options: BuildOptions,
    progress: Callable[[int, int, str], None] | None = None,
) -> BuildReport:
    started = time.perf_counter()
    sources = load_sources(project, games)
    register_fonts(project / TEMPLATES_DIR)
    problems = Problems(project)
    icon_sets = {slug: IconSet.load(*icon_files(project, slug)) for slug in sources.games}
    prepared_all = {slug: prepare_game(game, project, icon_sets[slug], problems, options.paper)
                    for slug, game in sources.games.items()}
    prepared = {slug: decks for slug, (decks, _) in prepared_all.items()}
    problems.raise_if_any()
    # Everything is valid: lay out and render in memory, then write.
    outputs: list[tuple[Path, bytes, BuiltFile]] = []
    manifests: dict[str, dict] = {}
    ctx_cache: dict[str, RenderContext] = {}
    total = sum(len(d) for d in prepared.values())
    done = 0
    for slug, decks in prepared.items():
        game = sources.games[slug]
        style = TemplateSet.load(project, slug).style
        ctx = ctx_cache.setdefault(slug, RenderContext(style, icon_sets[slug], SHEET_FONT))
        manifest = {"game": slug, "name": game.name, "pnp_version": __version__,
                    "card_size_mm": [game.card_size.width, game.card_size.height],
                    "files": [], "cards": []}
        for faces in decks:
            if progress:
                progress(done, total, f"{slug}/{faces.deck.id}")
            done += 1
            copies = [card for card in faces.deck.cards for _ in range(card.quantity)]
            size = deck_size(faces.deck, game)
            plan = plan_deck(len(copies), size, options.paper, options.layout, options.flip, faces.back is not None)
            data = render_deck(f"{game.name} — {faces.deck.name}", plan, size,
                               [faces.fronts[c.id] for c in copies], faces.back, ctx)
            path = out_dir / slug / deck_filename(faces.deck)
            outputs.append((path, data, BuiltFile(slug, path, "deck", plan.pages, len(copies))))
            manifest["files"].append(_file_entry(path, faces.deck, plan, options))
            manifest["cards"].extend(_card_entries(path, copies, plan, game))
        accent = game.decks[0].color if game.decks else "#333333"
        for name, data, entry in render_documents(prepared_all[slug][1], game, options.paper, ctx, accent):
            path = out_dir / slug / name
            outputs.append((path, data, BuiltFile(slug, path, entry["kind"], entry.get("pages") or 0, 0)))
            manifest["files"].append({"file": name, **entry})
        manifests[slug] = manifest
    if progress:
        progress(total, total, "writing")
    for path, data, _ in outputs:
        write_atomic(path, data)
    for slug, manifest in manifests.items():
        write_json(out_dir / slug / MANIFEST, manifest)
    report = BuildReport([b for _, _, b in outputs])
    report.seconds = time.perf_counter() - started
    return report


def _file_entry(path: Path, deck: Deck, plan: DeckLayout, options: BuildOptions) -> dict:
    return {
        "file": path.name, "kind": "deck", "deck": deck.id, "paper": options.paper.name,
        "paper_mm": [round(plan.paper.width, 3), round(plan.paper.height, 3)],
        "layout": plan.layout.value, "flip": plan.flip.value if plan.layout is Layout.DUPLEX else None,
        "pages": plan.pages, "cards_per_page": plan.per_page,
    }


def _card_entries(path: Path, copies: list[Card], plan: DeckLayout, game: Game) -> list[dict]:
    out = []
    seen: dict[str, int] = {}
    backs = plan.backs or [None] * len(plan.fronts)
    for front, back in zip(plan.fronts, backs):
        card = copies[front.copy]
        seen[card.id] = seen.get(card.id, 0) + 1
        out.append({
            "id": card.id, "copy": seen[card.id], "deck": card.deck,
            "qr": format_payload(game.slug, card.id, card.revision),
            "file": path.name,
            "front": {"page": front.page, "trim_mm": [round(v, 3) for v in front.slot.trim]},
            "back": None if back is None else {"page": back.page, "trim_mm": [round(v, 3) for v in back.slot.trim],
                                               "rotation": back.slot.rotate},
        })
    return out


def validate(project: Path, games: list[str] | None) -> Sources:
    """Everything `build` checks, without writing."""
    sources = load_sources(project, games)
    register_fonts(project / TEMPLATES_DIR)
    problems = Problems(project)
    for slug, game in sources.games.items():
        prepare_game(game, project, IconSet.load(*icon_files(project, slug)), problems)  # decks and documents
    problems.raise_if_any()
    return sources
