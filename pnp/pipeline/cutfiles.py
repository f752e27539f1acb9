"""The files a cutter build writes beside a deck's PDF: for each fronts
page its cutting file (`deck-<id>-cut-<n>.svg`), and for a Cricut, whose
Design Space prints the sheet itself, the page's print area as an image
(`deck-<id>-print-<n>.png`, 300 dpi) to upload as the Print Then Cut image;
and what the manifest records of the sheet (marks, settings, radius)."""
from __future__ import annotations

import io
from pathlib import Path

from pnp.layout.cutters import Cutter, CutterLayout, software_settings

PRINT_DPI = 300
MM_PER_INCH = 25.4


def cut_name(path: Path, sheet: int) -> str:
    return f"{path.stem}-cut-{sheet}.svg"


def print_name(path: Path, sheet: int) -> str:
    return f"{path.stem}-print-{sheet}.png"


def is_cutter_file(name: str, deck_file: str) -> bool:
    """Whether output `name` is one of the cutter files of deck file `deck_file`."""
    stem = deck_file[:-4]
    return name.startswith(f"{stem}-cut-") or name.startswith(f"{stem}-print-")


def cutter_entry(layout: CutterLayout) -> dict:
    spec = layout.spec
    return {"machine": spec.cutter.value, "software": spec.software, "marks": spec.marks,
            "arm_mm": layout.arm, "thickness_mm": spec.thickness, "inset_mm": spec.inset,
            "corner_radius_mm": layout.radius, "gap_mm": layout.gap, "area_mm": [round(v, 3) for v in layout.area],
            "mark_boxes_mm": [[round(v, 3) for v in r] for m in layout.marks for r in m.rects],
            "settings": software_settings(layout)}


def _fronts_pages(layout: CutterLayout) -> list[int]:
    return [s.page for s in layout.deck.sheets if s.kind != "backs"]


def cutter_files(path: Path, pdf: bytes, layout: CutterLayout, title: str, key: str) -> list[tuple]:
    """(file name, bytes, built info, state entry) for each extra file."""
    from pnp.render.cutsheet import cut_svg  # lazy: planning a build asks only for the names, without ReportLab

    out = []
    for n, page in enumerate(_fronts_pages(layout), start=1):
        cards = len(layout.fronts_on(page))
        name = cut_name(path, n)
        out.append((name, cut_svg(layout, page, title), {"kind": "cut", "pages": 0, "cards": cards},
                    {"key": key, "file": {"file": name, "kind": "cut", "deck_file": path.name, "page": page,
                                          "cards": cards}, "cards": []}))
    if layout.spec.cutter is Cutter.CRICUT:
        for n, (page, image) in enumerate(_area_images(pdf, layout), start=1):
            name = print_name(path, n)
            out.append((name, image, {"kind": "print-image", "pages": 0, "cards": 0},
                        {"key": key, "file": {"file": name, "kind": "print-image", "deck_file": path.name,
                                              "page": page, "dpi": PRINT_DPI}, "cards": []}))
    return out


def _area_images(pdf: bytes, layout: CutterLayout):
    """Each fronts page's print area as a PNG at PRINT_DPI."""
    import pypdfium2 as pdfium  # lazy: only a Cricut build rasterizes its pages

    x0, y0, x1, y1 = layout.area
    paper = layout.deck.paper
    scale = PRINT_DPI / MM_PER_INCH
    doc = pdfium.PdfDocument(pdf)
    try:
        for page in _fronts_pages(layout):
            image = doc[page - 1].render(scale=PRINT_DPI / 72).to_pil().convert("RGB")
            left, top = round(x0 * scale), round((paper.height - y1) * scale)
            box = (left, top, left + round((x1 - x0) * scale), top + round((y1 - y0) * scale))
            data = io.BytesIO()
            image.crop(box).save(data, format="PNG", dpi=(PRINT_DPI, PRINT_DPI))
            yield page, data.getvalue()
    finally:
        doc.close()
