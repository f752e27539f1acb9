"""Figure 12 of `make bench`: the A/B statistics a designer acts on (issue 35),
at the default agent.

- The null A/B, twice over 20 seeds: (a) a change with no effect (a card's
  rules text reworded: no rule reads it), through the real A/B path, a
  folder against this project; (b) the same cards on both sides but every
  pair's B game on other seeds, so no pair is identical and the test meets
  real noise. A false finding is a run whose verdict reports any paired
  difference at the 5% false discovery rate. Target: at most 2 of 20.
- The power figure: Culture War's Window Smasher ATK 2 -> 6 against the
  unchanged cards, the default plan, `--until-decided` with at most
  POWER_GAMES a side: does the verdict name anarchy, and how long did it take?

    python benchmarks/selfplay_ab.py [--quick]
"""
from __future__ import annotations

import shutil
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from referee.simulate.ab import Against
from referee.simulate.compare import compare
from referee.simulate.paired import Pairs
from referee.simulate.runner import make_plan, run
from referee.simulate.sequential import EFFECT
from referee.simulate.session import simulate
from referee.simulate.summary import Tally

ROOT = Path(__file__).resolve().parents[1]
QUICK = "--quick" in sys.argv
SEEDS = 5 if QUICK else 20
NULL_GAMES = 10 if QUICK else 30  # pairs a null run plays
POWER_GAMES = 200 if QUICK else 2000  # the most games a side of the power run may play
GAME, PLAYERS = "culture-war", 3


def _project(dest: Path, edit) -> Path:
    for name in ("card_sources", "templates"):
        shutil.copytree(ROOT / name, dest / name)
    edit(dest / "card_sources" / "culture-war" / "anarchy.yaml")
    return dest


def _reword(path: Path) -> None:
    text = path.read_text()
    start = text.index("id: anarchy-window-smasher")
    at = text.index('    flavor: "', start) + len('    flavor: "')
    path.write_text(text[:at] + "Reworded: " + text[at:])


def _atk6(path: Path) -> None:
    text = path.read_text()
    at = text.index("atk: 2", text.index("id: anarchy-window-smasher"))
    path.write_text(text[:at] + "atk: 6" + text[at + 6:])


def _any_finding(comparison) -> bool:
    return any(comparison.found(k) for k in comparison.paired)


def null_reworded(folder: Path) -> tuple[int, int, int]:
    """(false findings, runs, pairs that played out differently) for a change with no effect."""
    edited = _project(folder / "reworded", _reword)
    false = differ = 0
    for s in range(SEEDS):
        plan = make_plan(GAME, PLAYERS, (), (), NULL_GAMES, seed=1 + 1000 * s, jobs=2)
        plan = replace(plan, project=str(edited))  # side A on the edit, in fresh processes
        result = simulate(plan, against=Against(str(ROOT), "project", ROOT), here=edited)
        assert result.comparison.edits, "the reworded card is in the diff"
        false += _any_finding(result.comparison)
        differ += result.comparison.differ
    return false, SEEDS, differ


def null_independent() -> tuple[int, int]:
    """(false findings, runs): the same cards, each pair's B game on other seeds."""
    false = 0
    for s in range(SEEDS):
        plan = make_plan(GAME, PLAYERS, (), (), NULL_GAMES, seed=1 + 1000 * s, jobs=2)
        other = replace(plan, seed=plan.seed + 500)
        ta, tb, pairs = Tally(GAME), Tally(GAME), Pairs()
        for side, p, tally in (("A", plan, ta), ("B", other, tb)):
            for record in run(p):
                tally.add(record)
                pairs.add(side, record.seed - p.seed, record)
        false += _any_finding(compare(ta, tb, pairs))
    return false, SEEDS


def power(folder: Path) -> tuple[str, float, int]:
    """(the verdict's finding on anarchy or the decision, seconds, pairs played)."""
    edited = _project(folder / "atk6", _atk6)
    plan = make_plan(GAME, None, (), (), POWER_GAMES, seed=1, jobs=2)
    plan = replace(plan, project=str(edited))
    start = time.perf_counter()
    result = simulate(plan, against=Against(str(ROOT), "project", ROOT), until_decided=EFFECT, here=edited)
    seconds = time.perf_counter() - start
    c = result.comparison
    anarchy = c.paired.get("faction:anarchy")
    said = c.decision.line() if c.decision else ""
    if anarchy is not None:
        said += (f"; anarchy {anarchy.b.value:.1%} -> {anarchy.a.value:.1%} "
                 f"(q={c.q_values['faction:anarchy']:.3g}, {c.differ} of {c.pairs} pairs differ)")
    return said, seconds, c.pairs


def main() -> list[str]:
    rows = []
    agent = make_plan(GAME, PLAYERS, (), (), 1).agents[0].value
    with tempfile.TemporaryDirectory(prefix="bench-ab-") as tmp:
        folder = Path(tmp)
        false, runs, differ = null_reworded(folder)
        rows.append(f"| 12. null A/B, a reworded flavour text, {runs} seeds x {NULL_GAMES} pairs, {agent} | "
                    f"{false} false findings ({differ} pairs played differently) | - | - | <= 2 | "
                    f"{'PASS' if false <= 2 else 'FAIL'} |")
        false, runs = null_independent()
        rows.append(f"| 12. null A/B, the same cards on other seeds, {runs} seeds x {NULL_GAMES} pairs, {agent} | "
                    f"{false} false findings | - | - | <= 2 | {'PASS' if false <= 2 else 'FAIL'} |")
        said, seconds, pairs = power(folder)
        found = "anarchy differs" in said or "anarchy" in said.split(";")[0]
        rows.append(f"| 12. power: Window Smasher ATK 2 -> 6, --until-decided (at most {POWER_GAMES} a side), "
                    f"{agent} | {said} | {seconds:.0f} s, {pairs} pairs | - | found in < 120 s | "
                    f"{'PASS' if found and seconds < 120 else 'FAIL'} |")
    return rows


if __name__ == "__main__":
    print("\n".join(main()))
