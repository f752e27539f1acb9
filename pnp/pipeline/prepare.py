"""Preparing faces: each card's front and each deck's back rendered from its
template and fitted (or remembered from an earlier build, see
pnp.pipeline.facecache), every problem collected with the card and line it
belongs to; and `validate`, which prepares everything and writes nothing."""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.errors import Problems
from pnp.faces.artpanel import MIN_DPI, is_raster, raster_dpi, raster_pixels
from pnp.faces.elements import Art
from pnp.faces.templates import TemplateProblem
from pnp.faces.textfit import failing_field
from pnp.faces.textset import FitError
from pnp.model import PAPERS, Card, Deck, Game, Size, Sources
from pnp.render.documents import PreparedDoc, prepare_documents
from pnp.pipeline.incremental import template_variables
from pnp.render.tools import Tools, load_tools
from pnp.sources.loader import load_sources
from pnp.sources.qrpayload import format_payload

COMMON_BACK = {"id": "common", "name": "", "color": "#4a4a4a", "icon": "dice"}
BAD_BACK = object()  # prepare_back's answer when the back has a problem (None means one-sided)


@dataclass
class DeckFaces:
    deck: Deck
    fronts: dict[str, Any]    # card id -> Face
    back: Any                 # Face, or None for a one-sided deck (with per-card backs: the first card's)
    backs: dict[str, Any] | None = None  # card id -> its own back, when the back template reads the card


def deck_size(deck: Deck, game: Game) -> Size:
    return deck.size or game.card_size


def card_fields(card: Card, deck: Deck) -> dict:
    """What a template sees as `card`: its fields, id, revision and deck."""
    fields = dict(card.fields)
    fields.update(id=card.id, revision=card.revision, deck=deck.id)
    return fields


def card_context(card: Card, deck: Deck, game: Game) -> dict:
    payload = format_payload(card.id, card.revision)  # each printed copy adds its number when drawn
    size = deck_size(deck, game)
    return {
        "card": card_fields(card, deck),
        "deck": {"id": deck.id, "name": deck.name, "color": deck.color, "icon": deck.icon},
        "game": {"slug": game.slug, "name": game.name, "players": list(game.players)},
        "size": {"w": size.width, "h": size.height},
        "payload": payload,
    }


def back_context(deck: Deck, game: Game, common: bool = False, card: Card | None = None) -> dict:
    """The back's template context; `common`: one neutral back for every deck;
    `card`: the card this back is behind, for a back template that reads it
    (a per-card or double-faced back: see `back_reads_card`)."""
    size = deck_size(deck, game)
    context = {
        "deck": dict(COMMON_BACK) if common else {"id": deck.id, "name": deck.name, "color": deck.color, "icon": deck.icon},
        "game": {"slug": game.slug, "name": game.name, "players": list(game.players)},
        "size": {"w": size.width, "h": size.height},
        "payload": "",
    }
    if card is not None:
        context["card"] = card_fields(card, deck)
        context["payload"] = format_payload(card.id, card.revision)
    return context


def back_reads_card(project: Path, game: Game, deck: Deck) -> bool:
    """Whether the deck's back template (or what it includes) reads `card`:
    then every card gets its own back, drawn from its own context; otherwise
    one back serves the whole deck."""
    return deck.back is not None and "card" in template_variables(project, game.slug, [deck.back])


def prepare_game(game: Game, tools: Tools, problems: Problems,
                 paper: Size = PAPERS["a4"]) -> tuple[list[DeckFaces], list[PreparedDoc]]:
    """Render and fit every face of every deck and document, collecting every problem."""
    docs = prepare_documents(game, tools.templates, paper, tools.fit, problems)
    return prepare_decks(game, tools, problems), docs


