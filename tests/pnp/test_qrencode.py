"""Our QR encoder against the `qrcode` package, module for module, and against a decoder."""
import random

import qrcode
import pytest
import zxingcpp
from PIL import Image
from qrcode.constants import ERROR_CORRECT_M

from pnp.faces.qrencode import ALPHANUMERIC, encode


def reference(text: str):
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0, mask_pattern=2)
    code.add_data(qrcode.util.QRData(text.encode(), mode=qrcode.util.MODE_ALPHA_NUM))
    code.make(fit=True)
    return tuple(tuple(bool(v) for v in row) for row in code.get_matrix())


def payloads():
    rng = random.Random(20261122)
    out = ["PNP:CULTURE-WAR:ANARCHY-WINDOW-SMASHER:7EBECD", "A", "12", "PNP:COLD-WAR:COLD-WM-LEADER:B5A2ED"]
    for n in range(1, 62):  # every length up to version 3's 61 characters
        out += ["".join(rng.choice(ALPHANUMERIC) for _ in range(n)) for _ in range(3)]
    return out


@pytest.mark.parametrize("text", payloads())
def test_same_matrix_as_the_qrcode_package(text):
    assert encode(text) == reference(text)


def decoded(matrix) -> str:
    """What a decoder reads from the matrix drawn 8 pixels a module, with its quiet zone."""
    scale, quiet = 8, 4
    n = len(matrix) + 2 * quiet
    image = Image.new("L", (n * scale, n * scale), 255)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                image.paste(0, ((x + quiet) * scale, (y + quiet) * scale, (x + quiet + 1) * scale, (y + quiet + 1) * scale))
    (found,) = zxingcpp.read_barcodes(image)
    return found.text


def test_it_decodes():
    text = "PNP:DEBATE:DEB-SHOUTING-MATCH-2:0A1B2C"
    assert decoded(encode(text)) == text


def test_refuses_what_it_cannot_encode():
    with pytest.raises(ValueError):
        encode("lower case")
    with pytest.raises(ValueError):
        encode("A" * 62)


def test_other_payloads_go_through_the_qrcode_package_and_still_decode():
    from pnp.faces.qr import qr_rows

    text = "https://example.org/rules?game=debate"  # lower case: not alphanumeric mode
    assert decoded(qr_rows(text)) == text
