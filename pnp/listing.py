"""Card listings for `pnp list`."""
from __future__ import annotations

from pathlib import Path

from pnp.sources import load_sources

COMMON = ("id", "name", "type", "quantity", "text", "flavor")


def card_rows(project: Path, game: str | None) -> list[dict]:
    sources = load_sources(project, [game] if game else None)
    rows = []
    for g in sources.games.values():
        for card in g.cards:
            row = {"game": g.slug, "deck": card.deck, "revision": card.revision}
            row.update(card.fields)
            rows.append(row)
    return rows


def _stats(row: dict) -> str:
    parts = []
    for key, value in row.items():
        if key in COMMON or key in ("game", "deck", "revision", "effects") or value in (None, [], ""):
            continue
        parts.append(f"{key}={','.join(map(str, value)) if isinstance(value, list) else value}")
    return " ".join(parts)


def card_table(rows: list[dict]) -> str:
    header = ("ID", "NAME", "TYPE", "DECK", "QTY", "STATS")
    table = [header] + [(r["id"], r["name"], r["type"], r["deck"], str(r["quantity"]), _stats(r)) for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(header) - 1)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row[:-1], widths)) + "  " + row[-1] for row in table]
    lines.append(f"{len(rows)} cards, {sum(r['quantity'] for r in rows)} copies")
    return "\n".join(line.rstrip() for line in lines)
