"""What the phone server takes from a request before any rule is asked.

`loads`: a request's JSON, refused (ValueError, one clear sentence) when it
is not UTF-8 JSON or nests deeper than MAX_DEPTH: Python's decoder would
otherwise recurse into 2,000 nested brackets and fail with a RecursionError
(a 500). The depth is counted before decoding, in one pass over the bytes.

`SERVER`: the uvicorn settings that keep one slow or greedy client from
holding the server: how long a request's header and body may take, how long
an idle connection is kept, how many connections are served at once, and
how large a request's head may be.
"""
from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 8  # a move is an object of an object of lists: 3 levels; 8 leaves room and nothing more

# uvicorn.Config settings (referee/serve/server.py).
SERVER = {
    "timeout_keep_alive": 5,  # seconds an idle keep-alive connection is kept
    "limit_concurrency": 64,  # connections (event streams included) served at once; the next get 503
    "h11_max_incomplete_event_size": 16 * 1024,  # bytes of a request's head before it is refused
}
HEAD_TIMEOUT_S = 10.0  # a request whose head (request line and headers) is not in by then is dropped
BODY_TIMEOUT_S = 10.0  # a request whose body is not in by then is refused (408)


def depth(body: bytes) -> int:
    """How deep the brackets of a JSON text nest (strings skipped)."""
    deepest = level = 0
    in_string = escaped = False
    for byte in body:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            level += 1
            deepest = max(deepest, level)
        elif byte in (0x5D, 0x7D):  # ] }
            level -= 1
    return deepest


def loads(body: bytes) -> Any:
    """A request body's JSON; ValueError (a sentence a page may show) otherwise."""
    if depth(body) > MAX_DEPTH:
        raise ValueError(f"the request nests deeper than {MAX_DEPTH} levels; a move is a small JSON object")
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ValueError('the request is not JSON; send {"action": {...}, "version": N}') from None
