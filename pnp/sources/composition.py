"""Deck composition rules, written as data in a game file and checked at build time.

    composition:
      - rule: Each faction deck has at least 40 cards   # said when it is broken
        count: copies          # copies (default), cards (distinct ids) or "distinct FIELD"
        where: {type: unit, traits: cyber}              # optional filter
        min: 40                # and/or max, or exactly
        each: deck             # deck (default) or game (all decks together)

A `where` value matches a field equal to it, or a list field containing it;
a list of values matches any of them. A list of effects (`effects:` in a game
with effects.yaml) matches by its effects' kinds: `where: {effects: [draw]}`.
The rules are checked only once every card of the game has been read without
a problem of its own (pnp.sources.loader): a card left out would make a count
fall short and add a false line beside the card's real error.
"""
from __future__ import annotations

from typing import Any

from pnp.errors import Problems
from pnp.model import Card, Game

RULE_KEYS = {"rule", "count", "where", "min", "max", "exactly", "each", "decks"}


def _matches(card: Card, where: dict[str, Any]) -> bool:
    for key, wanted in where.items():
        value = card.fields.get(key)
        options = wanted if isinstance(wanted, list) else [wanted]
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            value = [v.get("kind") for v in value]  # an effects list matches by its effects' kinds
        if isinstance(value, list):
            if not any(o in value for o in options):
                return False
        elif value not in options:
            return False
    return True


def _count(cards: list[Card], how: str) -> int:
    if how == "copies":
        return sum(c.quantity for c in cards)
    if how == "cards":
        return len({c.id for c in cards})
    field = how.split(None, 1)[1]
    values = set()
    for c in cards:
        v = c.fields.get(field)
        values.update(v if isinstance(v, list) else [v])
    values.discard(None)
    return len(values)


def rule_errors(raw: Any) -> list[str]:
    if not isinstance(raw, dict) or "rule" not in raw:
        return ["a composition rule must be a mapping with a `rule:` sentence"]
    out = [f"unknown key {k!r} in composition rule" for k in raw if k not in RULE_KEYS]
    how = raw.get("count", "copies")
    if not (how in ("copies", "cards") or (isinstance(how, str) and how.startswith("distinct "))):
        out.append(f"count must be copies, cards or 'distinct FIELD', got {how!r}")
    if raw.get("each", "deck") not in ("deck", "game"):
        out.append("each must be deck or game")
    bounds = [k for k in ("min", "max", "exactly") if k in raw]
    if not bounds or any(not isinstance(raw[k], int) or isinstance(raw[k], bool) for k in bounds):
        out.append("a composition rule needs whole-number min, max or exactly")
    if "where" in raw and not isinstance(raw["where"], dict):
        out.append("where must be a mapping of field: value")
    return out


def check_composition(game: Game, rules: Any, problems: Problems, line_of) -> None:
    """Report every broken rule, naming the rule, the deck and the count found."""
    if rules is None:
        return
    if not isinstance(rules, list):
        problems.add(game.path, line_of(None), None, "composition must be a list of rules")
        return
    for i, raw in enumerate(rules):
        line = line_of(i)
        errors = rule_errors(raw)
        for e in errors:
            problems.add(game.path, line, None, e)
        if errors:
            continue
        where = raw.get("where", {})
        how = raw.get("count", "copies")
        decks = [d for d in game.decks if "decks" not in raw or d.id in raw["decks"]]
        groups = [(f"deck {d.id}", list(d.cards)) for d in decks] if raw.get("each", "deck") == "deck" \
            else [(f"game {game.slug}", [c for d in decks for c in d.cards])]
        for label, cards in groups:
            n = _count([c for c in cards if _matches(c, where)], how)
            lo, hi = raw.get("min"), raw.get("max")
            if "exactly" in raw:
                lo = hi = raw["exactly"]
            if (lo is not None and n < lo) or (hi is not None and n > hi):
                want = f"exactly {lo}" if lo == hi else " and ".join(
                    p for p in ((f"at least {lo}" if lo is not None else ""), (f"at most {hi}" if hi is not None else "")) if p)
                problems.add(game.path, line, label.split()[-1],
                             f"composition rule broken in {label}: {raw['rule']} (wants {want} {how}, has {n})")
