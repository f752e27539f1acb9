"""`referee simulate` as one core function: run the plan, stream the
records into the tally (and into the JSON file), keep the first games as
table exports, and write the reports. Nothing is printed here: progress
goes to the caller's callback.

Outputs are written whole or not at all: the JSON is streamed game by game
into a temporary file beside its target and moved into place at the end;
the PDF is drawn in memory and written atomically. Ctrl-C ends the run
early and the reports say they are partial, with the games done.
"""
from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from referee.errors import RefereeError
from referee.simulate.play import GameRecord
from referee.simulate.runner import Plan, check_plan, run
from referee.simulate.result import Progress, SimulationResult
from referee.simulate.summary import Tally

if TYPE_CHECKING:
    from referee.simulate.ab import Against


def check_targets(*paths: Path | None) -> None:
    for path in paths:
        if path is None:
            continue
        if path.is_dir():
            raise RefereeError(f"{path} is a folder; name a file to write the report to")
        if not path.parent.is_dir():
            raise RefereeError(f"cannot write {path}: folder {path.parent} does not exist")


def simulate(plan: Plan, json_path: Path | None = None, pdf_path: Path | None = None,
             keep_dir: Path | None = None, progress: Callable[[Progress], None] = lambda p: None,
             interrupted: Callable[[], bool] = lambda: False, against: Against | None = None,
             until_decided: float | None = None, here: Path | None = None) -> SimulationResult:
    """Play the plan's games and write what was asked for; with `against`,
    play each game again on side B's project and compare the pairs (see
    ab.py, compare.py); with `until_decided` (the smallest effect worth
    finding), play in batches and stop once the sequential test decides
    (sequential.py), at plan.games a side at most. `here` is side A's
    project, for the card diff."""
    check_plan(plan)
    check_targets(json_path, pdf_path)
    if against is not None and (plan.keep or keep_dir is not None):
        raise RefereeError("--keep writes one project's games as table exports; run it without --against")
    if until_decided is not None and against is None:
        raise RefereeError("--until-decided decides an A/B: give --against REV-or-DIR or --without CARD")
    if plan.keep and keep_dir is None:
        raise RefereeError("--keep needs a folder to write the games to")
    edits = ()
    if against is not None and here is not None:
        from referee.simulate.changes import card_edits  # lazy: pnp's card diff only for A/B
        edits = card_edits(here, against.project, plan.game.value)
    if keep_dir is not None:
        if keep_dir.exists() and not keep_dir.is_dir():
            raise RefereeError(f"{keep_dir} is not a folder")
        keep_dir.mkdir(parents=True, exist_ok=True)
    if plan.scheduler is not None:
        from referee.simulate.cluster import check_reachable  # lazy: Dask only with --scheduler
        check_reachable(plan.scheduler)  # one clear error before any file is opened
    tally = Tally(plan.game.value)
    tally_b = Tally(plan.game.value) if against is not None else None
    sides = [("A" if against else None, plan, tally)]
    if against is not None:
        sides.append(("B", replace(plan, project=str(against.project)), tally_b))
    pairs = None
    if against is not None:
        from referee.simulate.paired import Pairs  # lazy: only for A/B
        pairs = Pairs()
    from referee.simulate.sequential import batches, decide  # lazy: small, and only for a sequential run
    looks = batches(plan.games) if until_decided is not None else [(0, plan.games)]
    total = plan.games * len(sides)
    stream = _Stream(json_path)
    kept: list[Path] = []
    started = time.perf_counter()
    stopped = False
    decision = None
    done = 0
    try:
        for start, count in looks:
            for side, side_plan, side_tally in sides:
                played = 0
                for record in run(replace(side_plan, start=start, games=count), stop=interrupted):
                    side_tally.add(record)
                    stream.add(record, side)
                    if pairs is not None:
                        pairs.add(side, record.seed - side_plan.seed, record)
                    if record.steps and keep_dir is not None:
                        kept.append(write_kept(plan, record, keep_dir))
                    done += 1
                    played += 1
                    progress(Progress(done, total, time.perf_counter() - started))
                if played < count:
                    stopped = True  # interrupted: the rest is not started
                    break
            if stopped:
                break
            if until_decided is not None and pairs is not None:
                decision = decide(pairs.measures(), until_decided)
                if decision.state.value != "undecided":
                    break
    except KeyboardInterrupt:
        stopped = True
    seconds = time.perf_counter() - started
    if stopped and until_decided is not None and pairs is not None:
        decision = replace(decide(pairs.measures(), until_decided), stopped=True)
    comparison = None
    if against is not None:
        from referee.simulate.compare import compare  # lazy: only for A/B
        comparison = compare(tally, tally_b, pairs, edits, decision)
    result = SimulationResult(tally, plan, seconds, stopped, json_path, pdf_path, tuple(kept),
                              against, tally_b, comparison)
    stream.finish(result)
    if pdf_path is not None:
        from referee.simulate import report_pdf  # lazy: ReportLab only for a PDF report
        report_pdf.write(result, pdf_path)
    return result


