"""Boards, full-page sheets and rule sheets: prepared (rendered, fitted and
checked) with the decks, drawn after everything has validated."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from pnp.errors import PnpError, Problems
from pnp.faces.elements import Face
from pnp.faces.glyphs import MissingGlyph, font_runs
from pnp.faces.templates import TemplateProblem, TemplateSet
from pnp.faces.textset import FitError
from pnp.layout.sheets import PRINTER_MARGIN
from pnp.layout.tiling import LABEL_STRIP, cut_lines, plan_tiles
from pnp.model import GAME_SLUGS, PAPERS, DocKind, Document, Game, Size
from pnp.render.boards import render_board
from pnp.render.canvas import RenderContext
from pnp.render.rulesheet import TINTS, DiagramFlowable, Fonts, render_rules
from pnp.sources.art import art_credit
from pnp.sources.sandbox import BoundedSandbox, why as _why

BIG_PAPER = {"a4": "a3", "a3": "a3", "letter": "tabloid", "tabloid": "tabloid"}


@dataclass
class PreparedDoc:
    doc: Document
    face: Face | None = None        # boards and pages
    size: Size | None = None
    markdown: str = ""              # rule sheets
    diagrams: dict | None = None    # (name, w, h) -> Face


def page_area(paper: Size) -> Size:
    """What a full-page sheet may fill: the paper less margins and the label strip."""
    return Size(paper.width - 2 * PRINTER_MARGIN, paper.height - 2 * PRINTER_MARGIN - LABEL_STRIP, "page")


def doc_context(doc: Document, game: Game, size: Size) -> dict[str, Any]:
    return {
        "doc": {"id": doc.id, "name": doc.name, "kind": doc.kind.value},
        "data": doc.data,
        "game": {"slug": game.slug, "name": game.name, "players": list(game.players)},
        "decks": [{"id": d.id, "name": d.name, "color": d.color, "icon": d.icon} for d in game.decks],
        "size": {"w": size.width, "h": size.height},
        "payload": "",
    }


def prepare_documents(game: Game, templates: TemplateSet, paper: Size, fit_face, problems: Problems,
                      docs=None) -> list[PreparedDoc]:
    out = []
    for doc in game.documents if docs is None else docs:
        try:
            if doc.kind is DocKind.RULES:
                out.append(_prepare_rules(doc, game, templates, fit_face))
                continue
            size = doc.size if doc.kind is DocKind.BOARD else page_area(paper)
            face = fit_face(templates.render(doc.template, doc_context(doc, game, size)))
            out.append(PreparedDoc(doc, face, size))
        except TemplateProblem as exc:
            problems.add(exc.path, exc.line, doc.id, exc.message)
        except FitError as exc:
            problems.add(*templates.locate(doc.template, exc.needle()), doc.id, str(exc))
        except PnpError as exc:
            problems.add(doc.path, doc.line, doc.id, str(exc))
    return out


def _prepare_rules(doc: Document, game: Game, templates: TemplateSet, fit_face) -> PreparedDoc:
    source = doc.path.parent / doc.template
    env = BoundedSandbox(undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=True)
    try:
        text = env.from_string(source.read_text(encoding="utf-8")).render(
            game={"slug": game.slug, "name": game.name, "players": list(game.players)},
            data=doc.data, style=templates.style)
    except jinja2.TemplateSyntaxError as exc:
        raise PnpError(f"{source}:{exc.lineno}: template syntax error: {exc.message}") from None
    except jinja2.UndefinedError as exc:
        raise PnpError(f"unknown template variable in {source.name}: {exc.message}") from None
    except (jinja2.TemplateError, TypeError, ValueError, ArithmeticError, MemoryError) as exc:
        raise PnpError(f"{source}: template error: {_why(exc)}") from None
    try:
        font_runs(text, Fonts.body)
    except MissingGlyph as exc:  # located in the source when the character is written there, as it mostly is
        raw = source.read_text(encoding="utf-8").splitlines()
        number = next((i for i, line in enumerate(raw, start=1) if exc.char in line), 0)
        raise TemplateProblem(_shown_source(source, doc), number, str(exc)) from None
    diagrams = {}
    for line in text.splitlines():
        if line.strip().startswith("@diagram "):
            parts = line.split()
            if len(parts) != 4:
                raise PnpError(f"@diagram needs NAME WIDTH HEIGHT, got {line.strip()!r}")
            name, w, h = parts[1], float(parts[2]), float(parts[3])
            size = Size(w, h, "diagram")
            diagrams[(name, w, h)] = fit_face(templates.render(name, doc_context(doc, game, size)))
    return PreparedDoc(doc, markdown=text, diagrams=diagrams)


def _shown_source(source: Path, doc: Document) -> str:
    """The rule sheet's source as messages show it: from the project root when it can be."""
    try:
        return str(source.relative_to(doc.path.parent.parent.parent))
    except ValueError:
        return str(source)


