"""The `referee` command line: parse, call one core function, print.

Every RefereeError becomes a click error in RefereeGroup.invoke, the one
place errors are translated; no traceback reaches the user. The table
commands live here; log, card, games, export, replay and scan in cli_more.
"""
from __future__ import annotations

import os
from pathlib import Path

import click

from referee import __version__
from referee.cli import more as cli_more
from referee.words import render
from referee.table import operations as table
from referee.errors import collecting
from referee.cli.common import AMOUNT, db_option, db_path, emit, project_option, warn
from referee.errors import RefereeError
from referee.rules.game import game_of
from referee.model import GameSlug


def game_commands(game: str) -> dict[str, click.Command]:
    """The commands a game adds (`COMMANDS` in its package's `cli` module,
    loaded only for its tables), or none."""
    try:
        slug = GameSlug(game)
    except ValueError:
        return {}
    commands = game_of(slug).commands
    for command in commands.values():
        _completes(command)
    return commands


CARD_PARAMS = ("card", "cards", "code", "with", "their", "own", "shields", "propaganda", "discard", "block", "redirect")
PLAYER_PARAMS = ("player", "players", "by", "giver", "receiver")
PIECE_PARAMS = ("attacker", "defender", "target", "on", "onto", "at", "join", "groups", "sources", "source",
                "their", "own", "stacks", "breaks", "using", "unit", "piece")  # what is on the table, or a player


def _completes(command: click.Command) -> None:
    """Tab completion for a game command: card ids and short codes, the
    table's players, and what is on the table."""
    for param in command.params:
        if getattr(param, "_custom_shell_complete", None) is not None:  # click's own attribute, set by `shell_complete=`
            continue
        if param.name in CARD_PARAMS:
            param._custom_shell_complete = cli_more.complete_card
        elif param.name in PLAYER_PARAMS:
            param._custom_shell_complete = cli_more.complete_player
        elif param.name in PIECE_PARAMS:
            param._custom_shell_complete = cli_more.complete_piece


def _peek_game(ctx: click.Context, args: list[str]) -> str | None:
    """The game of the table a command line names (by --db, $REFEREE_DB or ./table.db)."""
    db = (ctx.find_object(dict) or {}).get("db")
    for i, arg in enumerate(args):
        if arg == "--db" and i + 1 < len(args):
            db = args[i + 1]
        elif arg.startswith("--db="):
            db = arg[5:]
    return table.game_at(table.table_path(db))


class RefereeGroup(click.Group):
    """Core commands, plus the commands of the game being played at the table."""

    def resolve_command(self, ctx: click.Context, args: list[str]):
        name = args[0] if args else None
        if name and name not in self.commands and not name.startswith("-"):
            game = _peek_game(ctx, args[1:])
            command = game_commands(game).get(name) if game else None
            if command is not None:
                return name, command, args[1:]
            if game is None:
                for slug in (g.value for g in GameSlug):  # no table yet: still say which game has the command
                    if name in game_commands(slug):
                        raise RefereeError(f"`{name}` is a {slug} command, and there is no {slug} table here; start one with `referee new {slug} ...`")
        return super().resolve_command(ctx, args)

    def list_commands(self, ctx: click.Context) -> list[str]:
        """The core commands and, for completion, those of the table's game."""
        names = super().list_commands(ctx)
        if ctx.resilient_parsing:  # shell completion
            game = _peek_game(ctx, [])
            names = sorted({*names, *(game_commands(game) if game else {})})
        return names

    def get_command(self, ctx: click.Context, name: str):
        command = super().get_command(ctx, name)
        if command is None and ctx.resilient_parsing:
            game = _peek_game(ctx, [])
            command = game_commands(game).get(name) if game else None
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_commands(ctx, formatter)
        game = _peek_game(ctx, [])
        extra = game_commands(game) if game else {}
        if extra:
            with formatter.section(f"Commands of {game} (the table in use)"):
                formatter.write_dl([(n, c.get_short_help_str(60)) for n, c in sorted(extra.items())])

    def invoke(self, ctx: click.Context):
        with collecting() as notes:  # what the core warns of (a snapshot rebuilt, an upgrade) is said, never lost
            try:
                return self._invoke(ctx)
            finally:
                warn(notes)

    def _invoke(self, ctx: click.Context):
        try:
            project = (ctx.find_object(dict) or {}).get("project")
            with table.one_open():  # the command opens its table once, however many steps read it
                if project is None:
                    return super().invoke(ctx)
                from referee.cards.index import chosen_project  # lazy: only a command given --project loads it

                with chosen_project(Path(project)):
                    return super().invoke(ctx)
        except RefereeError as exc:
            raise click.ClickException(str(exc)) from None
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except KeyboardInterrupt:
            raise click.Abort() from None
        except Exception as exc:  # a bug: say so in one line, keep the traceback for REFEREE_DEBUG=1
            if os.environ.get("REFEREE_DEBUG"):
                raise
            raise click.ClickException(
                f"the referee hit an internal error ({type(exc).__name__}: {exc}); "
                "run again with REFEREE_DEBUG=1 to see where"
            ) from None


