"""A small cached index of every card, so a lookup does not re-read YAML.

Where: `<project>/.pnp-cache/referee-cards.json`, next to pnp's own cache
(the folder is git-ignored; a project that cannot be written keeps it in the
user's cache). The project is the one `referee --project DIR` (or
$REFEREE_PROJECT) names; else the nearest folder from the current directory
upward holding `card_sources/` and `templates/`; else the checkout the
referee runs from, or, installed from a wheel, the five games' card sources
the wheel carries (pnp/assets/project).

Freshness: the index stores the path, mtime and size of every YAML file that
can change a card (everything under card_sources/, and templates/icons.yaml).
If any differs, the index is rebuilt through `pnp.sources.loader.load_sources`,
which is the only time PyYAML is imported. Each rebuild keeps the fields of
every revision seen before (up to MAX_HISTORY per card), so a scan of an old
printed card can say exactly what changed since it was printed.

A file changed within RACY_NS of a rebuild could change again without its
mtime moving (filesystem clocks are coarse), so such an index is marked
racy and not trusted next time; it settles once the files are left alone.

If the cache folder cannot be written, lookups still work; they just rebuild.
"""
from __future__ import annotations

import json
import os
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping

from referee.errors import CardError

INDEX_FILE = "referee-cards.json"
SOURCE_SUFFIXES = (".yaml", ".yml", ".csv", ".xlsx")  # deck files may be spreadsheets
INDEX_FORMAT = "referee-card-index/2"  # cards carry their short code and illustration
MAX_HISTORY = 20
RACY_NS = 2_000_000_000


@dataclass(frozen=True)
class CardInfo:
    id: str
    game: str
    deck: str
    name: str
    type: str
    quantity: int
    revision: str
    fields: Mapping[str, Any]
    path: str
    line: int

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "game": self.game, "deck": self.deck, "name": self.name,
            "type": self.type, "quantity": self.quantity, "revision": self.revision,
            "fields": dict(self.fields), "path": self.path, "line": self.line,
        }


@dataclass(frozen=True)
class CardIndex:
    root: Path
    cards: Mapping[str, CardInfo]
    history: Mapping[str, Mapping[str, Mapping[str, Any]]]  # id -> revision -> fields


PROJECT_ENV = "REFEREE_PROJECT"
_CHOSEN: list[Path] = []   # the project `referee --project DIR` names, while its command runs


@contextmanager
def chosen_project(path: Path) -> Iterator[None]:
    """Read cards from the project at `path` for the duration (referee --project)."""
    _CHOSEN.append(path)
    try:
        yield
    finally:
        _CHOSEN.pop()


def project_root(start: Path | None = None) -> Path:
    """The project whose card sources the referee reads."""
    from pnp.errors import PnpError  # lazy: pnp loads only when card data is needed
    from pnp.project import find_project, installed_project, is_project  # lazy: as above

    given = _CHOSEN[-1] if _CHOSEN else (Path(os.environ[PROJECT_ENV]) if os.environ.get(PROJECT_ENV) else None)
    if given is not None:
        if not is_project(given):
            raise CardError(f"--project {given}: not a project (a project has card_sources/ and templates/)")
        return given.resolve()
    try:
        return find_project(start)
    except PnpError:
        pass
    installed = installed_project()
    if installed is not None:
        return installed
    here = (start or Path.cwd()).resolve()
    raise CardError(
        f"no card sources found from {here} upward or in the installed package; "
        "run it inside a project with card_sources/ and templates/, or give --project DIR"
    )


def signature(root: Path) -> list[list[Any]]:
    files = sorted(p for p in (root / "card_sources").rglob("*") if p.suffix in SOURCE_SUFFIXES)
    icons = root / "templates" / "icons.yaml"
    if icons.is_file():
        files.append(icons)
    out = []
    for path in files:
        if not path.is_file():
            continue
        stat = path.stat()
        out.append([path.relative_to(root).as_posix(), stat.st_mtime_ns, stat.st_size])
    out.append(["<pnp>", *_pnp_code_stamp()])  # a new pnp may read the same sources differently
    return out


