"""The HTTP protocol the phone server speaks: uvicorn's h11, with a deadline
for a request's head.

uvicorn times out an idle keep-alive connection, but a client that opens a
connection and sends half a request line (or half its headers) is waited
for forever; enough of them use up the file limit and stall the server.
Here every connection must deliver a complete request head within
`limits.HEAD_TIMEOUT_S` of its first byte, or of opening, or of its last
response; otherwise it is closed. Loaded only when `referee serve` runs.
"""
from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from referee.serve.limits import HEAD_TIMEOUT_S


class HeadTimedH11(H11Protocol):
    """H11Protocol that closes a connection whose request head is late."""

    head_timeout_s = HEAD_TIMEOUT_S

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_timer: asyncio.TimerHandle | None = None
        self._arm()

    def _in_request(self) -> bool:
        return self.cycle is not None and not self.cycle.response_complete

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.head_timeout_s, self._late)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _late(self) -> None:
        self._head_timer = None
        if not self._in_request() and not self.transport.is_closing():
            self.transport.close()  # half a request, too slowly: dropped

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._in_request():
            self._disarm()
        else:
            self._arm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._disarm()  # idle now: uvicorn's keep-alive timeout takes over until the next byte

    def connection_lost(self, exc: Any) -> None:
        self._disarm()
        super().connection_lost(exc)
