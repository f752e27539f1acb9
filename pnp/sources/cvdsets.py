"""The colour sets a game's style declares as identities (pnp.sources.cvdcheck).

In a style.yaml (the game's, or the shared one):

    identities:
      event band: {colours: event_colors, named: true}
      prime area: {document: dish.prime_areas, named: true}
      player: {colours: player_colors}

Each key names one member of the set, as messages say it. `colours` is a
style key whose value maps each member's name to a colour, or to a mapping
with `hex` or `color` (a colour) and perhaps `icon`. `document: DOC.KEY` is a
list of `{name, color}` in the data of the game's document DOC. `cards:
DECK.FIELD` is each card of deck DECK, by its id, in the colour its field
FIELD gives (Debate's markers). `named: true`
says each member's name (or label) is printed beside its colour, so the
words tell them apart where the colours do not.

A declaration that does not read is one problem at its line, never a crash.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from pnp.errors import Problems
from pnp.model import Game
from pnp.sources.colours import ColourError, colour
from pnp.sources.cvdcheck import ColourSet, Member
from pnp.sources.yamlio import YamlSyntaxError, load_marked

KEY = "identities"
SPEC_KEYS = {"colours", "document", "cards", "named"}
SOURCES = ("colours", "document", "cards")


def style_sets(game: Game, style: dict[str, Any], files: tuple[Path, ...], problems: Problems) -> list[ColourSet]:
    """The sets the style declares, read from `style` (the merged style) with
    lines from `files` (the style files, the game's last)."""
    declared = style.get(KEY)
    if declared is None:
        return []
    path, lines = _declaring(files)
    if not isinstance(declared, dict):
        problems.add(path, lines.get(KEY), None, f"{KEY}: write one set per key, e.g. "
                     "`event band: {colours: event_colors, named: true}`")
        return []
    out = []
    for what, spec in declared.items():
        line = lines.get(f"{KEY}.{what}") or lines.get(KEY)
        found = _one(game, style, str(what), spec, path, line, problems)
        if found is not None and len(found.members) > 1:
            out.append(found)
    return out


def _one(game: Game, style: dict[str, Any], what: str, spec: Any, path: Path, line: int | None,
         problems: Problems) -> ColourSet | None:
    def bad(text: str) -> None:
        problems.add(path, line, None, f"{KEY}: {what}: {text}")

    if not isinstance(spec, dict) or not spec.keys() <= SPEC_KEYS or sum(k in spec for k in SOURCES) != 1:
        bad("give one of `colours: STYLE-KEY`, `document: DOC.KEY` or `cards: DECK.FIELD`, and perhaps `named: true`")
        return None
    named = spec.get("named", False)
    if not isinstance(named, bool):
        bad(f"`named` is true or false, not {named!r}")
        return None
    if "colours" in spec:
        source = style.get(str(spec["colours"]))
        if not isinstance(source, dict) or not source:
            bad(f"style key {spec['colours']!r} is not a mapping of names to colours")
            return None
        entries = list(source.items())
    elif "cards" in spec:
        deck_id, _, key = str(spec["cards"]).partition(".")
        deck = next((d for d in game.decks if d.id == deck_id), None)
        if deck is None or not key:
            bad(f"cards {spec['cards']!r}: write DECK.FIELD, DECK one of {', '.join(d.id for d in game.decks)}")
            return None
        entries = [(c.id, c.fields.get(key)) for c in deck.cards]
    else:
        doc_id, _, key = str(spec["document"]).partition(".")
        doc = next((d for d in game.documents if d.id == doc_id), None)
        listed = doc.data.get(key) if doc is not None else None
        if not isinstance(listed, list) or not all(isinstance(e, dict) and "name" in e for e in listed):
            bad(f"document {spec['document']!r}: no list of {{name, color}} there")
            return None
        entries = [(e["name"], e) for e in listed]
    members = []
    for name, value in entries:
        raw = value.get("hex") or value.get("color") if isinstance(value, dict) else value
        try:
            hexed = colour(raw)
        except ColourError as exc:
            bad(f"{name}: {exc}")
            return None
        icon = str(value.get("icon") or "") if isinstance(value, dict) else ""
        members.append(Member(str(name), hexed, icon, named, line or 0))
    return ColourSet(game.slug, what, path, tuple(members))


def _declaring(files: tuple[Path, ...]) -> tuple[Path, dict[str, int]]:
    """The last style file that declares identities, and the lines of its keys."""
    for path in reversed(files):
        try:
            data, _ = load_marked(path)
        except (OSError, YamlSyntaxError):  # it loaded once already; a line is only a nicety here
            continue
        if isinstance(data, dict) and KEY in data:
            block = data[KEY]
            lines = {KEY: data.line_of(KEY) if hasattr(data, "line_of") else 0}
            if isinstance(block, dict) and hasattr(block, "line_of"):
                lines.update({f"{KEY}.{k}": block.line_of(k) for k in block})
            return path, lines
    return (files[-1] if files else Path("style.yaml")), {}
