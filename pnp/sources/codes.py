"""Short card codes: at most 5 characters a scorekeeper can type, e.g. `A7K2Q`.

A card's code is its deck's letter and four characters from a hash of the
card's id, in an alphabet without look-alikes (no 0/O, 1/I/L). It depends on
nothing but the card's own id, so adding, removing or reordering cards never
changes another card's code. Codes are unique within a game; should two
cards of a game hash alike, validation names both and asks for an explicit
`code:` on one of them (a card may always set its own, 2 to 5 characters).
Codes are printed beside the QR code and accepted by the referee wherever a
card is (any case).
"""
from __future__ import annotations

import hashlib
import re

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # 31 symbols, none easily mistaken for another
CODE = re.compile(r"^[A-Z0-9]{2,5}$")
HASH_LENGTH = 4


def deck_letter(deck_id: str) -> str:
    letter = next((c for c in deck_id.upper() if c.isalpha()), "X")
    return letter if letter in ALPHABET else {"I": "J", "L": "K", "O": "Q"}.get(letter, "X")


def hashed_code(card_id: str, deck_id: str) -> str:
    number = int.from_bytes(hashlib.sha256(card_id.encode("utf-8")).digest()[:8], "big")
    chars = []
    for _ in range(HASH_LENGTH):
        number, digit = divmod(number, len(ALPHABET))
        chars.append(ALPHABET[digit])
    return deck_letter(deck_id) + "".join(chars)


_LOOKALIKE = str.maketrans({"O": "Q", "0": "Q", "I": "J", "1": "J", "L": "K"})


def lookalike(text: str) -> str:
    """A typed code with the characters no hashed code uses read as the ones they resemble."""
    return text.strip().upper().translate(_LOOKALIKE)


def looks_like_code(text: str) -> bool:
    return bool(CODE.match(text.strip().upper()))
