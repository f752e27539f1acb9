"""The Petri dish commands: parse, call one function of
referee.games.petri_dish.commands, print. Offered only at petri-dish tables."""
from __future__ import annotations

import click

from referee.words import render
from referee.cli.common import db_option, db_path, emit
from referee.games.petri_dish import commands as core, view

BY = click.option("--by", "actor", metavar="NAME", help="The player acting; refused if it is not their turn.")


def _print(result) -> None:
    click.echo(render.act(result))


@click.command()
@click.argument("at")
@BY
@db_option
def place(at, actor) -> None:
    """Put a small germ on the open foodpoint AT (each player's first turn only).

    \b
    Examples:
      referee place d4
      referee place e5 --by Bo
    """
    _print(core.act(db_path(), "place", [at], actor))


@click.command()
@click.argument("source", metavar="FROM")
@click.argument("target", metavar="TO")
@BY
@db_option
def move(source, target, actor) -> None:
    """Move the germ on FROM to the open point TO, one step in any of 8 directions.

    Afterwards a small germ needs 1 liberty, a medium 2 and a large 3,
    counting points freed by germs the move kills. Germs of either colour
    left without a liberty die and their tokens go back to the reserve. A
    player who alone holds 3 of the 4 prime areas wins at once (house rule
    areas-to-win, default 3).

    \b
    Examples:
      referee move c3 d4
      referee move a3 b2 --by Ann
    """
    _print(core.act(db_path(), "move", [source, target], actor))


@click.command()
@click.argument("at")
@BY
@db_option
def grow(at, actor) -> None:
    """Double the germ on AT with tokens from the reserve (1 -> 2 -> 4).

    A small germ needs 2 liberties to grow, a medium germ 3.

    \b
    Examples:
      referee grow d4
    """
    _print(core.act(db_path(), "grow", [at], actor))


@click.command()
@click.argument("source", metavar="FROM")
@click.argument("target", metavar="TO")
@BY
@db_option
def divide(source, target, actor) -> None:
    """Split the germ on FROM in half, sending one half to the open point TO.

    A medium germ needs 2 liberties first and its moving half 1 after; a
    large germ needs 3 first (house rule large-divide-liberties, default 3)
    and its moving half 2 after.

    \b
    Examples:
      referee divide d4 e5
    """
    _print(core.act(db_path(), "divide", [source, target], actor))


@click.command("pass")
@BY
@db_option
def pass_(actor) -> None:
    """Let your turn go by. A pass answered by a pass ends the game in a draw.

    \b
    Examples:
      referee pass
      referee pass --by Bo
    """
    _print(core.act(db_path(), "pass", [], actor))


@click.command("claim-draw")
@BY
@db_option
def claim_draw(actor) -> None:
    """Declare a draw when the position, with you to move, has occurred 3 times.

    \b
    Examples:
      referee claim-draw
    """
    _print(core.act(db_path(), "claim-draw", [], actor))


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@db_option
def legal(as_json) -> None:
    """List every legal action for the side to move, one per line.

    Each line can be typed back as a command, e.g. `referee move c3 d4`.

    \b
    Examples:
      referee legal
      referee legal --json
    """
    view = core.legal(db_path())
    if as_json:
        emit(view.to_json())
        return
    if view.over:
        click.echo(f"no actions: the game is over ({view.over})")
        return
    click.echo(f"{view.player} ({view.colour}) has {len(view.actions)} legal actions:")
    for line in view.actions:
        click.echo(f"  {line}")


@click.command()
@db_option
def board(**_) -> None:
    """Draw the dish as printed: rank 8 at the top, files a-h left to right.

    W1 W2 W4 are white germs of 1, 2 or 4 tokens, B1 B2 B4 black ones;
    + is an open foodpoint, * an open point of a prime area. Holding 3 of
    the 4 prime areas alone wins (house rule areas-to-win, default 3).

    \b
    Examples:
      referee board
      referee board --db finals.db
    """
    now = core.board(db_path())
    click.echo(view.board_text(now.state, now.position))


@click.command()
@click.argument("depth", type=click.IntRange(min=0))
@click.option("--split", is_flag=True, help="Also count per first action.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@db_option
def perft(depth, split, as_json) -> None:
    """Count the action sequences DEPTH long (0 to 5) from the table's position.

    Places, moves, grows, divisions and passes count; a game that ends (a
    win, or a pass answered by a pass) stops its sequence; draw claims do
    not count.

    \b
    Examples:
      referee perft 3
      referee perft 2 --split --json
    """
    result = core.perft(db_path(), depth, split)
    if as_json:
        emit(result.to_json())
        return
    for line, count in result.split:
        click.echo(f"{line}: {count}")
    click.echo(f"perft {result.depth}: {result.total}")


COMMANDS: dict[str, click.Command] = {
    "place": place, "move": move, "grow": grow, "divide": divide, "pass": pass_,
    "claim-draw": claim_draw, "legal": legal, "board": board, "perft": perft,
}
