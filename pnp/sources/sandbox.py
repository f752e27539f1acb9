"""The one Jinja sandbox of pnp's templates (card faces, rule sheets, effect
phrases), bounded so that a runaway template is one error instead of a hung
or exhausted process: `'x' * 3000000000`, `[0] * 10**10` or `9 ** 9 ** 9`
are refused before they are computed. (Jinja's own sandbox already refuses
unsafe attributes and caps `range` at 100,000 items.)"""
from __future__ import annotations

import math
from typing import Any

from jinja2.sandbox import SandboxedEnvironment, SecurityError

MAX_ITEMS = 1_000_000      # characters of a string, or items of a list, one operator may make
MAX_POWER_BITS = 4_096     # the size of a number `**` may make


class TemplateTooLarge(SecurityError):
    """An operation that would make something far larger than any card needs."""


class BoundedSandbox(SandboxedEnvironment):
    intercepted_binops = frozenset({"*", "**"})  # `+` and `~` only add what already exists: linear, left alone

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and len(seq) * n > MAX_ITEMS:
                    raise TemplateTooLarge(f"{_shown(seq)} * {n} would make {len(seq) * n:,} "
                                           f"{'characters' if isinstance(seq, str) else 'items'}, more than the "
                                           f"{MAX_ITEMS:,} a template may make")
        elif operator == "**":
            if isinstance(left, int) and isinstance(right, int) and right > 0 and abs(left) > 1 \
                    and right * math.log2(abs(left)) > MAX_POWER_BITS:
                raise TemplateTooLarge(f"{left} ** {right} is a number of more than {MAX_POWER_BITS:,} bits, "
                                       "more than a template may make")
        return super().call_binop(context, operator, left, right)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 20 else text[:17] + "..."


def why(exc: BaseException) -> str:
    """An exception a template raised, in words (a MemoryError says nothing of its own)."""
    if isinstance(exc, MemoryError):
        return "it ran out of memory (a runaway loop, or a string or list far too large?)"
    if isinstance(exc, RecursionError):
        return "it calls itself without end (a macro or include that never stops?)"
    return str(exc) or type(exc).__name__
