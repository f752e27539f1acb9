"""Reading a game's effects.yaml and checking a card's effects against it.

Every problem is reported, each at its own line: in effects.yaml (a kind
without a phrase or `applied`, a bad param type, a phrase that does not
compile or uses an unknown variable) or in the deck file (an unknown kind,
trigger or param, a missing or mistyped param, a bad die face). Also the
glue the sources stage uses to fill in a rules card's generated text.
"""
from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any, Callable

from pnp.errors import Problems
from pnp.model import Coverage, FieldType
from pnp.sources.effecttext import (
    DEFAULT_WHEN,
    EFFECTS_FILE,
    FACES,
    HELPERS,
    KIND_KEYS,
    RESERVED,
    TOP_KEYS,
    EffectKind,
    EffectTextError,
    Report,
    Vocabulary,
)
from pnp.sources.schema import SchemaError, check_value, parse_param_type
from pnp.sources.yamlio import MarkedDict, load_reported


def check_effects(vocabulary: Vocabulary, effects: Any, line: int, report: Report, label: str = "",
              nested: bool = False) -> None:
    """Report every problem of an effects list (recursively), each at its own line."""
    if not isinstance(effects, list):
        report(line, f"{label or 'effects'} must be a list of effects like {{kind: K, ...}}, got {effects!r}")
        return
    item_lines = getattr(effects, "item_lines", [])
    for i, effect in enumerate(effects):
        eline = item_lines[i] if i < len(item_lines) else line
        where = f"{label}effect {i + 1}"
        if not isinstance(effect, dict):
            report(eline, f"{where} must be a mapping like {{kind: K, ...}}, got {effect!r}")
            continue
        at = effect.line_of if isinstance(effect, MarkedDict) else (lambda key, _l=eline: _l)
        name = effect.get("kind")
        if "kind" not in effect:
            report(eline, f"{where} has no kind (this game's kinds: {', '.join(vocabulary.kinds)})")
            continue
        kind = vocabulary.kinds.get(name) if isinstance(name, str) else None
        if kind is None and name in vocabulary.broken:
            continue  # its problem is reported in effects.yaml
        if kind is None:
            close = difflib.get_close_matches(str(name), list(vocabulary.kinds), n=3)
            hint = f"did you mean {' or '.join(close)}?" if close else f"this game's kinds: {', '.join(vocabulary.kinds)}"
            report(at("kind"), f"{where} has unknown kind {name!r} ({hint})")
            continue
        where = f"{where} ({name})"
        if "when" in effect:
            if nested:
                report(at("when"), f"{where}: an effect inside another takes its moment; remove `when`")
            elif effect["when"] not in vocabulary.triggers:
                report(at("when"), f"{where}: unknown trigger {effect['when']!r} (triggers: {', '.join(vocabulary.triggers)})")
        elif not nested and DEFAULT_WHEN not in vocabulary.triggers:
            report(eline, f"{where}: no `when`, and effects.yaml has no trigger {DEFAULT_WHEN!r} for the default")
        for key in effect:
            if key not in RESERVED and key not in kind.params:
                report(at(key), f"{where}: unknown param {key!r} "
                                f"({name} takes: {', '.join(kind.params) or 'nothing'})")
        for key, ftype in kind.params.items():
            if key not in effect:
                if not ftype.optional:
                    report(eline, f"{where}: missing param {key!r} ({ftype.describe()})")
                continue
            value = effect[key]
            if value is None and ftype.optional:
                continue
            if ftype.kind == "effects":
                check_effects(vocabulary, value, at(key), report, f"{where} {key}: ", nested=True)
            elif ftype.kind == "outcomes":
                _check_outcomes(vocabulary, value, at(key), report, f"{where} {key}")
            else:
                for message in check_value(ftype, value):
                    report(at(key), f"{where}: {key} {message}")

def _check_outcomes(vocabulary: Vocabulary, value: Any, line: int, report: Report, where: str) -> None:
    if not isinstance(value, dict) or not value:
        report(line, f"{where} must be a mapping of die faces (\"1\", \"5-6\", \"4+\") to lists of effects")
        return
    for face, effects in value.items():
        fline = value.line_of(face) if isinstance(value, MarkedDict) else line
        m = FACES.match(str(face))
        if not m or (m.group(2) and int(m.group(2)) >= int(m.group(3))):
            report(fline, f"{where}: {face!r} is not a die face or range (\"1\", \"5-6\", \"4+\")")
            continue
        check_effects(vocabulary, effects, fline, report, f"{where} on {face}: ", nested=True)

# ------------------------------------------------------------ plain data


def vocabulary_file(folder: Path) -> Path | None:
    path = folder / EFFECTS_FILE
    return path if path.is_file() else None


