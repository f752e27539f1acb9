"""`referee simulate`: self-play at scale, and its balance report.

Only parsing and presenting: the core is referee.simulate (loaded when the
command runs, so other commands do not pay for it).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from referee.cli.common import FILE


@click.command()
@click.argument("game")
@click.option("--games", "count", type=int, default=None, metavar="N",
              help="Games to play (default 100); with --until-decided, the most games a side may play.")
@click.option("--players", type=int, metavar="N", help="Players a game (default: one per faction, or the fewest the game allows).")
@click.option("--faction", "factions", multiple=True, metavar="NAME",
              help="A faction (country, POTUS, colour) to rotate through the seats; repeat it. Default: all of them.")
@click.option("--agent", "agents", multiple=True, metavar="KIND",
              help="heuristic (default), search, cheat or random: once for every seat, or once per seat in turn "
                   "order (different agents also swap seats game by game).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first game; game i uses seed+i.")
@click.option("--jobs", type=int, default=1, show_default=True, help="Worker processes (1: exact and reproducible order).")
@click.option("--turn-cap", type=int, default=None,
              help="A game still going at this turn counts as capped (default 200; Cold War 150 a round).")
@click.option("--budget", type=int, default=24, show_default=True,
              help="The search and cheat agents' playouts per decision.")
@click.option("--check", is_flag=True, help="Assert the table's invariants after every action; stop at the first violation.")
@click.option("--keep", type=(int, str), metavar="N DIR", default=None,
              help="Write the first N games as table exports into DIR (referee replay loads them).")
@click.option("--house-rule", "house_rules", multiple=True, metavar="KEY=VALUE", help="A house rule for every game.")
@click.option("--against", metavar="REV-or-DIR",
              help="A/B: play the same games again on another project folder, or on this project's card sources "
                   "at a git revision (HEAD, a tag, a commit), and compare.")
@click.option("--without", "without", metavar="CARD",
              help="A/B by intervention: side B is this project with every copy of CARD taken out of its deck.")
@click.option("--until-decided", is_flag=True,
              help="A/B: play in batches and stop once a sequential test decides, at --games a side at most.")
@click.option("--effect", type=float, default=None, metavar="X",
              help="With --until-decided: the smallest change of a win rate worth finding (default 0.05, 5 points).")
@click.option("--scheduler", metavar="ADDRESS",
              help="Play the games on a Dask cluster: the address of its scheduler (tcp://HOST:8786). "
                   "Needs the cluster extra.")
@click.option("--json", "json_path", type=FILE, metavar="FILE", help="Write every game and the figures as JSON.")
@click.option("--out", "pdf_path", type=FILE, metavar="FILE.pdf", help="Write the balance report as a PDF.")
def simulate(game, count, players, factions, agents, seed, jobs, turn_cap, budget, check, keep, house_rules,
             against, without, until_decided, effect, scheduler, json_path, pdf_path) -> None:
    """Play GAME against itself in memory through the referee's own rules,
    and report the balance: win rates by faction and seat with 95%
    intervals, first-player advantage, game length and each card's effect.

    \b
    Examples:
      referee simulate petri-dish --games 1000 --jobs 2 --out balance.pdf
      referee simulate culture-war --players 2 --agent search --agent heuristic --games 40
      referee simulate culture-war --games 2000 --jobs 2 --against HEAD --out ab.pdf
      referee simulate culture-war --games 4000 --jobs 2 --against HEAD --until-decided
    """
    from referee.simulate.runner import make_plan  # lazy: self-play loads only for this command
    from referee.simulate.session import simulate as run  # lazy: as above

    from referee.simulate.ab import Workspace  # lazy: as above
    from referee.simulate.sequential import EFFECT, check_sequential  # lazy: as above

    from referee.errors import RefereeError  # lazy: as above
    from referee.simulate.without import Without  # lazy: as above

    if against and without:
        raise RefereeError("--against and --without each choose side B of an A/B; give one of them")
    check_sequential(until_decided, count is not None, against or without, effect)
    keep_n, keep_dir = (keep if keep else (0, None))
    plan = make_plan(game, players, factions, agents, 100 if count is None else count, seed, jobs, turn_cap,
                     budget, check, keep_n, house_rules, scheduler)
    with Workspace() as space, Without() as cut:
        here = _project_here() if against or without else None
        side_b = space.resolve(against, here) if against else (
            cut.resolve(without, plan.game.value, here) if without else None)
        bar = _Bar(sys.stderr)
        result = run(plan, json_path, pdf_path, Path(keep_dir) if keep_dir else None, progress=bar.show,
                     against=side_b, until_decided=(effect or EFFECT) if until_decided else None, here=here)
        bar.close()
    tally = result.tally
    played = result.games_played
    click.echo(f"{played} games of {plan.game.value} in {result.seconds:.1f} s "
               f"({played / result.seconds:.1f} games/s)" if result.seconds else f"{played} games")
    click.echo(f"agents: {agents_line(result)}")
    if result.partial:
        click.echo(f"stopped early: the reports are partial ({played} of "
                   f"{plan.games * (2 if side_b else 1)} games)")
    from referee.simulate.summary import verdict  # lazy: as above
    if result.comparison is not None:
        click.echo(f"A: this project; B: {result.against.label()}; figures read from B to A")
        for line in result.comparison.verdict():
            click.echo(f"  {line}")
    else:
        for line in verdict(tally):
            click.echo(f"  {line}")
    for path in (result.json_path, result.pdf_path, *result.kept):
        if path is not None:
            click.echo(f"wrote {path}")


def agents_line(result) -> str:
    from referee.simulate.agents_named import agents_named  # lazy: as above
    return agents_named(result.plan)


def _project_here() -> Path:
    """The project the referee reads now (side A), whose git history a revision names."""
    from referee.cards.index import project_root  # lazy: card sources only when needed

    return project_root()


class _Bar:
    """Games done, games a second and the time left, on one redrawn line (only on a terminal)."""

    def __init__(self, stream):
        self.stream, self.last = stream, 0.0
        self.live = stream.isatty()

    def show(self, p) -> None:
        now = time.monotonic()
        if not self.live or (now - self.last < 0.2 and p.done < p.total):
            return
        self.last = now
        width = 30
        filled = int(width * p.done / p.total)
        left = f"{p.left:.0f} s left" if p.left != float("inf") else ""
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {p.done}/{p.total} "
                          f"{p.rate:.1f} games/s {left}   ")
        self.stream.flush()

    def close(self) -> None:
        if self.live:
            self.stream.write("\n")
            self.stream.flush()
