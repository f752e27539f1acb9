"""`pnp preview`: one card, face and back, as a PNG a person can look at."""
import zxingcpp
from click.testing import CliRunner
import pytest
from PIL import Image

from pnp.cli import main
from pnp.extras.preview import preview_card, preview_sheet
from pnp.sources.qrpayload import parse_payload

pytestmark = pytest.mark.pdf

MM_PER_INCH = 25.4


def test_card_preview_size_and_qr(mini_project):
    image, card = preview_card(mini_project, "test-brawler", dpi=150)
    # face + 6 mm gap + back, 3 mm margins, poker cards: measured in pixels
    width_mm = 3 + 63.5 + 6 + 63.5 + 3
    height_mm = 3 + 88.9 + 3
    assert abs(image.width - width_mm / MM_PER_INCH * 150) <= 1.5
    assert abs(image.height - height_mm / MM_PER_INCH * 150) <= 1.5
    codes = zxingcpp.read_barcodes(image)
    assert len(codes) == 1
    payload = parse_payload(codes[0].text)
    assert payload.card_id == "test-brawler" and payload.revision == card.revision
    assert codes[0].position.top_left.x < image.width / 2  # the QR is on the face, left


def test_preview_accepts_qr_text_and_scales_with_dpi(mini_project):
    small, card = preview_card(mini_project, "test-recruit", dpi=100)
    big, _ = preview_card(mini_project, f"PNP:CULTURE-WAR:TEST-RECRUIT:{card.revision}", dpi=200)
    assert abs(big.width - 2 * small.width) <= 2


def test_sheet_preview_decodes_every_card_on_it(mini_project):
    image = preview_sheet(mini_project, "culture-war", dpi=150)
    assert abs(image.width - 210 / MM_PER_INCH * 150) <= 1.5  # an A4 sheet
    ids = sorted(parse_payload(c.text).card_id for c in zxingcpp.read_barcodes(image))
    assert ids == ["test-brawler", "test-recruit", "test-recruit", "test-shield", "test-squat"]


def test_cli_writes_png(mini_project, tmp_path):
    out = tmp_path / "p.png"
    result = CliRunner().invoke(main, ["--project", str(mini_project), "preview", "test-squat", "--dpi", "120",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert Image.open(out).size[0] > 500
    bad = CliRunner().invoke(main, ["--project", str(mini_project), "preview", "no-such-card"])
    assert bad.exit_code != 0 and "no card 'no-such-card'" in bad.output
