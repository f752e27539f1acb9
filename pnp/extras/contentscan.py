"""Scanning a PDF content stream's bytes for operators, quickly and without
being fooled by text: literal strings (which nest, and may hold anything),
hex strings, dictionaries' brackets and comments are stepped over. Used by the
ink limit (pnp.extras.inklimit) and the preflight (pnp.extras.pdfrules)."""
from __future__ import annotations

import re

DELIM = rb"\s/\[\]()<>{}%"      # what ends a PDF token
STRING_OR_SKIP = rb"(?P<string>\()|(?P<skip><[0-9A-Fa-f\s]*>|<<|>>|%[^\r\n]*)"


def operator_pattern(*names: str) -> re.Pattern:
    """A scan pattern: strings and skips first, then any of the operators `names` (group `op`)."""
    ops = b"|".join(re.escape(n.encode("ascii")) for n in sorted(names, key=len, reverse=True))
    return re.compile(STRING_OR_SKIP + rb"|(?<![^" + DELIM + rb"])(?P<op>" + ops + rb")(?![^" + DELIM + rb"])")


def string_end(data: bytes, start: int) -> int:
    """The index just after the literal string opening at `start`."""
    depth, i = 0, start
    while i < len(data):
        ch = data[i]
        if ch == 0x5C:        # backslash: the next byte is escaped
            i += 2
            continue
        if ch == 0x28:
            depth += 1
        elif ch == 0x29:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(data)


def operators(data: bytes, pattern: re.Pattern):
    """Each match of one of the pattern's operators, in order (strings, hex strings and comments skipped)."""
    pos = 0
    while (m := pattern.search(data, pos)) is not None:
        pos = m.end()
        if m.group("string"):
            pos = string_end(data, m.start())
        elif m.group("op"):
            yield m
