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

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from jinja2 import StrictUndefined, TemplateSyntaxError, meta
from pnp.sources.sandbox import BoundedSandbox

from pnp.errors import Problems
from pnp.model import Coverage, FieldType

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
        self.path = path
        self.triggers = triggers
        self.kinds = kinds
        self.kind_lines = lines
        self.env = BoundedSandbox(undefined=StrictUndefined, autoescape=False)
        self.env.globals.update(phrase=self.phrase, outcome_text=self.outcome_text)
        self.env.filters["signed"] = lambda n: f"+{n}" if isinstance(n, int) and n >= 0 else str(n)
        self.templates: dict[str, Any] = {}
        self.broken: set[str] = set()   # kinds with a problem in effects.yaml (reported there)
        self.sound = True               # False once effects.yaml had any problem

    # ------------------------------------------------------------ compiling
    def compile(self, problems: Problems) -> None:
        """Compile every phrase once; syntax errors and unknown variables are problems."""
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
