"""Printer profiles: stored per user, applied to the back pages of a build.

Offsets are measured on the rendered back pages (cut marks found in a
300 dpi raster), never taken from pnp's own geometry."""
from __future__ import annotations

import json
from pathlib import Path

import pikepdf
import pytest
from click.testing import CliRunner

from helpers import pdfcheck as pc

from pnp.cli import main

pytestmark = pytest.mark.pdf

A4 = (210.0, 297.0)
TOL = 0.1    # mm


@pytest.fixture
def config(tmp_path, monkeypatch) -> Path:
    home = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    return home / "pnp" / "printers.json"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def build(project: Path, out: Path, *args) -> dict:
    result = run("--project", project, "build", "--out", out, *args)
    assert result.exit_code == 0, result.output
    return json.loads((out / "culture-war" / "manifest.json").read_text())


# --------------------------------------------------------------------------- the store

def test_add_list_remove(config):
    assert "no printer profiles yet" in run("printer", "list").output
    added = run("printer", "add", "office", "--dx", "0.75", "--dy", "-0.5", "--scale", "0.995", "--flip", "long")
    assert added.exit_code == 0, added.output
    assert str(config) in added.output
    stored = json.loads(config.read_text())["printers"]["office"]
    assert stored == {"dx_mm": 0.75, "dy_mm": -0.5, "scale": 0.995, "flip": "long"}
    run("printer", "add", "home", "--dx", "-1", "--dy", "0")
    listing = run("printer", "list").output
    assert "office" in listing and "+0.75" in listing and "-0.50" in listing and "0.995" in listing
    assert "home" in listing and "-1.00" in listing
    assert json.loads(run("printer", "list", "--json").output)["home"]["dx_mm"] == -1.0
    again = run("printer", "add", "office", "--dx", "0.25", "--dy", "0")
    assert "replaced" in again.output and json.loads(config.read_text())["printers"]["office"]["dx_mm"] == 0.25
    gone = run("printer", "remove", "home")
    assert gone.exit_code == 0 and "home" not in json.loads(config.read_text())["printers"]


def test_default_location_is_home_config(tmp_path, monkeypatch):
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert run("printer", "add", "p1", "--dx", "1", "--dy", "1").exit_code == 0
    assert (tmp_path / ".config" / "pnp" / "printers.json").is_file()


@pytest.mark.parametrize("args,words", [
    (["remove", "nope"], "no printer profile 'nope'"),
    (["add", "bad name", "--dx", "0", "--dy", "0"], "printer name"),
    (["add", "far", "--dx", "25", "--dy", "0"], "out of range"),
    (["add", "big", "--dx", "0", "--dy", "0", "--scale", "1.5"], "scale"),
])
def test_refusals_are_one_clear_line(config, args, words):
    result = run("printer", *args)
    assert result.exit_code != 0
    assert words in result.output and "Traceback" not in result.output


def test_unknown_printer_in_build_and_a_broken_file(config, mini_project, tmp_path):
    result = run("--project", mini_project, "build", "--printer", "ghost", "--out", tmp_path / "o")
    assert result.exit_code != 0 and "no printer profile 'ghost'" in result.output
    config.parent.mkdir(parents=True)
    config.write_text("{not json")
    result = run("printer", "list")
    assert result.exit_code != 0 and str(config) in result.output and "Traceback" not in result.output


def test_flip_and_layout_conflicts(config, mini_project, tmp_path):
    run("printer", "add", "office", "--dx", "0.5", "--dy", "0", "--flip", "long")
    short = run("--project", mini_project, "build", "--printer", "office", "--flip", "short", "--out", tmp_path / "o")
    assert short.exit_code != 0 and "--flip long" in short.output
    fold = run("--project", mini_project, "build", "--printer", "office", "--layout", "gutterfold", "--out", tmp_path / "o")
    assert fold.exit_code != 0 and "gutterfold" in fold.output


# --------------------------------------------------------------------------- applied to a build

def _marks(pdf: Path, page: int) -> pc.Marks:
    return pc.find_cut_marks(pc.raster(pdf, page, 300))


@pytest.fixture
def builds(config, mini_project, tmp_path):
    """The same deck built plain and with a profile (A4, long-edge flip)."""
    run("printer", "add", "office", "--dx", "0.75", "--dy", "-0.5", "--flip", "long")
    plain = build(mini_project, tmp_path / "plain")
    shifted = build(mini_project, tmp_path / "shifted", "--printer", "office")
    return tmp_path, plain, shifted


def test_backs_and_their_cut_marks_move_by_the_profile(builds):
    tmp, plain, shifted = builds
    a = tmp / "plain" / "culture-war" / "deck-anarchy.pdf"
    b = tmp / "shifted" / "culture-war" / "deck-anarchy.pdf"
    for page, (dx, dy) in ((1, (0.0, 0.0)), (2, (0.75, -0.5))):   # the fronts stay, the backs move
        m0, m1 = _marks(a, page), _marks(b, page)
        assert len(m0.top_xs) == len(m1.top_xs) > 0 and len(m0.left_ys) == len(m1.left_ys) > 0
        for before, after, d in ((m0.top_xs, m1.top_xs, dx), (m0.bottom_xs, m1.bottom_xs, dx),
                                 (m0.left_ys, m1.left_ys, dy), (m0.right_ys, m1.right_ys, dy)):
            assert all(abs(q - p - d) <= TOL for p, q in zip(before, after)), (page, before, after, d)


