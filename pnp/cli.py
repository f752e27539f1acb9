"""The `pnp` command line: parse arguments, call one core function, print."""
from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import click

from pnp.errors import PnpError
from pnp.model import PAPERS, Flip, Ink, Layout, Shop
from pnp.project import available_games, find_project
from pnp.write import write_atomic


class PnpGroup(click.Group):
    """Turns every PnpError into one readable message and a non-zero exit.
    Every subcommand also takes `--project DIR`."""

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        if not isinstance(cmd, click.Group) and not any(p.name == "project" for p in cmd.params):
            cmd.params.append(project_option())
        super().add_command(cmd, name)

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
            if os.environ.get("PNP_DEBUG"):
                raise
            raise click.ClickException(
                f"pnp hit an internal error ({type(exc).__name__}: {exc}); run again with PNP_DEBUG=1 to see where"
            ) from None


def _set_project(ctx: click.Context, _param, value) -> None:
    if value:
        ctx.ensure_object(dict)["project"] = value


def _completion_project(ctx: click.Context) -> Path:
    """The project a command line being completed names (--project anywhere), else the one found from here."""
    given = None
    while ctx is not None and given is None:
        given = (ctx.obj or {}).get("project") if isinstance(ctx.obj, dict) else None
        given = given or ctx.params.get("project")
        ctx = ctx.parent
    return find_project(Path(given)) if given else find_project()


def complete_game(ctx, param, incomplete: str):
    """Tab completion: the project's game names."""
    from click.shell_completion import CompletionItem  # lazy: only tab completion needs it

    try:
        games = available_games(_completion_project(ctx))
    except Exception:  # no project here: nothing to offer
        return []
    chosen = set(ctx.params.get("games") or ())
    return [CompletionItem(g) for g in games if g.startswith(incomplete) and g not in chosen]


def complete_card(ctx, param, incomplete: str):
    """Tab completion: the project's card ids, with their names."""
    from click.shell_completion import CompletionItem  # lazy: only tab completion needs it

    from pnp.sources.loader import load_sources  # lazy: as above

    try:
        sources = load_sources(_completion_project(ctx), None)
    except Exception:  # no project, or sources with problems: nothing to offer
        return []
    typed = incomplete.lower()
    return [CompletionItem(c.id, help=c.name) for g in sources.games.values() for c in g.cards
            if c.id.startswith(typed)][:200]


def project_option() -> click.Option:
    """`--project DIR` on a subcommand too: `pnp list debate --project DIR`."""
    return click.Option(["--project"], type=click.Path(file_okay=False), expose_value=False, is_eager=True,
                        callback=_set_project, help="Project folder (also accepted before the command).")


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
@click.argument("games", nargs=-1, shell_complete=complete_game)
@click.option("--paper", type=click.Choice(sorted(PAPERS)), default="a4", show_default=True)
@click.option("--layout", type=click.Choice([l.value for l in Layout]), default="duplex", show_default=True,
              help="duplex: a fronts page then its backs page; gutterfold: fronts and backs on one sheet, fold between.")
@click.option("--flip", type=click.Choice([f.value for f in Flip]), default=None,
              help="How your printer turns the sheet for duplex printing (default: the printer profile's, else long).")
@click.option("--printer", metavar="NAME", help="Correct the back pages with printer profile NAME (see `pnp printer`).")
@click.option("--ink", type=click.Choice([i.value for i in Ink]), default="normal", show_default=True,
              help="saver: grayscale, light tints and outlines instead of dark areas; into <game>/ink-saver/.")
@click.option("--back", "backs", type=click.Choice(["deck", "common"]), default="deck", show_default=True,
              help="common: one neutral back for every deck (mixed-faction decks give nothing away); into <game>/common-back/.")
@click.option("--cutter", type=click.Choice(["silhouette", "cricut", "scanncut"]), default=None,
              help="Lay decks out for a cutting machine, with its registration marks and an SVG cutting file per sheet; into <game>/cutter-<machine>/.")
@click.option("--marks", type=click.Choice(["3", "4"]), default=None,
              help="silhouette: 3 marks (Type 1, the default) or 4 (four-point registration).")
@click.option("--changed-since", "since", metavar="REV",
              help="Only the cards changed since git revision REV: changed-<deck>.pdf and an errata sheet.")
