"""The web application: one page, its JSON and its Server-Sent Events.

Every route but one only reads: `POST /p/TOKEN/act` plays a move as that
token's player, only when the app has a Play (`serve --play`; see play_http.py, play.py
and docs). `/` and `/api/state` and `/api/events` show the
public view; `/p/TOKEN` and `/api/p/TOKEN/...` one player's private view,
for a token from the TokenStore (anything else is a 404). The event stream
sends the latest snapshot whenever the table changes (a slow client gets
the newest state, never a backlog) and a comment every KEEPALIVE_S seconds.

Each event has an id (the server's run and the snapshot's version): a phone
that reconnects with `Last-Event-ID` of the snapshot it already has is not
sent it again. A client that stops reading for SEND_TIMEOUT_S is dropped,
and every stream ends when the server is told to stop. With `hosts` given,
a request whose Host header names another host is refused (DNS rebinding).
"""
from __future__ import annotations

import asyncio
import contextlib
import secrets
from importlib import resources
from typing import AsyncIterator, Callable, Sequence

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from referee.serve.play import Play
from referee.serve.play_http import internal_error, play_routes
from referee.serve.timer import TICK_S, AnswerTimer, time_text, utc_now
from referee.serve.tokens import TokenStore
from referee.serve.watch import POLL_S, TableWatch

KEEPALIVE_S = 15.0
SEND_TIMEOUT_S = 10.0  # a client that takes longer to accept one event is dropped
JS, CSS = "text/javascript; charset=utf-8", "text/css; charset=utf-8"
STATIC = {"dom.js": JS, "app.js": JS, "app.css": CSS, "controller.js": JS, "controller.css": CSS,
          "cards.js": JS, "hand.js": JS, "narrow.js": JS,
          "index.html": "text/html; charset=utf-8",
          "vendor/jsqr/jsQR.js": JS, "vendor/jsqr/LICENSE": "text/plain; charset=utf-8"}  # the only files served
HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",  # a private link never leaves in a Referer header
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'",
}


def _static(name: str) -> bytes:
    return resources.files("referee.serve").joinpath("static", *name.split("/")).read_bytes()


class Hub:
    """The watch plus an asyncio signal that fires when it sees a change (of
    the table, or of the private links: a rotated link's streams end at once)."""

    def __init__(self, watch: TableWatch, poll_s: float, tokens: TokenStore | None = None):
        self.watch = watch
        self.tokens = tokens
        self.poll_s = poll_s
        self._changed = asyncio.Event()
        self.closing = asyncio.Event()  # set when the server stops: every stream ends
        self.run_id = secrets.token_hex(4)  # event ids of an earlier run never match this one's
        self.loop = asyncio.get_running_loop()
        self._polling = asyncio.Lock()  # one poll at a time: a phone's poke and the timer

    def close(self) -> None:
        """Tell every stream to end (callable from a signal handler)."""
        self.loop.call_soon_threadsafe(self.closing.set)

    def _rotated(self) -> bool:
        try:
            return self.tokens.refresh()  # type: ignore[union-attr]
        except OSError:
            return False

    def event_id(self, version: int) -> str:
        return f"{self.run_id}-{version}"

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.poll_s)
            await self.poke()

    async def poke(self) -> None:
        """Look at the table now (a poll, or at once after a phone's move)."""
        async with self._polling:
            try:
                changed = await asyncio.to_thread(self.watch.poll)
            except Exception:  # never let the watcher die; try again next tick
                changed = False
            if self.tokens is not None:
                changed = self._rotated() or changed
        if changed:
            old, self._changed = self._changed, asyncio.Event()
            old.set()

    async def wait(self, version: int, timeout: float, stop: asyncio.Event) -> None:
        """Until the table changes, `stop` or the server's closing is set, or `timeout`."""
        if self.watch.version != version or stop.is_set() or self.closing.is_set():
            return
        waiters = [asyncio.ensure_future(e.wait()) for e in (self._changed, stop, self.closing)]
        try:
            await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiter in waiters:
                waiter.cancel()


class EventStream(StreamingResponse):
    """A Server-Sent Events response that ends when the client leaves, the
    server stops, or the client stops reading (SEND_TIMEOUT_S per event)."""

    def __init__(self, hub: Hub, build: Callable[[], str], keepalive_s: float, last_id: str | None,
                 send_timeout_s: float, alive: Callable[[], bool] = lambda: True):
        super().__init__(iter(()), media_type="text/event-stream", headers={**HEADERS, "X-Accel-Buffering": "no"})
        self.hub, self.build, self.keepalive_s = hub, build, keepalive_s
        self.last_id, self.send_timeout_s = last_id, send_timeout_s
        self.alive = alive  # False once the stream's private link is rotated away: it ends

    async def __call__(self, scope, receive, send) -> None:
        stop = asyncio.Event()

        async def listen() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            stop.set()

        listener = asyncio.ensure_future(listen())
        try:
            await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
            async for chunk in _stream(self.hub, self.build, self.keepalive_s, stop, self.last_id, self.alive):
                try:
                    await asyncio.wait_for(send({"type": "http.response.body", "body": chunk.encode("utf-8"),
                                                 "more_body": True}), self.send_timeout_s)
                except (asyncio.TimeoutError, OSError):
                    return  # a client that stopped reading: dropped
            with contextlib.suppress(Exception):
                await asyncio.wait_for(send({"type": "http.response.body", "body": b"", "more_body": False}), 1.0)
        finally:
            listener.cancel()


