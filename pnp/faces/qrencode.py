"""A small QR encoder for what cards carry: alphanumeric text, versions 1-3,
error correction level M, one fixed mask. It follows ISO/IEC 18004 and is
checked module for module against the `qrcode` package in the tests; it
exists because it is several times faster for the hundreds of codes a build
draws."""
from __future__ import annotations

from operator import itemgetter
from typing import Callable

ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
_VALUE = {c: i for i, c in enumerate(ALPHANUMERIC)}
# version -> (data codewords, error correction codewords), level M, one block each
_CAPACITY = {1: (16, 10), 2: (28, 16), 3: (44, 26)}
_ALIGNMENT = {1: None, 2: 18, 3: 22}

_EXP = [0] * 512
_LOG = [0] * 256
_x = 1
for _i in range(255):
    _EXP[_i] = _x
    _LOG[_x] = _i
    _x <<= 1
    if _x & 0x100:
        _x ^= 0x11D
for _i in range(255, 512):
    _EXP[_i] = _EXP[_i - 255]


def _mul(a: int, b: int) -> int:
    return 0 if a == 0 or b == 0 else _EXP[_LOG[a] + _LOG[b]]


def _divisor(degree: int) -> list[int]:
    result = [0] * (degree - 1) + [1]
    root = 1
    for _ in range(degree):
        for j in range(degree):
            result[j] = _mul(result[j], root)
            if j + 1 < degree:
                result[j] ^= result[j + 1]
        root = _mul(root, 2)
    return result


_DIVISORS = {n: _divisor(n) for _, n in _CAPACITY.values()}


_TABLES: dict[int, list[int]] = {}


def _table(degree: int) -> list[int]:
    """factor -> the generator's coefficients times factor, as one integer of
    `degree` bytes (first coefficient in the top byte)."""
    if degree not in _TABLES:
        logs = [_LOG[c] for c in _DIVISORS[degree]]  # the generator's coefficients are never zero
        table = [0] * 256
        for factor in range(1, 256):
            value = 0
            for lc in logs:
                value = (value << 8) | _EXP[lc + _LOG[factor]]
            table[factor] = value
        _TABLES[degree] = table
    return _TABLES[degree]


def _remainder(data: list[int], degree: int) -> list[int]:
    """Reed-Solomon: the remainder of data(x) * x^n divided by the generator,
    kept as one integer so that each data byte costs a shift and an XOR."""
    table, top, keep = _table(degree), 8 * (degree - 1), (1 << 8 * degree) - 1
    rest = 0
    for byte in data:
        rest = ((rest << 8) & keep) ^ table[byte ^ (rest >> top)]
    return list(rest.to_bytes(degree, "big"))


