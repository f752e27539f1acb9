"""A DriveThruCards deck as a task draws it (pnp.extras.export): its
pictures made ready for the press (pnp.extras.presspictures), each distinct
face drawn once as a page, and the order of the deck's pages (back 1,
front 1, back 2, front 2, ...: each copy its own back) as indices into
those pages. The write stage then has Ghostscript make every deck PDF/X-1a
in one run and lays each deck's pages out in that order
(pnp.extras.pdfx.to_pdfx_files)."""
from __future__ import annotations

from pathlib import Path

from pnp.extras.shopdraw import pdf_pages
from pnp.model import Size


def draw_deck(cards, fronts: list, backs: dict | None, size: Size, bleed: float, ctx, title: str,
              pictures: Path) -> tuple[bytes, list[int]]:
    """(the PDF of the deck's distinct faces, one a page; the deck's pages as indices into them)."""
    from pnp.extras.pdfx import INK_LIMIT, cmyk_profile  # lazy: only this shop needs them
    from pnp.extras.presspictures import press_face  # lazy: as above

    profile = cmyk_profile()
    ready: dict[int, object] = {}

    def press(face):   # each distinct face once: identical backs stay one page
        if id(face) not in ready:
            ready[id(face)] = press_face(face, pictures, profile, INK_LIMIT)
        return ready[id(face)]

    index: dict[int, int] = {}
    faces: list = []
    order: list[int] = []
    for card, face in zip(cards, fronts):
        for _ in range(card.quantity):
            for shown in ([press(backs[card.id])] if backs is not None else []) + [press(face)]:
                if id(shown) not in index:
                    index[id(shown)] = len(faces)
                    faces.append(shown)
                order.append(index[id(shown)])
    return pdf_pages(faces, size, bleed, ctx, title, a85=False), order
