"""Running the web app: the listening socket, the server, a clean stop.

The socket is bound before anything is printed, so a port already in use is
one clear error (and `--port 0` prints the port the system chose). Ctrl-C
first tells every open event stream to end (`Closing`), so the server stops
at once with no traceback, however many pages are open. The server holds
under abuse (limits.py): a request's head and body must arrive in time,
idle connections are closed, and connections are capped.
"""
from __future__ import annotations

import socket
from typing import Any, Callable

from referee.errors import RefereeError


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to host:port and listening; RefereeError if it cannot be."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno in (98, 48, 10048):  # EADDRINUSE on Linux, macOS, Windows
            raise RefereeError(f"cannot listen on {host}:{port}: the port is in use (is another "
                               f"`referee serve` running?); choose another with --port, or --port 0 "
                               f"for any free one") from None
        raise RefereeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def run(app: Any, sock: socket.socket, closing: Callable[[], None]) -> None:
    """Serve `app` on `sock` until Ctrl-C (or SIGTERM); `closing` is called first."""
    import uvicorn  # lazy: the web server loads only when `serve` runs

    class TableServer(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            closing()
            super().handle_exit(sig, frame)

    try:
        TableServer(config(app)).run(sockets=[sock])
    except KeyboardInterrupt:  # a second Ctrl-C while stopping
        pass
    finally:
        sock.close()


def config(app: Any, head_timeout_s: float | None = None, **overrides: Any) -> Any:
    """The uvicorn.Config the table is served with (limits.py's settings;
    `head_timeout_s` and `overrides`: a test's shorter ones)."""
    import uvicorn  # lazy: the web server loads only when `serve` runs

    from referee.serve.limits import SERVER  # lazy: with the web server
    from referee.serve.protocol import HeadTimedH11  # lazy: with the web server

    protocol = HeadTimedH11
    if head_timeout_s is not None:
        protocol = type("HeadTimedH11", (HeadTimedH11,), {"head_timeout_s": head_timeout_s})
    return uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2, access_log=False,
                          http=protocol, **{**SERVER, **overrides})