def header(result: SimulationResult) -> dict:
    plan = result.plan
    return {
        "format": "referee-simulation", "version": 1, "game": plan.game.value,
        "games_asked": plan.games, "games_done": result.tally.games, "partial": result.partial,
        "games_played": result.games_played,
        "seed": plan.seed, "jobs": plan.jobs, "turn_cap": plan.turn_cap,
        "seats": [{"name": s.name, "faction": s.faction, "agent": s.agent.value} for s in plan.seats],
        "seconds": round(result.seconds, 3),
        "games_per_second": round(result.games_played / result.seconds, 2) if result.seconds else None,
        "summary": result.tally.to_json(),
        **({"against": result.against.to_json(), "summary_b": result.tally_b.to_json(),
            "comparison": result.comparison.to_json()} if result.against is not None else {}),
    }


class _Stream:
    """The games of a run, one JSON object a line, in a file beside the
    target; `finish` wraps them with the header into the target."""

    def __init__(self, target: Path | None):
        self.target = target
        self.file = None
        if target is not None:
            fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".games", dir=target.parent)
            self.file = os.fdopen(fd, "w+", encoding="utf-8")
            self.name = name

    def add(self, record: GameRecord, side: str | None = None) -> None:
        if self.file is not None:
            data = record.to_json() if side is None else {"side": side, **record.to_json()}
            self.file.write(json.dumps(data, separators=(",", ":")) + "\n")

    def finish(self, result: SimulationResult) -> None:
        if self.file is None:
            return
        out_fd, out_name = tempfile.mkstemp(prefix=f".{self.target.name}.", suffix=".tmp", dir=self.target.parent)
        try:
            with os.fdopen(out_fd, "w", encoding="utf-8") as out:
                head = json.dumps(header(result), indent=1)
                out.write(head[:-2] + ',\n "games": [\n')
                self.file.seek(0)
                first = True
                for line in self.file:
                    out.write(("" if first else ",\n") + "  " + line.rstrip("\n"))
                    first = False
                out.write("\n ]\n}\n")
                out.flush()
                os.fchmod(out.fileno(), 0o644)
                os.fsync(out.fileno())
            os.replace(out_name, self.target)
        except BaseException:
            if os.path.exists(out_name):
                os.remove(out_name)
            raise
        finally:
            self.file.close()
            os.remove(self.name)


def write_kept(plan: Plan, record: GameRecord, folder: Path) -> Path:
    """A simulated game as a table export (`referee replay` loads it): the
    game is played again through the ledger with its recorded dice, then
    exported whole."""
    from referee.table import ledger  # lazy: the ledger and exports only for kept games
    from referee.table import transfer  # lazy: the ledger and exports only for kept games
    from referee.rules import rules_for  # lazy: as above
    from referee.simulate.play import setup_of  # lazy: as above
    from referee.table.store import db  # lazy: as above
    rules = rules_for(plan.game)
    index = record.seed - plan.seed
    config = plan.config(index)
    target = folder / f"{plan.game.value}-game-{index + 1:05d}-seed-{record.seed}.json"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "table.db"
        conn = db.create_table(path)
        try:
            ledger.start(conn, rules, setup_of(config), entered=record.setup_dice)
            for step in record.steps:
                ledger.perform(conn, rules, step.action, entered=step.dice)
        finally:
            conn.close()
        transfer.export(path, target, force=True, full=True)
    return target
