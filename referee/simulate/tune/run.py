"""A whole balance search: search, then verify the proposal on fresh seeds,
then (only with `write`, only if verified) apply the patch to the project.

The state and the report are one JSON file, rewritten whole after every
batch of games: a run stopped by Ctrl-C keeps every evaluation, and a run
given the file again (`resume`) replays them instead of playing.
"""
from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.errors import RefereeError
from referee.simulate.stats import difference
from referee.simulate.tune.engine import Engine
from referee.simulate.tune.fairness import Count
from referee.simulate.tune.search import VERIFY_SEED, Search, Spec, State, save_to

FORMAT = "referee-tune/1"


@dataclass
class TuneResult:
    report: dict[str, Any]
    patch: str
    partial: bool
    written: bool


def tune(spec: Spec, base: Path, out: Path, resume: Path | None = None, jobs: int = 1,
         scheduler: str | None = None, write_patch: bool = False) -> TuneResult:
    identity = {"game": spec.plan.game.value, "target": spec.target.text, "seed": spec.plan.seed,
                "games": spec.plan.games, "players": spec.plan.players, "knobs": sorted(spec.knobs),
                "agents": [a.value for a in spec.plan.agents]}
    state = State()
    if resume is not None:
        state = _resumed(resume, identity)
    started = time.perf_counter()
    seconds_before = state.seconds
    report: dict[str, Any] = {}

    def header(s: State) -> dict[str, Any]:
        return {"format": FORMAT, **identity, "tolerance": spec.tolerance, **report,
                "games_played": s.games, "seconds": round(s.seconds, 2),
                "path": s.path, "evaluations": s.evaluations}

    save = save_to(out, header)
    engine = Engine(jobs, scheduler)
    search = Search(spec, base, engine, state, save)
    partial = False
    patch = ""
    try:
        best = search.run()
        patch = search.sources(best["change"]).diff() if best["change"] else ""
        report["proposal"] = {"change": best["change"], "gap_points": round(best["gap"] * 100, 2),
                              "patch": patch}
        report["verification"] = _verify(search, spec, best)
    except KeyboardInterrupt:
        partial = True
    finally:
        state.seconds = max(state.seconds, seconds_before + time.perf_counter() - started)
        report["partial"] = partial
        save(state)
        search.close()
        engine.close()
    written = False
    verified = report.get("verification", {}).get("passed", False)
    if write_patch and verified and patch:
        _apply(search, best["change"], base)
        written = True
    report["written"] = written
    save(state)
    return TuneResult(header(state), patch, partial, written)


def _verify(search: Search, spec: Spec, best: dict[str, Any]) -> dict[str, Any]:
    """The proposal against the unchanged cards on seeds the search never used."""
    seed = spec.plan.seed + VERIFY_SEED
    before = search.evaluate({}, seed, spec.verify_games)
    after = search.evaluate(best["change"], seed, spec.verify_games) if best["change"] else before
    cb, ca = Count.from_json(before["count"]), Count.from_json(after["count"])
    rb, ra = cb.rates(spec.target.by), ca.rates(spec.target.by)
    rows = {}
    for name in sorted(set(rb) | set(ra)):
        b, a = rb.get(name), ra.get(name)
        d = difference(b.hits, b.n, a.hits, a.n) if b and a else None
        rows[name] = {"before": b.to_json() if b else None, "after": a.to_json() if a else None,
                      "p_value": round(d.p_value, 4) if d else None}
    gap_after, se_after, worst = ca.gap(spec.target)
    gap_before, _, _ = cb.gap(spec.target)
    passed = bool(best["change"]) and gap_after * 100 <= spec.tolerance
    return {"seed": seed, "games": spec.verify_games, "fair_share": round(ca.fair(), 4),
            "gap_points_before": round(gap_before * 100, 2), "gap_points_after": round(gap_after * 100, 2),
            "gap_interval_after": [round(max(0, gap_after - 1.96 * se_after) * 100, 2),
                                   round((gap_after + 1.96 * se_after) * 100, 2)],
            "furthest_after": worst, "rates": rows, "passed": passed,
            "met": "target met within tolerance" if passed else
                   (("already within tolerance: nothing to change" if gap_before * 100 <= spec.tolerance else
                     "no change within the knobs brings it closer") if not best["change"] else
                    f"target not met: {gap_after * 100:.1f} points from it after the change "
                    f"(tolerance {spec.tolerance:g}), {gap_before * 100:.1f} before")}


def _apply(search: Search, change: dict[str, Any], base: Path) -> None:
    """Copy the verified candidate's edited files over the project's (each whole, atomically)."""
    written = search.sources(change)
    for rel, (before, after) in written.files.items():
        target = base / rel
        if target.read_text(encoding="utf-8") != before:
            raise RefereeError(f"{target} changed during the search; the patch was not applied")
    for rel, (_, after) in written.files.items():
        target = base / rel
        tmp = target.with_name(f".{target.name}.tune")
        tmp.write_text(after, encoding="utf-8")
        shutil.copymode(target, tmp)
        tmp.replace(target)


def _resumed(path: Path, identity: dict[str, Any]) -> State:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RefereeError(f"--resume {path}: cannot read it: {exc}") from None
    if data.get("format") != FORMAT:
        raise RefereeError(f"--resume {path}: not a referee tune file")
    for k, v in identity.items():
        if data.get(k) != v:
            raise RefereeError(f"--resume {path}: it was a run with {k} {data.get(k)!r}, not {v!r}")
    return State(data.get("evaluations", []), data.get("path", []), data.get("games_played", 0),
                 data.get("seconds", 0.0))
