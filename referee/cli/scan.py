"""The scan loop: part of the command-line layer (it reads stdin and prints).

Each line is classified by the core (referee.table.scan); cards are looked up in
the core and printed here, commands are run through the same click group as
when typed in a shell, so they behave identically. One failing line is
reported with its line number and the loop carries on.
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

from referee.words import render
from referee.table import operations as table
from referee.cards import is_card, lookup, looks_like_payload
from referee.errors import RefereeError
from referee.rules import rules_for
from referee.table.scan import CANCEL_WORDS, DONE_WORDS, LineKind, classify, scanned_card
from referee.words.whereabouts import where_is


def run_scan(group: click.Group, db: Path) -> None:
    stdin = sys.stdin
    interactive = stdin.isatty()
    commands = set(group.commands)
    failed = handled = 0
    number = 0
    if interactive:
        click.echo("scan a card or type a command; quit or Ctrl-D ends", err=True)
    gathering: tuple[tuple[str, ...], list[str]] | None = None  # a command waiting for its cards
    while True:
        if interactive:
            prompt = f"{' '.join(gathering[0])} [{len(gathering[1])} cards]> " if gathering else "scan> "
            click.echo(prompt, nl=False, err=True)
        line = stdin.readline()
        if not line:
            break
        number += 1
        hidden = gathering is not None and line.strip().lower() not in (*DONE_WORDS, *CANCEL_WORDS) \
            and _hides(gathering[0], db)
        if not interactive and line.strip():
            click.echo("> (a card)" if hidden else f"> {_masked(line.strip(), commands, db)}")
        ok = True
        if gathering is not None:
            word = line.strip().lower()
            if word in DONE_WORDS or word in CANCEL_WORDS:
                argv, cards = gathering
                gathering = None
                if word in CANCEL_WORDS:
                    click.echo(f"dropped: {' '.join(argv)}")
                    continue
                handled += 1
                failed += 0 if _run(group, (*argv, *cards), db, number) else 1
                continue
            try:
                card = scanned_card(line.strip(), db)
                if card.copy and card.code in gathering[1]:
                    raise RefereeError(f"{card.name} ({card.card_id}): copy {card.copy} is already among "
                                       "this command's cards; a printed copy is one card")
                # a hidden card's QR text goes to the command as scanned: the command then says, the same
                # whatever the card, that its hidden cards were not checked aloud (referee.table.printnotes)
                gathering[1].append(line.strip() if hidden and looks_like_payload(line) else card.code)
                for note in () if hidden else card.notes:
                    click.echo(f"warning: {note}", err=True)
                click.echo(f"  + {'a card' if hidden else card.name} ({len(gathering[1])} so far)")
            except RefereeError as exc:
                click.echo(f"line {number}: not added: {exc}", err=True)
            continue
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
            elif _wants_cards(group, item.argv, db):
                gathering = (item.argv, [])
                handled -= 1  # counted when it runs
                click.echo(f"{item.argv[0]}: scan its cards one per line; a blank line or done runs it, cancel drops it")
            else:
                ok = _run(group, item.argv, db, number)
        except RefereeError as exc:
            click.echo(f"line {number}: error: {exc}", err=True)
            ok = False
        failed += 0 if ok else 1
    if failed:
        raise click.ClickException(f"{failed} of {handled} scanned lines failed; each is reported above")


def _wants_cards(group: click.Group, argv: tuple[str, ...], db: Path) -> bool:
    """A command with a CARDS argument, typed without any: its cards are to be scanned."""
    ctx = click.Context(group, info_name="referee", obj={"db": str(db)})
    try:
        name, command, rest = group.resolve_command(ctx, list(argv))
    except (click.ClickException, RefereeError):
        return False
    if command is None or not any(isinstance(p, click.Argument) and p.name == "cards" for p in command.params):
        return False
    try:
        sub = command.make_context(name, list(rest), parent=ctx, resilient_parsing=True)
    except click.ClickException:
        return False
    return not sub.params.get("cards")


def _hides(argv: tuple[str, ...], db: Path) -> bool:
    """True if the command `argv` may name cards the table's game keeps
    hidden (a setup's face-down cards, a deck list): scan mode then never
    names its cards, neither in the echo of a line nor in the running count."""
    try:
        game = table.status(db).state.game
    except RefereeError:
        return False
    return bool(argv) and rules_for(game).hides_cards(argv[0])


def _masked(line: str, commands: set[str], db: Path) -> str:
    """A line as scan mode echoes it: a command that may name hidden cards
    shows each of its cards as "(a card)"."""
    try:
        argv = classify(line, commands, lambda text: False).argv
    except RefereeError:
        return line
    if not _hides(argv, db):
        return line
    return " ".join(["(a card)" if is_card(word) or looks_like_payload(word) else word for word in argv])


def _show_card(code: str, db: Path) -> None:
    found = lookup(code)
    if found.out_of_date:
        click.echo(f"warning: {found.warning()}", err=True)
    click.echo(render.card(found, where_is(db, found.card.id, found.card.game, found.copy)))


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
