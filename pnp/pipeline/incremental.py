"""What each output depends on, as hashes, so a build redoes only what changed.

Two levels:
- a game digest over the bytes of every input file (cheap: no YAML parsing,
  no ReportLab), which lets an unchanged rebuild stop at once; the
  illustrations count there by size and modification time (reading the
  hundreds a game uses would cost a no-op build more than it now takes to
  decide), their bytes in the keys below;
- a key per output file over exactly what goes into it: its cards as parsed,
  the templates it renders (with their includes), styles, icons, fonts,
  its cards' illustrations (each SVG, and what the derived file
  templates/art/paths.json holds for it), the build options and pnp's own code.

Every picture an output drew (whoever named it: art.yaml, a card, a template's
literal src, pnp's own icons; PNG, JPEG or SVG) is also recorded with the
output in the build state (`picture_record`): the game's quick look checks
their sizes and modification times, an output's freshness their bytes, so a
replaced or deleted picture is never "up to date".
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from pnp import __version__
from pnp.faces import artpaths
from pnp.model import Deck, DocKind, Document, Game
from pnp.project import SOURCES_DIR, TEMPLATES_DIR, font_folder
from pnp.sources.art import art_credit, find_art

STATE_FILE = ".pnp-build.json"
_code_digest: str | None = None


def content_hash(*parts: Any) -> str:
    """A SHA-256 over values as canonical JSON."""
    blob = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


_file_hashes: dict[str, bytes | None] = {}  # within one build: each file read and hashed once
_memo: dict[Any, str] = {}  # within one build: other digests over files (see face_prefix)


def forget_files() -> None:
    """Start a new build: files may have changed since the last one."""
    _file_hashes.clear()
    _memo.clear()


def _file_hash(name: str) -> bytes | None:
    if name not in _file_hashes:
        if os.path.isfile(name):
            with open(name, "rb") as file:
                _file_hashes[name] = hashlib.sha256(file.read()).digest()
        else:
            _file_hashes[name] = None
    return _file_hashes[name]


def file_digest(paths: Iterable[Path], root: Path) -> str:
    sha = hashlib.sha256()
    base = os.path.join(str(root), "")
    for name in sorted({str(p) for p in paths}):
        digest = _file_hash(name)
        if digest is not None:  # a file outside the project (pnp's own fonts) counts by its name
            shown = name[len(base):] if name.startswith(base) else "<pnp>/" + os.path.basename(name)
            sha.update(shown.encode() + b"\0" + digest)
    return sha.hexdigest()


PACKAGE = Path(__file__).resolve().parents[1]  # pnp/


def code_files() -> list[Path]:
    """pnp's own source, every subpackage included, and its assets (fonts)."""
    return sorted(PACKAGE.rglob("*.py")) + sorted(p for p in (PACKAGE / "assets").rglob("*") if p.is_file())


def code_digest() -> str:
    """pnp's own source: a new pnp (or a local edit to it) rebuilds everything."""
    global _code_digest
    if _code_digest is None:
        _code_digest = file_digest(code_files(), PACKAGE) + __version__
    return _code_digest


def shared_template_files(project: Path, game: str) -> list[Path]:
    """Files every output of a game depends on: styles, icons, fonts."""
    t = project / TEMPLATES_DIR
    files = [t / "style.yaml", t / "icons.yaml", t / game / "style.yaml", t / game / "icons.yaml"]
    return files + sorted(font_folder(t).glob("*.ttf"))


def effect_files(project: Path, game: str) -> list[Path]:
    """The game's effect vocabulary, if it has one: card texts are generated from
    its phrases, so every output holding cards (and every remembered face) depends on it."""
    path = project / SOURCES_DIR / game / "effects.yaml"
    return [path] if path.is_file() else []


_ART_NAME = re.compile(r"^[ \t]+[^\s#][^:\n]*:[ \t]*[\"']?([a-z0-9]+(?:[-_][a-z0-9]+)*(?:\.(?:svg|png|jpe?g))?)",
                       re.M | re.I)


def art_stamps(project: Path, game: str) -> list:
    """The illustrations a game's art.yaml names (a superset, found without
    parsing YAML: every `key: icon-name` line), and the derived file beside
    them: each one's name, size and modification time (None: missing)."""
    try:
        text = (project / SOURCES_DIR / game / "art.yaml").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    art = str(project / TEMPLATES_DIR / "art")
    out: list = []
    for name in sorted({n if "." in n else f"{n}.svg" for n in _ART_NAME.findall(text)}) + [artpaths.DERIVED]:
        try:
            st = os.stat(f"{art}/{name}")
            out.append((name, st.st_size, st.st_mtime_ns))
        except OSError:
            out.append((name, None))
    return out


