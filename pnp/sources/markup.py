"""The markup card text may hold (`**Keyword**` in bold, `{icon}` tokens),
checked when the sources are read: an unclosed one would print as typed."""
from __future__ import annotations

import re


def unclosed_markup(text: str) -> str | None:
    """Why `text`'s markup would print as typed (None: it is sound): a `**`
    keyword with no closing `**`, or a `{` icon token with no closing `}`."""
    marks = [m.start() for m in re.finditer(r"\*\*", text)]
    if len(marks) % 2:
        start = marks[-1]
        shown = text[start:start + 24].split("\n")[0]
        return (f"unclosed bold: {shown!r} opens ** and nothing closes it "
                f"(a keyword is written **Keyword**), so the asterisks would print")
    depth, opened = 0, -1
    for i, ch in enumerate(text):
        if ch == "{":
            if depth:
                break
            depth, opened = 1, i
        elif ch == "}" and depth:
            depth = 0
    if depth:
        shown = text[opened:opened + 24].split("\n")[0]
        return f"unclosed icon token: {shown!r} opens {{ and nothing closes it (an icon is written {{name}})"
    return None
