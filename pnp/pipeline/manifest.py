"""What a build tells the reader: each game's manifest.json (every printed
copy with its QR payload and where its front and back sit; every file with
its paper, layout and pages), and the file names outputs are written under."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from pnp import __version__
from pnp.layout.printers import BackShift, back_shift
from pnp.layout.sheets import DeckLayout
from pnp.model import Card, Deck, DocKind, Document, Game, Ink, Layout
from pnp.sources.qrpayload import format_payload

MANIFEST = "manifest.json"


def deck_filename(deck: Deck) -> str:
    return f"deck-{deck.id}.pdf"


def doc_filenames(doc: Document) -> list[str]:
    if doc.kind is DocKind.RULES:
        return [f"rules-{doc.id}.pdf"]
    return [f"{doc.kind.value}-{doc.id}.pdf"]


def belongs(name: str, doc: Document) -> bool:
    """Whether output file `name` is one of `doc`'s (its main file or a paper variant)."""
    main = doc_filenames(doc)[0]
    return name == main or name.startswith(main[:-4] + "-")


def copy_numbers(copies: list[Card]) -> list[int]:
    """Which printed copy of its card each entry is: 1, 2, ... per card id."""
    seen: dict[str, int] = {}
    out = []
    for card in copies:
        seen[card.id] = seen.get(card.id, 0) + 1
        out.append(seen[card.id])
    return out


def copy_payloads(copies: list[Card]) -> list[str]:
    """The QR payload printed on each copy: it names the very card on the table."""
    return [format_payload(card.id, card.revision, n) for card, n in zip(copies, copy_numbers(copies))]


def deck_back_shift(plan: DeckLayout, options) -> BackShift | None:
    """The printer correction for this deck's back pages, if any apply."""
    if options.printer is None or plan.layout is not Layout.DUPLEX or not plan.backs:
        return None
    return back_shift(options.printer, plan.paper)


def file_entry(path: Path, deck: Deck, plan: DeckLayout, options) -> dict:
    """A deck file's entry in the manifest's `files` (`options`: pnp.pipeline.options.BuildOptions)."""
    entry = {
        "file": path.name, "kind": "deck", "deck": deck.id, "paper": options.paper.name,
        "paper_mm": [round(plan.paper.width, 3), round(plan.paper.height, 3)],
        "layout": plan.layout.value if plan.backs else "one-sided",
        "flip": plan.flip.value if plan.layout is Layout.DUPLEX and plan.backs else None,
        "pages": plan.pages, "cards_per_page": plan.per_page, "sides": 2 if plan.backs else 1,
    }
    shift = deck_back_shift(plan, options)
    if shift is not None:
        entry["printer"] = {"name": options.printer.name, "dx_mm": shift.dx, "dy_mm": shift.dy,
                            "scale": shift.scale, "applied_to": "back pages, about the page centre"}
    if options.ink is Ink.SAVER:
        entry["ink"] = options.ink.value
    return entry


def card_entries(path: Path, copies: list[Card], plan: DeckLayout, game: Game,
                 shift: BackShift | None = None) -> list[dict]:
    """The manifest's `cards` for one deck file: one per printed copy."""
    out = []
    numbers, payloads = copy_numbers(copies), copy_payloads(copies)
    backs = plan.backs or [None] * len(plan.fronts)
    for front, back in zip(plan.fronts, backs):
        card = copies[front.copy]
        out.append({
            "id": card.id, "copy": numbers[front.copy], "deck": card.deck,
            "qr": payloads[front.copy],
            "file": path.name,
            "front": {"page": front.page, "trim_mm": [round(v, 3) for v in front.slot.trim]},
            "back": None if back is None else {"page": back.page, "trim_mm": [round(v, 3) for v in _shifted(back.slot.trim, shift)],
                                               "rotation": back.slot.rotate},
        })
    return out


def _shifted(box, shift: BackShift | None):
    return box if shift is None else shift.box(box)


def game_manifest(game: Game, options, outputs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A game's manifest.json, from the build state's entries of its outputs (in file order)."""
    return {"game": game.slug, "name": game.name, "pnp_version": __version__,
            "card_size_mm": [game.card_size.width, game.card_size.height],
            "ink": options.ink.value,
            "files": [e["file"] for e in outputs.values()],
            "cards": [c for e in outputs.values() for c in e["cards"]]}