def _codewords(text: str) -> tuple[int, list[int]]:
    try:
        values = [_VALUE[c] for c in text]
    except KeyError as exc:
        raise ValueError(f"{exc.args[0]!r} cannot be encoded in QR alphanumeric mode") from None
    version = next((v for v, (data, _) in _CAPACITY.items()
                    if 4 + 9 + 11 * (len(values) // 2) + 6 * (len(values) % 2) <= data * 8), None)
    if version is None:
        raise ValueError(f"{len(text)} characters need a QR code above version 3")
    capacity = _CAPACITY[version][0] * 8
    bits = (0b0010 << 9) | len(values)  # the bit stream as one integer: mode, count, then pairs
    for i in range(0, len(values) - 1, 2):
        bits = (bits << 11) | (values[i] * 45 + values[i + 1])
    length = 13 + 11 * (len(values) // 2)
    if len(values) % 2:
        bits, length = (bits << 6) | values[-1], length + 6
    tail = min(4, capacity - length)  # terminator, then zeros to a byte boundary
    tail += -(length + tail) % 8
    data = list((bits << tail).to_bytes((length + tail) // 8, "big"))
    pad = 0xEC
    while len(data) < capacity // 8:
        data.append(pad)
        pad ^= 0xEC ^ 0x11
    return version, data + _remainder(data, _CAPACITY[version][1])


_ZERO_ONE = bytes.maketrans(b"01", b"\x00\x01")


def encode_rows(text: str) -> tuple[bytes, ...]:
    """The module matrix (no quiet zone) for `text` with mask 2, one bytes
    object per row: 1 dark, 0 light."""
    version, codewords = _codewords(text)
    base, slots, flips, pick = _frame(version)
    size = 17 + 4 * version
    stream = int.from_bytes(bytes(codewords), "big") << (slots - 8 * len(codewords))  # remainder bits: zeros
    bits = format(stream ^ flips, f"0{slots}b").encode().translate(_ZERO_ONE)
    flat = bytes(pick(bits + base))
    return tuple(flat[i:i + size] for i in range(0, size * size, size))


def encode(text: str, mask: int = 2) -> tuple[tuple[bool, ...], ...]:
    """The module matrix (no quiet zone) for `text`, with mask pattern `mask` (only 2 is implemented)."""
    if mask != 2:
        raise ValueError("only mask pattern 2 is implemented")
    return tuple(tuple(map(bool, row)) for row in encode_rows(text))


_FRAMES: dict[int, tuple[bytes, int, int, Callable]] = {}


def _frame(version: int):
    """What every code of a version shares: the function patterns and format
    bits (level M, mask 2) as bytes row by row; the number of data modules;
    which of them the mask flips (an integer, first module in the top bit);
    and a picker that lays out (data bits in placement order + the pattern
    bytes) row by row."""
    if version in _FRAMES:
        return _FRAMES[version]
    mask = 2
    size = 17 + 4 * version
    grid = [[False] * size for _ in range(size)]
    fixed = [[False] * size for _ in range(size)]

    def function(x: int, y: int, dark: bool) -> None:
        grid[y][x] = dark
        fixed[y][x] = True

    for i in range(size):  # timing patterns
        function(6, i, i % 2 == 0)
        function(i, 6, i % 2 == 0)
    for cx, cy in ((3, 3), (size - 4, 3), (3, size - 4)):  # finders with their separators
        for dy in range(-4, 5):
            for dx in range(-4, 5):
                x, y = cx + dx, cy + dy
                if 0 <= x < size and 0 <= y < size:
                    function(x, y, max(abs(dx), abs(dy)) not in (2, 4))
    if _ALIGNMENT[version]:
        c = _ALIGNMENT[version]
        for dy in range(-2, 3):
            for dx in range(-2, 3):
                function(c + dx, c + dy, max(abs(dx), abs(dy)) != 1)
    # format information: level M (00) and the mask, BCH(15,5), XOR 0x5412
    data = mask
    rem = data
    for _ in range(10):
        rem = (rem << 1) ^ ((rem >> 9) * 0x537)
    fmt = ((data << 10) | rem) ^ 0x5412
    bit = lambda i: (fmt >> i) & 1 == 1
    for i in range(6):
        function(8, i, bit(i))
    function(8, 7, bit(6))
    function(8, 8, bit(7))
    function(7, 8, bit(8))
    for i in range(9, 15):
        function(14 - i, 8, bit(i))
    for i in range(8):
        function(size - 1 - i, 8, bit(i))
    for i in range(8, 15):
        function(8, size - 15 + i, bit(i))
    function(8, size - 8, True)  # the dark module
    # data modules, in two-column zigzags from the bottom right, skipping the timing column;
    # mask 2 flips every third column
    slots = []
    right = size - 1
    while right >= 1:
        if right == 6:
            right = 5
        upward = ((right + 1) & 2) == 0
        for vert in range(size):
            y = size - 1 - vert if upward else vert
            for x in (right, right - 1):
                if not fixed[y][x]:
                    slots.append((y * size + x, 1 if x % 3 == 0 else 0))
        right -= 2
    base = bytes(int(v) for row in grid for v in row)
    flips = int("".join(str(flip) for _, flip in slots), 2)
    source = {index: i for i, (index, _) in enumerate(slots)}  # data modules come first, then the pattern
    pick = itemgetter(*(source.get(k, len(slots) + k) for k in range(size * size)))
    _FRAMES[version] = (base, len(slots), flips, pick)
    return _FRAMES[version]
