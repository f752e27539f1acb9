"""`referee serve`: the table as a live web page (see referee/serve/).

A thin wrapper: it checks the table, makes the private links, prints them
with a QR code each, and runs the server until Ctrl-C.
"""
from __future__ import annotations

import io

import click

from referee.cli_common import db_option, db_path
from referee.errors import RefereeError

LAN_WARNING = ("warning: --lan serves the table to every device on this network; anyone who can reach "
               "this machine can read the public page (private links still need their token)")


def _lan_address() -> str:
    """This machine's address on the local network, as a phone would reach it (no packet is sent)."""
    import socket  # lazy: every referee command loads this module; only serve needs sockets

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # a documentation address: connect() on UDP only picks a route
            return probe.getsockname()[0]
    except OSError:
        return socket.gethostname()


def _qr(text: str) -> str:
    import qrcode  # lazy: a heavy import, only when links are printed with QR codes

    code = qrcode.QRCode(border=1)
    code.add_data(text)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


@click.command()
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="TCP port to listen on.")
@click.option("--lan", is_flag=True, help="Listen on every network interface (0.0.0.0), so phones on the same network can open it.")
@click.option("--no-qr", is_flag=True, help="Print the links without QR codes.")
@db_option
def serve(port, lan, no_qr) -> None:
    """Serve the table as a web page that follows every change, read-only.

    The public page shows what everyone at the table may see; each player
    also gets a private link (printed, with a QR code to scan) that shows
    their own hidden cards too. Nothing on the page changes the table.

    \b
    Examples:
      referee serve
      referee serve --port 8080 --lan --db finals.db
    """
    from referee.serve import server  # lazy: sockets and the web server load only when `serve` runs
    from referee.serve.app import create_app  # lazy: Starlette
    from referee.serve.tokens import TokenStore  # lazy: with the app
    from referee.serve.watch import TableWatch  # lazy: with the app

    path = db_path()
    watch = TableWatch(path)
    watch.poll()
    if watch.error is not None:
        raise RefereeError(watch.error)
    tokens = TokenStore(path, watch.players())
    host = "0.0.0.0" if lan else "127.0.0.1"
    shown_host = _lan_address() if lan else "127.0.0.1"
    sock = server.listen(host, port)  # before anything is printed: a port in use is one error
    port = sock.getsockname()[1]  # --port 0: the port the system chose
    if lan:
        click.echo(LAN_WARNING, err=True)
    base = f"http://{shown_host}:{port}"
    click.echo(f"table {path}: public page {base}/")
    for name, token in tokens.tokens.items():
        link = f"{base}/p/{token}"
        click.echo(f"\n{name}'s private link (shows {name}'s hidden cards; give it to {name} only):\n  {link}")
        if not no_qr:
            click.echo(_qr(link))
    click.echo(f"tokens kept in {tokens.path}; Ctrl-C stops the server")
    app = create_app(watch, tokens, hosts=_hosts(shown_host, lan))
    server.run(app, sock, closing=app.state.close)  # open pages do not hold Ctrl-C up


def _hosts(shown_host: str, lan: bool) -> list[str]:
    """The names the page may be asked for by (the Host header; DNS rebinding is refused)."""
    hosts = ["127.0.0.1", "localhost", "[::1]", "::1"]
    if lan:
        import socket  # lazy: only serve needs sockets

        name = socket.gethostname()
        hosts += [shown_host, name, f"{name}.local"]
    return hosts


def register(group: click.Group) -> None:
    group.add_command(serve)
