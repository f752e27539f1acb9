"""`pnp diff` and `pnp build --changed-since REV`: what changed per card, and
the files a designer hands players after a playtest.

    output/<game>/changed-<deck>.pdf   only the changed and new cards of the deck
                                       (every copy), laid out as a build lays
                                       them out: duplex backs aligned, cut marks
    output/<game>/errata-<game>.pdf    each changed card, old and new, in words

Everything is read and drawn before anything is written; nothing is written
when no card changed.
"""
from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from pnp.errors import PnpError, Problems, ValidationFailed
from pnp.extras.carddiff import (CardChange, Change, describe, diff, field_word, last_build_snapshots, plain,
                                 revision_sources, snapshots)
from pnp.model import Game, Ink
from pnp.pipeline.options import BuildOptions, game_dir
from pnp.write import write_atomic


def card_diff(project: Path, games: list[str] | None, rev: str | None, out_dir: Path) -> list[CardChange]:
    """Per card, what changed since git revision `rev`, or (no rev) since the last build into `out_dir`."""
    from pnp.pipeline.stages import check_games  # lazy: the diff's own imports stay small
    from pnp.sources.loader import load_sources  # lazy: YAML

    wanted = check_games(project, games)
    now = load_sources(project, wanted)
    new = snapshots(now, project, wanted)
    if rev is None:
        old = {}
        for slug in wanted:
            found = last_build_snapshots(game_dir(out_dir, slug, BuildOptions()))
            if found is None:
                raise PnpError(f"no build of {slug} in {out_dir} recorded its cards yet: build it first "
                               "(`pnp build`), or give a git revision (`pnp diff HEAD~1`)")
            old[slug] = found
        return diff(old, new)
    sources, root, tmp = revision_sources(project, rev, wanted)
    try:
        return diff(snapshots(sources, root, wanted), new)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@dataclass
class ChangedReport:
    changes: list[CardChange]
    files: list[Path] = field(default_factory=list)
    seconds: float = 0.0


def _md(text: str) -> str:
    return plain(text).replace("|", "/").replace("*", "").replace("\n", " ")


def _card_words(snap_fields: dict) -> str:
    return "; ".join(f"{field_word(k)} {v}" for k, v in snap_fields.items()
                     if isinstance(v, (int, float)) and not isinstance(v, bool))


def errata_markdown(game: Game, rev: str, changes: list[CardChange]) -> str:
    """The errata sheet as the rule sheet's Markdown: one table row per change."""
    names = {c.id: c for c in game.cards}
    lines = [f"# Errata since {rev}", "",
             f"{len(changes)} card{'s' if len(changes) != 1 else ''} changed since {rev}. "
             "Replace the old copies with the reprinted ones (changed-*.pdf).", "",
             "| card | was | now |", "|---|---|---|"]
    for c in changes:
        title = f"**{_md(c.name)}** ({c.deck})"
        if c.change is Change.ADDED:
            card = names.get(c.card)
            text = _md(card.text) if card else ""
            numbers = _card_words(card.fields) if card else ""
            lines.append(f"| {title} | new card | {' · '.join(p for p in (numbers, text) if p)} |")
        elif c.change is Change.REMOVED:
            lines.append(f"| {title} | in the {c.deck} deck | no longer in the game: take its copies out |")
        else:
            for f in c.fields:
                if f.field == "art":
                    lines.append(f"| {title} | old picture | {describe(f)} |")
                elif f.field == "effects":
                    continue  # the text says it in words
                elif f.field == "quantity":
                    lines.append(f"| {title} | {f.old} copies | {f.new} copies |")
                else:
                    word = field_word(f.field)
                    lines.append(f"| {title} | {word}: {_md(str(f.old if f.old is not None else '(none)'))} "
                                 f"| {word}: {_md(str(f.new if f.new is not None else '(none)'))} |")
    return "\n".join(lines) + "\n"


def build_changed(project: Path, games: list[str] | None, out_dir: Path, options: BuildOptions, rev: str
                  ) -> ChangedReport:
    """changed-<deck>.pdf for every deck with changed or new cards, and each game's errata sheet."""
    started = time.perf_counter()
    if options.cutter is not None or options.ink is Ink.SAVER:
        raise PnpError("--changed-since makes a normal sheet of the changed cards; leave out --cutter and --ink saver")
    changes = card_diff(project, games, rev, out_dir)
    report = ChangedReport(changes)
    if not changes:
        return report
    from pnp.sources.loader import load_sources  # lazy: YAML

    by_game: dict[str, list[CardChange]] = {}
    for c in changes:
        by_game.setdefault(c.game, []).append(c)
    sources = load_sources(project, [g for g in by_game if (project / "card_sources" / g).is_dir()])
    made: list[tuple[Path, bytes]] = []
    for slug, mine in by_game.items():
        game = sources.games.get(slug)
        if game is None:
            continue  # a game gone since: nothing to print
        made += _game_files(project, game, mine, out_dir, options, rev)
    for path, data in made:  # written only once everything has drawn
        write_atomic(path, data)
        report.files.append(path)
    report.seconds = time.perf_counter() - started
    return report


def _game_files(project: Path, game: Game, changes: list[CardChange], out_dir: Path, options: BuildOptions,
                rev: str) -> list[tuple[Path, bytes]]:
    from pnp.layout.sheets import plan_deck  # lazy: drawing, only when there is something to draw
    from pnp.pipeline import manifest  # lazy: as above
    from pnp.pipeline.prepare import BAD_BACK, deck_size, prepare_back, prepare_card  # lazy: as above
    from pnp.render.decks import render_deck  # lazy: as above
    from pnp.render.rulesheet import render_rules  # lazy: as above
    from pnp.render.tools import load_tools  # lazy: as above

    tools = load_tools(project, game.slug)
    problems = Problems(project)
    folder = game_dir(out_dir, game.slug, options)
    wanted = {c.card for c in changes if c.change is not Change.REMOVED}
    out = []
    for deck in game.decks:
        cards = tuple(c for c in deck.cards if c.id in wanted)
        if not cards:
            continue
        subset = replace(deck, cards=cards)
        size = deck_size(deck, game)
        back = prepare_back(deck, game, tools, problems)
        fronts = {c.id: prepare_card(c, deck, game, tools, problems) for c in cards}
        if problems or back is BAD_BACK:
            continue
        copies = [c for c in subset.cards for _ in range(c.quantity)]
        plan = plan_deck(len(copies), size, options.paper, options.layout, options.flip, back is not None)
        data = render_deck(f"{game.name} — {deck.name}: changed since {rev}", plan, size, [c.id for c in copies],
                           back, tools.context, back_shift=manifest.deck_back_shift(plan, options),
                           face_of=fronts.__getitem__, qr_payloads=manifest.copy_payloads(copies))
        out.append((folder / f"changed-{deck.id}.pdf", data))
    if problems:
        raise ValidationFailed(problems.items)
    accent = game.decks[0].color if game.decks else "#333333"
    errata = render_rules(f"{game.name} — errata since {rev}", errata_markdown(game, rev, changes), options.paper,
                          tools.context, accent, lambda *a: None)
    out.append((folder / f"errata-{game.slug}.pdf", errata))
    return out
