"""Card diffs: what changed, card by card, between the sources now and a git
revision (`pnp diff REV`) or the last build (`pnp diff`).

A card is compared by its snapshot: its name, type, deck and quantity, each
of its fields as read (numbers as numbers, text as written), and its
picture by the SHA-256 of the file's bytes (a redrawn picture is a change
even under the same name). A build keeps each deck's snapshots in its build
state (pnp.pipeline.jobs), so "since the last build" needs no git at all.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from pnp.errors import PnpError, ValidationFailed
from pnp.extras.ttsobjects import ICON_WORDS   # the one list of icons in words (TTS descriptions use it too)
from pnp.model import Sources
from pnp.sources.cardsnap import snapshot
from pnp.project import SOURCES_DIR, TEMPLATES_DIR

_BOLD = re.compile(r"\*\*(.+?)\*\*", re.S)
_ICON = re.compile(r"\{([a-z0-9-]+)\}")


class Change(str, Enum):
    ADDED = "added"
    REMOVED = "removed"
    CHANGED = "changed"


@dataclass(frozen=True)
class FieldChange:
    field: str
    old: Any
    new: Any


@dataclass(frozen=True)
class CardChange:
    game: str
    deck: str
    card: str
    name: str
    change: Change
    fields: tuple[FieldChange, ...] = ()
    old_name: str = ""

    def to_json(self) -> dict:
        return {"game": self.game, "deck": self.deck, "card": self.card, "name": self.name,
                "change": self.change.value,
                "fields": [{"field": f.field, "old": f.old, "new": f.new} for f in self.fields]}


def snapshots(sources: Sources, project: Path, games: list[str] | None = None) -> dict[str, dict[str, dict]]:
    """{game: {card id: snapshot}}."""
    return {slug: {c.id: snapshot(c, project) for c in game.cards}
            for slug, game in sources.games.items() if games is None or slug in games}


def _flat(snap: dict) -> dict[str, Any]:
    out = {"name": snap["name"], "type": snap["type"], "deck": snap["deck"], "quantity": snap["quantity"]}
    out.update(snap["fields"])
    return out


def diff(old: dict[str, dict[str, dict]], new: dict[str, dict[str, dict]]) -> list[CardChange]:
    """Per card, what changed from `old` to `new` (games of either), in the order cards come now,
    removed cards last in their old order."""
    out: list[CardChange] = []
    for game in dict.fromkeys([*new, *old]):
        before, after = old.get(game, {}), new.get(game, {})
        for card_id, snap in after.items():
            if card_id not in before:
                out.append(CardChange(game, snap["deck"], card_id, snap["name"], Change.ADDED))
                continue
            a, b = _flat(before[card_id]), _flat(snap)
            changed = tuple(FieldChange(k, a.get(k), b.get(k)) for k in dict.fromkeys([*b, *a]) if a.get(k) != b.get(k))
            if changed:
                out.append(CardChange(game, snap["deck"], card_id, snap["name"], Change.CHANGED, changed,
                                      before[card_id]["name"]))
        for card_id, snap in before.items():
            if card_id not in after:
                out.append(CardChange(game, snap["deck"], card_id, snap["name"], Change.REMOVED))
    return out


# --------------------------------------------------------------------------- where the old cards come from

def revision_sources(project: Path, rev: str, games: list[str] | None) -> tuple[Sources, Path, Path]:
    """The project's card sources and templates as they were at git revision
    `rev`, read from a temporary copy: (sources, the copy's root, a folder to remove)."""
    git = shutil.which("git")
    if git is None:
        raise PnpError("pnp diff REV reads the revision with git, which is not on PATH; give no REV to compare "
                       "with the last build")

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([git, "-C", str(project), *args], capture_output=True, check=False)

    prefix = run("rev-parse", "--show-prefix")
    if prefix.returncode != 0:
        raise PnpError(f"{project} is not in a git repository; give no REV to compare with the last build")
    if run("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").returncode != 0:
        raise PnpError(f"unknown git revision {rev!r} in {project}")
    tree = f"{rev}:{prefix.stdout.decode().strip()}"
    tmp = Path(tempfile.mkdtemp(prefix="pnp-diff-"))
    try:
        done = run("archive", "--format=tar", tree, SOURCES_DIR, TEMPLATES_DIR)
        if done.returncode != 0:
            said = done.stderr.decode(errors="replace").strip().splitlines()
            raise PnpError(f"revision {rev} has no {SOURCES_DIR}/ and {TEMPLATES_DIR}/ to compare with"
                           + (f" ({said[-1]})" if said else ""))
        archive = tmp / "rev.tar"
        archive.write_bytes(done.stdout)
        with tarfile.open(archive) as tar:
            tar.extractall(tmp / "project", filter="data")
        archive.unlink()
        from pnp.sources.loader import load_sources  # lazy: YAML, only when a diff runs

        root = tmp / "project"
        try:
            wanted = [g for g in games or [] if (root / SOURCES_DIR / g).is_dir()] or None
            sources = load_sources(root, wanted) if games is None or wanted else Sources(root, {})
        except ValidationFailed as exc:
            first = (str(exc).splitlines() or ["a problem"])[0].replace(f"{root}/", f"{rev}:")
            raise PnpError(f"the sources at revision {rev} do not read: {first}") from None
        return sources, root, tmp
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def last_build_snapshots(folder: Path) -> dict[str, dict] | None:
    """The card snapshots the last build of a game recorded in its build state (None: no such build)."""
    from pnp.pipeline.incremental import BuildState  # lazy: only a diff against the last build needs it

    state = BuildState.load(folder)
    found: dict[str, dict] = {}
    for entry in state.outputs.values():
        found.update(entry.get("snapshot") or {})
    return found or None


# --------------------------------------------------------------------------- in players' words

def plain(text: Any) -> str:
    """Card text as a player reads it: no markup, icons as words."""
    if not isinstance(text, str):
        return "" if text is None else str(text)
    out = _BOLD.sub(r"\1", text)
    return _ICON.sub(lambda m: ICON_WORDS.get(m.group(1), m.group(1).replace("-", " ")), out)


def field_word(name: str) -> str:
    return ICON_WORDS.get(name, name.replace("_", " "))


def describe(f: FieldChange) -> str:
    """One field's change in words: 'attack 2 -> 3', 'text: ... (was: ...)'."""
    word = field_word(f.field)
    if f.field == "art":
        return "new picture" if f.old and f.new else ("picture added" if f.new else "picture removed")
    if isinstance(f.old, (int, float)) and isinstance(f.new, (int, float)) and not isinstance(f.old, bool):
        return f"{word} {f.old:g} -> {f.new:g}"
    if f.field in ("text", "flavor", "name"):
        return f"{word}: {plain(f.new) or '(none)'} (was: {plain(f.old) or '(none)'})"
    if f.field == "effects":
        return "rules effects changed"
    old = ", ".join(map(str, f.old)) if isinstance(f.old, list) else plain(f.old)
    new = ", ".join(map(str, f.new)) if isinstance(f.new, list) else plain(f.new)
    return f"{word}: {new or '(none)'} (was: {old or '(none)'})"


def summary_lines(changes: list[CardChange]) -> list[str]:
    if not changes:
        return ["no card changed"]
    lines = []
    for c in changes:
        head = f"{c.game}/{c.deck}: {c.card} ({c.name})"
        if c.change is Change.CHANGED:
            lines.append(f"{head} changed: " + "; ".join(describe(f) for f in c.fields))
        else:
            lines.append(f"{head} {c.change.value}")
    counts = {k: sum(1 for c in changes if c.change is k) for k in Change}
    lines.append(", ".join(f"{n} {k.value}" for k, n in counts.items()))
    return lines
