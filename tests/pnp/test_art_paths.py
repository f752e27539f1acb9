"""The icons' derived file, templates/art/paths.json (pnp.faces.artpaths):
it matches every vendored SVG, drawing from it gives the very operators
svglib gives, an icon it does not hold (or holds for other bytes) is read
by svglib, and the rebuild keys notice an icon's change."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from pnp.pipeline.options import BuildOptions
from pnp.pipeline.orchestrator import build
from pnp.faces import artpanel, artpaths

ROOT = Path(__file__).resolve().parents[2]
ART = ROOT / "templates" / "art"
SVGS = sorted(ART.glob("*.svg"))
SAMPLE = [SVGS[i] for i in (0, len(SVGS) // 3, len(SVGS) // 2, -1)]
COLORS = ["#1d1d1d", "#ffffff", "#C0392B", "#1b2a4a"]


def test_the_derived_file_holds_every_vendored_svg_by_its_hash():
    entries = artpaths.entries(ART)
    assert sorted(entries) == sorted(p.stem for p in SVGS), "run: python scripts/vendor_art.py --derived-only"
    for svg in SVGS:
        assert entries[svg.stem]["sha256"] == hashlib.sha256(svg.read_bytes()).hexdigest(), (
            f"{svg.name} changed since templates/art/paths.json was written: "
            "run python scripts/vendor_art.py --derived-only")


def test_the_derived_file_is_what_vendoring_writes_now(checkout):
    """Regenerated from the SVGs (with this svglib), byte for byte: it cannot go stale unnoticed."""
    assert artpanel.derived_file(ART) == (ART / artpaths.DERIVED).read_bytes(), \
        "run: python scripts/vendor_art.py --derived-only"


@pytest.mark.parametrize("svg", SAMPLE, ids=lambda p: p.stem)
def test_drawing_from_the_derived_file_gives_svglibs_operators(svg):
    data = svg.read_bytes()
    assert artpaths.entry_for(svg, data) is not None
    for color in COLORS:
        assert artpanel.svg_ops(str(svg), data, color) == artpanel.svg_drawing(svg.read_text(), color)


def test_a_changed_or_new_icon_or_a_named_colour_is_read_by_svglib(tmp_path):
    folder = tmp_path / "art"
    folder.mkdir()
    for svg in SAMPLE[:2]:
        (folder / svg.name).write_bytes(svg.read_bytes())
    (folder / artpaths.DERIVED).write_bytes(artpanel.derived_file(folder))
    changed, kept = (folder / svg.name for svg in SAMPLE[:2])
    changed.write_text(changed.read_text().replace('<path ', '<path transform="scale(0.5)" ', 1))
    new = folder / "new-icon.svg"
    new.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="10" height="10">'
                   '<path fill="currentColor" d="M1 1h8v8h-8z"/><path fill="#ff0000" d="M4 4h2v2h-2z"/></svg>')
    assert artpaths.entry_for(changed, changed.read_bytes()) is None
    assert artpaths.entry_for(new, new.read_bytes()) is None
    assert artpaths.entry_for(kept, kept.read_bytes()) is not None
    for svg in (changed, new, kept):
        for color in ("#336699", "navy"):
            assert artpanel.svg_ops(str(svg), svg.read_bytes(), color) == artpanel.svg_drawing(svg.read_text(), color)
    assert artpanel.svg_ops(str(changed), changed.read_bytes(), "#000000") != \
        artpanel.svg_ops(str(kept), kept.read_bytes(), "#000000")
    # an icon with a colour of its own besides currentColor is derived too: only currentColor becomes @fill
    entry = artpanel.derive(new.read_bytes())
    assert entry is not None and entry["ops"].count(artpaths.FILL) == 1 and "1 0 0 rg" in entry["ops"]


def test_a_damaged_derived_file_is_ignored(tmp_path):
    folder = tmp_path / "art"
    folder.mkdir()
    svg = folder / SAMPLE[0].name
    svg.write_bytes(SAMPLE[0].read_bytes())
    (folder / artpaths.DERIVED).write_text('{"format": "pnp-art-paths-1", "icons": {"x": ')
    assert artpaths.entries(folder) == {}
    assert artpanel.svg_ops(str(svg), svg.read_bytes(), "#123456") == artpanel.svg_drawing(svg.read_text(), "#123456")


# ---------------------------------------------------------------- rebuild keys

MINI = ["test-recruit", "test-brawler", "test-squat", "test-shield"]


@pytest.fixture
def art_project(mini_project: Path) -> Path:
    icons = [p.stem for p in SAMPLE]
    (mini_project / "card_sources/culture-war/art.yaml").write_text(yaml.safe_dump({"cards": dict(zip(MINI, icons))}))
    return mini_project


def rebuilt(project: Path, out: Path) -> set[str]:
    return {f.path.name for f in build(project, None, out, BuildOptions()).files}


@pytest.mark.pdf
def test_an_icons_change_rebuilds_the_deck_that_shows_it(art_project, tmp_path):
    out = tmp_path / "out"
    assert rebuilt(art_project, out) == {"deck-anarchy.pdf"}
    assert rebuilt(art_project, out) == set()
    before = (out / "culture-war/deck-anarchy.pdf").read_bytes()
    art = art_project / "templates/art"
    unused = next(p for p in art.glob("*.svg") if p.stem not in {s.stem for s in SAMPLE})
    unused.write_text(unused.read_text().replace('<path ', '<path transform="scale(0.5)" ', 1))
    assert rebuilt(art_project, out) == set(), "an icon no card shows rebuilt a deck"
    svg = art / SAMPLE[0].name
    svg.write_text(svg.read_text().replace('<path ', '<path transform="scale(0.5)" ', 1))  # drawn by svglib now
    assert rebuilt(art_project, out) == {"deck-anarchy.pdf"}
    assert (out / "culture-war/deck-anarchy.pdf").read_bytes() != before
    assert rebuilt(art_project, out) == set()
    (art / artpaths.DERIVED).write_bytes(artpanel.derived_file(art))  # its entry now matches again
    assert rebuilt(art_project, out) == {"deck-anarchy.pdf"}
    assert rebuilt(art_project, out) == set()


def test_a_build_of_vendored_icons_does_not_load_svglib(art_project, tmp_path):
    code = ("import sys; from pathlib import Path; from pnp.pipeline.orchestrator import build; "
            "from pnp.pipeline.options import BuildOptions; "
            f"r = build(Path({str(art_project)!r}), None, Path({str(tmp_path / 'out')!r}), BuildOptions()); "
            "assert r.files; print(json.dumps(sorted(m for m in sys.modules if m.startswith('svglib'))))")
    result = subprocess.run([sys.executable, "-c", "import json; " + code], capture_output=True, text=True,
                            env={**os.environ, "PNP_JOBS": "1"}, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == []
