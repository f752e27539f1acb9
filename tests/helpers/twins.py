"""Twin tables for the non-interference tests (not a test module).

Two tables are built equal in everything a player may see and different in
their hidden cards (same seeds, other face-down cards, other hands or deck
lists). The same command lines then run on both; every output a player can
read must be byte-identical: the echo and the error text of each command,
and, at checkpoints, `status`, `log`, `card`, scan mode, the live page's
JSON and event stream and the match report.

A few commands may legitimately tell the twins apart once they are
accepted: an attack on a face-down spot, a Propaganda challenge, a card
played from a hand that holds it on one twin only. Those are the points
where the game itself turns a card over (`Twins.step` says which); both
twins are then put back to before that line, and the sequence plays on. A refusal that must depend on a
hidden card (the other twin accepts the same line) is still read: it may
name no hidden card but those its own line typed.
"""
from __future__ import annotations

import dataclasses
import json
import re
import shutil
from pathlib import Path
from typing import Callable, Iterable

from conftest import Table

TIME = "2026-11-26T20:15:02.000Z"
REVEALS, NAMES = "reveals", "names"  # how a line may tell the twins apart (Twins.step)


@dataclasses.dataclass
class Step:
    line: str
    same: bool          # byte-identical echo and exit code on both twins
    parted: bool        # accepted on both, different words: the game turned a card over
    refused: tuple[bool, bool]


