"""The `referee` command line: parse, call one core function, print.

Every RefereeError becomes a click error in RefereeGroup.invoke, the one
place errors are translated; no traceback reaches the user. The table
commands live here; log, card, games, export, replay and scan in cli_more.
"""
from __future__ import annotations

import os

import click

from referee import __version__, cli_more, render, table
from referee.cli_common import AMOUNT, db_option, db_path, emit, warn
from referee.errors import RefereeError


class RefereeGroup(click.Group):
    def invoke(self, ctx: click.Context):
        try:
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


@click.group(cls=RefereeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@db_option
@click.version_option(__version__, message="referee %(version)s")
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
      referee card PNP:CULTURE-WAR:ANARCHY-BRICK-COURIER:1A2B3C
      referee scan                (then scan cards or type commands)
    """


@cli.command()
@click.argument("game")
@click.option("--player", "players", multiple=True, metavar="NAME[:FACTION]",
              help="A player in seating order; repeat for each player.")
@click.option("--seed", type=int, help="Seed for the table's dice, so rolls can be repeated.")
@click.option("--life", type=int, help="Starting life (Culture War: default 100/90/80/70 for 2/3/4/5).")
@click.option("--house-rule", "house_rules", multiple=True, metavar="KEY=VALUE",
              help="Change a house rule; `referee games` lists them.")
@click.option("--dice", "dice_text", metavar="A,B,..", help="Physical dice for setup, if the game rolls any.")
@click.option("--force", is_flag=True, help="Replace an unfinished table in the same file.")
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
@db_option
def status(as_json) -> None:
    """Show the table: players, life, capital, whose turn it is.

    \b
    Examples:
      referee status
      referee status --json --db finals.db
    """
    view = table.status(db_path())
    emit(view.to_json()) if as_json else click.echo(render.status(view))


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
@db_option
def end_turn(actor) -> None:
    """End the turn; play passes to the next player still in the game.

    \b
    Examples:
      referee end-turn
      referee next --by Ana
    """
    click.echo(render.act(table.act(db_path(), "end-turn", {}, actor)))


cli.add_command(end_turn, "next")


@cli.command()
@click.argument("player")
@db_option
def win(player) -> None:
    """Declare PLAYER the winner (the rules also do this when they can tell).

    \b
    Example:
      referee win Ana
    """
    click.echo(render.act(table.act(db_path(), "win", {"player": player})))


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


def main() -> None:
    cli(prog_name="referee")