def load_vocabulary(path: Path, problems: Problems) -> Vocabulary | None:
    """Read and compile effects.yaml; every problem in it is reported."""
    data, parsed = load_reported(path, problems)
    if not parsed:
        return None
    if not isinstance(data, MarkedDict):
        problems.add(path, 1, None, "effects.yaml must be a mapping with `triggers` and `kinds`")
        return None
    for key in data:
        if key not in TOP_KEYS:
            problems.add(path, data.line_of(key), None, f"unknown key {key!r} (effects.yaml has: triggers, kinds)")
    triggers_raw, kinds_raw = data.get("triggers"), data.get("kinds")
    triggers: dict[str, str] = {}
    if not isinstance(triggers_raw, dict) or not triggers_raw:
        problems.add(path, data.line_of("triggers"), None, "triggers must be a mapping of trigger name to its opening phrase")
    else:
        for name, words in triggers_raw.items():
            if not isinstance(words, str):
                problems.add(path, triggers_raw.line_of(name), None, f"trigger {name!r}: its phrase must be text (\"\" for none)")
                continue
            triggers[str(name)] = words
    kinds: dict[str, EffectKind] = {}
    lines: dict[str, int] = {}
    broken: set[str] = set()
    before = len(problems.items)
    if not isinstance(kinds_raw, dict) or not kinds_raw:
        problems.add(path, data.line_of("kinds"), None, "kinds must be a mapping of effect kind to {params, phrase, applied}")
        kinds_raw = {}
    for name, spec in kinds_raw.items():
        kind = _kind(path, str(name), spec, kinds_raw.line_of(name), problems)
        if kind is None:
            broken.add(str(name))
            continue
        kinds[kind.name] = kind
        lines[kind.name] = kinds_raw.line_of(name)
    vocabulary = Vocabulary(path, triggers, kinds, lines)
    vocabulary.compile(problems)
    vocabulary.broken = broken | (set(kinds) - set(vocabulary.templates))
    vocabulary.sound = len(problems.items) == before
    return vocabulary


def _kind(path: Path, name: str, spec: Any, line: int, problems: Problems) -> EffectKind | None:
    if not isinstance(spec, MarkedDict):
        problems.add(path, line, None, f"kind {name!r} must be a mapping with params, phrase and applied")
        return None
    before = len(problems.items)
    for key in spec:
        if key not in KIND_KEYS:
            problems.add(path, spec.line_of(key), None, f"kind {name!r}: unknown key {key!r} (allowed: {', '.join(KIND_KEYS)})")
    if not isinstance(spec.get("phrase"), str):
        problems.add(path, spec.line_of("phrase"), None, f"kind {name!r} needs a phrase (a Jinja template over its params)")
    if not isinstance(spec.get("applied"), bool):
        problems.add(path, spec.line_of("applied"), None,
                     f"kind {name!r} needs applied: true (the referee applies it) or false (a person acts; the referee prompts)")
    raw_params = spec.get("params") or {}
    params: dict[str, FieldType] = {}
    if not isinstance(raw_params, dict):
        problems.add(path, spec.line_of("params"), None, f"kind {name!r}: params must be a mapping of name to type")
        raw_params = {}
    for pname, ptype in raw_params.items():
        pline = raw_params.line_of(pname) if isinstance(raw_params, MarkedDict) else line
        if pname in RESERVED or pname in HELPERS:
            problems.add(path, pline, None, f"kind {name!r}: {pname!r} is reserved and cannot be a param")
            continue
        try:
            params[str(pname)] = parse_param_type(ptype)
        except SchemaError as exc:
            problems.add(path, pline, None, f"kind {name!r} param {pname!r}: {exc}")
    if len(problems.items) > before:
        return None
    return EffectKind(name, params, spec["phrase"], spec["applied"], spec.line_of("phrase"))


def generate_text(fields: dict[str, Any], vocabulary: Vocabulary, unknown_icons: Callable[[str], list[str]],
                  bad: Callable[[str], None]) -> Coverage | None:
    """Fill in a rules card's `text` from its `effects`; its coverage, or None after a problem."""
    effects = vocabulary.normalise(fields.get("effects") or [])
    try:
        text = vocabulary.text(effects)
    except EffectTextError as exc:
        bad(str(exc))
        return None
    unknown = unknown_icons(text)
    if unknown:
        bad(f"the generated text has unknown icon token{'s' if len(unknown) > 1 else ''} "
            f"{', '.join('{' + t + '}' for t in unknown)}: {text!r}")
        return None
    fields["effects"] = effects
    fields["text"] = text or None
    return vocabulary.coverage(effects)


def would_print(effects: Any, vocabulary: Vocabulary) -> str:
    """While converting a card: what its effects print, to compare with its hand-written text."""
    if not vocabulary.sound or not isinstance(effects, list):
        return ""
    try:
        return f"; its effects print: {vocabulary.text(vocabulary.normalise(effects)) or '(nothing)'!r}"
    except (EffectTextError, KeyError, TypeError, AttributeError):
        return ""
