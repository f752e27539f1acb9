"""`make bench`: the speed figures of the designer loop and the referee,
each a ratio against a baseline measured in the same run.

Run from the project root: python benchmarks/run.py [--quick]
"""
from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = Path(os.environ.get("PNP_BENCH_PROJECT", ROOT))  # where the sources to build are taken from
BIN = Path(sys.executable).parent
PNP, REFEREE = str(BIN / "pnp"), str(BIN / "referee")
QUICK = "--quick" in sys.argv
RUNS = 3 if QUICK else 9          # the cold builds, a few seconds each
QUICK_RUNS = 5 if QUICK else 11   # commands under a second or so: more turns, a steadier median


def snapshot(dest: Path) -> Path:
    """A copy of the project's sources and templates to build in."""
    for name in ("card_sources", "templates"):
        shutil.copytree(SOURCE / name, dest / name)
    return dest


def run(cmd: list[str], **kw) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
    return time.perf_counter() - start


def interleaved(a, b, runs: int) -> tuple[float, float]:
    """Median times of two measurements taken in turns (a, b, a, b, ...), so
    that a slow spell of a shared machine falls on both alike."""
    ta, tb = [], []
    for _ in range(runs):
        ta.append(a())
        tb.append(b())
    return statistics.median(ta), statistics.median(tb)


def cold_build(work: Path) -> tuple[float, float, int]:
    project = snapshot(work / "cold")
    out = work / "out-cold"

    def ours() -> float:  # empty caches every time: no outputs, no parsed-source memo
        shutil.rmtree(project / ".pnp-cache", ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)
        return run([PNP, "--project", str(project), "build", "--out", str(out)])

    ours()  # once first, to learn what the naive script must draw
    cards = []
    for m in out.glob("*/manifest.json"):
        for c in json.loads(m.read_text())["cards"]:
            cards.append({"name": c["id"].replace("-", " ").title(), "deck": c["deck"], "qr": c["qr"],
                          "stats": "ATK 2 DEF 1 COST 3",
                          "text": "When this unit attacks, roll a die; on a 5 or 6 gain 1 capital. "
                                  "It cannot be the target of Flash events this turn."})
    (work / "cards.json").write_text(json.dumps(cards))
    naive = lambda: run([sys.executable, str(ROOT / "benchmarks/naive_reportlab.py"), str(work / "cards.json"),
                         str(work / "naive.pdf")])
    ours_t, naive_t = interleaved(ours, naive, RUNS)
    return ours_t, naive_t, len(cards)


def noop_rebuild(work: Path) -> tuple[float, float]:
    project = snapshot(work / "noop")
    subprocess.run([PNP, "--project", str(project), "build"], check=True, stdout=subprocess.DEVNULL)
    return interleaved(lambda: run([PNP, "--project", str(project), "build"]), lambda: run([PNP, "--help"]),
                       QUICK_RUNS)


def one_card_edit(work: Path) -> tuple[float, float]:
    project = snapshot(work / "edit")
    subprocess.run([PNP, "--project", str(project), "build"], check=True, stdout=subprocess.DEVNULL)
    deck = project / "card_sources/culture-war/anarchy.yaml"
    original = deck.read_text()
    # the same deck file built alone: a project holding only that deck
    alone = work / "alone"
    shutil.copytree(project / "templates", alone / "templates")
    game = alone / "card_sources/culture-war"
    game.mkdir(parents=True)
    shutil.copy(deck, game / "anarchy.yaml")
    text = (project / "card_sources/culture-war/game.yaml").read_text().split("\ndocuments:")[0]
    head = text.split("\ndecks:")[0]
    anarchy = "\ndecks:" + text.split("\ndecks:")[1].split("  - id: community")[0]
    (game / "game.yaml").write_text(head + anarchy)
    shutil.copy(project / "card_sources/culture-war/effects.yaml", game / "effects.yaml")  # the effect schema
    art = (project / "card_sources/culture-war/art.yaml").read_text().splitlines()  # just this deck's pictures
    (game / "art.yaml").write_text("\n".join(l for l in art if not l.startswith("  ") or l.startswith("  anarchy-")) + "\n")
    edits = iter(range(1_000))

    def edit() -> float:
        deck.write_text(original.replace("Came for the free snacks.", f"Came for the free snacks ({next(edits)})."))
        return run([PNP, "--project", str(project), "build"])

    def by_itself() -> float:  # from nothing: no outputs, no parsed sources, no remembered faces
        shutil.rmtree(alone / ".pnp-cache", ignore_errors=True)
        return run([PNP, "--project", str(alone), "build", "--force", "--out", str(work / "alone-out")])

    return interleaved(edit, by_itself, QUICK_RUNS)


def referee_tables(work: Path) -> tuple[Path, Path, Path]:
    sys.path.insert(0, str(ROOT))
    from referee import table

    paths = {}
    for n in (10, 50, 10_000):
        path = work / f"table-{n}.db"
        table.new_table(path, "culture-war", ["ann:anarchy", "bo:technocracy"], seed=1)
        for i in range(n - 1):
            table.act(path, "life", {"player": "ann" if i % 2 else "bo", "by": 1 if i % 4 < 2 else -1, "reason": None})
        paths[n] = path
    return paths


def short_code(i: int) -> str:
    alphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
    chars = []
    for _ in range(4):
        i, digit = divmod(i, len(alphabet))
        chars.append(alphabet[digit])
    return "S" + "".join(chars)


