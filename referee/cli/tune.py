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
              help="Pairs of games on fresh seeds (the unchanged cards and the proposal on each) to verify it.")
@click.option("--candidates", "max_candidates", type=int, default=12, show_default=True,
              help="Neighbours tried in a round at most.")
@click.option("--rounds", "max_rounds", type=int, default=8, show_default=True, help="Steps of the search at most.")
@click.option("--players", type=int, metavar="N", help="Players a game (default: as simulate).")
@click.option("--faction", "factions", multiple=True, metavar="NAME", help="Factions to rotate (default: all).")
@click.option("--agent", "agents", multiple=True, metavar="KIND", help="As simulate.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the search's first game.")
@click.option("--turn-cap", type=int, default=200, show_default=True)
@click.option("--house-rule", "house_rules", multiple=True, metavar="KEY=VALUE",
              help="A house rule for every game (searched with --vary house-rule:KEY=... instead).")
@click.option("--until-decided", is_flag=True,
              help="Verify in batches and stop once the sequential test decides (as simulate --until-decided).")
@click.option("--effect", type=float, default=None, metavar="X",
              help="With --until-decided: the smallest change of a win rate worth finding (default 0.05).")
@click.option("--jobs", type=int, default=1, show_default=True, help="Worker processes.")
@click.option("--scheduler", metavar="ADDRESS", help="Play on a Dask cluster (as simulate).")
@click.option("--json", "json_path", type=FILE, metavar="FILE",
              help="The state and report (default tune-GAME.json); rewritten after every batch.")
@click.option("--resume", type=click.Path(dir_okay=False, exists=True, path_type=Path), metavar="FILE",
              help="Go on from a tune file: its evaluations are not played again.")
@click.option("--pdf", "pdf_path", type=FILE, metavar="FILE", help="Also write the report as a PDF.")
@click.option("--write", "write_patch", is_flag=True, help="Apply the patch to the card sources if verified.")
def tune(game, target, tolerance, vary, count, batch, verify_games, max_candidates, max_rounds, players, factions,
         agents, seed, turn_cap, house_rules, until_decided, effect, jobs, scheduler, json_path, resume,
         write_patch, pdf_path) -> None:
    """Search card numbers (or house rules) for the smallest change that
    brings GAME to the target fairness, by self-play on common seeds;
    verify it on fresh seeds; print the patch.

    \b
    Examples:
      referee tune culture-war --vary auto --jobs 2
      referee tune culture-war --vary 'anarchy-window-smasher.atk=1..6' --write
      referee tune debate --target seat=fair --vary 'house-rule:first-player-bonus=0..10' --pdf tune.pdf
    """
    from referee.simulate.tune.setup import make_spec  # lazy: self-play loads only for this command
    from referee.simulate.tune.run import tune as run  # lazy: as above

    from referee.simulate.sequential import EFFECT, check_sequential  # lazy: as above

    check_sequential(until_decided, True, "the unchanged cards", effect)
    spec, base = make_spec(game, target, tolerance, vary, count, batch, verify_games, max_candidates, max_rounds,
                           players, factions, agents, seed, turn_cap, (effect or EFFECT) if until_decided else None,
                           house_rules)
    out = Path(json_path) if json_path else (Path(resume) if resume else Path(f"tune-{spec.plan.game.value}.json"))
    result = run(spec, base, out, resume, jobs, scheduler, write_patch, Path(pdf_path) if pdf_path else None)
    rep = result.report
    click.echo(f"{rep['games_played']} games in {rep['seconds']:.1f} s; search path:")
    for step in rep["path"]:
        click.echo(f"  {step['what']}: {_change(step['change'])} -> {step['gap_points']:.1f} points from the target")
    if result.partial:
        click.echo(f"stopped early: every evaluation so far is in {out}; go on with --resume {out}")
        return
    ver = rep["verification"]
    click.echo(f"proposal: {_change(rep['proposal']['change'])}")
    sides = (f"{ver['pairs']} fresh pairs of games (seeds {ver['seed']}+, before and after on each)" if ver["pairs"]
             else f"{ver['games']} fresh games (seeds {ver['seed']}+) of the unchanged cards")
    click.echo(f"verified on {sides}: "
               f"{ver['gap_points_before']:.1f} points from the target before, {ver['gap_points_after']:.1f} after "
               f"(95% interval {ver['gap_interval_after'][0]:.1f} to {ver['gap_interval_after'][1]:.1f}); {ver['met']}")
    click.echo(f"  {ver['sequential_line']}")
    for name, row in ver["rates"].items():
        b, a, p = row["before"], row["after"], row["paired"]
        if b and a:
            within = (f"; within pairs {p['delta']:+.1%} [{p['delta_low']:+.1%}, {p['delta_high']:+.1%}], "
                      f"McNemar p={p['p_value']:.3g}") if p else ""
            click.echo(f"  {_place(rep, name)}: {b['rate']:.1%} [{b['low']:.1%}, {b['high']:.1%}] -> "
                       f"{a['rate']:.1%} [{a['low']:.1%}, {a['high']:.1%}]{within}")
    if result.patch:
        click.echo(result.patch.rstrip("\n"))
    if write_patch:
        click.echo("wrote the patch to the card sources" if result.written else
                   "the card sources were not changed: the verification did not pass")
    click.echo(f"wrote {out}" + (f" and {pdf_path}" if pdf_path else ""))


def _place(rep: dict, name: str) -> str:
    return f"seat {int(name) + 1}" if rep["target"].startswith("seat") and name.isdigit() else name


def _change(change: dict) -> str:
    return ", ".join(f"{k} = {v}" for k, v in sorted(change.items())) or "unchanged cards"
