"""The scan loop: part of the command-line layer (it reads stdin and prints).

Each line is classified by the core (referee.scan); cards are looked up in
the core and printed here, commands are run through the same click group as
when typed in a shell, so they behave identically. One failing line is
reported with its line number and the loop carries on.
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

from referee import render
from referee.errors import RefereeError
from referee.scan import LineKind, classify


def run_scan(group: click.Group, db: Path) -> None:
    stdin = sys.stdin
    interactive = stdin.isatty()
    commands = set(group.commands)
    failed = handled = 0
    number = 0
    if interactive:
        click.echo("scan a card or type a command; quit or Ctrl-D ends", err=True)
    while True:
        if interactive:
            click.echo("scan> ", nl=False, err=True)
        line = stdin.readline()
        if not line:
            break
        number += 1
        if not interactive and line.strip():
            click.echo(f"> {line.strip()}")
        ok = True
        try:
            item = classify(line, commands)
            if item.kind is LineKind.SKIP:
                continue
            if item.kind is LineKind.QUIT:
                break
            handled += 1
            if item.kind is LineKind.CARD:
                _show_card(item.text, db)
            elif item.argv and item.argv[0] == "scan":
                raise RefereeError("already scanning")
            else:
                ok = _run(group, item.argv, db, number)
        except RefereeError as exc:
            click.echo(f"line {number}: error: {exc}", err=True)
            ok = False
        failed += 0 if ok else 1
    if failed:
        raise click.ClickException(f"{failed} of {handled} scanned lines failed; each is reported above")


def _show_card(code: str, db: Path) -> None:
    from referee.cards import lookup
    from referee.whereabouts import where_is

    found = lookup(code)
    if found.out_of_date:
        click.echo(f"warning: {found.warning()}", err=True)
    click.echo(render.card(found, where_is(db, found.card.id, found.card.game)))


def _run(group: click.Group, argv: tuple[str, ...], db: Path, number: int) -> bool:
    try:
        group.main(list(argv), prog_name="referee", standalone_mode=False, obj={"db": str(db)})
    except click.ClickException as exc:
        click.echo(f"line {number}: error: {exc.format_message()}", err=True)
        return False
    except click.exceptions.Exit as exc:
        return exc.exit_code == 0
    except click.Abort:
        click.echo(f"line {number}: aborted", err=True)
        return False
    return True