def create_app(watch: TableWatch, tokens: TokenStore, poll_s: float = POLL_S,
               keepalive_s: float = KEEPALIVE_S, hosts: Sequence[str] | None = None,
               send_timeout_s: float = SEND_TIMEOUT_S, play: Play | None = None,
               answer_timeout_s: float = 0.0, warn: Callable[[str], None] | None = None) -> Starlette:
    """The app; `hosts`: the host names the page is served as (None: any, for
    tests); `play`: the play API (`serve --play`), None for a read-only table;
    `answer_timeout_s`: with `play`, an answer window not answered within it is
    recorded as timed out (timer.py; 0: never); `warn`: the terminal's warnings."""
    watch.play = play is not None
    watch.answer_timeout_s = answer_timeout_s if play is not None else 0.0
    watch.poll()  # the first snapshot, before any page asks for it
    hubs: list[Hub] = []

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub = Hub(watch, poll_s, tokens)
        app.state.hub = hub
        hubs.append(hub)
        tasks = [asyncio.create_task(hub.run())]
        if play is not None and watch.answer_timeout_s > 0:
            tasks.append(asyncio.create_task(_run_timer(hub, AnswerTimer(watch, play, watch.answer_timeout_s,
                                                                         warn=warn))))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
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
            return respond(stamped(watch.private_json(who)), "application/json")
        return respond(stamped(watch.public_json()), "application/json")

    async def events(request: Request) -> Response:
        alive: Callable[[], bool] = lambda: True  # noqa: E731
        if "token" in request.path_params:
            who = player(request)
            if who is None:
                return not_found()
            token = request.path_params["token"]
            build: Callable[[], str] = lambda: watch.private_json(who)  # noqa: E731
            alive = lambda: (tokens.refresh(), tokens.holds(who, token))[1]  # noqa: E731  # a stat: cheap
        else:
            build = watch.public_json
        hub: Hub = request.app.state.hub
        return EventStream(hub, build, keepalive_s, request.headers.get("last-event-id"), send_timeout_s, alive)

    async def health(request: Request) -> Response:
        return PlainTextResponse("ok", headers=HEADERS)

    routes = [
        Route("/", page, methods=["GET", "HEAD"]),
        Route("/p/{token}", page, methods=["GET", "HEAD"]),
        Route("/static/{name:path}", static, methods=["GET", "HEAD"]),
        Route("/api/state", state, methods=["GET", "HEAD"]),
        Route("/api/events", events, methods=["GET"]),
        Route("/api/p/{token}/state", state, methods=["GET", "HEAD"]),
        Route("/api/p/{token}/events", events, methods=["GET"]),
        Route("/healthz", health, methods=["GET", "HEAD"]),
        *play_routes(play, player, HEADERS),
    ]
    middleware = []
    if hosts is not None:
        from starlette.middleware import Middleware  # lazy: only the served app checks hosts
        from starlette.middleware.trustedhost import TrustedHostMiddleware  # lazy: as above

        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts)))
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware,
                    exception_handlers={Exception: internal_error})
    app.state.close = lambda: [hub.close() for hub in hubs]  # the server's Ctrl-C: end every stream
    return app


async def _run_timer(hub: Hub, timer: AnswerTimer) -> None:
    """Every TICK_S: when a window's time is up, record its timeout (in a
    thread: it is a write) and let the pages know at once."""
    while True:
        await asyncio.sleep(TICK_S)
        try:
            if timer.due() is not None and await asyncio.to_thread(timer.fire) is not None:
                await hub.poke()
        except Exception as exc:  # never let the timer die: say so (once), and try again next tick
            timer.trouble(exc)


def stamped(text: str) -> str:
    """A snapshot's JSON as it is sent: while an answer window's clock runs,
    with the server's clock now (`"now"`), so a page counts down to the
    recorded deadline by the server's clock, not by its own alone (a
    snapshot without a clock is sent as it was built, byte for byte)."""
    if not text.startswith("{") or '"answer_clock":' not in text:
        return text
    return f'{{"now":"{time_text(utc_now())}",' + text[1:]


async def _stream(hub: Hub, build: Callable[[], str], keepalive_s: float, stop: asyncio.Event,
                  last_id: str | None = None, alive: Callable[[], bool] = lambda: True) -> AsyncIterator[str]:
    """The newest snapshot at once (unless the client has it: `last_id`) and
    after every change; a comment now and then; nothing once `stop` or the
    server's closing is set, or once `alive()` is False (a rotated link)."""
    yield "retry: 1000\n\n"
    sent = hub.watch.version if last_id is not None and last_id == hub.event_id(hub.watch.version) else None
    while not (stop.is_set() or hub.closing.is_set()) and alive():
        version = hub.watch.version
        if version != sent:
            sent = version
            yield f"id: {hub.event_id(version)}\nevent: table\ndata: {stamped(build())}\n\n"
        await hub.wait(version, keepalive_s, stop)
        if not alive():
            return  # the link was rotated: not one more byte for it
        if hub.watch.version == version and not (stop.is_set() or hub.closing.is_set()):
            yield ": still here\n\n"
