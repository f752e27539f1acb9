"""Stage 1: read every game file and deck file, check them, and build the model.

Reads and checks everything before anything is written, and reports every
problem in one run. Imports only YAML: the referee uses this module too.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from pathlib import Path
from typing import Any, Callable

from pnp.errors import PnpError, Problems, did_you_mean
from pnp.model import (
    CARD_PRESETS,
    Card,
    CardId,
    CardType,
    Coverage,
    Deck,
    DeckId,
    DocKind,
    Document,
    FieldType,
    Game,
    GameSlug,
    Size,
    Sources,
)
from pnp.project import GAME_FILE, SOURCES_DIR, TEMPLATES_DIR, available_games
from pnp.sources.art import UNREAD, check_art, load_art, with_art
from pnp.sources.codes import CODE, hashed_code
from pnp.sources.colours import ColourError, colour
from pnp.sources.composition import check_composition
from pnp.sources.effectcheck import check_effects, generate_text, load_vocabulary, vocabulary_file, would_print
from pnp.sources.effecttext import Vocabulary
from pnp.sources.markup import unclosed_markup
from pnp.sources.qrpayload import longest_payload
from pnp.sources.schema import SchemaError, check_value, parse_type, quote_hint
from pnp.sources.spreadsheet import is_spreadsheet, read_deck
from pnp.sources.yamlio import MarkedDict, YamlSyntaxError, load_marked, load_reported
from pnp.sources.yamlio import plain as _plain

ICONS_FILE = "icons.yaml"
TEMPLATE_SUFFIX = ".xml.j2"
ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_ID_LENGTH = 32
QR_MAX_CHARS = 61  # QR version 3, error correction M, alphanumeric mode
TOKEN_PATTERN = re.compile(r"\{([^{}]*)\}")

COMMON_FIELDS: dict[str, FieldType] = {
    "id": parse_type("str"),
    "name": parse_type("str"),
    "type": parse_type("str"),
    "quantity": parse_type("int>=1?"),
    "text": parse_type("str?"),
    "flavor": parse_type("str?"),
    "code": parse_type("str?"),  # the short code (pnp.sources.codes); computed from the id unless given
    "art": parse_type("str?"),   # the card's picture by name (pnp.sources.art); or in art.yaml; unset: none
}
GAME_KEYS = {"name", "players", "card_size", "card_types", "decks", "composition", "notes", "documents"}
GAME_REQUIRED = ("name", "players", "card_size", "card_types", "decks")
DECK_KEYS = {"id", "name", "file", "back", "color", "icon", "notes", "card_size"}
DOC_KEYS = {"id", "kind", "name", "template", "source", "size", "data", "notes"}
DECK_REQUIRED = ("id", "name", "file", "back")
TEXT_FIELDS = ("text", "flavor")
NO_ID = "?"  # in the ids seen: a card written without an id (no id can be "?")


def card_revision(fields: dict[str, Any]) -> str:
    """Six hex digits that change whenever anything printed on the card changes."""
    content = {k: v for k, v in fields.items() if k != "quantity"}
    blob = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:6].upper()


def icon_files(root: Path, game: str | None = None) -> list[Path]:
    """The shared icons file and, if it exists, the game's own (which may add icons)."""
    files = [root / TEMPLATES_DIR / ICONS_FILE]
    if game:
        files.append(root / TEMPLATES_DIR / game / ICONS_FILE)
    return [f for f in files if f.exists()]


def icon_names(root: Path, game: str, problems: Problems) -> set[str] | None:
    files = icon_files(root, game)
    if not files:
        return None
    names: set[str] = set()
    for path in files:
        try:
            data, _ = load_marked(path)
        except YamlSyntaxError as exc:
            problems.add(path, exc.line, None, exc.message)
            continue
        names |= set(data or {})
    return names


