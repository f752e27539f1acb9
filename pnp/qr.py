"""QR matrices (cached by payload) and drawing them as merged vector runs."""
from __future__ import annotations

from functools import lru_cache

import qrcode
from qrcode.constants import ERROR_CORRECT_M

from pnp.errors import PnpError

QUIET_MODULES = 4
MAX_VERSION = 3
MASK = 2  # a fixed mask: any of the eight is valid QR, and skipping the search makes codes ~8x cheaper


@lru_cache(maxsize=None)
def qr_matrix(payload: str) -> tuple[tuple[bool, ...], ...]:
    """The module matrix without quiet zone. Refuses payloads above version 3.
    Card payloads (upper-case alphanumeric) use our fast encoder; anything
    else goes through the `qrcode` package with the same settings."""
    from pnp.qrencode import encode

    try:
        return encode(payload, MASK)
    except ValueError:
        pass
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0, mask_pattern=MASK)
    code.add_data(payload)
    code.make(fit=True)
    if code.version > MAX_VERSION:
        raise PnpError(f"QR payload {payload!r} needs version {code.version}; at most {MAX_VERSION} allowed")
    return tuple(tuple(bool(v) for v in row) for row in code.get_matrix())


def modules_with_quiet_zone(payload: str) -> int:
    return len(qr_matrix(payload)) + 2 * QUIET_MODULES


@lru_cache(maxsize=None)
def _runs(payload: str) -> tuple[tuple[int, int, int], ...]:
    """(row, first column, length) of each horizontal run of dark modules."""
    runs = []
    for r, row in enumerate(qr_matrix(payload)):
        c = 0
        while c < len(row):
            if row[c]:
                start = c
                while c < len(row) and row[c]:
                    c += 1
                runs.append((r, start, c - start))
            else:
                c += 1
    return tuple(runs)


def draw_qr(canvas, payload: str, x: float, y: float, size: float) -> float:
    """Draw the code with its white quiet zone in a size x size square at (x, y)
    (bottom-left, points). Returns the module size in points.

    Written as literal PDF operators: one filled path of merged runs, a few
    hundred rectangles that ReportLab's path objects would build one call each."""
    n = modules_with_quiet_zone(payload)
    module = size / n
    top = y + size - QUIET_MODULES * module
    left = x + QUIET_MODULES * module
    h = module * 1.001  # a hair of overlap between rows avoids hairline gaps in some viewers
    ops = [f"q 1 g {x:.3f} {y:.3f} {size:.3f} {size:.3f} re f 0 g"]
    ops += [f"{left + c * module:.3f} {top - (r + 1) * module:.3f} {length * module:.3f} {h:.3f} re"
            for r, c, length in _runs(payload)]
    ops.append("f Q")
    canvas.addLiteral("\n".join(ops))
    return module
