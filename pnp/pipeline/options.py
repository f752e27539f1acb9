"""What a build is asked for (paper, layout, flip, printer, ink, backs), and
where each game's files go for those options."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.errors import PnpError
from pnp.layout.printers import PrinterProfile, get_profile
from pnp.model import PAPERS, Backs, Flip, Ink, Layout, Size

INK_SAVER_DIR = "ink-saver"   # an ink-saver build goes into <game>/ink-saver/, beside the normal one
COMMON_BACK_DIR = "common-back"  # decks with one neutral back go into <game>/common-back/
CUTTER_DIR = "cutter-{}"         # sheets for a cutting machine go into <game>/cutter-<machine>/


@dataclass(frozen=True)
class BuildOptions:
    paper: Size = PAPERS["a4"]
    layout: Layout = Layout.DUPLEX
    flip: Flip = Flip.LONG
    printer: PrinterProfile | None = None   # corrects the back pages of duplex decks
    ink: Ink = Ink.NORMAL
    backs: Backs = Backs.DECK
    cutter: Any = None   # pnp.layout.cutters.CutterSpec: decks laid out for that cutting machine


def make_options(paper: str = "a4", layout: str = "duplex", flip: str | None = None,
                 printer: str | None = None, ink: str = "normal", backs: str = "deck",
                 cutter: str | None = None, marks: int | None = None) -> BuildOptions:
    """Build options from command-line values; `printer` names a stored profile.
    Without --flip, a profile's own flip is used; a different one is refused."""
    spec = None
    if cutter is not None or marks is not None:
        from pnp.layout.cutters import Cutter, cutter_spec  # lazy: only a cutter build needs it

        if cutter is None:
            raise PnpError("--marks chooses a cutting machine's marks: give --cutter too")
        if Layout(layout) is not Layout.DUPLEX:
            raise PnpError(f"--cutter lays cards out for {cutter}'s marks; the {layout} layout has its own "
                           "(leave out --layout, or --cutter)")
        spec = cutter_spec(Cutter(cutter), marks)
    profile = get_profile(printer) if printer else None
    chosen = Flip(flip) if flip else (profile.flip if profile and profile.flip else Flip.LONG)
    if profile is not None:
        if Layout(layout) is not Layout.DUPLEX:
            raise PnpError(f"printer profile {profile.name!r} corrects duplex back pages; "
                           f"the {layout} layout has none (leave out --printer)")
        if profile.flip is not None and profile.flip is not chosen:
            raise PnpError(f"printer {profile.name!r} was calibrated flipping on the {profile.flip.value} edge; "
                           f"build with --flip {profile.flip.value}, or calibrate again with --flip {chosen.value}")
    return BuildOptions(PAPERS[paper], Layout(layout), chosen, profile, Ink(ink), Backs(backs), spec)


def game_dir(out_dir: Path, slug: str, options: BuildOptions) -> Path:
    """Where a game's files go: <out>/<game>/, or <out>/<game>/ink-saver/, and
    for decks with one common back a folder `common-back/` in that."""
    base = out_dir / slug / INK_SAVER_DIR if options.ink is Ink.SAVER else out_dir / slug
    if options.cutter is not None:
        base = base / CUTTER_DIR.format(options.cutter.cutter.value)
    return base / COMMON_BACK_DIR if options.backs is Backs.COMMON else base
