"""The commands around the table: log, card, games, export, replay, scan, report, moves (and serve, from cli_serve).

Registered on the group by cli.py; errors are translated there.
"""
from __future__ import annotations

import contextlib
from pathlib import Path

import click

from referee.cli import serve as cli_serve  # (cli_serve is light: uvicorn and Starlette load only when `serve` runs)
from referee.cli import simulate as cli_simulate
from referee.cli import tune as cli_tune
from referee.cli import trust as cli_trust
from referee.words import render
from referee.table import operations as table
from referee.cli.common import FILE, db_option, db_path, emit, warn


@click.command("log")
@click.option("--last", type=click.IntRange(min=0), metavar="N", help="Show only the last N events.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@db_option
def log_command(last, as_json) -> None:
    """Show the log with turn bookmarks; undone actions are marked.

    \b
    Examples:
      referee log
      referee log --last 10
      referee log --json
    """
    from referee.table.history import history  # lazy: every command loads this module; only log reads the history

    view = history(db_path(), last)
    emit(view.to_json()) if as_json else click.echo(render.log(view))


def complete_card(ctx, param, incomplete: str):
    """Tab completion: card ids and short codes that start with what was typed,
    from the project the line names (--project) and, when there is a table,
    of the table's own game only."""
    from click.shell_completion import CompletionItem  # lazy: only tab completion needs it

    from referee.cards import load_index, project_root  # lazy: the card index, only when cards are completed
    from referee.cards.index import chosen_project  # lazy: as above

    given = (ctx.find_object(dict) or {}).get("project")
    try:
        with chosen_project(Path(given)) if given else contextlib.nullcontext():
            index = load_index(project_root())
    except Exception:  # no project, broken sources: nothing to offer
        return []
    try:
        game = table.status(table.table_path((ctx.find_object(dict) or {}).get("db"))).state.game
    except Exception:  # no table: every game's cards
        game = None
    cards = [c for c in index.cards.values() if game is None or c.game == game]
    typed = incomplete.lower()
    out = [CompletionItem(c.id, help=c.name) for c in cards if c.id.startswith(typed)]
    out += [CompletionItem(str(c.fields.get("code")), help=f"{c.name} ({c.id})") for c in cards
            if str(c.fields.get("code", "")).lower().startswith(typed) and typed]
    return out[:200]


def complete_game(incomplete: str):
    """Tab completion for `referee new`: the games the referee plays."""
    from click.shell_completion import CompletionItem  # lazy: only tab completion needs it

    from referee.model import GameSlug  # lazy: as above

    return [CompletionItem(g.value, help=g.game_title) for g in GameSlug if g.value.startswith(incomplete.lower())]


def complete_player(ctx, param, incomplete: str):
    """Tab completion: the players at the table in use."""
    from click.shell_completion import CompletionItem  # lazy: only tab completion needs it

    try:
        players = table.status(table.table_path((ctx.find_object(dict) or {}).get("db"))).state.players
    except Exception:  # no table: nothing to offer
        return []
    return [CompletionItem(p.name) for p in players if p.name.lower().startswith(incomplete.lower())]


def complete_piece(ctx, param, incomplete: str):
    """Tab completion: what is on the table (a unit's handle, a group, a stack,
    a point of the dish) and the table's players."""
    from click.shell_completion import CompletionItem  # lazy: only tab completion needs it

    try:
        state = table.status(table.table_path((ctx.find_object(dict) or {}).get("db"))).state
    except Exception:  # no table: nothing to offer
        return []
    typed = incomplete.lower()
    from referee.words.view import view_for  # lazy: only tab completion names the pieces

    offers = [(p.name, "player") for p in state.players] + view_for(state.game).pieces(state)
    return [CompletionItem(token, help=what) for token, what in offers if token.lower().startswith(typed)]


@click.command()
@click.argument("code", shell_complete=complete_card)
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@db_option
def card(code, as_json) -> None:
    """Show a card. CODE is a card id or the text of its QR code.

    A scanned card printed from older sources is flagged, with what changed.
    When a table of the card's game is open, it also says where the card's
    copies are on the table now and, for a scanned QR code, where that
    printed copy is (known once a command named it by its QR code).

    \b
    Examples:
      referee card anarchy-brick-courier
      referee card PNP:ANARCHY-WINDOW-SMASHER:1A2B3C:2 --json
    """
    from referee.cards import lookup  # lazy: the card index, only when a card is looked up

    found = lookup(code)
    from referee.words.whereabouts import where_is  # lazy: only card looks for a card on the table

    where = where_is(db_path(), found.card.id, found.card.game, found.copy)
    warn([found.warning()] if found.out_of_date else [])
    if as_json:
        emit({**found.to_json(), "on_table": None if where is None else list(where.places),
              "copy_on_table": None if where is None else list(where.copy_places)})
    else:
        click.echo(render.card(found, where))


@click.command()
@db_option
def games() -> None:
    """List the games, their player counts and house rules.

    \b
    Example:
      referee games
    """
    click.echo(render.games(table.games()))


@click.command()
@click.argument("file", type=FILE)
@click.option("--force", is_flag=True, help="Overwrite FILE even if it is not an earlier export.")
@click.option("--full", is_flag=True, help="Keep hidden cards too (for the scorekeeper, to replay the game).")
@db_option
def export(file, force, full) -> None:
    """Write the whole log, with every die and card revision, to FILE as JSON.

    Without --full, face-down cards, hands and Propaganda are left out, so
    the file may be shared with players; replay needs an export made with
    --full when the game has hidden cards.

    \b
    Examples:
      referee export game-3.json
      referee export game-3-full.json --full
    """
    from referee.table.transfer import export as run_export  # lazy: dice and the ledger, only to export or replay

    result = run_export(db_path(), file, force, full)
    click.echo(f"exported {result.events} events to {result.path}" + (" (everything, hidden cards too)" if full else ""))


@click.command()
@click.argument("file", type=FILE)
@click.option("--step", is_flag=True, help="Print the table after every event.")
@click.option("--upto", type=int, metavar="SEQ", help="Stop after event SEQ.")
@click.option("--force", is_flag=True, help="Rebuild even if --db holds a table; the old one is kept, renamed beside it.")
@db_option
def replay(file, step, upto, force) -> None:
    """Rebuild a table from an exported log into --db, checking every event.

    \b
    Examples:
      referee replay game-3.json --db copy.db
      referee replay game-3.json --db copy.db --step --upto 20
    """
    from referee.table.transfer import replay as run_replay  # lazy: dice and the ledger, only to export or replay

    click.echo(render.replay(run_replay(file, db_path(), step, force, upto), str(file)))


@click.command()
@db_option
def scan() -> None:
    """Read scanned cards and typed commands, one per line, until end of input.

    A QR scanner types a card code and Enter: the card is shown. Anything
    else is a referee command without the word `referee`. A failing line is
    reported and scanning goes on; `quit` or Ctrl-D ends.

    \b
    Examples:
      referee scan
      printf 'status\\nlife Ben -5\\nPNP:ANARCHY-WINDOW-SMASHER:1A2B3C:2\\n' | referee scan
    """
    from referee.cli.scan import run_scan  # lazy: scan mode and the card index, only for `scan`

    run_scan(click.get_current_context().find_root().command, db_path())


@click.command()
@click.option("--out", type=FILE, metavar="FILE.pdf",
              help="Where to write the report (default: beside the table, e.g. table-report.pdf).")
@db_option
def report(out) -> None:
    """Write a match report PDF and print its path.

    The players, the winner and the standings; a chart per turn of life,
    score, fortitude or influence (whatever the game keeps); every battle or
    attack with its odds before the dice and its result, and each player's
    luck; the key moments; the house rules in force. Hidden cards never
    appear. Works on any table, also one rebuilt with `referee replay`.

    \b
    Examples:
      referee report
      referee report --db finals.db --out finals.pdf
    """
    from referee.report.pdf import write_report  # lazy: ReportLab loads only for a report

    written = write_report(db_path(), out)
    click.echo(str(written.path))
    warn(written.warnings)


@click.command()
@click.argument("player", required=False, shell_complete=complete_player)
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts (each move's `command` and action).")
@db_option
def moves(player, as_json) -> None:
    """List every move PLAYER may make now (default: the player to act),
    grouped by kind, each with the command line that plays it.

    The referee does not see hands, so a card played from a hand is listed
    by what it may be, with <CARD> where the card goes. The scorekeeper's
    corrections (life, capital, crowd, fortitude, win, destroy, return) are
    not moves and are not listed.

    \b
    Examples:
      referee moves
      referee moves Ben
      referee moves --json
    """
    from referee.table.moves import table_moves  # lazy: the move generators, only for `moves`

    view = table_moves(db_path(), player)
    emit(view.to_json()) if as_json else click.echo("\n".join(view.lines()))


def register(group: click.Group) -> None:

    for command in (log_command, card, games, export, replay, scan, report, moves, cli_simulate.simulate,
                    cli_tune.tune):
        group.add_command(command)
    cli_serve.register(group)
    cli_trust.register(group)
