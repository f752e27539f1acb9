"""A card's snapshot: what it is, as plain JSON values, for comparing two
printings of it (pnp.extras.carddiff). A build keeps each deck's snapshots
in its build state, so a later `pnp diff` can say what changed since, and
the referee, given a scanned copy's revision (its QR text), what changed
since that copy was printed. The revision is kept beside the fields, not
compared (the fields say what changed)."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pnp.model import Card

SKIPPED = ("id", "code")        # the id is the card; its short code follows from the id


def art_hash(project: Path, value: Any) -> str | None:
    if not isinstance(value, str) or not value:
        return None
    path = project / value
    try:
        return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    except OSError:
        return f"missing:{value}"


def snapshot(card: Card, project: Path) -> dict[str, Any]:
    """What a card is, for comparing: plain JSON values."""
    fields = {k: v for k, v in card.fields.items() if k not in SKIPPED and k not in ("name", "type", "quantity")}
    if "art" in fields:
        fields["art"] = art_hash(project, fields["art"])
    return json.loads(json.dumps({"name": card.name, "type": card.type, "deck": card.deck,
                                  "quantity": card.quantity, "revision": card.revision, "fields": fields},
                                 default=str))