def load_sources(root: Path, games: list[str] | tuple[str, ...] | None = None,
                 known_ids: dict[str, set[str]] | None = None,
                 on_game: Callable[[str, Game], None] | None = None) -> Sources:
    """Read and check all card sources under `root`. Raises ValidationFailed.

    Card ids must be unique across every game, so every game is read; a game
    in `known_ids` (unchanged since a build that recorded its ids) and not
    asked for is trusted to hold just those ids instead. Should one of them
    clash, everything is read again, so the message can name both places.

    `on_game(slug, game)` hears of each game asked for as soon as it has been
    read without a problem of its own: a build starts drawing it meanwhile.
    Checks across games (unique ids) come at the end, before this returns."""
    base = root / SOURCES_DIR
    available = available_games(root)
    wanted = list(games) if games else available
    unknown = [g for g in wanted if g not in available]
    if unknown:
        raise PnpError(
            f"unknown game {', '.join(unknown)}; this project has: {', '.join(available) or 'none'}"
            + did_you_mean(unknown[0], available)
        )
    trusted = {slug: ids for slug, ids in (known_ids or {}).items() if slug in available and slug not in wanted}
    problems = Problems(root)
    loaded: dict[str, Game] = {}
    for slug in available:  # all games: ids must be unique across every game
        if slug in trusted:
            continue
        before = len(problems.items)
        game = _load_game(base / slug, slug, icon_names(root, slug, problems), problems)
        if game is not None:
            loaded[slug] = game
            if on_game is not None and slug in wanted and len(problems.items) == before:
                on_game(slug, game)
    if trusted and any(card.id in ids for game in loaded.values() for card in game.cards for ids in trusted.values()):
        return load_sources(root, games)
    _check_unique_ids(loaded.values(), problems)
    problems.raise_if_any()
    return Sources(root, {slug: loaded[slug] for slug in wanted})


def _load_game(folder: Path, slug: str, icons: set[str] | None, problems: Problems) -> Game | None:
    path = folder / GAME_FILE
    data, parsed = load_reported(path, problems)
    if not parsed:
        return None
    if data is None:
        problems.add(path, 1, None, "the game file is empty; it needs name, players, card_size, card_types and decks "
                                    "(`pnp new-game SLUG` writes a working one)")
        return None
    if not isinstance(data, MarkedDict):
        problems.add(path, 1, None, "a game file must be a mapping (name, players, card_size, card_types, decks)")
        return None
    before = len(problems.items)
    if not ID_PATTERN.match(slug):
        problems.add(path, 1, None, f"game folder name {slug!r} is not a slug (lowercase letters, digits, hyphens)")
    for key in data:
        if key not in GAME_KEYS:
            problems.add(path, data.line_of(key), None, f"unknown game field {key!r} (allowed: {', '.join(sorted(GAME_KEYS))})"
                         + did_you_mean(key, GAME_KEYS))
    for key in GAME_REQUIRED:
        if key not in data:
            problems.add(path, data.line, None, f"missing game field {key!r}")
    if len(problems.items) > before:
        return None
    players = _players(data, path, problems)
    size = _card_size(data["card_size"], path, data.line_of("card_size"), problems)
    has_template = _template_finder(folder)
    card_types = _card_types(data["card_types"], path, data.line_of("card_types"), problems, has_template)
    effects_file = vocabulary_file(folder)
    vocabulary = load_vocabulary(effects_file, problems) if effects_file else None
    decks = []
    seen: set[str] = set()  # every card id read, also of cards left out for a problem of their own
    raw_decks = data["decks"]
    if not isinstance(raw_decks, list) or not raw_decks:
        problems.add(path, data.line_of("decks"), None, "decks must be a non-empty list")
        raw_decks = []
    for i, raw in enumerate(raw_decks):
        at = raw_decks.item_lines[i] if hasattr(raw_decks, "item_lines") else data.line_of("decks")
        deck = _load_deck(folder, slug, raw, path, card_types, icons, problems, vocabulary, has_template, at, seen)
        if deck is not None:
            decks.append(deck)
    decks = _with_codes(decks, problems)
    art = load_art(folder, folder.parent.parent, problems)
    decks = [dataclasses.replace(d, cards=tuple(c for c in (with_art(c, art or {}, folder, problems) for c in d.cards)
                                                if c is not None)) for d in decks]
    if art is not None:
        check_art(folder, art, decks, problems, seen)
    # the revision covers everything printed, the code and the illustration included
    decks = [dataclasses.replace(d, cards=tuple(dataclasses.replace(c, revision=card_revision(c.fields)) for c in d.cards))
             for d in decks]
    if not isinstance(data["name"], str):
        problems.add(path, data.line_of("name"), None, f"name must be text{quote_hint(data['name'])}")
        return None
    if size is None or players is None or card_types is None:
        return None
    # cards with problems were left out; the rest still take part in the id check
    extra = {k: _plain(data[k]) for k in ("composition", "notes") if k in data}
    documents = _documents(data.get("documents"), folder, path, data.line_of("documents"), problems, has_template)
    game = Game(GameSlug(slug), data["name"], players, size, card_types, tuple(decks), extra, path, documents,
                effects_file)
    rules = data.get("composition")
    rule_lines = getattr(rules, "item_lines", [])
    left_out = bool(seen - {card.id for deck in decks for card in deck.cards})  # UNREAD and NO_ID count too
    if not left_out:  # with a card left out for its own error, a count would only add a false line
        check_composition(game, rules, problems,
                          lambda i: rule_lines[i] if i is not None and i < len(rule_lines) else data.line_of("composition"))
    return game


