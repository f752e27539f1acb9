"""Fitting rich text to its box, shrinking it step by step (the setting itself
is pnp.faces.textset's).

Text may shrink down to MIN_SIZE points; below that it is a validation error.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from pnp.faces.elements import Face, Icon, Text
from pnp.faces.glyphs import MissingGlyph
from pnp.faces.textset import FitError, setting, wrapped
from pnp.units import pt

MIN_SIZE = 6.0
STEP = 0.25


def fit(text: Text, style: dict[str, Any]) -> Text:
    """The text with the largest size (<= its style's size, >= 6 pt) that fits its box."""
    spec = style.get("paragraph_styles", {}).get(text.style)
    if spec is None:
        raise FitError(f"unknown paragraph style {text.style!r}")
    size = float(spec.get("size", 8))
    floor = max(MIN_SIZE, float(spec.get("min_size", MIN_SIZE)))
    if not text.markup:
        return replace(text, size=size)
    width, height = pt(text.w), pt(text.h)
    while size >= floor - 1e-9:
        own = setting(text, style, size)
        if own is not None:
            if own.height <= height + 0.01 and own.widest_word <= width + 0.01:
                return replace(text, size=size)
            size -= STEP
            continue
        try:
            para, h = wrapped(text, style, size)
            ok = h <= height + 0.01 and para.minWidth() <= width + 0.01
        except MissingGlyph as exc:
            raise FitError(str(exc), exc.char) from None
        except ValueError as exc:  # ReportLab refuses malformed markup
            raise FitError(f"bad text markup: {exc}") from None
        if ok:
            return replace(text, size=size)
        size -= STEP
    raise FitError(
        f"text does not fit its {text.w:g} x {text.h:g} mm box even at {floor:g} pt; shorten it"
    )


def fit_face(face: Face, style: dict[str, Any], icons) -> Face:
    """The face with every text fitted to its box; FitError names the first
    text that does not fit, or an icon that `icons` does not have."""
    out = []
    for el in face.elements:
        try:
            if isinstance(el, Text):
                el = fit(el, style)
            elif isinstance(el, Icon) and el.name not in icons:
                raise FitError(f"unknown icon {el.name!r}")
        except FitError as exc:
            exc.element = el
            raise
        out.append(el)
    return replace(face, elements=tuple(out))


def failing_field(face: Face, style: dict[str, Any], icons) -> str:
    """The field of the first text of `face` that does not fit ("" for an unknown icon or none)."""
    for el in face.elements:
        if isinstance(el, Text):
            try:
                fit(el, style)
            except FitError:
                return el.field
        if isinstance(el, Icon) and el.name not in icons:
            return ""
    return ""
