"""Card listings for `pnp list`."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from pnp.model import GAME_SLUGS, Coverage, Sources
from pnp.sources.loader import load_sources

COMMON = ("id", "name", "type", "quantity", "text", "flavor")


def card_rows(project: Path, game: str | None) -> list[dict]:
    sources = load_sources(project, [game] if game else None)
    rows = []
    for g in sources.games.values():
        for card in g.cards:
            row = {"game": g.slug, "deck": card.deck, "revision": card.revision}
            row.update(card.fields)
            row.setdefault("effects", [])
            row["coverage"] = card.coverage.value
            rows.append(row)
    return rows


def _stats(row: dict) -> str:
    parts = []
    for key, value in row.items():
        if key in COMMON or key in ("game", "deck", "revision", "effects", "coverage", "art", "code") or value in (None, [], ""):
            continue
        parts.append(f"{key}={','.join(map(str, value)) if isinstance(value, list) else value}")
    return " ".join(parts)


def card_table(rows: list[dict]) -> str:
    header = ("CODE", "ID", "NAME", "TYPE", "DECK", "QTY", "STATS")
    table = [header] + [(r.get("code") or "", r["id"], r["name"], r["type"], r["deck"], str(r["quantity"]), _stats(r))
                        for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(header) - 1)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row[:-1], widths)) + "  " + row[-1] for row in table]
    lines.append(f"{len(rows)} cards, {sum(r['quantity'] for r in rows)} copies")
    lines += coverage_lines(rows)
    return "\n".join(line.rstrip() for line in lines)


def coverage_counts(rows: list[dict]) -> dict[tuple[str, str], Counter]:
    """(game, deck) -> how many of its cards have each coverage, in listing order."""
    counts: dict[tuple[str, str], Counter] = {}
    for r in rows:
        counts.setdefault((r["game"], r["deck"]), Counter())[r["coverage"]] += 1
    return counts


def coverage_lines(rows: list[dict]) -> list[str]:
    """The rules-text coverage per deck (full / prompt / none / unchecked), for
    the games the referee plays: for any other it means nothing."""
    counts = coverage_counts([r for r in rows if r["game"] in GAME_SLUGS])
    if not counts:
        return []
    several = len({game for game, _ in counts}) > 1
    names = [f"{game}/{deck}" if several else deck for game, deck in counts]
    width = max(len(n) for n in names)
    out = ["coverage of the rules text (full: applied by the referee, which asks at most for the choice it "
           "then applies; prompt: partly left to a person; "
           "none: no rules text; unchecked: hand-written text, no effects.yaml):"]
    for name, count in zip(names, counts.values()):
        out.append(f"  {name:<{width}}  " + "  ".join(f"{c.value} {count[c.value]}" for c in Coverage))
    return out


def unchecked_warnings(sources: Sources) -> list[str]:
    """One line per game the referee plays, without effects.yaml, whose cards
    have hand-written text (a designer's own game has no referee to check against)."""
    out = []
    for slug, game in sources.games.items():
        if game.effects_file is not None or slug not in GAME_SLUGS:
            continue
        n = sum(1 for c in game.cards if c.coverage is Coverage.UNCHECKED)
        if n:
            out.append(f"warning: {slug}: {n} of {len(game.cards)} cards have hand-written text that nothing checks "
                       f"against the referee (no card_sources/{slug}/effects.yaml)")
    return out