@click.option("--out", type=click.Path(file_okay=False), help="Write to DIR/<game>/ instead of output/<game>/.")
@click.option("--force", is_flag=True, help="Rebuild every file, even those whose inputs did not change.")
@click.pass_context
def build(ctx, games, paper, layout, flip, printer, ink, backs, cutter, marks, since, out, force):
    """Build the PDFs of GAMES (default: every game).

    \b
    Examples:
      pnp build
      pnp build culture-war --paper letter
      pnp build --layout gutterfold --out /tmp/print
      pnp build --printer office      # backs shifted by the office printer's profile
      pnp build --ink saver           # grayscale, light; prints the ink coverage
      pnp build culture-war --back common   # one neutral back: for mixed-faction decks
      pnp build --force              # rebuild even what is up to date
      pnp build --cutter silhouette  # registration marks and cutting files (see docs/printing.md)
      pnp build --changed-since v1.0  # reprint only what changed, with an errata sheet

    Only files whose inputs changed (cards, templates, styles, fonts,
    options, pnp itself) are rebuilt; the summary says which.
    """
    from pnp.pipeline.options import make_options  # lazy: loaded only when this command runs
    from pnp.pipeline.orchestrator import build as run_build  # lazy: as above

    project = _project(ctx)
    out_dir = Path(out) if out else project / "output"
    options = make_options(paper, layout, flip, printer, ink, backs, cutter, int(marks) if marks else None)
    if since:
        from pnp.extras.carddiff import summary_lines  # lazy: loaded only when this option is given
        from pnp.extras.errata import build_changed  # lazy: as above

        changed = build_changed(project, list(games) or None, out_dir, options, since)
        click.echo("\n".join(summary_lines(changed.changes)))
        for path in changed.files:
            click.echo(f"wrote {path}")
        if changed.changes:
            click.echo(f"wrote {len(changed.files)} files in {changed.seconds:.2f} s")
        return
    report = run_build(project, list(games) or None, out_dir, options,
                       progress=_progress_bar if sys.stderr.isatty() else None, force=force)
    if sys.stderr.isatty() and report.files:
        click.echo("", err=True)
    click.echo(summary(report))


def _built_line(f) -> str:
    if f.kind == "cut":
        return f"rebuilt {f.path}  (cutting file, {f.cards} cards)"
    if f.kind == "print-image":
        return f"rebuilt {f.path}  (Print Then Cut image)"
    return f"rebuilt {f.path}  ({f.pages} pages" + (f", {f.cards} cards)" if f.cards else ")")


def summary(report) -> str:
    lines = [_built_line(f) for f in report.files]
    by_setting: dict[str, list[str]] = {}
    for line in getattr(report, "settings", []):   # "deck file: what to set", grouped by what to set
        name, _, setting = line.partition(": ")
        by_setting.setdefault(setting, []).append(name)
    lines += [f"set {setting}  (for {', '.join(names)})" for setting, names in by_setting.items()]
    if report.up_to_date:
        lines.append(f"up to date: {len(report.up_to_date)} files" + (
            "" if len(report.up_to_date) > 6 else " (" + ", ".join(report.up_to_date) + ")"))
    lines.append(f"built {len(report.files)} files, {report.pages} pages, {report.cards} cards in {report.seconds:.2f} s")
    lines += getattr(report, "warnings", [])
    if getattr(report, "ink", None) is not None:
        for game, saver in report.ink.saver.items():
            normal = report.ink.normal.get(game)
            line = f"ink coverage {game}: {saver.mean:.1%} with ink saver ({saver.pages} pages)"
            if normal is not None:
                line += f", {normal.mean:.1%} normal ({normal.pages} pages; from {normal.source})"
            lines.append(line)
    return "\n".join(lines)


def _progress_bar(done: int, total: int, label: str) -> None:
    width = 30
    filled = int(width * done / max(total, 1))
    click.echo(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label:<40}", err=True, nl=False)


@main.command("watch")
@click.argument("games", nargs=-1, shell_complete=complete_game)
@click.option("--paper", type=click.Choice(sorted(PAPERS)), default="a4", show_default=True)
@click.option("--layout", type=click.Choice([l.value for l in Layout]), default="duplex", show_default=True)
@click.option("--flip", type=click.Choice([f.value for f in Flip]), default=None,
              help="Default: the printer profile's, else long.")
@click.option("--printer", metavar="NAME", help="Correct the back pages with printer profile NAME.")
@click.option("--ink", type=click.Choice([i.value for i in Ink]), default="normal", show_default=True)
@click.option("--cutter", type=click.Choice(["silhouette", "cricut", "scanncut"]), default=None,
              help="As `pnp build --cutter`: the machine's registration marks and cutting files, rebuilt on each save.")
