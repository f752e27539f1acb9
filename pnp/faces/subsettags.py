"""Distinct subset tags for the TrueType fonts ReportLab embeds.

ReportLab names the first subset of every font `AAAAAA+<font>` (the second
`AAAAAB+`, ...), so every font of a PDF carries the same tag, which preflight
tools flag: a tag is meant to tell one subset from another. We name each
subset from a hash of its font's name and its number instead (six capitals,
as the PDF reference asks), the same in every build.
"""
from __future__ import annotations

import hashlib
import string

from reportlab.pdfbase import ttfonts


def subset_tag(font: str, n: int) -> bytes:
    """Six capital letters for subset `n` of `font`."""
    number = int.from_bytes(hashlib.sha256(f"{font}#{n}".encode()).digest()[:8], "big")
    letters = []
    for _ in range(6):
        number, digit = divmod(number, 26)
        letters.append(string.ascii_uppercase[digit])
    return "".join(letters).encode("ascii")


class TaggedTTFont(ttfonts.TTFont):
    """A TTFont whose subsets are tagged by `subset_tag`."""

    def addObjects(self, doc):  # noqa: N802 (ReportLab's name)
        plain = ttfonts.SUBSETN
        ttfonts.SUBSETN = lambda n, table=None: subset_tag(self.fontName, n)
        try:
            super().addObjects(doc)
        finally:
            ttfonts.SUBSETN = plain
