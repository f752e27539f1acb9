"""A game's effect vocabulary (`card_sources/<game>/effects.yaml`) and the
rules text generated from a card's effects, so the printed text and what the
referee applies come from one source.

The vocabulary names the triggers (when an effect happens: a phrase opening
the sentence) and the effect kinds (their parameters with types, a Jinja
phrase over those parameters, and whether the referee applies them or
prompts a person). Phrases are compiled once per game per read, sandboxed,
with StrictUndefined. Imports Jinja only when a game has a vocabulary.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from pnp.errors import Problems
from pnp.model import Coverage
from pnp.schema import FieldType, SchemaError, check_value, parse_param_type
from pnp.yamlio import MarkedDict, YamlSyntaxError, load_marked

EFFECTS_FILE = "effects.yaml"
DEFAULT_WHEN = "while-in-play"
RESERVED = ("kind", "when")
HELPERS = ("phrase", "outcome_text")
KIND_KEYS = ("params", "phrase", "applied", "notes")
TOP_KEYS = ("triggers", "kinds")
FACES = re.compile(r"^(\d+)$|^(\d+)-(\d+)$|^(\d+)\+$")
SENTENCE_END = (".", ":", "!", "?")

Report = Callable[[int, str], None]  # (line, message) about the card being checked


class EffectTextError(Exception):
    """A phrase failed to render (a message naming effects.yaml, its line and the kind)."""


@dataclass(frozen=True)
class EffectKind:
    name: str
    params: dict[str, FieldType]
    phrase: str
    applied: bool
    line: int          # where the phrase stands in effects.yaml


def face_words(key: str) -> str:
    """'1' -> '1', '5-6' -> '5 or 6', '2-4' -> '2 to 4', '4+' -> '4 or more'."""
    m = FACES.match(key)
    if not m:
        return key
    one, lo, hi, up = m.groups()
    if one:
        return one
    if up:
        return f"{up} or more"
    return f"{lo} or {hi}" if int(hi) == int(lo) + 1 else f"{lo} to {hi}"


def join_and(parts: Iterable[str]) -> str:
    items = [p for p in parts if p]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def capitalise(text: str) -> str:
    """Upper-case the first letter, past leading bold/italic markers (never inside an {icon})."""
    i = 0
    while i < len(text) and text[i] in "*_":
        i += 1
    if i < len(text) and text[i].islower():
        return text[:i] + text[i].upper() + text[i + 1:]
    return text


def is_sentence(phrase: str) -> bool:
    """A phrase that is a whole sentence of its own: it ends one, or opens with a **Keyword**."""
    return phrase.rstrip().endswith(SENTENCE_END) or phrase.startswith("**")


def _article(words: str) -> str:
    return "an" if re.match(r"^(8|11|18)\b", words) else "a"


class Vocabulary:
    """One game's triggers and effect kinds, with their phrases compiled."""

    def __init__(self, path: Path, triggers: dict[str, str], kinds: dict[str, EffectKind],
                 lines: dict[str, int]):
        from jinja2 import StrictUndefined
        from jinja2.sandbox import SandboxedEnvironment

        self.path = path
        self.triggers = triggers
        self.kinds = kinds
        self.kind_lines = lines
        self.env = SandboxedEnvironment(undefined=StrictUndefined, autoescape=False)
        self.env.globals.update(phrase=self.phrase, outcome_text=self.outcome_text)
        self.env.filters["signed"] = lambda n: f"+{n}" if isinstance(n, int) and n >= 0 else str(n)
        self.templates: dict[str, Any] = {}
        self.broken: set[str] = set()   # kinds with a problem in effects.yaml (reported there)
        self.sound = True               # False once effects.yaml had any problem

    # ------------------------------------------------------------ compiling
    def compile(self, problems: Problems) -> None:
        """Compile every phrase once; syntax errors and unknown variables are problems."""
        from jinja2 import TemplateSyntaxError, meta

        known = set(self.env.globals)
        for kind in self.kinds.values():
            try:
                ast = self.env.parse(kind.phrase)
            except TemplateSyntaxError as exc:
                problems.add(self.path, kind.line, None, f"kind {kind.name!r}: phrase is not a valid template: {exc.message}")
                continue
            unknown = sorted(meta.find_undeclared_variables(ast) - set(kind.params) - known)
            if unknown:
                problems.add(self.path, kind.line, None,
                             f"kind {kind.name!r}: phrase uses unknown variable{'s' if len(unknown) > 1 else ''} "
                             f"{', '.join(unknown)} (its params: {', '.join(kind.params) or 'none'})")
                continue
            code = self.env.compile(ast, kind.name, str(self.path))
            self.templates[kind.name] = self.env.template_class.from_code(self.env, code, self.env.make_globals(None))

    # ------------------------------------------------------------ checking
    def check(self, effects: Any, line: int, report: Report, label: str = "", nested: bool = False) -> None:
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
                report(eline, f"{where} has no kind (this game's kinds: {', '.join(self.kinds)})")
                continue
            kind = self.kinds.get(name) if isinstance(name, str) else None
            if kind is None and name in self.broken:
                continue  # its problem is reported in effects.yaml
            if kind is None:
                close = difflib.get_close_matches(str(name), list(self.kinds), n=3)
                hint = f"did you mean {' or '.join(close)}?" if close else f"this game's kinds: {', '.join(self.kinds)}"
                report(at("kind"), f"{where} has unknown kind {name!r} ({hint})")
                continue
            where = f"{where} ({name})"
            if "when" in effect:
                if nested:
                    report(at("when"), f"{where}: an effect inside another takes its moment; remove `when`")
                elif effect["when"] not in self.triggers:
                    report(at("when"), f"{where}: unknown trigger {effect['when']!r} (triggers: {', '.join(self.triggers)})")
            elif not nested and DEFAULT_WHEN not in self.triggers:
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
                    self.check(value, at(key), report, f"{where} {key}: ", nested=True)
                elif ftype.kind == "outcomes":
                    self._check_outcomes(value, at(key), report, f"{where} {key}")
                else:
                    for message in check_value(ftype, value):
                        report(at(key), f"{where}: {key} {message}")

    def _check_outcomes(self, value: Any, line: int, report: Report, where: str) -> None:
        if not isinstance(value, dict) or not value:
            report(line, f"{where} must be a mapping of die faces (\"1\", \"5-6\", \"4+\") to lists of effects")
            return
        for face, effects in value.items():
            fline = value.line_of(face) if isinstance(value, MarkedDict) else line
            m = FACES.match(str(face))
            if not m or (m.group(2) and int(m.group(2)) >= int(m.group(3))):
                report(fline, f"{where}: {face!r} is not a die face or range (\"1\", \"5-6\", \"4+\")")
                continue
            self.check(effects, fline, report, f"{where} on {face}: ", nested=True)

    # ------------------------------------------------------------ plain data
    def normalise(self, effects: list) -> list:
        """Plain data with outcome faces as strings (YAML reads `1:` as a number)."""
        out = []
        for effect in effects:
            kind = self.kinds[effect["kind"]]
            plain = dict(effect)
            for key, ftype in kind.params.items():
                value = plain.get(key)
                if value is None:
                    continue
                if ftype.kind == "effects":
                    plain[key] = self.normalise(value)
                elif ftype.kind == "outcomes":
                    plain[key] = {str(face): self.normalise(list(v)) for face, v in value.items()}
            out.append(plain)
        return out

    # ------------------------------------------------------------ rendering
    def render(self, effect: dict) -> str:
        """One effect's phrase."""
        kind = self.kinds[effect["kind"]]
        template = self.templates.get(kind.name)
        if template is None:
            raise EffectTextError(f"{self.path.name}:{kind.line}: kind {kind.name!r} has no usable phrase")
        context = {key: effect.get(key) for key in kind.params}
        try:
            return template.render(context).strip()
        except EffectTextError:
            raise
        except Exception as exc:  # a phrase that fails on these params: named, never a traceback
            raise EffectTextError(f"the phrase of kind {kind.name!r} ({self.path.name}:{kind.line}) "
                                  f"failed: {type(exc).__name__}: {exc}") from None

    def phrase(self, effects: Any) -> str:
        """A nested list as one clause: 'destroy this and lose 1 {life}' (for phrase templates)."""
        return join_and(self.render(e) for e in effects or ())

    def outcome_text(self, outcomes: Any) -> str:
        """'on a 1, destroy this; on a 5 or 6, gain 1 {capital}' (for phrase templates)."""
        parts = []
        for face, effects in (outcomes or {}).items():
            words = face_words(str(face))
            parts.append(f"on {_article(words)} {words}, {self.phrase(effects) or 'nothing happens'}")
        return "; ".join(parts)

    def text(self, effects: list) -> str:
        """The printed rules text: effects in order; consecutive effects with the
        same `when` share one sentence (trigger phrase + their phrases)."""
        sentences: list[str] = []
        group: list[str] = []
        group_when: str | None = None

        def flush() -> None:
            if group:
                body = capitalise(self.triggers.get(group_when, "") + join_and(group))
                sentences.append(body if body.endswith(SENTENCE_END) else body + ".")
                group.clear()

        for effect in effects:
            words = self.render(effect)
            if not words:
                continue
            when = effect.get("when", DEFAULT_WHEN)
            if is_sentence(words):
                flush()
                group_when = None
                sentences.append(capitalise(self.triggers.get(when, "") + words))
            elif when == group_when:
                group.append(words)
            else:
                flush()
                group_when = when
                group.append(words)
        flush()
        return " ".join(sentences)

    def coverage(self, effects: list) -> Coverage:
        if not effects:
            return Coverage.NONE
        return Coverage.PROMPT if self._prompted(effects) else Coverage.FULL

    def _prompted(self, effects: Iterable[dict]) -> bool:
        for effect in effects:
            kind = self.kinds[effect["kind"]]
            if not kind.applied:
                return True
            for key, ftype in kind.params.items():
                value = effect.get(key)
                if value is None:
                    continue
                if ftype.kind == "effects" and self._prompted(value):
                    return True
                if ftype.kind == "outcomes" and any(self._prompted(v) for v in value.values()):
                    return True
        return False


def vocabulary_file(folder: Path) -> Path | None:
    path = folder / EFFECTS_FILE
    return path if path.is_file() else None


def load_vocabulary(path: Path, problems: Problems) -> Vocabulary | None:
    """Read and compile effects.yaml; every problem in it is reported."""
    try:
        data, duplicates = load_marked(path)
    except YamlSyntaxError as exc:
        problems.add(path, exc.line, None, exc.message)
        return None
    for line, key in duplicates:
        problems.add(path, line, None, f"key {key!r} appears twice in one mapping")
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
