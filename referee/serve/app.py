"""The web application: one page, its JSON and its Server-Sent Events.

Every route only reads. `/` and `/api/state` and `/api/events` show the
public view; `/p/TOKEN` and `/api/p/TOKEN/...` one player's private view,
for a token from the TokenStore (anything else is a 404). The event stream
sends the latest snapshot whenever the table changes (a slow client gets
the newest state, never a backlog) and a comment every KEEPALIVE_S seconds.
"""
from __future__ import annotations

import asyncio
import contextlib
from importlib import resources
from typing import AsyncIterator, Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from referee.serve.tokens import TokenStore
from referee.serve.watch import POLL_S, TableWatch

KEEPALIVE_S = 15.0
STATIC = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8",
          "index.html": "text/html; charset=utf-8"}
HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",  # a private link never leaves in a Referer header
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'",
}


def _static(name: str) -> bytes:
    return resources.files("referee.serve").joinpath("static", name).read_bytes()


class Hub:
    """The watch plus an asyncio signal that fires when it sees a change."""

    def __init__(self, watch: TableWatch, poll_s: float):
        self.watch = watch
        self.poll_s = poll_s
        self._changed = asyncio.Event()

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.poll_s)
            try:
                changed = await asyncio.to_thread(self.watch.poll)
            except Exception:  # never let the watcher die; try again next tick
                changed = False
            if changed:
                old, self._changed = self._changed, asyncio.Event()
                old.set()

    async def wait(self, version: int, timeout: float) -> None:
        if self.watch.version != version:
            return
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._changed.wait(), timeout)


def create_app(watch: TableWatch, tokens: TokenStore, poll_s: float = POLL_S,
               keepalive_s: float = KEEPALIVE_S) -> Starlette:
    watch.poll()  # the first snapshot, before any page asks for it

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub = Hub(watch, poll_s)
        app.state.hub = hub
        task = asyncio.create_task(hub.run())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def respond(body: str | bytes, media: str, status: int = 200) -> Response:
        return Response(body, status_code=status, media_type=media, headers=HEADERS)

    def not_found() -> Response:
        return PlainTextResponse("not found", status_code=404, headers=HEADERS)

    def player(request: Request) -> str | None:
        token = request.path_params.get("token", "")
        return tokens.player_of(token) if 16 <= len(token) <= 100 else None

    async def page(request: Request) -> Response:
        if "token" in request.path_params and player(request) is None:
            return not_found()
        return respond(_static("index.html"), STATIC["index.html"])

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC or name == "index.html":
            return not_found()
        return respond(_static(name), STATIC[name])

    async def state(request: Request) -> Response:
        if "token" in request.path_params:
            who = player(request)
            if who is None:
                return not_found()
            return respond(watch.private_json(who), "application/json")
        return respond(watch.public_json(), "application/json")

    async def events(request: Request) -> Response:
        if "token" in request.path_params:
            who = player(request)
            if who is None:
                return not_found()
            build: Callable[[], str] = lambda: watch.private_json(who)  # noqa: E731
        else:
            build = watch.public_json
        hub: Hub = request.app.state.hub
        return StreamingResponse(_stream(hub, build, keepalive_s), media_type="text/event-stream",
                                 headers={**HEADERS, "X-Accel-Buffering": "no"})

    async def health(request: Request) -> Response:
        return PlainTextResponse("ok", headers=HEADERS)

    routes = [
        Route("/", page, methods=["GET", "HEAD"]),
        Route("/p/{token}", page, methods=["GET", "HEAD"]),
        Route("/static/{name}", static, methods=["GET", "HEAD"]),
        Route("/api/state", state, methods=["GET", "HEAD"]),
        Route("/api/events", events, methods=["GET"]),
        Route("/api/p/{token}/state", state, methods=["GET", "HEAD"]),
        Route("/api/p/{token}/events", events, methods=["GET"]),
        Route("/healthz", health, methods=["GET", "HEAD"]),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


async def _stream(hub: Hub, build: Callable[[], str], keepalive_s: float) -> AsyncIterator[str]:
    """The newest snapshot at once and after every change; a comment now and then."""
    yield "retry: 1000\n\n"
    sent = None
    while True:
        version = hub.watch.version
        if version != sent:
            sent = version
            yield f"event: table\ndata: {build()}\n\n"
        await hub.wait(version, keepalive_s)
        if hub.watch.version == version:
            yield ": still here\n\n"
