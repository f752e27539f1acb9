"""The `pnp` command line: parse arguments, call one core function, print."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from pnp.errors import PnpError
from pnp.model import PAPERS, Flip, Layout
from pnp.project import find_project


class PnpGroup(click.Group):
    """Turns every PnpError into one readable message and a non-zero exit."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except PnpError as exc:
            raise click.ClickException(str(exc)) from None


def _project(ctx: click.Context) -> Path:
    given = ctx.obj.get("project")
    if given:
        path = Path(given)
        return find_project(path) if path.exists() else find_project(Path("/nonexistent-" + str(path)))
    return find_project()


@click.group(cls=PnpGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--project", type=click.Path(file_okay=False), help="Project folder (default: found from the current directory upward).")
@click.version_option(package_name="pnp")
@click.pass_context
def main(ctx: click.Context, project: str | None) -> None:
    """Print-and-play pipeline: YAML card sources in, printable PDFs out.

    \b
    Examples:
      pnp build                      # every game, A4, duplex
      pnp build culture-war --paper letter --flip short
      pnp validate
      pnp list culture-war --json
    """
    ctx.ensure_object(dict)
    ctx.obj["project"] = project


@main.command()
@click.argument("games", nargs=-1)
@click.option("--paper", type=click.Choice(sorted(PAPERS)), default="a4", show_default=True)
@click.option("--layout", type=click.Choice([l.value for l in Layout]), default="duplex", show_default=True,
              help="duplex: a fronts page then its backs page; gutterfold: fronts and backs on one sheet, fold between.")
@click.option("--flip", type=click.Choice([f.value for f in Flip]), default="long", show_default=True,
              help="How your printer turns the sheet for duplex printing.")
@click.option("--out", type=click.Path(file_okay=False), help="Write to DIR/<game>/ instead of output/<game>/.")
@click.option("--force", is_flag=True, help="Rebuild every file, even those whose inputs did not change.")
@click.pass_context
def build(ctx, games, paper, layout, flip, out, force):
    """Build the PDFs of GAMES (default: every game).

    \b
    Examples:
      pnp build
      pnp build culture-war --paper letter
      pnp build --layout gutterfold --out /tmp/print
      pnp build --force              # rebuild even what is up to date

    Only files whose inputs changed (cards, templates, styles, fonts,
    options, pnp itself) are rebuilt; the summary says which.
    """
    from pnp.build import BuildOptions, build as run_build

    project = _project(ctx)
    out_dir = Path(out) if out else project / "output"
    options = BuildOptions(PAPERS[paper], Layout(layout), Flip(flip))
    report = run_build(project, list(games) or None, out_dir, options,
                       progress=_progress_bar if sys.stderr.isatty() else None, force=force)
    if sys.stderr.isatty() and report.files:
        click.echo("", err=True)
    click.echo(summary(report))


def summary(report) -> str:
    lines = [f"rebuilt {f.path}  ({f.pages} pages" + (f", {f.cards} cards)" if f.cards else ")") for f in report.files]
    if report.up_to_date:
        lines.append(f"up to date: {len(report.up_to_date)} files" + (
            "" if len(report.up_to_date) > 6 else " (" + ", ".join(report.up_to_date) + ")"))
    lines.append(f"built {len(report.files)} files, {report.pages} pages, {report.cards} cards in {report.seconds:.2f} s")
    return "\n".join(lines)


def _progress_bar(done: int, total: int, label: str) -> None:
    width = 30
    filled = int(width * done / max(total, 1))
    click.echo(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label:<40}", err=True, nl=False)


@main.command()
@click.argument("games", nargs=-1)
@click.pass_context
def validate(ctx, games):
    """Check the sources and templates of GAMES without writing anything.

    \b
    Examples:
      pnp validate
      pnp validate culture-war
    """
    from pnp.build import validate as run_validate

    sources = run_validate(_project(ctx), list(games) or None)
    n = sum(len(g.cards) for g in sources.games.values())
    click.echo(f"ok: {len(sources.games)} games, {n} cards")


@main.command("list")
@click.argument("game", required=False)
@click.option("--json", "as_json", is_flag=True, help="One object per card with every field from its source.")
@click.pass_context
def list_cards(ctx, game, as_json):
    """List the cards of GAME (default: every game).

    \b
    Examples:
      pnp list culture-war
      pnp list --json | jq '.[] | select(.type == "unit")'
    """
    from pnp.listing import card_rows, card_table

    rows = card_rows(_project(ctx), game)
    if as_json:
        click.echo(json.dumps(rows, indent=2))
    else:
        click.echo(card_table(rows))


if __name__ == "__main__":  # pragma: no cover
    main()