def _version(ctx: click.Context, on: bool) -> None:
    """--version. (click.version_option would do, but it looks up a translation
    of its help text, loading locale, on every command.)"""
    if on and not ctx.resilient_parsing:
        click.echo(f"referee {__version__}")
        ctx.exit()


@click.group(cls=RefereeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@db_option
@project_option
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=lambda ctx, _p, on: _version(ctx, on),
              help="Show the version and exit.")
def cli() -> None:
    """Keep score beside a physical table: life, capital, turns, dice, cards.

    Every change is written to an append-only log in one SQLite file per
    table, so nothing is lost and everything can be undone or replayed.

    \b
    Examples:
      referee new culture-war --player Ana:anarchy --player Ben:technocracy --seed 7
      referee status
      referee life Ben -5 --reason "brick courier"
      referee capital Ana -2
      referee roll 2d6            referee roll d6 --dice 4
      referee end-turn            referee undo        referee log
      referee card PNP:ANARCHY-WINDOW-SMASHER:1A2B3C:1
      referee scan                (then scan cards or type commands)
    """


@cli.command()
@click.argument("game", shell_complete=lambda ctx, param, incomplete: cli_more.complete_game(incomplete))
@click.option("--player", "players", multiple=True, metavar="NAME[:FACTION]",
              help="A player in seating order; repeat for each player.")
@click.option("--seed", type=int, help="Seed for the table's dice, so rolls can be repeated.")
@click.option("--life", type=int, help="Starting life (Culture War: default 100/90/80/70 for 2/3/4/5).")
@click.option("--house-rule", "house_rules", multiple=True, metavar="KEY=VALUE",
              help="Change a house rule; `referee games` lists them.")
@click.option("--dice", "dice_text", metavar="A,B,..", help="Physical dice for setup, if the game rolls any.")
@click.option("--force", is_flag=True, help="Start even if the file holds a table; the old one is kept, renamed beside it.")
@db_option
def new(game, players, seed, life, house_rules, dice_text, force) -> None:
    """Start a table for GAME (culture-war, divide-and-conquer, petri-dish,
    debate or cold-war).

    \b
    Examples:
      referee new culture-war --player Ana:anarchy --player Ben:community
      referee new debate --player Ana:Lincoln --player Ben:Truman --seed 12
      referee new culture-war --player A --player B --player C --life 60 --db cw.db
    """
    view = table.new_table(db_path(), game, players, seed, life, house_rules, force, dice_text)
    click.echo(render.status(view))


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@click.option("--reveal", "reveal", multiple=True, metavar="PLAYER",
              help="Also show PLAYER's face-down cards (games with hidden cards); repeatable.")
@db_option
def status(as_json, reveal) -> None:
    """Show the table: players, life, capital, whose turn it is.

    \b
    Examples:
      referee status
      referee status --json --db finals.db
      referee status --reveal Ana      (Cold War: Ana's face-down cards too)
    """
    view = table.status(db_path())
    emit(view.to_json(reveal)) if as_json else click.echo(render.status(view, reveal))


