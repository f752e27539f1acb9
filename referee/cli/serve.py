"""`referee serve`: the table as a live web page (see referee/serve/).

A thin wrapper: it checks the table, makes the private links, prints them
with a QR code each, and runs the server until Ctrl-C.
"""
from __future__ import annotations

import io

import click

from referee.cli.common import db_option, db_path, emit, warn
from referee.errors import RefereeError

MAX_ANSWER_TIMEOUT_S = 86400  # a day: --answer-timeout's largest (0 waits for ever)
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


def _a_number(seconds: float) -> float:
    if seconds != seconds:  # NaN passes FloatRange: it compares false with every bound
        raise click.BadParameter("nan is not a number of seconds", param_hint="'--answer-timeout'")
    return seconds


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
@click.option("--play", is_flag=True,
              help="Each private link becomes that player's controller: their legal moves as buttons, "
                   "played through the same rules as typed commands.")
@click.option("--answer-timeout", "answer_timeout", type=click.FloatRange(min=0, max=MAX_ANSWER_TIMEOUT_S), default=60, show_default=True,
              metavar="SECONDS", callback=lambda ctx, param, value: _a_number(value),
              help="With --play: an answer window (an attack waiting for its target's answer) not answered "
                   "within SECONDS is recorded as timed out, as `referee answer --timeout` does, under the "
                   "target's name; the pages count it down. 0 waits for ever.")
@db_option
def serve(port, lan, no_qr, play, answer_timeout) -> None:
    """Serve the table as a web page that follows every change.

    The public page shows what everyone at the table may see; each player
    also gets a private link (printed, with a QR code to scan) that shows
    their own hidden cards too. Without --play nothing on the page changes
    the table; with --play each player makes their own moves from their
    private page (logged as "Ann (phone)" and echoed here; a face-down card
    is echoed as "a face-down card"). The scorekeeper can still type
    anything, and `referee undo` undoes a phone's move like any other.

    With --play, an action waiting for one player's answer (Cold War's
    answer window) waits --answer-timeout seconds (60 unless told; 0 for
    ever) from the moment the log recorded it; the phones and the TV count
    the time down, and then the server records the timeout, logged as
    "Bo (timer)" and undone like any other line (the window then opens
    afresh).

    \b
    Examples:
      referee serve
      referee serve --play --lan        (phones on this network play their own moves)
      referee serve --port 8080 --lan --db finals.db
      referee serve --play --answer-timeout 30
    """
    from referee.serve import server  # lazy: sockets and the web server load only when `serve` runs
    from referee.serve.app import create_app  # lazy: Starlette
    from referee.serve.play import Play  # lazy: with the app
    from referee.serve.tokens import TokenStore  # lazy: with the app
    from referee.serve.watch import TableWatch  # lazy: with the app

    source = click.get_current_context().get_parameter_source("answer_timeout")
    if not play and source is not None and source.name == "COMMANDLINE":
        raise RefereeError("--answer-timeout goes with --play: without it the server never changes the table "
                           "(record a timeout with `referee answer --timeout`)")
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
    if play:
        click.echo("--play: each private link plays that player's moves; they are echoed here")
        click.echo(f"--answer-timeout: an answer window times out after {answer_timeout:g} s" if answer_timeout
                   else "--answer-timeout 0: an answer window waits for its answer for ever")
    player_moves = Play(path, on_act=_echo) if play else None
    app = create_app(watch, tokens, hosts=_hosts(shown_host, lan), play=player_moves,
                     answer_timeout_s=answer_timeout, warn=lambda text: click.echo(f"warning: {text}", err=True))
    server.run(app, sock, closing=app.state.close)  # open pages do not hold Ctrl-C up


def _hosts(shown_host: str, lan: bool) -> list[str]:
    """The names the page may be asked for by (the Host header; DNS rebinding is refused)."""
    hosts = ["127.0.0.1", "localhost", "[::1]", "::1"]
    if lan:
        import socket  # lazy: only serve needs sockets

        name = socket.gethostname()
        hosts += [shown_host, name, f"{name}.local"]
    return hosts


def _echo(acted) -> None:
    """A phone's move (or an answer window's timeout) on the scorekeeper's terminal, as every player may see it."""
    head, _, rest = acted.public_echo.partition("\n")
    click.echo(f"{acted.player} ({acted.via}): {head}" + (f"\n{rest}" if rest else ""))


@click.command()
@click.option("--json", "as_json", is_flag=True, help='Print {"players": {"Ann": "/p/TOKEN", ...}} for scripts.')
@click.option("--rotate", metavar="PLAYER", help="Replace PLAYER's link (a lost phone): the old one stops working at once.")
@db_option
def links(as_json, rotate) -> None:
    """Print each player's private link (the path after the server's address).

    The tokens are kept beside the table (TABLE.serve-tokens.json, readable
    by you only), never in the log or an export. A running `referee serve`
    notices --rotate at once.

    \b
    Examples:
      referee links
      referee links --json
      referee links --rotate Ann
    """
    from referee.serve.links import private_links  # lazy: only `links` reads the tokens

    found = private_links(db_path(), rotate)
    if as_json:
        emit({"players": found})
        return
    if rotate:
        name = next((n for n in found if n.lower() == rotate.strip().lower()), rotate)
        click.echo(f"{name}'s old link no longer works; the new one is below")
    for name, link in found.items():
        click.echo(f"{name}: {link}")


KEPT_OPTIONS = ("--drew", "--played", "--show")  # what makes `hand` this command, not a game's own `hand`


@click.command("hand")
@click.argument("player")
@click.option("--drew", multiple=True, metavar="CARD", help="A card PLAYER drew (id, short code or QR text); repeat.")
@click.option("--played", multiple=True, metavar="CARD", help="A card that left PLAYER's hand; repeat.")
@click.option("--show", is_flag=True, help="List the cards (PLAYER's own view: not for a shared screen).")
@db_option
def hand(player, drew, played, show) -> None:
    """Keep PLAYER's hand on their phone: the cards they drew and played.

    The referee then knows that hand, for PLAYER only: their moves on their
    private link list every card play concretely. The hand is kept beside
    the table (TABLE.serve-hands.json), never in the log, the export, the
    report or any page but PLAYER's own. It is held to the table's count of
    PLAYER's hand: a card drawn past the count, or a card played that is
    not kept, is refused and nothing changes; a count that dropped under
    the kept hand (a card played here at the terminal) is a warning until
    the card is marked --played. Without --show only the counts are
    printed. (At a Divide and Conquer table, `hand PLAYER AMOUNT` stays the
    correction of the count.)

    \b
    Examples:
      referee hand Ana --drew deb-common-ground-1 --drew deb-steelman-2
      referee hand Ana --played deb-common-ground-1 --show
    """
    from referee.serve.hands import kept_hand  # lazy: only `hand` reads the kept hands

    kept = kept_hand(db_path(), player, drew, played)
    name, cards = kept.player, kept.cards
    counted = f"{name} holds no hand now" if kept.counted is None else f"the table counts {kept.counted}"
    if show:
        click.echo(f"{name}'s hand (kept on the phone): " + (", ".join(cards) if cards else "no cards") + f"; {counted}")
    else:
        click.echo(f"{name}'s hand (kept on the phone): {len(cards)} card{'s' if len(cards) != 1 else ''}; {counted}")
    warn(kept.warnings)


def register(group: click.Group) -> None:
    group.add_command(serve)
    group.add_command(links)
    group.add_command(hand)
