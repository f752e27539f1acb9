"""A game's own fields in words, one a line: the default status part and
change lines of every game (GameView's), and how any value reads."""
from __future__ import annotations

from typing import Any

from referee.model import State
from referee.rules import prompts


def value_text(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(value_text(v) for v in value) or "-"
    if isinstance(value, dict):
        return ", ".join(f"{k} {value_text(v)}" for k, v in value.items()) or "-"
    return str(value)


def field_lines(state: State) -> list[str]:
    """A game's own fields, one a line (GameView.render_lines by default)."""
    return [f"{key}: {value_text(value)}" for key, value in state.fields.items()
            if key not in (prompts.FIELD, prompts.NEXT)]


def field_changes(before: State, after: State) -> list[str]:
    """Each of a game's own fields that changed, one a line (GameView.change_lines by default)."""
    out = []
    for key in dict.fromkeys([*before.fields, *after.fields]):
        if key in (prompts.FIELD, prompts.NEXT):
            continue
        if before.fields.get(key) != after.fields.get(key):
            out.append(f"{key} {value_text(before.fields.get(key))} -> {value_text(after.fields.get(key))}")
    return out