@click.option("--marks", type=click.Choice(["3", "4"]), default=None,
              help="silhouette: 3 marks (Type 1, the default) or 4 (four-point registration).")
@click.option("--out", type=click.Path(file_okay=False), help="Write to DIR/<game>/ instead of output/<game>/.")
@click.pass_context
def watch_command(ctx, games, paper, layout, flip, printer, ink, cutter, marks, out):
    """Rebuild GAMES (default: all) whenever a source or template is saved.

    Only the files that depend on what changed are rebuilt. A validation
    error is printed and watching goes on; the last good PDFs stay. Ctrl-C
    stops.

    \b
    Examples:
      pnp watch
      pnp watch culture-war --paper letter
      pnp watch --cutter silhouette --marks 4   # sheets and cutting files for a cutting machine
    """
    from pnp.pipeline.options import make_options  # lazy: loaded only when this command runs
    from pnp.extras.watch import watch  # lazy: as above

    project = _project(ctx)
    out_dir = Path(out) if out else project / "output"
    options = make_options(paper, layout, flip, printer, ink, "deck", cutter, int(marks) if marks else None)

    def show(outcome, changed):
        if changed:
            click.echo(f"changed: {', '.join(changed)}")
        if isinstance(outcome, PnpError):
            click.echo(f"error (previous PDFs kept):\n{outcome}", err=True)
        else:
            click.echo(summary(outcome))
        click.echo("watching card_sources/ and templates/ (Ctrl-C to stop)")

    watch(project, list(games) or None, out_dir, options, show)


@main.command()
@click.argument("card", required=False, shell_complete=complete_card)
@click.option("--sheet", "sheet_game", metavar="GAME", shell_complete=complete_game, help="Preview the first sheet of GAME's first deck instead.")
@click.option("--dpi", type=click.IntRange(30, 600), default=150, show_default=True)
@click.option("--guides", is_flag=True, help="Draw each face with its bleed, and the bleed, trim and safe zone over it.")
@click.option("--out", "out_file", type=click.Path(dir_okay=False), help="PNG file (default: output/<game>/preview-<id>.png).")
@click.option("--cvd", type=click.Choice(["protan", "deutan", "tritan", "grey"]),
              help="Show it as a colour-blind player sees it (Machado et al. 2009 simulation, or greyscale).")
@click.pass_context
def preview(ctx, card, sheet_game, dpi, guides, out_file, cvd):
    """Render one CARD (id or QR text), face and back side by side, to PNG,
    without building its deck.

    \b
    Examples:
      pnp preview anarchy-window-smasher
      pnp preview anarchy-window-smasher --dpi 300 --out /tmp/card.png
      pnp preview anarchy-window-smasher --guides   # bleed, trim and safe zone drawn over it
      pnp preview --sheet culture-war
      pnp preview anarchy-window-smasher --cvd deutan   # as a deuteranope sees it
    """
    from pnp.extras.preview import preview as preview_one, preview_sheet  # lazy: loaded only when this command runs

    project = _project(ctx)
    if bool(card) == bool(sheet_game):
        raise click.UsageError("give a CARD id, or --sheet GAME")
    warnings: list[str] = []
    if sheet_game:
        if guides:
            raise click.UsageError("--guides is for one CARD, not --sheet")
        image = preview_sheet(project, sheet_game, dpi, warnings=warnings)
        target = Path(out_file) if out_file else project / "output" / sheet_game / "preview-sheet.png"
    else:
        shown = preview_one(project, card, dpi, guides)
        image, found, warnings = shown.image, shown.card, list(shown.warnings)
        target = Path(out_file) if out_file else project / "output" / found.game / f"preview-{found.id}.png"
    if cvd:
        from pnp.extras.cvdimage import simulate_image  # lazy: only --cvd needs it
        image = simulate_image(image, cvd)
        target = target if out_file else target.with_name(f"{target.stem}-{cvd}.png")
    target.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    write_atomic(target, buffer.getvalue())
    click.echo("\n".join([f"{target}  ({image.width} x {image.height} px at {dpi} dpi)", *warnings]))


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
    from pnp.pipeline.prepare import validate as run_validate  # lazy: loaded only when this command runs
    from pnp.extras.listing import unchecked_warnings  # lazy: as above

    warnings: list[str] = []
    sources = run_validate(_project(ctx), list(games) or None, warnings)
    n = sum(len(g.cards) for g in sources.games.values())
    for line in [*unchecked_warnings(sources), *warnings]:
        click.echo(line, err=True)
    click.echo(f"ok: {len(sources.games)} games, {n} cards")


