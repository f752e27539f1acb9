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
from referee.simulate.tune.engine import Engine
from referee.simulate.tune.search import Search, Spec, State, save_to
from referee.simulate.tune.verify import verify

FORMAT = "referee-tune/2"  # 2: the verification keeps its games (paired)


@dataclass
class TuneResult:
    report: dict[str, Any]
    patch: str
    partial: bool
    written: bool


def tune(spec: Spec, base: Path, out: Path, resume: Path | None = None, jobs: int = 1,
         scheduler: str | None = None, write_patch: bool = False, pdf: Path | None = None) -> TuneResult:
    identity = {"game": spec.plan.game.value, "target": spec.target.text, "seed": spec.plan.seed,
                "games": spec.plan.games, "players": spec.plan.players, "knobs": sorted(spec.knobs),
                "agents": [a.value for a in spec.plan.agents], "factions": list(spec.plan.factions),
                "house_rules": [f"{k}={v}" for k, v in spec.plan.house_rules]}
    state = State()
    if resume is not None:
        state = _resumed(resume, identity)
    started = time.perf_counter()
    seconds_before = state.seconds
    from referee.simulate.agents_named import agents_named  # lazy: as the balance report

    report: dict[str, Any] = {"agents_in_words": agents_named(spec.plan)}

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
                              "say": _say(spec, best["change"]), "patch": patch}
        report["verification"] = verify(search, spec, best)
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
    if pdf is not None:
        from referee.simulate.tune import report_pdf  # lazy: ReportLab only for a PDF

        report_pdf.write(header(state), spec.plan.game.game_title, pdf)
    return TuneResult(header(state), patch, partial, written)


def _say(spec: Spec, change: dict[str, Any]) -> list[str]:
    """What the table should set, in words, for each house rule the proposal changes."""
    from referee.rules import rules_for  # lazy: the game's house rules

    rules = rules_for(spec.plan.game).house_rules
    out = []
    for name, value in sorted(change.items()):
        knob = spec.knobs[name]
        if knob.kind == "house-rule":
            rule = rules.get(knob.target)
            out.append(f"the table should set house rule {knob.target}={value}"
                       + (f" ({rule.help})" if rule is not None else ""))
    return out


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
        found = data.get("format")
        raise RefereeError(f"--resume {path}: " + (f"written by another referee tune ({found}, this one reads {FORMAT}); "
                                                    "start the search again" if str(found).startswith("referee-tune/")
                                                    else "not a referee tune file"))
    for k, v in identity.items():
        if data.get(k) != v:
            raise RefereeError(f"--resume {path}: it was a run with {k} {data.get(k)!r}, not {v!r}")
    return State(data.get("evaluations", []), data.get("path", []), data.get("games_played", 0),
                 data.get("seconds", 0.0))
