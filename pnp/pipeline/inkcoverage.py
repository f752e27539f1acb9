"""Measuring ink coverage: the mean darkness (1 - luminance) of a build's
rendered pages, for an ink-saver build and the normal build beside it."""
from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

import pypdfium2 as pdfium

from pnp.pipeline.incremental import BuildState, game_digest
from pnp.pipeline.manifest import MANIFEST
from pnp.pipeline.options import BuildOptions, game_dir
from pnp.model import Ink

COVERAGE_DPI = 30


def page_coverages(pdf: bytes | Path, dpi: int = COVERAGE_DPI) -> list[float]:
    """The mean darkness (0 white .. 1 black) of each page, rendered at `dpi`."""
    doc = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
    try:
        out = []
        for page in doc:
            image = page.render(scale=dpi / 72).to_pil().convert("L")
            hist = image.histogram()
            n = image.width * image.height
            out.append(sum((255 - v) * c for v, c in enumerate(hist)) / (255 * n) if n else 0.0)
            page.close()
        return out
    finally:
        doc.close()


@dataclass(frozen=True)
class Coverage:
    pages: int
    mean: float           # mean darkness over the pages, 0..1
    source: str           # where the figure comes from, in words


@dataclass
class InkReport:
    saver: dict[str, Coverage] = field(default_factory=dict)    # game -> coverage
    normal: dict[str, Coverage] = field(default_factory=dict)


def _files_coverage(paths: list[Path]) -> tuple[int, float]:
    values = [v for path in paths for v in page_coverages(path)]
    return len(values), (sum(values) / len(values) if values else 0.0)


def _built_files(folder: Path) -> list[Path] | None:
    """The PDFs a build left in `folder`, per its manifest; None if there is no complete build."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    files = [folder / f["file"] for f in manifest.get("files", [])]
    if not files or not all(p.is_file() for p in files):
        return None
    return files


def _fresh(project: Path, slug: str, folder: Path, options: BuildOptions) -> bool:
    """Whether `folder` holds an up-to-date build of the game with exactly these options."""
    return BuildState.load(folder).up_to_date(game_digest(project, slug, options), folder)


def measure_coverage(project: Path, games: list[str], out_dir: Path, options: BuildOptions,
                     build_normal: Callable[[list[str], Path], None]) -> InkReport:
    """Coverage of the ink-saver files just built, and of the normal build
    beside them: measured from its files when that build is up to date with
    the same options but normal ink, otherwise made by
    `build_normal(games, folder)` (the normal build's stages, not `build` again)
    in a temporary folder and measured there."""
    report = InkReport()
    normal_options = replace(options, ink=Ink.NORMAL)
    missing = []
    for slug in games:
        saver_files = _built_files(game_dir(out_dir, slug, options)) or []
        pages, mean = _files_coverage(saver_files)
        report.saver[slug] = Coverage(pages, mean, f"{game_dir(out_dir, slug, options)}")
        normal_dir = game_dir(out_dir, slug, normal_options)
        normal_files = _built_files(normal_dir) if _fresh(project, slug, normal_dir, normal_options) else None
        if normal_files:
            pages, mean = _files_coverage(normal_files)
            report.normal[slug] = Coverage(pages, mean, f"the normal build in {normal_dir}")
        else:
            missing.append(slug)
    if missing:
        with tempfile.TemporaryDirectory(prefix="pnp-ink-") as tmp:
            build_normal(missing, Path(tmp))
            for slug in missing:
                pages, mean = _files_coverage(_built_files(Path(tmp) / slug) or [])
                report.normal[slug] = Coverage(pages, mean, "a normal build rendered just now for comparison "
                                                            f"(no up-to-date normal build in {out_dir / slug})")
    return report
