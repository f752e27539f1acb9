"""Field types declared as data in a game file, and checking values against them.

A type is written as a short string: `int`, `int>=0`, `str`, `bool`,
`enum(a, b)` (or `[a, b]`), `list[T]`, `effects` or `outcomes`; a trailing
`?` makes it optional. In a game's effects.yaml a YAML list of words is an
enum too (see `parse_param_type`). `effects` and `outcomes` values are checked
against a game's effect vocabulary by pnp.sources.effecttext when it has one.
"""
from __future__ import annotations

import datetime
import re
from typing import Any

from pnp.model import FieldType

EFFECT_STATS = (
    "atk def life capital production capacity cost influence strength defence "
    "attack crowd fortitude"
).split()
EFFECT_TARGETS = (
    "self attached own-units enemy-units all-units owner opponent all-opponents "
    "all-players target-unit target-player target-group"
).split()
EFFECT_WHEN = (
    "on-play start-of-turn on-kill on-death on-attack on-defend while-in-play end-of-round"
).split()
EFFECT_DURATION = "permanent turn battle round".split()


class SchemaError(Exception):
    """A type string that cannot be read."""


_ENUM = re.compile(r"^enum\((.*)\)$")
_LIST = re.compile(r"^list\[(.*)\]$")
_INT = re.compile(r"^int(?:>=(-?\d+))?$")
_WORDS = re.compile(r"^\[(.*)\]$")


def parse_type(text: str) -> FieldType:
    spec = str(text).strip()
    optional = spec.endswith("?")
    if optional:
        spec = spec[:-1].strip()
    if m := _INT.match(spec):
        return FieldType("int", optional, minimum=int(m.group(1)) if m.group(1) else None)
    if spec in ("str", "bool", "effects", "outcomes"):
        return FieldType(spec, optional)
    if m := _ENUM.match(spec) or _WORDS.match(spec):
        choices = tuple(c.strip() for c in m.group(1).split(",") if c.strip())
        if not choices:
            raise SchemaError(f"enum with no choices: {text!r}")
        return FieldType("enum", optional, choices=choices)
    if m := _LIST.match(spec):
        return FieldType("list", optional, item=parse_type(m.group(1)))
    raise SchemaError(f"unknown field type {text!r} (use int, str, bool, enum(...), list[...], effects, outcomes)")


def parse_param_type(raw: Any) -> FieldType:
    """An effect parameter's type: a type string, or a YAML list of allowed words (required)."""
    if isinstance(raw, list):
        words = tuple(str(w) for w in raw)
        if not words:
            raise SchemaError("a list of allowed words cannot be empty")
        return FieldType("enum", False, choices=words)
    if not isinstance(raw, str):
        raise SchemaError(f"a parameter type must be a type string or a list of words, got {raw!r}")
    return parse_type(raw)


def check_value(ftype: FieldType, value: Any) -> list[str]:
    """Messages describing why `value` does not fit `ftype` (empty when it fits)."""
    if value is None:
        return [] if ftype.optional else ["is empty"]
    kind = ftype.kind
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            return [f"must be {ftype.describe()}, got {value!r}"]
        if ftype.minimum is not None and value < ftype.minimum:
            return [f"must be {ftype.describe()}, got {value}"]
        return []
    if kind == "str":
        return [] if isinstance(value, str) else [f"must be text, got {_shown(value)}{quote_hint(value)}"]
    if kind == "bool":
        return [] if isinstance(value, bool) else [f"must be true or false, got {value!r}"]
    if kind == "enum":
        return [] if value in ftype.choices else [f"must be {ftype.describe()}, got {_shown(value)}{quote_hint(value)}"]
    if kind == "list":
        if not isinstance(value, list):
            return [f"must be {ftype.describe()}, got {value!r}"]
        out = []
        for i, item in enumerate(value):
            out += [f"item {i + 1} {m}" for m in check_value(ftype.item, item)]
        return out
    if kind == "effects":
        return _check_effects(value)
    if kind == "outcomes":
        return [] if isinstance(value, dict) else [f"must be {ftype.describe()}, got {value!r}"]
    return [f"has unknown type {kind}"]


def _shown(value: Any) -> str:
    if isinstance(value, (datetime.date, datetime.time)):
        return str(value)
    return repr(value)


def quote_hint(value: Any) -> str:
    """Why YAML gave a non-text value where text was meant, and the fix: quote it.
    Empty for a value that is not one of YAML's surprises."""
    if isinstance(value, bool):
        return (" (YAML reads an unquoted yes, no, on, off, true or false as true or false; "
                "put the word in quotes: \"Yes\")")
    if isinstance(value, (int, float)):
        return (" (YAML reads it as a number; put it in quotes to keep it as written, \"1984\"; "
                "an unquoted 12:30 is a number too)")
    if isinstance(value, (datetime.date, datetime.time)):
        return " (YAML reads it as a date; put it in quotes: \"2026-05-06\")"
    if isinstance(value, dict):
        return (" (YAML reads an unquoted `word: more` or {...} as a mapping; put the whole text in quotes: "
                "text: \"Note: ...\")")
    if isinstance(value, list):
        return " (YAML reads an unquoted [...] as a list; put the whole text in quotes)"
    return ""


_EFFECT_KEYS = {
    "stat": EFFECT_STATS,
    "target": EFFECT_TARGETS,
    "when": EFFECT_WHEN,
    "duration": EFFECT_DURATION,
}


def _check_effects(value: Any) -> list[str]:
    if not isinstance(value, list):
        return [f"must be a list of effects, got {value!r}"]
    out = []
    for i, effect in enumerate(value, 1):
        if not isinstance(effect, dict):
            out.append(f"effect {i} must be a mapping like {{stat: def, amount: 2, target: attached}}")
            continue
        for key in effect:
            if key not in (*_EFFECT_KEYS, "amount"):
                out.append(f"effect {i} has unknown key {key!r}")
        for key in ("stat", "amount", "target"):
            if key not in effect:
                out.append(f"effect {i} is missing {key!r}")
        amount = effect.get("amount")
        if "amount" in effect and (isinstance(amount, bool) or not isinstance(amount, int)):
            out.append(f"effect {i} amount must be a whole number, got {amount!r}")
        for key, allowed in _EFFECT_KEYS.items():
            if key in effect and effect[key] not in allowed:
                out.append(f"effect {i} {key} must be one of {', '.join(allowed)}; got {effect[key]!r}")
    return out
