"""Tests that run at two sizes (docs/testing.md, the tests' layers): a bounded
one in the unit layer, quick to run while you work on the rules, and the full
one marked slow. `make test` runs both, so the full size is checked as before."""
from __future__ import annotations

from typing import Any

import pytest

BOUNDED, FULL = "bounded", "full"


def two_sizes(bounded: Any, full: Any, name: str = "size"):
    """Parametrize `name` with `bounded` (id "bounded", in the unit layer) and
    `full` (id "full", marked slow)."""
    return pytest.mark.parametrize(name, [pytest.param(bounded, id=BOUNDED),
                                          pytest.param(full, id=FULL, marks=pytest.mark.slow)])