@cli.command()
@click.argument("expr")
@click.option("--dice", "dice_text", metavar="A,B,..", help="Enter physical dice instead of rolling.")
@click.option("--by", "actor", metavar="NAME", help="The player rolling.")
@click.option("--reason", help="Why, for the log.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@db_option
def roll(expr, dice_text, actor, reason, as_json) -> None:
    """Roll dice with the table's seeded dice and log the result.

    EXPR is like d6, 2d6, 3d6+2, 2d6-1, 4d6kh3 (keep highest 3), 2d20kl1.

    \b
    Examples:
      referee roll 2d6
      referee roll d6 --dice 5 --by Ana --reason "attack"
      referee roll 4d6kh3 --json
    """
    result = table.roll(db_path(), expr, dice_text, actor, reason)
    emit(result.to_json()) if as_json else click.echo(render.roll(result))


def _change_command(stat: str, example: str):
    @click.argument("player")
    @click.argument("amount")
    @click.option("--reason", help="Why, for the log.")
    @click.option("--card", "cards", multiple=True, metavar="CODE",
                  help="The card causing it: card id or scanned QR text. Repeatable.")
    @click.option("--by", "actor", metavar="NAME", help="The player acting.")
    @click.option("--dice", "dice_text", metavar="A,B,..", help="Physical dice, if the action rolls.")
    @db_option
    def command(player, amount, reason, cards, actor, dice_text) -> None:
        args = {"player": player, **table.parse_change(amount, f"{player}'s {stat}"), "reason": reason}
        result = table.act(db_path(), stat, args, actor, cards, dice_text)
        warn(result.warnings)
        click.echo(render.act(result))

    command.__doc__ = f"""Change a player's {stat}: -N takes away, +N adds, =N sets.

    \b
    Examples:
      {example}
    """
    return cli.command(stat, context_settings=AMOUNT)(command)


_change_command("life", "referee life Ben -5\n      referee life Ana +3 --reason \"donated\"\n"
                "      referee life Ben -10 --card anarchy-brick-courier")
_change_command("capital", "referee capital Ana -2\n      referee capital Ben +1 --reason \"real estate\"")


@cli.command(context_settings=AMOUNT)
@click.argument("amount")
@click.option("--reason", help="Why, for the log.")
@click.option("--card", "cards", multiple=True, metavar="CODE", help="The card causing it.")
@click.option("--by", "actor", metavar="NAME", help="The player acting.")
@db_option
def crowd(amount, reason, cards, actor) -> None:
    """Move the debate crowd: -N toward the mob, +N toward enlightened, =N sets.

    The track runs from -30 to +30; a move past an end stops there.

    \b
    Examples:
      referee crowd -2 --reason "crack a joke"
      referee crowd =5
    """
    args = {**table.parse_change(amount, "the crowd"), "reason": reason}
    result = table.act(db_path(), "crowd", args, actor, cards)
    warn(result.warnings)
    click.echo(render.act(result))


@cli.command("end-turn")
@click.option("--by", "actor", metavar="NAME", help="The player ending the turn; refused if it is not theirs.")
@click.option("--dice", "dice_text", metavar="A,B,..",
              help="Physical dice for rolls that cards make as the turn ends and the next begins.")
@db_option
def end_turn(actor, dice_text) -> None:
    """End the turn; play passes to the next player still in the game.

    \b
    Examples:
      referee end-turn
      referee next --by Ana
      referee end-turn --dice 1,4      (cards that roll at the end or start of a turn)
    """
    click.echo(render.act(table.act(db_path(), "end-turn", {}, actor, dice_text=dice_text)))


cli.add_command(end_turn, "next")


@cli.command()
@click.argument("player")
@click.option("--force", is_flag=True, help="Declare it although the rules could still decide (logged as an override).")
@db_option
def win(player, force) -> None:
    """Declare PLAYER the winner when the rules cannot decide (a draw the
    table settles, an agreed end). The rules declare the winner themselves
    when they can; --force overrides them and the log says so.

    \b
    Examples:
      referee win Ana
      referee win Ana --force      (the table ends the game early by agreement)
    """
    args = {"player": player, "force": True} if force else {"player": player}
    click.echo(render.act(table.act(db_path(), "win", args)))


@cli.command()
@click.argument("words", nargs=-1, metavar="[N] [ANSWER]")
@click.option("--by", "actor", metavar="NAME", help="The player answering; refused if the prompt is not theirs.")
@click.option("--dice", "dice_text", metavar="A,B,..", help="Physical dice, if the answer rolls.")
@db_option
def resolve(words, actor, dice_text) -> None:
    """Answer a card's prompt: the table has done what the card says.

    N is the prompt's number (needed only when several wait); ANSWER is
    `done` (the default) or one of the choices the prompt lists.

    \b
    Examples:
      referee resolve
      referee resolve 3 done
      referee resolve 4 keep
    """
    number, answer = table.parse_resolve(words)
    result = table.act(db_path(), "resolve", {"prompt": number, "answer": answer}, actor, dice_text=dice_text)
    click.echo(render.act(result))


@cli.command()
@click.option("--by", "actor", metavar="NAME", help="Who asked for it, for the log.")
@db_option
def undo(actor) -> None:
    """Undo the last change; repeat to go further back, across turns.

    The undone action stays in the log, marked undone.

    \b
    Example:
      referee undo
    """
    click.echo(render.act(table.undo(db_path(), actor)))


@cli.command()
@click.option("--by", "actor", metavar="NAME", help="Who asked for it, for the log.")
@db_option
def redo(actor) -> None:
    """Put back what undo took away (until a new action is taken).

    \b
    Example:
      referee redo
    """
    click.echo(render.act(table.redo(db_path(), actor)))


cli_more.register(cli)  # log, card, games, export, replay, scan
for _command in list(cli.commands.values()):
    if not isinstance(_command, click.Group):
        _completes(_command)


def main() -> None:
    cli(prog_name="referee")