def scale(work: Path) -> tuple[dict[int, float], int]:
    """Build synthetic one-deck projects of 1,000 and 10,000 cards; seconds per
    card and peak memory. A 10,000-card build lasts over half a minute, so it
    averages this shared machine's fast and slow spells; the 1,000-card builds
    are spread over the same minutes (five before, between and after the two
    long builds) and averaged too, so both sides see the same machine."""
    projects = {}
    for n in (1_000, 10_000):
        project = work / f"scale-{n}"
        shutil.copytree(SOURCE / "templates", project / "templates")
        game = project / "card_sources/culture-war"
        game.mkdir(parents=True)
        text = (SOURCE / "card_sources/culture-war/game.yaml").read_text()
        head = text.split("\ncomposition:")[0]
        (game / "game.yaml").write_text(head + "\ndecks:\n  - id: synth\n    name: Synthetic\n    file: synth.yaml\n"
                                        "    back: back\n    color: \"#555555\"\n    icon: anarchy\n")
        lines = ["cards:"]
        for i in range(n):  # each its own short code: 10,000 hashed ones would collide
            lines += [f"  - id: synth-{i}", f"    name: Synthetic Unit {i}", f"    code: {short_code(i)}",
                      "    type: unit", f"    cost: {i % 5}",
                      f"    atk: {i % 4}", f"    def: {i % 3}", "    unit_type: Test",
                      f"    text: \"Card number {i}: when it attacks, gain {i % 3} {{capital}}.\""]
        (game / "synth.yaml").write_text("\n".join(lines) + "\n")
        projects[n] = project
    # the clock starts once the drawing modules and fonts are loaded: a constant that is not the deck's
    code = ("import resource,shutil,sys,time;from pathlib import Path;from pnp.build.orchestrator import build;from pnp.build.options import BuildOptions;"
            "from pnp.build.jobs import warm;warm(Path(sys.argv[1]));"
            "shutil.rmtree(Path(sys.argv[1])/'.pnp-cache',ignore_errors=True);"
            "t=time.perf_counter();build(Path(sys.argv[1]),None,Path(sys.argv[2]),BuildOptions(),force=True);"
            "print(time.perf_counter()-t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    times: dict[int, list[float]] = {1_000: [], 10_000: []}
    peak = 0
    for n in [1_000] * 5 + [10_000] + [1_000] * 5 + [10_000] + [1_000] * 5:  # cold every time: no parsed-source memo
        out = subprocess.run([sys.executable, "-c", code, str(projects[n]), str(work / f"scale-out-{n}")],
                             check=True, capture_output=True, text=True).stdout.split()
        times[n].append(float(out[0]) / n)
        peak = max(peak, int(out[1]) // 1024)
    return {n: statistics.mean(t) for n, t in times.items()}, peak


def row(name: str, value: str, baseline: str, ratio: float | None, target: str, ok: bool) -> str:
    r = f"{ratio:.2f}x" if ratio is not None else "-"
    return f"| {name} | {value} | {baseline} | {r} | {target} | {'PASS' if ok else 'FAIL'} |"


def main() -> None:
    # byte-compile once, as an installed package would be, so no figure pays for compiling
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "pnp"), str(ROOT / "referee")],
                   check=True, stdout=subprocess.DEVNULL)
    work = Path(tempfile.mkdtemp(prefix="pnp-bench-"))
    rows = ["| figure | measured | baseline | ratio | target | result |", "|---|---|---|---|---|---|"]
    try:
        ours, naive, n = cold_build(work)
        rows.append(row(f"1. cold build, all games ({n} cards)", f"{ours:.2f} s", f"naive script {naive:.2f} s",
                        ours / naive, "<= 0.5x", ours / naive <= 0.5))
        noop, help_ = noop_rebuild(work)
        rows.append(row("2. no-op rebuild", f"{noop * 1000:.0f} ms", f"pnp --help {help_ * 1000:.0f} ms",
                        noop / help_, "<= 2x", noop / help_ <= 2))
        edit, alone = one_card_edit(work)
        rows.append(row("3. rebuild after one card edit", f"{edit:.2f} s", f"its deck alone {alone:.2f} s",
                        edit / alone, "<= 1.2x", edit / alone <= 1.2))
        tables = referee_tables(work)
        status = lambda n: lambda: run([REFEREE, "status", "--db", str(tables[n])])
        s50, base = interleaved(status(50), lambda: run([sys.executable, "-c", "import click, sqlite3"]), QUICK_RUNS)
        s10k, s10 = interleaved(status(10_000), status(10), QUICK_RUNS)
        rows.append(row("4. referee status, 50 actions", f"{s50 * 1000:.0f} ms",
                        f"python -c 'import click, sqlite3' {base * 1000:.0f} ms", s50 / base, "<= 1.5x", s50 / base <= 1.5))
        rows.append(row("5. referee status, 10,000 actions", f"{s10k * 1000:.0f} ms", f"10 actions {s10 * 1000:.0f} ms",
                        s10k / s10, "<= 1.5x", s10k / s10 <= 1.5))
        if not QUICK:
            per_card, peak = scale(work)
            drift = per_card[10_000] / per_card[1_000]
            rows.append(row("6. 10,000-card deck, time per card", f"{per_card[10_000] * 1000:.2f} ms",
                            f"1,000 cards {per_card[1_000] * 1000:.2f} ms", drift, "0.8x-1.2x", 0.8 <= drift <= 1.2))
            rows.append(row("6. 10,000-card deck, peak memory", f"{peak} MB", "-", None, "< 300 MB", peak < 300))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("\n".join(rows))


if __name__ == "__main__":
    main()
