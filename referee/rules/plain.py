"""Deep copies of plain JSON data (what every game's State.fields hold).

The rules copy their fields for every check and every action, thousands of
times in a simulated game; `plain_copy` is the fast way to do it.
"""
from __future__ import annotations

import json
from typing import Any

SCALARS = frozenset({str, int, float, bool, type(None)})


def plain_copy(value: Any) -> Any:
    """A deep copy of plain JSON data, exactly as a JSON round trip gives it
    (a tuple becomes a list, a key a string), about twice as fast as one."""
    kind = type(value)
    if kind is dict:  # a scalar value is taken as it is, without a call (most of them are)
        return {k if type(k) is str else json_key(k): v if type(v) in SCALARS else plain_copy(v)
                for k, v in value.items()}
    if kind is list or kind is tuple:
        return [v if type(v) in SCALARS else plain_copy(v) for v in value]
    if kind in SCALARS:
        return value
    return json.loads(json.dumps(value))  # anything else (a mapping proxy, a str enum): as JSON would give it


def json_key(key: Any) -> str:
    """A dict key as JSON writes it."""
    return next(iter(json.loads(json.dumps({key: 0}))))