def _pnp_code_stamp() -> list[int]:
    """The newest modification time and the total size of pnp's modules:
    stat calls only, so a lookup stays fast, yet an upgraded or edited pnp
    rebuilds the index."""
    import pnp  # lazy: pnp loads only when card data is needed

    stats = []
    for folder, subfolders, names in os.walk(Path(pnp.__file__).parent):   # every subpackage
        subfolders[:] = [d for d in subfolders if d != "assets"]   # fonts and the packaged project: no code
        stats += [os.stat(os.path.join(folder, name)) for name in names if name.endswith(".py")]
    return [max((s.st_mtime_ns for s in stats), default=0), sum(s.st_size for s in stats)]


def index_path(root: Path) -> Path:
    from pnp.caches import cache_root  # lazy: pnp loads only when card data is needed

    return cache_root(root) / INDEX_FILE


_LOADED: dict[Path, tuple[list[list[Any]], CardIndex]] = {}  # root -> (signature, index): one read per process


def load_index(root: Path) -> CardIndex:
    sig = signature(root)
    held = _LOADED.get(root)
    if held is not None and held[0] == sig:  # the sources are as they were: no need to read the file again
        return held[1]
    index = _load_index(root, sig)
    if not any(mtime > time.time_ns() - RACY_NS for _, mtime, _ in sig):  # a file edited this very moment may change again unseen
        _LOADED[root] = (sig, index)
    return index


def _load_index(root: Path, sig: list[list[Any]]) -> CardIndex:
    cached = _read_cached(index_path(root))
    if cached is not None and cached.get("signature") == sig and not cached.get("racy"):
        return _from_json(root, cached)
    old_history = cached.get("history", {}) if cached else {}
    data = _rebuild(root, sig, old_history)
    data["racy"] = any(mtime > time.time_ns() - RACY_NS for _, mtime, _ in sig)
    _write_cached(index_path(root), data)
    return _from_json(root, data)


def _read_cached(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("format") == INDEX_FORMAT else None


def _write_cached(path: Path, data: dict[str, Any]) -> None:
    from pnp.write import replace_file  # lazy: pnp loads only when card data is needed

    try:
        path.parent.mkdir(exist_ok=True)
        replace_file(path, json.dumps(data, ensure_ascii=False, sort_keys=True).encode("utf-8"), durable=False)
    except OSError:
        pass  # a cache: the next lookup tries again


def _rebuild(root: Path, sig: list[list[Any]], old_history: dict[str, Any]) -> dict[str, Any]:
    from pnp.errors import PnpError  # lazy: pnp loads only when card data is needed
    from pnp.sources.loader import load_sources  # lazy: PyYAML and the source parser, only to rebuild the index

    try:
        sources = load_sources(root)
    except PnpError as exc:
        raise CardError(f"the card sources in {root} cannot be read, so no card can be looked up:\n{exc}") from None
    cards: dict[str, Any] = {}
    history: dict[str, dict[str, Any]] = {k: dict(v) for k, v in old_history.items()}
    for card in sources.cards.values():
        try:
            rel = Path(card.path).resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            rel = str(card.path)
        cards[card.id] = CardInfo(
            card.id, card.game, card.deck, card.name, card.type, card.quantity, card.revision,
            dict(card.fields), rel, card.line,
        ).to_json()
        revisions = history.setdefault(card.id, {})
        revisions.pop(card.revision, None)
        revisions[card.revision] = dict(card.fields)  # newest last
        while len(revisions) > MAX_HISTORY:
            revisions.pop(next(iter(revisions)))
    return {"format": INDEX_FORMAT, "signature": sig, "cards": cards, "history": history}


def _from_json(root: Path, data: Mapping[str, Any]) -> CardIndex:
    cards = {cid: CardInfo(**c) for cid, c in data.get("cards", {}).items()}
    return CardIndex(root, cards, data.get("history", {}))
