"""`referee tune GAME`: propose the smallest card changes that make GAME
fair, verify them on fresh seeds, and (with --write) apply the patch.

Only parsing and presenting: the core is referee.simulate.tune (loaded when
the command runs).
"""
from __future__ import annotations

from pathlib import Path

import click

from referee.cli.common import FILE


@click.command()
@click.argument("game")
@click.option("--target", default="faction=fair", show_default=True,
              help="faction=fair, seat=fair, or faction:NAME=SHARE (e.g. faction:anarchy=0.5).")
@click.option("--tolerance", type=float, default=2.0, show_default=True, help="Points from the target that count as met.")
@click.option("--vary", "vary", multiple=True, metavar="KNOB=RANGE",
              help="What may change: CARD.FIELD=LO..HI, deck:FACTION.FIELD=-1..+1, house-rule:KEY=V1,V2, "
                   "or auto (each card's numbers one step either way). Repeat it.")
@click.option("--games", "count", type=int, default=400, show_default=True,
              help="Games per candidate (on the same seeds for every candidate).")
@click.option("--batch", type=int, default=40, show_default=True, help="Games between two pruning looks.")
@click.option("--verify-games", type=int, default=800, show_default=True,
              help="Games on fresh seeds to verify the proposal against the unchanged cards.")
@click.option("--candidates", "max_candidates", type=int, default=12, show_default=True,
              help="Neighbours tried in a round at most.")
@click.option("--rounds", "max_rounds", type=int, default=8, show_default=True, help="Steps of the search at most.")
@click.option("--players", type=int, metavar="N", help="Players a game (default: as simulate).")
@click.option("--faction", "factions", multiple=True, metavar="NAME", help="Factions to rotate (default: all).")
@click.option("--agent", "agents", multiple=True, metavar="KIND", help="As simulate.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the search's first game.")
@click.option("--turn-cap", type=int, default=200, show_default=True)
@click.option("--jobs", type=int, default=1, show_default=True, help="Worker processes.")
@click.option("--scheduler", metavar="ADDRESS", help="Play on a Dask cluster (as simulate).")
@click.option("--json", "json_path", type=FILE, metavar="FILE",
              help="The state and report (default tune-GAME.json); rewritten after every batch.")
@click.option("--resume", type=click.Path(dir_okay=False, exists=True, path_type=Path), metavar="FILE",
              help="Go on from a tune file: its evaluations are not played again.")
@click.option("--write", "write_patch", is_flag=True, help="Apply the patch to the card sources if verified.")
def tune(game, target, tolerance, vary, count, batch, verify_games, max_candidates, max_rounds, players, factions,
         agents, seed, turn_cap, jobs, scheduler, json_path, resume, write_patch) -> None:
    """Search card numbers (or house rules) for the smallest change that
    brings GAME to the target fairness, by self-play on common seeds;
    verify it on fresh seeds; print the patch.

    \b
    Examples:
      referee tune culture-war --vary auto --jobs 2
      referee tune culture-war --vary 'anarchy-window-smasher.atk=1..6' --write
    """
    from referee.simulate.tune.setup import make_spec  # lazy: self-play loads only for this command
    from referee.simulate.tune.run import tune as run  # lazy: as above

    spec, base = make_spec(game, target, tolerance, vary, count, batch, verify_games, max_candidates, max_rounds,
                           players, factions, agents, seed, turn_cap)
    out = Path(json_path) if json_path else (Path(resume) if resume else Path(f"tune-{spec.plan.game.value}.json"))
    result = run(spec, base, out, resume, jobs, scheduler, write_patch)
    rep = result.report
    click.echo(f"{rep['games_played']} games in {rep['seconds']:.1f} s; search path:")
    for step in rep["path"]:
        click.echo(f"  {step['what']}: {_change(step['change'])} -> {step['gap_points']:.1f} points from the target")
    if result.partial:
        click.echo(f"stopped early: every evaluation so far is in {out}; go on with --resume {out}")
        return
    ver = rep["verification"]
    click.echo(f"proposal: {_change(rep['proposal']['change'])}")
    click.echo(f"verified on {ver['games']} fresh games a side: {ver['gap_points_before']:.1f} points from the "
               f"target before, {ver['gap_points_after']:.1f} after "
               f"(95% interval {ver['gap_interval_after'][0]:.1f} to {ver['gap_interval_after'][1]:.1f}); {ver['met']}")
    for name, row in ver["rates"].items():
        b, a = row["before"], row["after"]
        if b and a:
            click.echo(f"  {name}: {b['rate']:.1%} [{b['low']:.1%}, {b['high']:.1%}] -> "
                       f"{a['rate']:.1%} [{a['low']:.1%}, {a['high']:.1%}]")
    if result.patch:
        click.echo(result.patch.rstrip("\n"))
    if write_patch:
        click.echo("wrote the patch to the card sources" if result.written else
                   "the card sources were not changed: the verification did not pass")
    click.echo(f"wrote {out}")


def _change(change: dict) -> str:
    return ", ".join(f"{k} = {v}" for k, v in sorted(change.items())) or "unchanged cards"