def card_backs(project: Path, deck: Deck, game: Game, tools: Tools, problems: Problems, cards, cache=None):
    """The backs of `cards`, card id -> Face: the deck's one back behind every
    card, or (its back template reads `card`: see `back_reads_card`) each
    card's own, identical backs one and the same Face (so a shop gets one
    image of it and a PDF one form); None for a one-sided deck; BAD_BACK when
    a back has a problem (every card's problems recorded)."""
    if deck.back is None:
        return None
    if not back_reads_card(project, game, deck):
        back = prepare_back(deck, game, tools, problems, cache)
        return back if back is BAD_BACK else {card.id: back for card in cards}
    distinct: dict = {}
    out, bad = {}, False
    for card in cards:
        face = prepare_back(deck, game, tools, problems, cache, card=card)
        if face is BAD_BACK:
            bad = True
            continue
        try:
            out[card.id] = distinct.setdefault(face, face)
        except TypeError:  # a face holding something unhashable: kept as it is
            out[card.id] = face
    return BAD_BACK if bad else out


def distinct_backs(backs: dict[str, Any]) -> list[Any]:
    """The distinct faces of `card_backs`'s answer, in the order of the cards first showing them."""
    return list({id(face): face for face in backs.values()}.values())


def prepare_decks(game: Game, tools: Tools, problems: Problems, decks=None) -> list[DeckFaces]:
    """The faces of the game's decks (or of `decks`); a deck whose back has a problem is left out."""
    result = []
    for deck in game.decks if decks is None else decks:
        fronts = {card.id: face for card in deck.cards
                  if (face := prepare_card(card, deck, game, tools, problems)) is not None}
        if back_reads_card(tools.templates.root.parent, game, deck):
            backs = {card.id: prepare_back(deck, game, tools, problems, card=card) for card in deck.cards}
            if deck.cards and BAD_BACK not in backs.values():
                result.append(DeckFaces(deck, fronts, backs[deck.cards[0].id], backs))
            continue
        back = prepare_back(deck, game, tools, problems)
        if back is not BAD_BACK:
            result.append(DeckFaces(deck, fronts, back))
    return result


def prepare_card(card: Card, deck: Deck, game: Game, tools: Tools, problems: Problems, cache=None):
    """A card's front, rendered and fitted (or remembered in `cache`, a
    pnp.pipeline.facecache.FaceCache); None, and its problems recorded, if it has any."""
    ctype = game.card_types[card.type]
    context = card_context(card, deck, game)
    key = cache.key(ctype.template, context) if cache is not None else None
    if key is not None and (face := cache.get(key)) is not None:
        return face
    try:
        face = tools.templates.render(ctype.template, context)
    except TemplateProblem as exc:
        problems.add(exc.path, exc.line, card.id, exc.message)
        return None
    try:
        fitted = tools.fit(face)
    except FitError as exc:
        field = failing_field(face, tools.style, tools.icons)
        if exc.char is not None and not _holds(card.fields.get(field), exc.char):
            field = next((k for k, v in card.fields.items() if _holds(v, exc.char)), field)
        problems.add(card.path, card.field_lines.get(field, card.line), card.id,
                     f"{field or 'text'}: {exc}" if field else str(exc))
        return None
    if key is not None:
        cache.put(key, fitted)
    return fitted


def _holds(value: Any, char: str) -> bool:
    """Whether a card field's value (text, or a list or mapping of them) contains `char`."""
    if isinstance(value, str):
        return char in value
    if isinstance(value, dict):
        return any(_holds(v, char) for v in value.values())
    if isinstance(value, list):
        return any(_holds(v, char) for v in value)
    return False


def prepare_back(deck: Deck, game: Game, tools: Tools, problems: Problems, cache=None, common: bool = False,
                 card: Card | None = None):
    """The deck's back (behind `card`, for a back template that reads it),
    None for a one-sided deck, or BAD_BACK (problems recorded)."""
    if deck.back is None:
        return None
    context = back_context(deck, game, common, card)
    key = cache.key(deck.back, context) if cache is not None else None
    if key is not None and (face := cache.get(key)) is not None:
        return face
    try:
        face = tools.fit(tools.templates.render(deck.back, context))
    except TemplateProblem as exc:
        problems.add(exc.path, exc.line, f"{card.id} (back)" if card else f"{deck.id} (back)", exc.message)
        return BAD_BACK
    except FitError as exc:
        problems.add(*tools.templates.locate(deck.back, exc.needle()), f"{card.id} (back)" if card else f"{deck.id} (back)",
                     str(exc))
        return BAD_BACK
    if key is not None:
        cache.put(key, face)
    return face