def game_inputs(project: Path, game: str) -> list[Path]:
    t = project / TEMPLATES_DIR
    return (sorted((project / SOURCES_DIR / game).rglob("*")) + sorted((t / game).rglob("*"))
            + sorted((t / "common").rglob("*")) + shared_template_files(project, game))


def game_digest(project: Path, game: str, options: Any) -> str:
    return content_hash(code_digest(), repr(options), file_digest(game_inputs(project, game), project),
                        art_stamps(project, game))


_TAG = re.compile(r"\{%[-+]?\s*(?:include|extends|import|from)\b(.*?)[-+]?%\}", re.S)
_STRING = re.compile(r"\"([^\"]*)\"|'([^']*)'")
_CODE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)


@lru_cache(maxsize=None)
def _referenced(path: str, mtime_ns: int, size: int) -> tuple[str, ...]:
    """The templates a template includes, extends or imports: every string
    literal in those tags (a superset of what Jinja would load, found without
    parsing the template, which costs as much as compiling it)."""
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    names = []
    for body in _TAG.findall(text):
        names += [a or b for a, b in _STRING.findall(body) if a or b]
    return tuple(names)


@lru_cache(maxsize=None)
def _code_words(path: str, mtime_ns: int, size: int) -> frozenset[str]:
    """Every name used inside the template's {{ }} and {% %} blocks: a
    superset of the variables it reads from its context."""
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    return frozenset(w for block in _CODE.findall(text) for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", block))


def _stamp(path: Path) -> tuple[str, int, int]:
    st = path.stat()
    return str(path), st.st_mtime_ns, st.st_size


def template_closure(project: Path, game: str, names: Iterable[str]) -> list[Path]:
    """The template files `names` render, following {% include %}/{% extends %}/{% import %}."""
    t = project / TEMPLATES_DIR
    seen: dict[str, Path] = {}
    todo = [n if n.endswith(".xml.j2") else f"{n}.xml.j2" for n in names]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        path = next((d / name for d in (t / game, t / "common") if (d / name).is_file()), t / game / name)
        seen[name] = path
        if path.is_file():
            todo += list(_referenced(*_stamp(path)))
    return sorted(seen.values())


def template_variables(project: Path, game: str, names: Iterable[str]) -> set[str]:
    """The names the templates (and what they include) use in their code:
    every variable they read is among them."""
    found: set[str] = set()
    for path in template_closure(project, game, names):
        if path.is_file():
            found |= _code_words(*_stamp(path))
    return found


def face_prefix(project: Path, game: str, template: str) -> str:
    """What every face a template makes depends on besides its context: the
    template files it renders, the styles, icons and fonts, the game's effects
    and pnp's code (pnp.pipeline.facecache). Once per template in a build."""
    memo = ("face", str(project), game, template)
    if memo not in _memo:
        files = (template_closure(project, game, [template]) + shared_template_files(project, game)
                 + effect_files(project, game))
        _memo[memo] = content_hash(code_digest(), template, file_digest(files, project))
    return _memo[memo]


def output_key(project: Path, game: str, options: Any, content: Any, templates: Iterable[str],
               extra_files: Iterable[Path] = ()) -> str:
    files = template_closure(project, game, templates) + shared_template_files(project, game) + list(extra_files)
    return content_hash(code_digest(), repr(options), content, file_digest(files, project))


def deck_key(project: Path, game: Game, deck: Deck, options: Any) -> str:
    """The key of a deck's file: its cards as parsed, their types, its look, and what its templates read."""
    types = sorted({c.type for c in deck.cards})
    content = {
        "game": [game.name, game.card_size, list(game.players)],
        "deck": [deck.id, deck.name, deck.back, deck.color, deck.icon, deck.size],
        "types": {t: [game.card_types[t].template, repr(game.card_types[t].fields)] for t in types},
        "cards": [[c.fields, c.revision] for c in deck.cards],
    }
    art = sorted({find_art(project, c.fields["art"]) or project / c.fields["art"]  # pnp's own icon where it stands in
                  for c in deck.cards if isinstance(c.fields.get("art"), str)})
    if art:  # the SVGs count as files; what the derived file holds for each, here
        content["art"] = [artpaths.weight(path) for path in art]
    names = [game.card_types[t].template for t in types] + ([deck.back] if deck.back else [])
    return output_key(project, game.slug, options, content, names, effect_files(project, game.slug) + art)


def doc_key(project: Path, game: Game, doc: Document, options: Any) -> str:
    """The key of a document's files: the document, the decks when its template
    reads them, and for a rule sheet its markdown and the diagrams it draws."""
    content = {"game": [game.name, list(game.players)],
               "doc": [doc.id, doc.kind.value, doc.name, doc.template, doc.size, doc.data]}
    if doc.kind is not DocKind.RULES and template_variables(project, game.slug, [doc.template]) & {"decks", "*"}:
        content["decks"] = [(d.id, d.name, d.color, d.icon) for d in game.decks]  # only if the template reads them
    if doc.kind is DocKind.RULES:
        content["credit"] = art_credit(project, game.cards)  # the credit line follows the art the cards use
        source = doc.path.parent / doc.template
        text = source.read_text(encoding="utf-8") if source.is_file() else ""
        diagrams = [line.split()[1] for line in text.splitlines() if line.strip().startswith("@diagram ") and len(line.split()) > 1]
        return output_key(project, game.slug, options, content, diagrams, [source])
    return output_key(project, game.slug, options, content, [doc.template])


def picture_record(paths: Iterable[str]) -> dict[str, list]:
    """What an output's pictures were when it was drawn (every file an <art>
    element drew: from art.yaml, a card's own `art`, a template's literal
    src, pnp's shipped icons): path -> [SHA-256, size, modification time].
    Kept in the build state, so a picture replaced or deleted is noticed
    however the output came to draw it (`pictures_unmoved`, `pictures_same`)."""
    out: dict[str, list] = {}
    for name in sorted(set(paths)):
        digest = _file_hash(name)
        if digest is None:
            continue
        st = os.stat(name)
        out[name] = [digest.hex(), st.st_size, st.st_mtime_ns]
    return out


def pictures_unmoved(record: Any) -> bool:
    """The quick look, for a game's digest: every picture still has its size and modification time."""
    if not isinstance(record, dict):
        return True  # a state written before pictures were recorded: their keys decide
    for name, (_, size, mtime_ns) in record.items():
        try:
            st = os.stat(name)
        except OSError:
            return False
        if (st.st_size, st.st_mtime_ns) != (size, mtime_ns):
            return False
    return True


def pictures_same(record: Any) -> bool:
    """The sure look, for one output's key: every picture still has its bytes."""
    if not isinstance(record, dict):
        return True
    return all((d := _file_hash(name)) is not None and d.hex() == sha for name, (sha, _, _) in record.items())


class BuildState:
    """What the last build of a game wrote, kept next to its outputs."""

    def __init__(self, path: Path, data: dict[str, Any]):
        self.path = path
        self.digest: str = data.get("digest", "")
        self.outputs: dict[str, dict[str, Any]] = data.get("outputs", {})
        self.colours: list[str] = data.get("colours", [])  # colour-identity warnings (said again while they hold)

    @classmethod
    def load(cls, out_dir: Path) -> "BuildState":
        path = out_dir / STATE_FILE
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        return cls(path, data if isinstance(data, dict) else {})

    def up_to_date(self, digest: str, out_dir: Path) -> bool:
        return (bool(self.outputs) and digest == self.digest and all((out_dir / f).is_file() for f in self.outputs)
                and all(pictures_unmoved(entry.get("pictures")) for entry in self.outputs.values()))

    def fresh(self, name: str, key: str, out_dir: Path) -> bool:
        entry = self.outputs.get(name)
        return (entry is not None and entry.get("key") == key and (out_dir / name).is_file()
                and pictures_same(entry.get("pictures")))

    def card_ids(self) -> set[str] | None:
        """The ids of the cards this build wrote, or None if it recorded none."""
        ids = {c["id"] for entry in self.outputs.values() for c in entry.get("cards", []) if "id" in c}
        return ids or None

    def to_json(self) -> dict[str, Any]:
        return {"digest": self.digest, "outputs": self.outputs, **({"colours": self.colours} if self.colours else {})}

    def dump(self) -> bytes:
        """Compact JSON: only pnp reads this file, and it lists every card."""
        return json.dumps(self.to_json(), separators=(",", ":"), ensure_ascii=False).encode("utf-8")
