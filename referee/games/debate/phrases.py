"""Debate actions in words (see referee/wording.py)."""
from __future__ import annotations

from typing import Any

PHRASES: dict[str, Any] = {
    "argue": "{player} argues {card} in thread {thread}",
    "device": "{player} plays the device {card} on thread {thread}",
    "destroy": ["{who} destroys {device} in {player}'s thread {thread}",
                "{who} destroys {player}'s thread {thread}"],
    "return": "{device} goes back to {player}'s hand from thread {thread}",
    "potus": "{player} takes {card} as POTUS",
    "deck": "{player} names their deck",
    "no-argument": "{player} has no argument to play",
    "round-end": "the round ends",
}