def test_the_cards_on_the_back_page_move_with_their_marks(builds):
    """The back art itself (the deck colour) moves, not only the marks."""
    tmp, plain, shifted = builds
    colour = pc.deck_colors()["anarchy"]
    edges = []
    for name in ("plain", "shifted"):
        r = pc.raster(tmp / name / "culture-war" / "deck-anarchy.pdf", 2, 300)
        gray = r.image.convert("RGB")
        # the leftmost and lowest column/row of pixels with the deck colour, measured on the middle row/column
        mid_y = gray.height // 2
        xs = [x for x in range(gray.width) if all(abs(c - t) <= 20 for c, t in zip(gray.getpixel((x, mid_y)), colour))]
        mid_x = gray.width // 2
        ys = [y for y in range(gray.height) if all(abs(c - t) <= 20 for c, t in zip(gray.getpixel((mid_x, y)), colour))]
        edges.append((xs[0] * r.sx, xs[-1] * r.sx, r.page_h - ys[-1] * r.sy, r.page_h - ys[0] * r.sy))
    (l0, r0, b0, t0), (l1, r1, b1, t1) = edges
    assert abs(l1 - l0 - 0.75) <= TOL and abs(r1 - r0 - 0.75) <= TOL
    assert abs(b1 - b0 + 0.5) <= TOL and abs(t1 - t0 + 0.5) <= TOL


def test_manifest_records_the_offset_and_the_shifted_trims(builds):
    tmp, plain, shifted = builds
    entry = next(f for f in shifted["files"] if f["file"] == "deck-anarchy.pdf")
    assert entry["printer"]["name"] == "office"
    assert (entry["printer"]["dx_mm"], entry["printer"]["dy_mm"], entry["printer"]["scale"]) == (0.75, -0.5, 1.0)
    assert "printer" not in next(f for f in plain["files"] if f["file"] == "deck-anarchy.pdf")
    # the manifest's back trims are where the rendered cut marks are
    marks = _marks(tmp / "shifted" / "culture-war" / "deck-anarchy.pdf", 2)
    backs = [c["back"]["trim_mm"] for c in shifted["cards"] if c["deck"] == "anarchy"]
    for x in {round(t[i], 3) for t in backs for i in (0, 2)}:
        assert min(abs(x - m) for m in marks.top_xs) <= TOL
    for y in {round(t[i], 3) for t in backs for i in (1, 3)}:
        assert min(abs(y - m) for m in marks.left_ys) <= TOL
    # and the TrimBox of the back page encloses exactly those trims
    with pikepdf.open(tmp / "shifted" / "culture-war" / "deck-anarchy.pdf") as pdf:
        box = pc.box_mm(pdf.pages[1].obj["/TrimBox"])
    assert pc.close(box, (min(t[0] for t in backs), min(t[1] for t in backs),
                          max(t[2] for t in backs), max(t[3] for t in backs)), 0.01)


def test_a_printer_off_by_the_opposite_lands_backs_behind_fronts(builds):
    """Simulate the measured printer: it puts backs (-0.75, +0.5) mm off. After
    the correction, every back cut line, turned over the long edge, meets the
    front's cut line within 0.1 mm."""
    tmp, _, shifted = builds
    pdf = tmp / "shifted" / "culture-war" / "deck-anarchy.pdf"
    front, back = _marks(pdf, 1), _marks(pdf, 2)
    W = A4[0]
    printed_xs = sorted(W - (x - 0.75) for x in back.top_xs)     # the printer's error, then the flip
    printed_ys = sorted(y + 0.5 for y in back.left_ys)
    assert pc.close(printed_xs, sorted(front.top_xs), TOL)
    assert pc.close(printed_ys, sorted(front.left_ys), TOL)


def test_scale_about_the_page_centre(config, mini_project, tmp_path):
    run("printer", "add", "shrink", "--dx", "0", "--dy", "0", "--scale", "0.99")
    build(mini_project, tmp_path / "plain")
    build(mini_project, tmp_path / "scaled", "--printer", "shrink")
    m0 = _marks(tmp_path / "plain" / "culture-war" / "deck-anarchy.pdf", 2)
    m1 = _marks(tmp_path / "scaled" / "culture-war" / "deck-anarchy.pdf", 2)
    cx, cy = A4[0] / 2, A4[1] / 2
    assert pc.close(m1.top_xs, [cx + 0.99 * (x - cx) for x in m0.top_xs], TOL)
    assert pc.close(m1.left_ys, [cy + 0.99 * (y - cy) for y in m0.left_ys], TOL)


def test_profile_is_part_of_the_incremental_key(config, mini_project, tmp_path):
    out = tmp_path / "o"
    build(mini_project, out)
    run("printer", "add", "office", "--dx", "0.5", "--dy", "0")
    first = run("--project", mini_project, "build", "--out", out, "--printer", "office")
    assert "rebuilt" in first.output and "deck-anarchy.pdf" in first.output
    again = run("--project", mini_project, "build", "--out", out, "--printer", "office")
    assert "built 0 files" in again.output
    run("printer", "add", "office", "--dx", "0.75", "--dy", "0")
    changed = run("--project", mini_project, "build", "--out", out, "--printer", "office")
    assert "deck-anarchy.pdf" in changed.output
