"""`pnp build --ink saver`: grayscale, light, still readable, and the ink
coverage it reports is the coverage a rasterizer measures."""
from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import zxingcpp
from click.testing import CliRunner
from PIL import Image, ImageChops

from helpers import pdfcheck as pc

from pnp.cli import main
from pnp.sources.qrpayload import parse_payload

pytestmark = [pytest.mark.pdf, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
GAME = "culture-war"


def coverage(paths: list[Path], dpi: int = 30) -> float:
    """Mean darkness (1 - luminance) over every page of the files."""
    values = []
    for path in paths:
        doc = pdfium.PdfDocument(str(path))
        for page in doc:
            gray = page.render(scale=dpi / 72).to_pil().convert("L")
            hist = gray.histogram()
            values.append(sum((255 - v) * n for v, n in enumerate(hist)) / (255 * gray.width * gray.height))
        doc.close()
    return sum(values) / len(values)


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    out = tmp_path_factory.mktemp("ink")
    runner = CliRunner()
    normal = runner.invoke(main, ["--project", str(ROOT), "build", GAME, "--out", str(out)])
    assert normal.exit_code == 0, normal.output
    before = {p.name: p.read_bytes() for p in (out / GAME).glob("*.pdf")}
    saver = runner.invoke(main, ["--project", str(ROOT), "build", GAME, "--out", str(out), "--ink", "saver"])
    assert saver.exit_code == 0, saver.output
    return out, saver.output, before


def pdfs(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.pdf"))


def test_saver_files_sit_beside_the_normal_ones(builds):
    out, _, before = builds
    saver = out / GAME / "ink-saver"
    assert [p.name for p in pdfs(saver)] == sorted(before)
    # the normal build is untouched
    assert {p.name: p.read_bytes() for p in pdfs(out / GAME)} == before


def test_coverage_less_than_half_of_normal(builds):
    out, _, _ = builds
    normal = coverage(pdfs(out / GAME))
    saver = coverage(pdfs(out / GAME / "ink-saver"))
    assert saver < normal / 2, (saver, normal)


def test_summary_reports_both_figures_and_where_they_come_from(builds):
    out, output, _ = builds
    m = re.search(r"ink coverage culture-war: ([\d.]+)% with ink saver \((\d+) pages\), ([\d.]+)% normal "
                  r"\((\d+) pages; from the normal build in (.+)\)", output)
    assert m, output
    saver, normal = float(m.group(1)) / 100, float(m.group(3)) / 100
    assert abs(saver - coverage(pdfs(out / GAME / "ink-saver"))) < 0.002
    assert abs(normal - coverage(pdfs(out / GAME))) < 0.002
    assert Path(m.group(5)) == out / GAME


def test_without_a_normal_build_one_is_rendered_for_comparison(mini_project, tmp_path):
    result = CliRunner().invoke(main, ["--project", str(mini_project), "build", "--ink", "saver",
                                       "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "normal build rendered just now" in result.output
    assert not (tmp_path / GAME / "deck-anarchy.pdf").exists()   # nothing but the saver files is written
    m = re.search(r"([\d.]+)% with ink saver .*?, ([\d.]+)% normal", result.output)
    assert float(m.group(1)) < float(m.group(2)) / 2


def test_the_comparison_runs_the_stages_not_the_whole_build_again(mini_project, tmp_path, monkeypatch):
    from pnp.pipeline import orchestrator, stages
    from pnp.pipeline.options import make_options

    calls = {"build": 0, "stages": []}
    build, run_stages = orchestrator.build, stages.run_stages

    def counted_build(*args, **kw):
        calls["build"] += 1
        return build(*args, **kw)

    def counted_stages(project, games, target, *rest):
        calls["stages"].append(target.options.ink.value)
        return run_stages(project, games, target, *rest)

    monkeypatch.setattr(orchestrator, "run_stages", counted_stages)
    monkeypatch.setattr(orchestrator, "build", counted_build)
    report = orchestrator.build(mini_project, None, tmp_path, make_options(ink="saver"))
    assert calls == {"build": 1, "stages": ["saver", "normal"]}   # one build; the normal one drawn by the stages
    assert report.ink.normal[GAME].pages > 0


def test_every_page_is_grayscale(builds):
    out, _, _ = builds
    for path in pdfs(out / GAME / "ink-saver"):
        doc = pdfium.PdfDocument(str(path))
        for i, page in enumerate(doc):
            rgb = page.render(scale=60 / 72).to_pil().convert("RGB")
            r, g, b = rgb.split()
            spread = max(ImageChops.difference(r, g).getextrema()[1], ImageChops.difference(g, b).getextrema()[1])
            assert spread <= 3, f"{path.name} page {i + 1}: colour (channels differ by {spread})"
        doc.close()


def test_backs_lose_their_full_bleed_background(builds):
    out, _, _ = builds
    normal = pc.raster(out / GAME / "deck-anarchy.pdf", 2, 60)
    saver = pc.raster(out / GAME / "ink-saver" / "deck-anarchy.pdf", 2, 60)
    assert pc.white_fraction(normal.image) < 0.3
    assert pc.white_fraction(saver.image) > 0.7


def test_qr_codes_still_decode(builds):
    out, _, _ = builds
    manifest = __import__("json").loads((out / GAME / "ink-saver" / "manifest.json").read_text())
    for deck in ("anarchy", "technocracy"):
        path = out / GAME / "ink-saver" / f"deck-{deck}.pdf"
        image = pc.render(str(path), 1, 300)
        found = sorted(parse_payload(c.text).card_id for c in zxingcpp.read_barcodes(image))
        expected = sorted(c["id"] for c in manifest["cards"] if c["deck"] == deck and c["front"]["page"] == 1)
        assert found == expected


def _words(path: Path, page: int) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Words on the page with their boxes (points, PDF coordinates)."""
    doc = pdfium.PdfDocument(str(path))
    tp = doc[page - 1].get_textpage()
    out, cur, box = [], "", None
    for i in range(tp.count_chars()):
        ch = tp.get_text_range(i, 1)
        if ch.strip():
            b = tp.get_charbox(i)
            cur += ch
            box = b if box is None else (min(box[0], b[0]), min(box[1], b[1]), max(box[2], b[2]), max(box[3], b[3]))
        elif cur:
            out.append((cur, box))
            cur, box = "", None
    if cur:
        out.append((cur, box))
    doc.close()
    return out


def _contrast(image: Image.Image, box, scale: float) -> float:
    """WCAG-style contrast between the darkest and the lightest tenth of a word's pixels."""
    l, b, r, t = box
    crop = image.crop((int(l * scale), int(image.height - t * scale), int(r * scale) + 1,
                       int(image.height - b * scale) + 1)).convert("L")
    hist = crop.histogram()
    values = [v for v, n in enumerate(hist) for _ in range(n)]
    n = max(1, len(values) // 10)
    dark = sum(values[:n]) / n / 255
    light = sum(values[-n:]) / n / 255
    lum = lambda v: v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4  # noqa: E731
    return (lum(light) + 0.05) / (lum(dark) + 0.05)


def test_text_reads_dark_on_light(builds):
    """Every word of a fronts page and a backs page stands out from what is
    under it at least as well as WCAG asks of body text (4.5:1)."""
    out, _, _ = builds
    dpi = 300
    for page in (1, 2):
        path = out / GAME / "ink-saver" / "deck-anarchy.pdf"
        image = pc.render(str(path), page, dpi)
        words = [(w, box) for w, box in _words(path, page) if (box[3] - box[1]) > 4]   # card text, not sheet notes
        assert len(words) > 20
        low = [(w, round(c, 1)) for w, box in words if (c := _contrast(image, box, dpi / 72)) < 4.5]
        assert not low, low


def test_a_normal_build_with_other_options_is_not_the_comparison(mini_project, tmp_path):
    runner = CliRunner()
    assert runner.invoke(main, ["--project", str(mini_project), "build", "--paper", "letter",
                                "--out", str(tmp_path)]).exit_code == 0
    result = runner.invoke(main, ["--project", str(mini_project), "build", "--ink", "saver", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "normal build rendered just now" in result.output
    again = runner.invoke(main, ["--project", str(mini_project), "build", "--out", str(tmp_path)])   # now A4
    saver = runner.invoke(main, ["--project", str(mini_project), "build", "--ink", "saver", "--out", str(tmp_path)])
    assert again.exit_code == 0 and "built 0 files" in saver.output
    assert f"from the normal build in {tmp_path / GAME}" in saver.output


def test_no_line_runs_through_a_card_title(builds):
    """A title band drawn as two rectangles is outlined as one area: no seam
    crosses the title text (rows inside the band are never dark edge to edge)."""
    import json

    import yaml

    out, _, _ = builds
    style = yaml.safe_load((ROOT / "templates" / GAME / "style.yaml").read_text())
    frame, title_h = float(style["frame"]), float(style["title_h"])
    manifest = json.loads((out / GAME / "ink-saver" / "manifest.json").read_text())
    card = next(c for c in manifest["cards"] if c["deck"] == "anarchy" and c["front"]["page"] == 1)
    x0, y0, x1, y1 = card["front"]["trim_mm"]
    scale = 12.0  # px per mm
    page = pdfium.PdfDocument(str(out / GAME / "ink-saver" / "deck-anarchy.pdf"))[card["front"]["page"] - 1]
    image = page.render(scale=scale * 25.4 / 72).to_pil().convert("L")
    page_h = page.get_height() * 25.4 / 72
    left, right = round((x0 + frame + 2) * scale), round((x1 - frame - 2) * scale)
    top = round((page_h - y1 + frame + 0.6) * scale)      # inside the band, clear of its outline
    bottom = round((page_h - y1 + frame + title_h - 0.6) * scale)
    band = image.crop((left, top, right, bottom))
    width = band.width
    for row in range(band.height):
        line = band.crop((0, row, width, row + 1))
        dark = line.point(lambda v: 255 if v < 128 else 0).histogram()[255] / width
        assert dark < 0.6, f"row {row / scale:.2f} mm into the title band is dark across {dark:.0%} of it"