def _with_codes(decks: list[Deck], problems: Problems) -> list[Deck]:
    """Every card's short code (its own `code:`, else from its id), unique in the game."""
    taken: dict[str, Card] = {}
    out = []
    for deck in decks:
        cards = []
        for card in deck.cards:
            given = card.fields.get("code")
            if given is not None and not CODE.match(str(given).upper()):
                problems.add(card.path, card.field_lines.get("code", card.line), card.id,
                             f"code {given!r} must be 2 to 5 letters or digits")
                cards.append(card)
                continue
            code = str(given).upper() if given else hashed_code(card.id, deck.id)
            if code in taken and taken[code].id != card.id:  # the same id twice is reported as a duplicate id
                other = taken[code]
                problems.add(card.path, card.field_lines.get("code", card.line), card.id,
                             f"short code {code} is also {other.id}'s ({other.path.name}:{other.line}); "
                             "give one of them its own `code:`")
            taken.setdefault(code, card)
            cards.append(dataclasses.replace(card, fields={**card.fields, "code": code}))
        out.append(dataclasses.replace(deck, cards=tuple(cards)))
    return out


def _documents(raw: Any, folder: Path, path: Path, line: int, problems: Problems,
               missing_template: Callable[[str], str | None] = lambda name: None) -> tuple[Document, ...]:
    """Boards, pages and rule sheets: `documents:` in the game file."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        problems.add(path, line, None, "documents must be a list")
        return ()
    out = []
    for item in raw:
        iline = getattr(item, "line", line)
        if not isinstance(item, MarkedDict):
            problems.add(path, iline, None, "each document must be a mapping with id, kind and name")
            continue
        doc_id = str(item.get("id", ""))
        bad = [k for k in item if k not in DOC_KEYS]
        for k in bad:
            problems.add(path, item.line_of(k), doc_id, f"unknown document field {k!r} (allowed: {', '.join(sorted(DOC_KEYS))})")
        try:
            kind = DocKind(item.get("kind"))
        except ValueError:
            problems.add(path, item.line_of("kind"), doc_id, f"document kind must be one of {', '.join(k.value for k in DocKind)}")
            continue
        if not ID_PATTERN.match(doc_id) or "name" not in item:
            problems.add(path, iline, doc_id, "a document needs a slug id and a name")
            continue
        size = None
        if kind is DocKind.BOARD:
            size = _card_size(item.get("size"), path, item.line_of("size"), problems) if "size" in item else None
            if size is None:
                problems.add(path, iline, doc_id, "a board needs size: {width: MM, height: MM}")
                continue
        if kind is DocKind.RULES:
            template = str(item.get("source", ""))
            if not _inside(folder / template, folder.parent.parent):
                problems.add(path, item.line_of("source"), doc_id, f"rule sheet source {template!r} is outside the "
                                                                   "project; keep it next to the game file")
                continue
            if not (folder / template).is_file():
                problems.add(path, item.line_of("source"), doc_id, f"rule sheet source {template!r} not found next to the game file")
                continue
        else:
            template = str(item.get("template", ""))
            if not template:
                problems.add(path, iline, doc_id, f"a {kind.value} document needs a template")
                continue
            if (why := missing_template(template)) is not None:
                problems.add(path, item.line_of("template"), doc_id, why)
                continue
        data = item.get("data", {})
        if not isinstance(data, dict):
            problems.add(path, item.line_of("data"), doc_id, "data must be a mapping")
            continue
        if bad:
            continue
        out.append(Document(doc_id, kind, str(item["name"]), template, size, _plain(data), path, iline))
    return tuple(out)


def _inside(path: Path, project: Path) -> bool:
    """Whether `path` (links followed) lies inside the project folder."""
    return path.resolve().is_relative_to(project.resolve())


def _players(data: MarkedDict, path: Path, problems: Problems) -> tuple[int, int] | None:
    raw = data["players"]
    line = data.line_of("players")
    if isinstance(raw, dict) and set(raw) == {"min", "max"}:
        lo, hi = raw["min"], raw["max"]
        if all(isinstance(v, int) and not isinstance(v, bool) for v in (lo, hi)) and 1 <= lo <= hi:
            return lo, hi
    problems.add(path, line, None, "players must be {min: N, max: M} with 1 <= N <= M")
    return None


def _card_size(raw: Any, path: Path, line: int, problems: Problems) -> Size | None:
    if isinstance(raw, str):
        if raw in CARD_PRESETS:
            return CARD_PRESETS[raw]
        problems.add(path, line, None, f"unknown card size {raw!r}; presets: {', '.join(CARD_PRESETS)}")
        return None
    if isinstance(raw, dict) and set(raw) == {"width", "height"}:
        w, h = raw["width"], raw["height"]
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) and 10 <= v <= 2000 for v in (w, h)):
            return Size(float(w), float(h), "custom")
    problems.add(path, line, None, "size must be a preset name or {width: MM, height: MM} (10-2000 mm)")
    return None


def _template_finder(folder: Path) -> Callable[[str], str | None]:
    """A check that a template exists: None when it does, else where it was
    looked for. A project without the game's own templates folder is not
    checked here (the referee reads card sources that need no templates);
    drawing a face names a template it cannot find."""
    root = folder.parent.parent / TEMPLATES_DIR
    game = folder.name
    checked = (root / game).is_dir()

    def missing(name: str) -> str | None:
        if not checked or any((root / where / f"{name}{TEMPLATE_SUFFIX}").is_file() for where in (game, "common")):
            return None
        return f"template {name!r} not found (looked for {TEMPLATES_DIR}/{game}/{name}{TEMPLATE_SUFFIX} and {TEMPLATES_DIR}/common/)"

    return missing


def _card_types(raw: Any, path: Path, line: int, problems: Problems,
                missing_template: Callable[[str], str | None] = lambda name: None) -> dict[str, CardType] | None:
    if not isinstance(raw, dict) or not raw:
        problems.add(path, line, None, "card_types must be a mapping of type name to {template, fields}")
        return None
    types: dict[str, CardType] = {}
    for name, spec in raw.items():
        tline = raw.line_of(name) if isinstance(raw, MarkedDict) else line
        if not isinstance(spec, dict) or "template" not in spec:
            problems.add(path, tline, None, f"card type {name!r} needs a template")
            continue
        extra = set(spec) - {"template", "fields"}
        if extra:
            problems.add(path, tline, None, f"card type {name!r} has unknown keys: {', '.join(sorted(extra))}")
        if (why := missing_template(str(spec["template"]))) is not None:
            problems.add(path, spec.line_of("template") if isinstance(spec, MarkedDict) else tline, None,
                         f"card type {name!r}: {why}")
        fields: dict[str, FieldType] = {}
        for fname, ftext in (spec.get("fields") or {}).items():
            if fname in COMMON_FIELDS:
                problems.add(path, tline, None, f"card type {name!r} redefines the common field {fname!r}")
                continue
            try:
                fields[fname] = parse_type(ftext)
            except SchemaError as exc:
                problems.add(path, tline, None, f"card type {name!r} field {fname!r}: {exc}")
        types[name] = CardType(name, str(spec["template"]), fields)
    return types


def _load_deck(folder, slug, raw, game_path, card_types, icons, problems, vocabulary=None,
               missing_template: Callable[[str], str | None] = lambda name: None, at: int = 1,
               seen: set[str] | None = None) -> Deck | None:
    seen = set() if seen is None else seen
    first = len(seen)
    deck = _read_deck(folder, slug, raw, game_path, card_types, icons, problems, vocabulary, missing_template, at, seen)
    if deck is None and len(seen) == first:
        seen.add(UNREAD)  # its cards were never read: art.yaml's ids cannot be checked against them
    return deck


def _read_deck(folder, slug, raw, game_path, card_types, icons, problems, vocabulary, missing_template, at,
               seen: set[str]) -> Deck | None:
    line = getattr(raw, "line", at)
    if not isinstance(raw, dict):
        problems.add(game_path, line, None, "each deck must be a mapping (id, name, file, back)")
        return None
    bad = False
    for key in raw:
        if key not in DECK_KEYS:
            problems.add(game_path, raw.line_of(key), None, f"unknown deck field {key!r} (allowed: {', '.join(sorted(DECK_KEYS))})")
            bad = True
    for key in DECK_REQUIRED:
        if key not in raw:
            problems.add(game_path, line, None, f"deck is missing {key!r}")
            bad = True
    if bad:
        return None
    deck_id = str(raw["id"])
    back = raw["back"]
    if back not in (None, "none") and (why := missing_template(str(back))) is not None:
        problems.add(game_path, raw.line_of("back"), None, f"deck {deck_id!r}: back {why}")
    color = None
    try:
        color = colour(raw.get("color", "#333333"))
    except ColourError as exc:
        problems.add(game_path, raw.line_of("color"), None, f"deck {deck_id!r}: {exc}")
    icon = str(raw.get("icon", "") or "")
    if icon and icons is not None and icon not in icons:
        problems.add(game_path, raw.line_of("icon"), None, f"deck {deck_id!r}: unknown icon {icon!r} (icons.yaml)"
                     + did_you_mean(icon, icons))
    deck_path = folder / str(raw["file"])
    if not _inside(deck_path, folder.parent.parent):
        problems.add(game_path, raw.line_of("file"), None,
                     f"deck {deck_id!r}: file {str(raw['file'])!r} is outside the project; pnp reads deck files "
                     f"only from {SOURCES_DIR}/{slug}/")
        return None
    if not deck_path.is_file():
        problems.add(game_path, raw.line_of("file"), None,
                     f"deck {deck_id!r}: file {str(raw['file'])!r} not found next to {game_path.name}"
                     + did_you_mean(str(raw["file"]), [p.name for p in folder.iterdir() if p.is_file()]))
        return None
    before = len(problems.items)
    if is_spreadsheet(deck_path):
        schemas = {name: {**COMMON_FIELDS, **ctype.fields} for name, ctype in (card_types or {}).items()}
        data = read_deck(deck_path, schemas, problems)
    else:
        data, parsed = load_reported(deck_path, problems)
        if parsed and data is None:
            problems.add(deck_path, 1, None, f"deck {deck_id!r} has no cards: the file is empty (it needs a `cards:` list)")
    if data is None:
        return None
    if not isinstance(data, MarkedDict) or not isinstance(data.get("cards"), list):
        problems.add(deck_path, getattr(data, "line", 1), None, "a deck file must be a mapping with a `cards:` list")
        return None
    if not data["cards"] and len(problems.items) == before:  # rows left out for their problems are not "no cards"
        what = ("no card rows under its header row" if is_spreadsheet(deck_path)
                else "`cards:` is an empty list")
        problems.add(deck_path, data.line_of("cards"), None,
                     f"deck {deck_id!r} has no cards ({what}); a deck that prints nothing is a mistake, "
                     "so nothing was built")
        return None
    for key in data:
        if key != "cards":
            problems.add(deck_path, data.line_of(key), None, f"unknown deck file field {key!r} (only `cards`)")
    cards = []
    card_lines = getattr(data["cards"], "item_lines", [])
    for i, raw_card in enumerate(data["cards"]):
        seen.add(raw_card["id"] if isinstance(raw_card, dict) and isinstance(raw_card.get("id"), str) else NO_ID)
        card = _load_card(raw_card, deck_path, slug, DeckId(raw["id"]), card_types, icons, problems, vocabulary,
                          card_lines[i] if i < len(card_lines) else data.line_of("cards"))
        if card is not None:
            cards.append(card)
    size = None
    if "card_size" in raw:
        size = _card_size(raw["card_size"], game_path, raw.line_of("card_size"), problems)
        if size is None:
            return None
    if color is None:
        return None
    return Deck(DeckId(deck_id), str(raw["name"]), None if back in (None, "none") else str(back),
                color, icon, tuple(cards), deck_path, line, size)


def _load_card(raw, path, game, deck, card_types, icons, problems, vocabulary: Vocabulary | None = None,
               at: int = 1) -> Card | None:
    line = getattr(raw, "line", at)
    if not isinstance(raw, MarkedDict):
        problems.add(path, line, None, "each card must be a mapping with id, name and type")
        return None
    card_id = raw.get("id") if isinstance(raw.get("id"), str) else ""
    before = len(problems.items)

    def bad(key: str | None, message: str) -> None:
        problems.add(path, raw.line_of(key) if key else line, card_id, message)

    if not card_id:
        bad("id" if "id" in raw else None, "card has no id" if "id" not in raw else f"id must be text{quote_hint(raw.get('id'))}")
    elif not ID_PATTERN.match(card_id) or len(card_id) > MAX_ID_LENGTH:
        bad("id", f"id {card_id!r} must be a slug of lowercase letters, digits and single hyphens, at most {MAX_ID_LENGTH} characters")
    ctype = card_types.get(raw.get("type")) if card_types else None
    if "type" not in raw:
        bad(None, "missing field 'type'")
    elif card_types and ctype is None:
        bad("type", f"unknown card type {raw.get('type')!r}; this game has: {', '.join(card_types)}"
            + did_you_mean(str(raw.get("type")), card_types))
    schema = dict(COMMON_FIELDS)
    if ctype:
        schema.update(ctype.fields)
    generated = vocabulary is not None and ctype is not None and "effects" in ctype.fields  # a rules card
    for key, value in raw.items():
        if key not in schema:
            if ctype or not card_types:
                allowed = ", ".join(schema)
                bad(key, f"unknown field {key!r} for a {raw.get('type')} card (allowed: {allowed})"
                    + did_you_mean(key, schema))
            continue
        if generated and key == "effects":
            if value is None:
                continue  # `effects:` left empty: no effects
            check_effects(vocabulary, value, raw.line_of(key), lambda at, message: problems.add(path, at, card_id, message))
            continue
        for message in check_value(schema[key], value):
            bad(key, f"{key} {message}")
    if generated and "text" in raw:
        bad("text", f"hand-written text in a game with {vocabulary.path.name}: the text is printed from `effects` "
                    "(write each rule as an effect; what needs a person's judgement is kind prompt)"
                    + ("" if len(problems.items) > before else would_print(_plain(raw.get("effects")), vocabulary)))
    for key, ftype in schema.items():
        if key not in raw and not ftype.optional:
            bad(None, f"missing field {key!r}")
    for key in TEXT_FIELDS:
        text = raw.get(key)
        if isinstance(text, str) and (why := unclosed_markup(text)) is not None:
            bad(key, f"{key}: {why}")
        if isinstance(text, str) and icons is not None:
            for token in TOKEN_PATTERN.findall(text):
                if token not in icons:
                    bad(key, f"unknown icon token {{{token}}} in {key}; known: {', '.join('{' + i + '}' for i in sorted(icons))}")
    if card_id and len(longest_payload(card_id)) > QR_MAX_CHARS:
        bad("id", "id too long for a version-3 QR code with its copy number; shorten it")
    if len(problems.items) > before:
        return None
    fields = {key: raw.get(key, ftype.default()) for key, ftype in schema.items() if key != "art" or key in raw}
    fields["quantity"] = raw.get("quantity", 1)
    fields = {k: _plain(v) for k, v in fields.items()}
    coverage = Coverage.UNCHECKED if fields.get("text") else Coverage.NONE
    if generated:
        if not vocabulary.sound:
            return None  # effects.yaml has problems (reported there): no text can be trusted
        coverage = generate_text(fields, vocabulary, lambda text: _unknown_icons(text, icons),
                                 lambda message: bad("effects", message))
        if coverage is None:
            return None
    elif vocabulary is not None:
        coverage = Coverage.NONE  # not a rules card (a quick reference, a coin): no effects field
    return Card(CardId(card_id), GameSlug(game), deck, fields["name"], fields["type"], fields["quantity"],
                fields, card_revision(fields), path, line, {k: raw.line_of(k) for k in raw}, coverage)


def _unknown_icons(text: str, icons: set[str] | None) -> list[str]:
    return [] if icons is None else [t for t in TOKEN_PATTERN.findall(text) if t not in icons]


def _check_unique_ids(games, problems: Problems) -> None:
    seen: dict[str, Card] = {}
    for game in games:
        for card in game.cards:
            first = seen.get(card.id)
            if first is None:
                seen[card.id] = card
                continue
            where = f"{problems._display(first.path)}:{first.line}"
            problems.add(card.path, card.line, card.id, f"duplicate id {card.id!r}; first used at {where}")
