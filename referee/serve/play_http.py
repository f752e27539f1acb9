"""The play API's two routes (`serve --play`), over HTTP: docs/play-api.md.

`GET /p/TOKEN/moves` and `POST /p/TOKEN/act` (any other method on /act is a
JSON 405). Each handler checks what HTTP alone can (read-only, Origin, the
token, the body's size), then calls one function of play.Play in a worker
thread and answers its result or its refusal as one JSON object. After a
move the event streams are told at once (`hub.poke`), not at the next poll.
"""
from __future__ import annotations

import asyncio
from typing import Any, Callable, Mapping

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from referee.errors import RefereeError
from referee.serve import limits
from referee.serve.play import MAX_BODY, Play, PlayError

READ_ONLY = "this table is served read-only; start it with referee serve --play"
NO_LINK = "no such private link"


def play_routes(play: Play | None, player: Callable[[Request], str | None],
                headers: Mapping[str, str]) -> list[Route]:
    """The routes; `player`: the token's player, or None; `headers`: every answer's."""

    def error(status: int, message: str, **extra: str) -> Response:
        return JSONResponse({"error": message}, status_code=status, headers={**headers, **extra})

    async def moves(request: Request) -> Response:
        who = player(request)
        if who is None:
            return error(404, NO_LINK)
        if play is None:
            return error(403, READ_ONLY)
        if not play.reads.allow(who):
            return error(429, "too many requests for the moves at once; wait a moment")
        try:
            found = await run_in_threadpool(play.moves, who, False)
        except PlayError as exc:
            return error(exc.status, str(exc))
        except RefereeError as exc:
            return error(422, str(exc))
        return JSONResponse(found, headers=dict(headers))

    async def act(request: Request) -> Response:
        if request.method != "POST":
            return error(405, "only POST plays a move", Allow="POST")
        if play is None:
            return error(403, READ_ONLY)
        refused = foreign(request)
        if refused:
            return error(403, refused)
        who = player(request)
        if who is None:
            return error(404, NO_LINK)
        if not play.limit.allow(who):  # a flood is turned away here, before a thread or the table is used
            return error(429, "too many moves at once; wait a moment and send it again")
        try:
            body = await read_limited(request, MAX_BODY)
            acted = await run_in_threadpool(play.act, who, body, False)
        except PlayError as exc:
            return error(exc.status, str(exc))
        except RefereeError as exc:
            return error(422, str(exc))
        hub: Any = getattr(request.app.state, "hub", None)
        if hub is not None:
            await hub.poke()  # every open page hears of it now, not at the next poll
        return JSONResponse(acted.to_json(), headers=dict(headers))

    async def hand(request: Request) -> Response:
        """GET: the hand this token's player keeps on the phone; POST: cards drawn or played."""
        if play is None:
            return error(403, READ_ONLY)
        if request.method == "POST":
            refused = foreign(request)
            if refused:
                return error(403, refused)
        who = player(request)
        if who is None:
            return error(404, NO_LINK)
        if not play.reads.allow(who):
            return error(429, "too many requests at once; wait a moment")
        try:
            body = await read_limited(request, MAX_BODY) if request.method == "POST" else None
            shown = await run_in_threadpool(play.hand, who, body)
        except PlayError as exc:
            return error(exc.status, str(exc))
        except RefereeError as exc:
            return error(422, str(exc))
        return JSONResponse(shown, headers=dict(headers))

    return [
        Route("/p/{token}/hand", hand, methods=["GET", "POST"]),
        Route("/p/{token}/moves", moves, methods=["GET", "HEAD"]),
        Route("/p/{token}/act", act, methods=["POST", "GET", "HEAD", "PUT", "PATCH", "DELETE"]),
    ]


async def internal_error(request: Request, exc: Exception) -> Response:
    """A bug: one JSON line for the browser, never a traceback."""
    return JSONResponse({"error": f"the referee hit an internal error ({type(exc).__name__})"}, status_code=500)


def foreign(request: Request) -> str | None:
    """Why a POST is refused as coming from another site, or None. A browser
    always sends `Origin` with a POST: it must be this server's own (the
    scheme and the Host the request was sent to, itself checked against the
    served names). A client that sends no Origin is not a browser page (a
    script, curl): it cannot carry a visitor's credentials, and it still needs
    the token. `Sec-Fetch-Site`, when sent, must say same-origin."""
    origin = request.headers.get("origin")
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return "a move must come from this table's own page"
    if origin is None:
        return None
    own = f"{request.url.scheme}://{request.headers.get('host', '')}"
    if origin.rstrip("/").lower() != own.lower():
        return "a move must come from this table's own page (another site's request is refused)"
    return None


async def read_limited(request: Request, limit: int, timeout_s: float | None = None) -> bytes:
    """The request's body, refused (PlayError 413) as soon as it passes `limit`
    bytes, and (408) when it has not arrived in full within `timeout_s`."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise PlayError(413, f"the request is larger than {limit // 1024} KiB")

    async def read() -> bytes:
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                raise PlayError(413, f"the request is larger than {limit // 1024} KiB")
        return body

    timeout_s = limits.BODY_TIMEOUT_S if timeout_s is None else timeout_s
    try:
        return await asyncio.wait_for(read(), timeout_s)
    except asyncio.TimeoutError:
        raise PlayError(408, f"the request's body did not arrive within {timeout_s:g} s") from None