@main.command("diff")
@click.argument("rev", required=False)
@click.option("--game", "games", multiple=True, shell_complete=complete_game, help="Only this game (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="One object per changed card: game, deck, card, name, change, fields.")
@click.option("--out", type=click.Path(file_okay=False), help="Where the last build is (default: output/).")
@click.pass_context
def diff_command(ctx, rev, games, as_json, out):
    """Say, card by card, what changed since git revision REV, or (no REV)
    since the last build: text, each number, the picture (by its content),
    the quantity, cards added and removed.

    \b
    Examples:
      pnp diff                 # since the last `pnp build`
      pnp diff HEAD~3 --game culture-war
      pnp diff v1.0 --json | jq '.[] | select(.change == "changed")'
    """
    from pnp.extras.carddiff import summary_lines  # lazy: loaded only when this command runs
    from pnp.extras.errata import card_diff  # lazy: as above

    project = _project(ctx)
    changes = card_diff(project, list(games) or None, rev, Path(out) if out else project / "output")
    if as_json:
        click.echo(json.dumps([c.to_json() for c in changes], indent=2, ensure_ascii=False))
    else:
        click.echo("\n".join(summary_lines(changes)))


@main.command("list")
@click.argument("game", required=False)
@click.option("--json", "as_json", is_flag=True,
              help="One object per card with every field from its source, its effects and its coverage.")
@click.pass_context
def list_cards(ctx, game, as_json):
    """List the cards of GAME (default: every game), then how much of each
    deck's rules text the referee applies (full / prompt / none / unchecked).

    \b
    Examples:
      pnp list culture-war
      pnp list --json | jq '.[] | select(.type == "unit")'
    """
    from pnp.extras.listing import card_rows, card_table  # lazy: loaded only when this command runs

    rows = card_rows(_project(ctx), game)
    if as_json:
        click.echo(json.dumps(rows, indent=2))
    else:
        click.echo(card_table(rows))


@main.command()
@click.option("--paper", type=click.Choice(sorted(PAPERS)), default="a4", show_default=True)
@click.option("--flip", type=click.Choice([f.value for f in Flip]), default="long", show_default=True,
              help="How your printer turns the sheet for duplex printing.")
@click.option("--printer", metavar="NAME", help="Apply printer profile NAME to the back, to check it: every scale should read 0.")
@click.option("--out", "out_file", type=click.Path(dir_okay=False),
              help="PDF file (default: output/calibration-<paper>-<flip>.pdf).")
@click.pass_context
def calibrate(ctx, paper, flip, printer, out_file):
    """Write a two-page duplex calibration sheet: print it double-sided, hold
    it to the light, read how far your printer puts the backs off.

    \b
    Examples:
      pnp calibrate
      pnp calibrate --paper letter --flip short --out /tmp/cal.pdf
      pnp calibrate --printer office   # check a stored profile
    """
    from pnp.extras.calibrate import write_calibration  # lazy: loaded only when this command runs

    path = write_calibration(_project(ctx), paper, Flip(flip), printer, Path(out_file) if out_file else None)
    click.echo(f"wrote {path} (2 pages, {paper.upper()})")
    click.echo(f"print it double-sided at 100% / actual size, flipping on the {flip} edge; "
               "the instructions are on the sheet")


@main.group("printer", cls=click.Group)
def printer_group():
    """Printer profiles: how far your duplex printer puts the backs off.

    \b
    Examples:
      pnp printer add office --dx 0.75 --dy -0.5 --flip long
      pnp printer add office --dx 0.75 --dy -0.5 --scale 0.995
      pnp printer list
      pnp printer remove office

    Profiles are stored in $XDG_CONFIG_HOME/pnp/printers.json (default
    ~/.config/pnp/). Measure the values with `pnp calibrate`.
    """


@printer_group.command("add")
@click.argument("name")
@click.option("--dx", type=float, required=True, help="mm to shift the backs right (as seen on the back page); from the sheet.")
@click.option("--dy", type=float, required=True, help="mm to shift the backs up; from the sheet.")
@click.option("--scale", type=float, default=1.0, show_default=True, help="Scale the backs about the page centre (0.995 = 99.5%).")
@click.option("--flip", type=click.Choice([f.value for f in Flip]), default=None,
              help="The flip the sheet was printed with; builds then use it.")
def printer_add(name, dx, dy, scale, flip):
    """Store (or replace) printer profile NAME."""
    from pnp.layout.printers import PrinterProfile, add_profile, profiles_path  # lazy: loaded only when this command runs

    profile, replaced = add_profile(PrinterProfile(name, dx, dy, scale, Flip(flip) if flip else None))
    click.echo(f"{'replaced' if replaced else 'added'} printer {profile.name}: {_profile_text(profile)}  "
               f"({profiles_path()})")
    click.echo(f"use it: pnp build --printer {profile.name}")


@printer_group.command("list")
@click.option("--json", "as_json", is_flag=True)
def printer_list(as_json):
    """List the stored printer profiles."""
    from pnp.layout.printers import load_profiles, profiles_path  # lazy: loaded only when this command runs

    profiles = load_profiles()
    if as_json:
        click.echo(json.dumps({n: p.to_json() for n, p in profiles.items()}, indent=2))
        return
    if not profiles:
        click.echo(f"no printer profiles yet ({profiles_path()}); measure one with `pnp calibrate`")
        return
    width = max(len(n) for n in profiles)
    for name, profile in profiles.items():
        click.echo(f"{name:<{width}}  {_profile_text(profile)}")


@printer_group.command("remove")
@click.argument("name")
def printer_remove(name):
    """Delete printer profile NAME."""
    from pnp.layout.printers import remove_profile  # lazy: loaded only when this command runs

    gone = remove_profile(name)
    click.echo(f"removed printer {gone.name}")


def _profile_text(p) -> str:
    flip = f", flip {p.flip.value}" if p.flip else ""
    return f"dx {p.dx:+.2f} mm, dy {p.dy:+.2f} mm, scale {p.scale:g}{flip}"


@main.command("export")
@click.argument("game", shell_complete=complete_game)
@click.option("--shop", type=click.Choice([s.value for s in Shop]), required=True,
              help="tgc: PNGs 825x1125 (poker); mpc: PNGs 822x1122; drivethru: a PDF per deck; pdf-single: a PDF per card; tts: Tabletop Simulator deck sheets and saved objects.")
@click.option("--deck", "decks", multiple=True, metavar="ID", help="Only this deck (repeatable).")
@click.option("--out", type=click.Path(file_okay=False), help="Write to DIR/<game>/shop-<shop>/ instead of output/...")
@click.option("--url-base", metavar="URL", help="tts: image URLs are URL/<file> (where you uploaded them) instead of file:///...")
@click.option("--copies", "per_copy", is_flag=True,
              help="tgc, mpc: one image per printed copy, each with its own copy-numbered QR code (default: one per card, with its quantity).")
@click.pass_context
def export_command(ctx, game, shop, decks, out, url_base, per_copy):
    """Write print-shop files for GAME into output/<game>/shop-<shop>/, one
    zip per deck beside them, and order.csv with the quantities; or, with
    --shop tts, Tabletop Simulator deck sheets and saved objects.

    \b
    Examples:
      pnp export culture-war --shop tgc
      pnp export cold-war --shop drivethru --deck westmark
      pnp export debate --shop pdf-single
      pnp export culture-war --shop tts --url-base https://example.org/cw
    """
    project = _project(ctx)
    target = Path(out) if out else project / "output"
    if per_copy and Shop(shop) not in (Shop.TGC, Shop.MPC):
        raise click.UsageError(f"--copies is for the image shops (tgc, mpc); {shop} files are one page per copy already")
    if Shop(shop) is Shop.TTS:
        from pnp.extras.tts import export_tts  # lazy: loaded only when this command runs

        report = export_tts(project, game, target, list(decks) or None, url_base)
        click.echo(f"Tabletop Simulator: {report.folder}\n  {len(report.decks)} decks, {report.sheets} sheets, "
                   f"{report.objects} objects; load {game}.json (or one <deck>.json) from Saved Objects\n"
                   f"wrote {len(report.files)} files in {report.seconds:.2f} s")
        return
    if url_base:
        raise click.UsageError("--url-base is for --shop tts")
    from pnp.extras.preflight import export_checked  # lazy: loaded only when this command runs

    report, checked = export_checked(project, game, Shop(shop), target, list(decks) or None, per_copy)
    click.echo(export_summary(report) + "\n" + preflight_summary(checked))


def export_summary(report) -> str:
    lines = [f"{report.shop.name} ({report.shop.shop.value}): {report.folder}"]
    for d in report.decks:
        lines.append(f"  {d.deck}: {d.cards} card{'' if d.cards == 1 else 's'}, {d.copies} copies, {d.size} -> {d.zip.name}")
    lines.append(f"  what to upload and how many to order: {report.csv.name}")
    lines.append(f"wrote {len(report.files)} files in {report.seconds:.2f} s")
    return "\n".join(lines)


def preflight_summary(report) -> str:
    n = len(report.findings)
    lines = [f"  {f}" for f in report.findings]
    lines.append(f"preflight for {report.shop.name}: {report.files} files, "
                 + (f"{n} finding{'' if n == 1 else 's'} (above)" if n else "every rule passed")
                 + f", in {report.seconds:.2f} s")
    return "\n".join(lines)


@main.command("preflight")
@click.argument("game", shell_complete=complete_game)
@click.option("--shop", type=click.Choice([s.value for s in Shop if s is not Shop.TTS]), required=True)
@click.option("--out", type=click.Path(file_okay=False), help="The export is in DIR/<game>/shop-<shop>/ (default: output/).")
@click.pass_context
def preflight_command(ctx, game, shop, out):
    """Check GAME's export for SHOP against the shop's rules, one finding
    per line (file, page, card, rule). Exits 1 when anything is found.
    `pnp export` runs it too.

    \b
    Examples:
      pnp preflight culture-war --shop drivethru
      pnp preflight debate --shop tgc --out /tmp/shops
    """
    from pnp.extras.preflight import preflight  # lazy: loaded only when this command runs

    project = _project(ctx)
    report = preflight(project, game, Shop(shop), Path(out) if out else project / "output")
    click.echo(preflight_summary(report))
    if report.findings:
        ctx.exit(1)


@main.command("convert")
@click.argument("game", shell_complete=complete_game)
@click.argument("deck")
@click.option("--to", "fmt", type=click.Choice(["yaml", "csv", "xlsx"]), required=True, help="The new format.")
@click.option("--force", is_flag=True, help="Replace a file of that name that is already there.")
@click.pass_context
def convert_command(ctx, game, deck, fmt, force):
    """Convert DECK of GAME to another format: YAML, CSV or Excel.

    The new file is written beside the old one and read back; only if every
    card is identical does game.yaml point at it. The old file stays, unused.
    In a spreadsheet the first row names the fields, list fields separate
    their items with `;`, effects are inline YAML and an empty cell is unset.

    \b
    Examples:
      pnp convert culture-war anarchy --to xlsx
      pnp convert culture-war anarchy --to yaml
    """
    from pnp.sources.convert import convert_deck  # lazy: loaded only when this command runs

    project = _project(ctx)
    report = convert_deck(project, game, deck, fmt, force)
    rel = lambda p: p.relative_to(project) if p.is_relative_to(project) else p  # noqa: E731
    click.echo(f"wrote {rel(report.new)} ({report.cards} cards, read back identical); "
               f"the game file now reads it; {rel(report.old)} is no longer used")


@main.command("new-game")
@click.argument("slug")
@click.option("--name", help="The game's name (default: from the slug, dragon-market -> Dragon Market).")
@click.pass_context
def new_game_command(ctx, slug, name):
    """Start a new game SLUG: a game file, a starter deck of four cards, a
    card face and back in the shared look, and a rule-sheet stub. In a folder
    with no project yet, it starts the project too. It builds at once.

    \b
    Examples:
      pnp new-game dragon-market
      pnp build dragon-market
    """
    from pnp.extras.newgame import new_game  # lazy: loaded only when this command runs

    given = ctx.obj.get("project")
    made = new_game(Path(given) if given else Path.cwd(), slug, name)
    rel = lambda p: p.relative_to(made.project)  # noqa: E731
    lines = [f"{'started a project in ' + str(made.project) + ' with' if made.new_project else 'added'} "
             f"game {made.slug}:"]
    lines += [f"  {rel(p)}" for p in made.files]
    lines.append(f"next: pnp build {made.slug}   (then edit card_sources/{made.slug}/starter.yaml and build again)")
    click.echo("\n".join(lines))


@main.command("clean")
@click.pass_context
def clean_command(ctx):
    """Remove the project's caches (.pnp-cache/, and its folder in the user
    cache for a read-only project). They only make builds faster: nothing is
    lost, the next build just does more work. output/ is left alone.

    \b
    Example:
      pnp clean
    """
    from pnp.caches import clean  # lazy: loaded only when this command runs

    removed = clean(_project(ctx))
    click.echo("\n".join(f"removed {p}" for p in removed) if removed else "no caches to remove")


if __name__ == "__main__":  # pragma: no cover
    main()