class Twins:
    """Two tables run with the same command lines."""

    def __init__(self, folder: Path, secrets: Callable[[int], Iterable[tuple[str, str]]]):
        self.folder = folder
        self.tables = (_table(folder / "a"), _table(folder / "b"))
        self.secrets = secrets  # twin index -> (id, name) of each of that twin's hidden cards
        self.steps: list[Step] = []

    def each(self, lines_a: Iterable[str], lines_b: Iterable[str] | None = None) -> list[tuple[str, str]]:
        """Run set-up lines (each twin its own when given) and return both echoes."""
        lines_a = list(lines_a)
        lines_b = list(lines_a if lines_b is None else lines_b)
        out = []
        for la, lb in zip(lines_a, lines_b):
            ra, rb = self.tables[0].run(la), self.tables[1].run(lb)
            out.append((self.norm(0, ra.output), self.norm(1, rb.output)))
        return out

    def step(self, line: str | list[str], may_part: Callable[[str], str | None], input: str | None = None) -> Step:
        """Run one line on both twins and judge it (AssertionError on a leak).

        `may_part(line)` says how the line may tell the twins apart: None (it
        may not), REVEALS (once accepted, the game turns a card over: an
        attack, a challenge) or NAMES (it names a card hidden on one twin:
        accepted on one, refused on the other, or refused in other words).
        A refusal that differs between the twins may name no hidden card but
        those its own line typed. Before a line that may part them, both
        tables are kept; if it does part them, both go back to what was
        kept, so the sequence plays on."""
        text = line if isinstance(line, str) else " ".join(line)
        how = may_part(text)
        if how:
            self._keep()
        ra = _Out(self, 0, self.tables[0].run(line, ok=False, input=input))
        rb = _Out(self, 1, self.tables[1].run(line, ok=False, input=input))
        for r in (ra, rb):
            if r.exception is not None and not isinstance(r.exception, SystemExit):
                raise AssertionError(f"`{text}` raised {r.exception!r}\n{r.output}")
        refused = (ra.exit_code != 0, rb.exit_code != 0)
        same = ra.output == rb.output and refused[0] == refused[1]
        both = f"\n--- a:\n{ra.output}--- b:\n{rb.output}"
        if not same:
            for i, r in enumerate((ra, rb)):
                if r.exit_code != 0:
                    found = self.leaks(i, r.output, typed=text)
                    assert not found, f"`{text}` is refused on twin {'ab'[i]}, naming hidden cards {found}:{both}"
            if refused == (False, False):
                assert how in (REVEALS, NAMES), f"`{text}` gives different words on the two twins:{both}"
            else:
                assert how == NAMES, (f"`{text}` is refused in other words (or on one twin only), and it names "
                                      f"no hidden card:{both}")
        result = Step(text, same, not same, refused)
        self.steps.append(result)
        if not same:  # the game turned a card over: both twins go back to before the line, and play on
            self._restore()
        return result

    def _keep(self) -> None:
        for t in self.tables:
            kept = self.folder / "kept" / t.db.parent.name
            shutil.rmtree(kept, ignore_errors=True)
            shutil.copytree(t.db.parent, kept)

    def _restore(self) -> None:
        for t in self.tables:
            shutil.rmtree(t.db.parent)
            shutil.copytree(self.folder / "kept" / t.db.parent.name, t.db.parent)

    def norm(self, twin: int, text: str) -> str:
        """The twin's own file names read as TABLE (they are the one thing told apart on purpose)."""
        db = self.tables[twin].db
        return text.replace(str(db.resolve()), "TABLE").replace(str(db), "TABLE").replace(db.name, "TABLE")

    def leaks(self, twin: int, text: str, typed: str = "") -> list[str]:
        """The hidden cards (id, name) of this twin that `text` names, but those `typed` names by id."""
        low, typed_low = text.lower(), typed.lower()
        typed_names = {n.lower() for c, n in _card_names().items() if c in typed_low.split()}
        return [name for cid, name in self.secrets(twin)
                if cid.lower() not in typed_low
                and (cid.lower() in low or (name.lower() in low and name.lower() not in typed_names))]

    # ---- what players read, compared at checkpoints --------------------------------

    def same_views(self, lines: Iterable[str]) -> None:
        """Each read-only command gives byte-identical output on both twins."""
        for line in lines:
            ra, rb = (_Out(self, i, t.run(line, ok=False)) for i, t in enumerate(self.tables))
            assert (ra.exit_code, ra.output) == (rb.exit_code, rb.output), (
                f"`{line}` differs:\n--- a:\n{ra.output}--- b:\n{rb.output}")

    def same_export(self) -> None:
        """`export` without --full: the file players may be given."""
        texts = []
        for i, t in enumerate(self.tables):
            out = t.db.parent / "export.json"
            out.unlink(missing_ok=True)
            t.run(["export", str(out)])
            texts.append(self.norm(i, out.read_text(encoding="utf-8")))
        assert texts[0] == texts[1], _diff("the export", texts)

    def same_page(self) -> None:
        """The live page's JSON and its event stream, and the match report."""
        from starlette.testclient import TestClient  # lazy: only the checkpoints serve

        from referee.report import build
        from referee.serve.app import create_app
        from referee.serve.tokens import TokenStore
        from referee.serve.watch import TableWatch

        pages, streams, reports = [], [], []
        for t in self.tables:
            watch = TableWatch(t.db)
            watch.poll()
            tokens = TokenStore(t.db, watch.players())
            with TestClient(create_app(watch, tokens, poll_s=0.05, keepalive_s=0.3)) as client:
                pages.append(client.get("/api/state").text + client.get("/").text)
                streams.append(first_event(client, "/api/events"))
            pages[-1], streams[-1] = self.norm(len(pages) - 1, pages[-1]), self.norm(len(pages) - 1, streams[-1])
            report = dataclasses.asdict(build(t.db))
            report.pop("path")
            reports.append(json.dumps(report, default=str, sort_keys=True))
        assert pages[0] == pages[1], _diff("the page's JSON", pages)
        assert streams[0] == streams[1], _diff("the page's event stream", streams)
        assert reports[0] == reports[1], _diff("the match report", reports)


class _Out:
    """A command's result with the twin's file names read as TABLE."""

    def __init__(self, twins: Twins, twin: int, result):
        self.exit_code, self.exception = result.exit_code, result.exception
        self.output = twins.norm(twin, result.output)


def first_event(client, url: str) -> str:
    with client.stream("GET", url) as response:
        for line in response.iter_lines():
            if line.startswith("data: "):
                return line
    raise AssertionError("no event")


def _diff(what: str, pair: list[str]) -> str:
    a, b = pair
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"{what} differs at {i}:\n--- a: ...{a[max(0, i - 120):i + 200]}\n--- b: ...{b[max(0, i - 120):i + 200]}"


def words(text: str) -> str:
    """A line's words without ids, for messages."""
    return re.sub(r"\s+", " ", text).strip()


def _table(folder: Path) -> Table:
    folder.mkdir(parents=True, exist_ok=True)
    return Table(folder / "table.db")


def _card_names() -> dict[str, str]:
    from referee.cards.index import load_index, project_root  # lazy: the card index, read once per test

    return {c.id: c.name for c in load_index(project_root()).cards.values()}
