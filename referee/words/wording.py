"""An action in words: the first line of an echo and a row of the log.

Each game gives a phrase per action (`PHRASES` in its `phrases.py`): a
template such as "{player} attacks {target}", a list of templates (the first
whose every field is present wins), or a function of `Words`. Fields are the
action's arguments, plus `who`, the player acting. A card id reads as the
card's printed name; a game's `label(state, key, value)` names the things on
its table (Culture War's `#6` reads "ann's #6 Window Smasher", Divide &
Conquer's `g1` "Prestige Media Conglomerate (g1)"). Arguments a phrase does
not use are added after it as `key=value`, so nothing the scorekeeper typed
is lost.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence, Union

from referee.model import State

Label = Callable[[State, str, Any], "str | None"]


@dataclass(frozen=True)
class Words:
    """An action's arguments as words, for a phrase function."""

    args: Mapping[str, Any]
    who: str
    names: Mapping[str, str]  # card id -> printed name
    state: State | None = None  # the table before the action, when known
    labeller: Label | None = None

    def has(self, key: str) -> bool:
        value = self.args.get(key)
        return value is not None and value != [] and value != ""

    def __getitem__(self, key: str) -> str:
        if key == "who":
            return self.who or "the player"
        return self.word(key, self.args.get(key))

    def word(self, key: str, value: Any) -> str:
        if isinstance(value, (list, tuple)):
            return ", ".join(self.word(key, v) for v in value)
        text = str(value)
        if text in self.names:
            return self.names[text]
        if self.labeller is not None and self.state is not None:
            named = self.labeller(self.state, key, value)
            if named:
                return named
        return text


Phrase = Union[str, Sequence[str], Callable[[Words], str]]


_FIELD = re.compile(r"\{(\w+)\}")


def fields_of(template: str) -> list[str]:
    return _FIELD.findall(template)


def phrase(table: Mapping[str, Phrase], action: str, words: Words) -> tuple[str, set[str]] | None:
    """The action's phrase and the argument names it used, or None when the
    game has no phrase for it."""
    entry = table.get(action)
    if entry is None:
        return None
    if callable(entry):
        return entry(words), set(words.args)
    for template in ([entry] if isinstance(entry, str) else entry):
        used = fields_of(template)
        if all(name == "who" or words.has(name) for name in used):
            return template.format_map(words), set(used)
    return None
