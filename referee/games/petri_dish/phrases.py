"""Petri dish moves in words (see referee/wording.py)."""
from __future__ import annotations

from typing import Any

PHRASES: dict[str, Any] = {
    "place": "{who} places a cell at {at}",
    "grow": "{who} grows the cell at {at}",
    "move": "{who} moves {from} -> {onto}",
    "divide": "{who} divides {from} onto {onto}",
    "pass": "{who} passes",
    "claim-draw": "{who} claims a draw",
}
