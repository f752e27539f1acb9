"""A scanned copy printed before the last change of its card's source.

A card's QR text carries the revision it was printed at (six hex digits
of everything printed on it, pnp.sources.loader.card_revision). When the
sources now read another revision, the copy on the table is an old
printing, and the referee says so, with what changed when it can tell:

- the card index remembers the fields of every revision it has seen
  (referee.cards.index, up to MAX_HISTORY per card);
- else a `pnp build` of the game into the project's `output/` (any of its
  builds there: plain, ink-saver, cutter) recorded each card's snapshot with
  its revision (pnp.sources.cardsnap): the printing a player most likely holds.

Neither remembers it: the note says the changes are not known, never
nothing.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

NOT_COMPARED = ("id", "code", "quantity", "deck")  # the card itself, its short code, how many are printed
WHERE_FROM_INDEX = "card index"
WHERE_FROM_BUILD = "last build"


@dataclass(frozen=True)
class FieldChange:
    field: str
    printed: Any
    current: Any

    def words(self) -> str:
        """The change as pnp's card diff words it ('cost 2 -> 3', 'text: new (was: old)')."""
        from pnp.extras.carddiff import FieldChange as Diffed, describe  # lazy: only an old print is worded

        return describe(Diffed(self.field, self.printed, self.current))


def printed_fields(root: Path, history: Mapping[str, Mapping[str, Any]], card: Any,
                   printed: str) -> tuple[dict[str, Any], dict[str, Any], str] | None:
    """(the fields as printed, the fields now, where the printed ones were
    found), both comparable; None when neither the index nor the last build
    remembers revision `printed` of `card` (a CardInfo)."""
    old = history.get(printed)
    if old is not None:
        return dict(old), dict(card.fields), WHERE_FROM_INDEX
    snap = _last_build_snapshot(root, card.game, card.id, printed)
    if snap is None:
        return None
    from pnp.sources.cardsnap import art_hash  # lazy: pictures are hashed only to compare an old print

    then = {"name": snap.get("name"), "type": snap.get("type"), **(snap.get("fields") or {})}
    now = dict(card.fields)
    if "art" in now:
        now["art"] = art_hash(root, now["art"])
    return then, now, WHERE_FROM_BUILD


def _last_build_snapshot(root: Path, game: str, card_id: str, printed: str) -> Mapping[str, Any] | None:
    """The card's snapshot at revision `printed` in a build of the game in the
    project's output/ (the plain build, or an ink-saver, common-back or
    cutter build beside it), None when no build recorded it."""
    from pnp.extras.carddiff import last_build_snapshots  # lazy: only an old print reads the build states
    from pnp.pipeline.incremental import STATE_FILE  # lazy: as above

    folder = root / "output" / game
    if not folder.is_dir():
        return None
    for state in sorted(folder.rglob(STATE_FILE)):
        try:
            found = last_build_snapshots(state.parent)
        except (OSError, ValueError):  # an unreadable build state: as if there were none
            continue
        snap = (found or {}).get(card_id)
        if isinstance(snap, dict) and snap.get("revision") == printed:
            return snap
    return None


def changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> tuple[FieldChange, ...]:
    keys = [k for k in dict.fromkeys([*old, *new]) if k not in NOT_COMPARED]
    return tuple(FieldChange(k, old.get(k), new.get(k)) for k in keys if old.get(k) != new.get(k))


def note(printed: str, current: str, found: tuple[FieldChange, ...] | None) -> str:
    """'this copy was printed before the last change (printed rev A, the source now reads B): ...'."""
    head = f"this copy was printed before the last change (printed rev {printed}, the source now reads {current})"
    if found is None:
        return (f"{head}; what changed is not known (neither the card index nor the last build "
                f"remembers rev {printed})")
    if not found:
        return f"{head}; nothing printed on it changed"
    return f"{head}: " + "; ".join(c.words() for c in found)