def validate(project: Path, games: list[str] | None, warnings: list[str] | None = None) -> Sources:
    """Everything `build` checks, without writing; warnings (pictures printed
    under 300 dpi) are added to `warnings` when it is given."""
    sources = load_sources(project, games)
    problems = Problems(project)
    for slug, game in sources.games.items():
        tools = load_tools(project, slug)
        decks, _ = prepare_game(game, tools, problems)  # decks and documents
        if warnings is not None:
            warnings += art_resolution_warnings(project, decks)
        _check_colour_identities(game, tools.templates, problems, warnings)
    problems.raise_if_any()
    return sources


def _check_colour_identities(game, templates, problems: Problems, notes: list[str] | None) -> None:
    """Colour identities (deck colours, and the sets the style declares) that
    one colour names twice, or that colour-blind players cannot tell apart and
    no symbol separates, are problems; the closest pair of each set, under
    each view, is noted."""
    from pnp.sources.cvdcheck import deck_set, measure  # lazy: only validate needs it
    from pnp.sources.cvdsets import style_sets  # lazy: only validate needs it

    sets = [deck_set(game), *style_sets(game, templates.style, templates.style_files, problems)]
    report, clashes = measure(sets)
    for clash in clashes:
        problems.add(clash.path, clash.line or None, None, clash.message())
    for cs, closest in report if notes is not None else ():
        notes.append(f"note: {game.slug}: closest {cs.what} colours (ΔE00) " + ", ".join(
            f"{c.simulation} {c.delta_e:.1f} ({c.first}/{c.second})" for c in closest))


def colour_identity_warnings(project: Path, game) -> list[str]:
    """The colour-identity clashes `pnp validate` refuses (see
    `_check_colour_identities`), as a build's stated warnings: a build draws
    what it is given, and says which colours players may not tell apart."""
    from pnp.sources.cvdcheck import deck_set, measure  # lazy: only a build that draws, and validate
    from pnp.sources.cvdsets import style_sets  # lazy: as above

    tools = load_tools(project, game.slug)
    problems = Problems(project)
    sets = [deck_set(game), *style_sets(game, tools.templates.style, tools.templates.style_files, problems)]
    _, clashes = measure(sets)
    out = []
    for clash in clashes:
        where = Path(clash.path)
        shown = where.relative_to(project.resolve()) if where.is_relative_to(project.resolve()) else where
        out.append(f"warning: {shown}{f':{clash.line}' if clash.line else ''}: {clash.message()} "
                   "(`pnp validate` refuses it)")
    return out


def art_resolution_warnings(project: Path, decks: list[DeckFaces]) -> list[str]:
    """One line per PNG or JPEG illustration that prints under 300 dpi
    somewhere (at its largest printed size), naming a card that shows it."""
    worst: dict[str, tuple[float, str, float, float]] = {}
    for faces in decks:
        backs = [(f"{card_id} (back)", face) for card_id, face in (faces.backs or {}).items()]
        for card_id, face in [*faces.fronts.items(), *backs, (f"{faces.deck.id} back", faces.back)]:
            for el in getattr(face, "elements", ()):
                if isinstance(el, Art) and is_raster(el.src):
                    dpi = raster_dpi(el.src, el.w, el.h)
                    if el.src not in worst or dpi < worst[el.src][0]:
                        worst[el.src] = (dpi, card_id, el.w, el.h)
    out = []
    for src, (dpi, card_id, w, h) in sorted(worst.items()):
        if dpi < MIN_DPI - 0.5:
            px = raster_pixels(src)
            shown = Path(src).relative_to(project.resolve()) if Path(src).is_relative_to(project.resolve()) else src
            out.append(f"warning: {shown}: {px[0]} x {px[1]} px printed in {w:.1f} x {h:.1f} mm on {card_id} is "
                       f"{dpi:.0f} dpi, under {MIN_DPI}: it will print soft; give it at least "
                       f"{math.ceil(px[0] * MIN_DPI / dpi)} x {math.ceil(px[1] * MIN_DPI / dpi)} px")
    return out
