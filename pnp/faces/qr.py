"""QR matrices (cached by payload) and drawing them as merged vector runs."""
from __future__ import annotations

import re
from functools import lru_cache

from reportlab.lib.rl_accel import fp_str

from pnp.errors import PnpError
from pnp.faces.qrencode import encode_rows

QUIET_MODULES = 4
MAX_VERSION = 3
MASK = 2  # a fixed mask: any of the eight is valid QR, and skipping the search makes codes ~8x cheaper


@lru_cache(maxsize=256)
def qr_rows(payload: str) -> tuple[bytes, ...]:
    """The module matrix without quiet zone, a bytes object per row (1 dark).
    Refuses payloads above version 3. Card payloads (upper-case alphanumeric)
    use our fast encoder; anything else goes through the `qrcode` package
    with the same settings."""
    try:
        return encode_rows(payload)
    except ValueError:
        pass
    import qrcode  # lazy: only for payloads our encoder does not take (30 ms a worker saves)
    from qrcode.constants import ERROR_CORRECT_M  # lazy: as above

    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0, mask_pattern=MASK)
    code.add_data(payload)
    code.make(fit=True)
    if code.version > MAX_VERSION:
        raise PnpError(f"QR payload {payload!r} needs version {code.version}; at most {MAX_VERSION} allowed")
    return tuple(bytes(1 if v else 0 for v in row) for row in code.get_matrix())


def modules_with_quiet_zone(payload: str) -> int:
    return len(qr_rows(payload)) + 2 * QUIET_MODULES


_DARK = re.compile(b"\x01+")


def draw_qr(canvas, payload: str, x: float, y: float, size: float) -> float:
    """Draw the code with its white quiet zone in a size x size square at (x, y)
    (bottom-left, points). Returns the module size in points.

    Written as literal PDF operators in module units (one filled path of merged
    runs): a few hundred rectangles that ReportLab's path objects would build
    one call each."""
    n = modules_with_quiet_zone(payload)
    module = size / n
    # module space: origin at the top-left data module, y downward
    place = fp_str(module, 0, 0, -module, x + QUIET_MODULES * module, y + size - QUIET_MODULES * module)
    canvas.addLiteral(f"q 1 g {fp_str(x, y, size, size)} re f {place} cm 0 g {_run_ops(payload)} f Q")
    return module


@lru_cache(maxsize=256)
def _run_ops(payload: str) -> str:
    """A rectangle (x, y, w, h in modules) per horizontal run of dark modules;
    a hair of overlap between rows avoids hairline gaps in some viewers."""
    ops = []
    for r, row in enumerate(qr_rows(payload)):
        for run in _DARK.finditer(row):
            start, end = run.span()
            ops.append(f"{start} {r} {end - start} 1.001 re")
    return " ".join(ops)
