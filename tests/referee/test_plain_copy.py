"""The rules copy a state's fields with `plain_copy` (referee/plain.py): the
same data a JSON round trip gives (the copy it replaces), and a copy that
shares nothing mutable with the original."""
from __future__ import annotations

import json
from enum import Enum

from referee.rules.plain import plain_copy


class Colour(str, Enum):
    RED = "red"


def test_the_copy_is_what_a_json_round_trip_gives():
    cases = [
        {"desks": {"Ann": {"science": [{"n": 1, "cards": ["a", "b"]}], "hand": 5, "fallen": False,
                           "known": [], "lent": None, "score": 1.5}}, "report": ["x"]},
        {"t": (1, (2, 3)), "nested": [(4,), {"k": ()}]},   # tuples become lists
        {1: "one", "two": {2: [3]}},                       # keys that are not strings become strings
        {"colour": Colour.RED, "list": [Colour.RED]},      # a str enum becomes its value
        [],
        "plain",
    ]
    for data in cases:
        copied = plain_copy(data)
        assert copied == json.loads(json.dumps(data))
        assert shape(copied) == shape(json.loads(json.dumps(data)))  # the same types (a list, not a tuple)


def shape(x):
    if isinstance(x, dict):
        return ("dict", [(type(k).__name__, k, shape(v)) for k, v in x.items()])
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [shape(v) for v in x])
    return (type(x).__name__, x)


def test_the_copy_shares_nothing_mutable():
    data = {"desks": {"Ann": {"cards": ["a"], "groups": [{"cards": ["b"]}]}}}
    copied = plain_copy(data)
    copied["desks"]["Ann"]["cards"].append("z")
    copied["desks"]["Ann"]["groups"][0]["cards"].clear()
    assert data == {"desks": {"Ann": {"cards": ["a"], "groups": [{"cards": ["b"]}]}}}
