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
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except KeyboardInterrupt:
            raise click.Abort() from None
        except Exception as exc:  # a bug in pnp: one line for the user, the traceback with PNP_DEBUG=1
            import os

            if os.environ.get("PNP_DEBUG"):
                raise
            raise click.ClickException(
                f"pnp hit an internal error ({type(exc).__name__}: {exc}); run again with PNP_DEBUG=1 to see where"
            ) from None


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


@main.command("watch")
@click.argument("games", nargs=-1)
@click.option("--paper", type=click.Choice(sorted(PAPERS)), default="a4", show_default=True)
@click.option("--layout", type=click.Choice([l.value for l in Layout]), default="duplex", show_default=True)
@click.option("--flip", type=click.Choice([f.value for f in Flip]), default="long", show_default=True)
@click.option("--out", type=click.Path(file_okay=False), help="Write to DIR/<game>/ instead of output/<game>/.")
@click.pass_context
def watch_command(ctx, games, paper, layout, flip, out):
    """Rebuild GAMES (default: all) whenever a source or template is saved.

    Only the files that depend on what changed are rebuilt. A validation
    error is printed and watching goes on; the last good PDFs stay. Ctrl-C
    stops.

    \b
    Examples:
      pnp watch
      pnp watch culture-war --paper letter
    """
    from pnp.build import BuildOptions
    from pnp.errors import PnpError
    from pnp.watch import watch

    project = _project(ctx)
    out_dir = Path(out) if out else project / "output"

    def show(outcome, changed):
        if changed:
            click.echo(f"changed: {', '.join(changed)}")
        if isinstance(outcome, PnpError):
            click.echo(f"error (previous PDFs kept):\n{outcome}", err=True)
        else:
            click.echo(summary(outcome))
        click.echo("watching card_sources/ and templates/ (Ctrl-C to stop)")

    watch(project, list(games) or None, out_dir, BuildOptions(PAPERS[paper], Layout(layout), Flip(flip)), show)


@main.command()
@click.argument("card", required=False)
@click.option("--sheet", "sheet_game", metavar="GAME", help="Preview the first sheet of GAME's first deck instead.")
@click.option("--dpi", type=click.IntRange(30, 600), default=150, show_default=True)
@click.option("--out", "out_file", type=click.Path(dir_okay=False), help="PNG file (default: output/<game>/preview-<id>.png).")
@click.pass_context
def preview(ctx, card, sheet_game, dpi, out_file):
    """Render one CARD (id or QR text), face and back side by side, to PNG,
    without building its deck.

    \b
    Examples:
      pnp preview anarchy-window-smasher
      pnp preview anarchy-window-smasher --dpi 300 --out /tmp/card.png
      pnp preview --sheet culture-war
    """
    from pnp.preview import preview_card, preview_sheet

    project = _project(ctx)
    if bool(card) == bool(sheet_game):
        raise click.UsageError("give a CARD id, or --sheet GAME")
    if sheet_game:
        image = preview_sheet(project, sheet_game, dpi)
        target = Path(out_file) if out_file else project / "output" / sheet_game / "preview-sheet.png"
    else:
        image, found = preview_card(project, card, dpi)
        target = Path(out_file) if out_file else project / "output" / found.game / f"preview-{found.id}.png"
    target.parent.mkdir(parents=True, exist_ok=True)
    buffer = __import__("io").BytesIO()
    image.save(buffer, format="PNG")
    from pnp.write import write_atomic

    write_atomic(target, buffer.getvalue())
    click.echo(f"{target}  ({image.width} x {image.height} px at {dpi} dpi)")


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