def render_documents(prepared: list[PreparedDoc], game: Game, paper: Size, ctx: RenderContext,
                     accent: str, rule_tints: tuple[str, str] | None = None) -> list[tuple[str, bytes, dict]]:
    """(file name, PDF bytes, manifest entry) for each output file."""
    files = []
    for p in prepared:
        title = f"{game.name} — {p.doc.name}"
        if p.doc.kind is DocKind.RULES:
            def diagram(name, w, h, p=p):
                return DiagramFlowable(p.diagrams[(name, w, h)], Size(w, h, "diagram"), ctx)
            try:
                parts = ["track the game with the referee command"] if game.slug in GAME_SLUGS else []
                if (credit := art_credit(game.path.parent.parent.parent, game.cards)) is not None:
                    parts.append(credit)  # only for art that needs it: the game-icons.net icons pnp ships
                note = " · ".join(parts)
                data = render_rules(title, p.markdown, paper, ctx, accent, diagram, rule_tints or TINTS, note)
            except Exception as exc:  # platypus layout failures (a table wider than a column, ...)
                raise PnpError(f"{p.doc.path}:{p.doc.line}: {p.doc.id}: rule sheet cannot be laid out: {exc}") from None
            files.append((f"rules-{p.doc.id}.pdf", data, {"kind": "rules", "id": p.doc.id, "paper": paper.name,
                                                          "pages": data.count(b"/Type /Page\n") or None}))
            continue
        variants = [(f"{p.doc.kind.value}-{p.doc.id}.pdf", paper)]
        big = PAPERS[BIG_PAPER.get(paper.name, "a3")]
        if p.doc.kind is DocKind.BOARD and big.name != paper.name:
            if len(plan_tiles(p.size, big).tiles) == 1 and len(plan_tiles(p.size, paper).tiles) > 1:
                variants.append((f"{p.doc.kind.value}-{p.doc.id}-{big.name}.pdf", big))
        for name, sheet in variants:
            plan = plan_tiles(p.size, sheet)
            data = render_board(title, p.face, p.size, plan, ctx)
            files.append((name, data, {
                "kind": p.doc.kind.value, "id": p.doc.id, "paper": sheet.name,
                "size_mm": [p.size.width, p.size.height], "pages": len(plan.tiles),
                "overlap_mm": [round(plan.overlap_x, 3), round(plan.overlap_y, 3)],
                "tiles": [{"page": i + 1, "row": t.row, "column": t.col,
                           "window_mm": [round(v, 3) for v in t.window],
                           "origin_mm": [round(v, 3) for v in t.origin],
                           "cut_mm": _cuts(plan, t)} for i, t in enumerate(plan.tiles)],
            }))
    return files


def _cuts(plan, tile) -> dict[str, float | None]:
    """Where this sheet is cut before joining (board mm): its left and top cut lines."""
    left, top = cut_lines(plan, tile)
    return {"left": None if left is None else round(left, 3), "top": None if top is None else round(top, 3)}
