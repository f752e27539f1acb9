"""A command line, read exactly as the CLI reads it, into the Action it plays.

`referee serve --play` takes a player's move from their phone as the text of
a command line (`referee moves` gives each move's). It must mean what the
same line means typed in a shell, so there is one parser: the click commands
themselves. `plan` parses the line with the table's commands and runs the
command's own code with `table.planning()` on: the command builds its Action
(cards resolved, amounts read, the game's own argument handling) and
`table.act` hands it back as `table.Planned` instead of playing it. Nothing
is written and nothing is printed.

Only commands that play one of the table's actions are taken: reading
commands (status, log, odds ...), a new table, undo and redo, dice rolled for
the table and the scorekeeper's corrections are refused here, as are options
that would point the command at another table or project (--db, --project)
or print help.
"""
from __future__ import annotations

import shlex
from pathlib import Path

import click

from referee.table import operations as table
from referee.errors import RefereeError

MAX_LINE = 2000  # characters: a command line from a page is short

# Shared commands a player may send: their turn's end and their prompts' answers.
PLAYER_COMMANDS = frozenset({"end-turn", "next", "resolve"})
# A game's commands that only read the table, or correct it by hand (the scorekeeper's).
NOT_MOVES = frozenset({"odds", "legal", "board", "perft", "hand", "fortitude"})
FORBIDDEN_OPTIONS = ("--db", "--project", "--help", "-h", "--preview")  # another table, or output instead of a move


class NotAMove(RefereeError):
    """The line is not a move a player may send: unknown, not parsed by its
    command, a read, or the scorekeeper's."""


def words(line: str) -> list[str]:
    """The words of a command line, split as a shell would; `referee` in front is dropped."""
    if len(line) > MAX_LINE:
        raise NotAMove(f"the command is longer than {MAX_LINE} characters")
    try:
        argv = shlex.split(line)
    except ValueError as exc:
        raise NotAMove(f"cannot read the command {line[:80]!r}: {exc}") from None
    if argv and argv[0] == "referee":
        argv = argv[1:]
    if not argv:
        raise NotAMove("the command is empty")
    for word in argv[1:]:
        if word.split("=", 1)[0] in FORBIDDEN_OPTIONS:
            raise NotAMove(f"{word.split('=', 1)[0]} cannot be sent from a page")
    return argv


def _given(argv: list[str], option: str) -> bool:
    return any(w == option or w.startswith(option + "=") for w in argv[1:])


_FOUND: dict[tuple[int, str, str], click.Command] = {}  # (group, game, name): a game's commands never change


def command_for(group: click.Group, path: Path, name: str, game: str | None = None) -> click.Command:
    """The command `name` as the table in `path` offers it to a player
    (`group`: the `referee` group, which knows each game's commands; `game`:
    the table's, when known, to look each command up once); NotAMove
    otherwise."""
    known = _FOUND.get((id(group), game, name)) if game is not None else None
    if known is not None:
        return known
    if name in group.commands:
        if name in PLAYER_COMMANDS:
            return group.commands[name]
        raise NotAMove(f"`{name}` is not a move a player sends (it reads the table, or it is the scorekeeper's)")
    root = click.Context(group, info_name="referee", obj={"db": str(path)})
    try:
        _, found, _ = group.resolve_command(root, [name])
    except (click.ClickException, RefereeError):
        found = None
    if found is None:
        raise NotAMove(f"unknown command {name!r}: this table has no such move")
    if name in NOT_MOVES:
        raise NotAMove(f"`{name}` is not a move a player sends (it reads the table, or it is the scorekeeper's)")
    if game is not None:
        _FOUND[(id(group), game, name)] = found
    return found


def plan(group: click.Group, path: Path, line: str, by: str | None = None,
         game: str | None = None) -> table.Planned:
    """The Action `line` would play at the table in `path`, read by the CLI's
    own commands (`group`: the `referee` group); nothing is written. With
    `by`, a command that takes `--by` and was given none is read as `by`'s
    (the CLI would read it as the active player's). RefereeError if the
    line is not a move, does not parse, or names something the table does
    not have (a card, a player) the way the CLI would say it."""
    argv = words(line)
    command = command_for(group, path, argv[0], game)
    if by is not None and not _given(argv, "--by") and any("--by" in p.opts for p in command.params):
        argv += ["--by", by]  # the sender's move: `place c1` from Ben's phone is `place c1 --by Ben`
    root = click.Context(group, info_name="referee", obj={"db": str(path)})
    try:
        with root:
            sub = command.make_context(argv[0], argv[1:], parent=root)
            with sub, table.planning():
                command.invoke(sub)
    except table.Planned as planned:
        if planned.path != path:  # cannot happen without --db, refused above; never act elsewhere
            raise NotAMove("the command names another table") from None
        return planned
    except click.exceptions.Exit:
        raise NotAMove(f"`{argv[0]}` printed its help instead of a move") from None
    except click.ClickException as exc:  # the line does not parse: a missing argument, an unknown option ...
        raise NotAMove(f"{argv[0]}: {exc.format_message()}") from None
    raise NotAMove(f"`{argv[0]}` is not a move a player sends (it did not play an action)")
