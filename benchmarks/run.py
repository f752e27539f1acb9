"""`make bench`: the speed figures of the designer loop and the referee,
each a ratio against a baseline measured in the same run.

    python benchmarks/run.py [--quick]      (from the project root)

Every ratio is OURS / BASELINE, wall-clock time against wall-clock time
(figure 7, the face cache, compares CPU time: the work it saves, which other
users of this shared machine do not blur): below 1 means ours is faster, and
a target "<= 0.5x" asks for at most half the baseline's time. Each side is a median of several runs taken in turns
(ours, baseline, ours, ...), so a slow spell of a shared machine falls on
both. CPU time is that of the measured process and all its children (pnp's
build workers included); utilisation is CPU time / wall time, so 150% means
one and a half cores busy on average. Figure 9 also gives peak memory: the
largest resident set of any one process of the command, from RUSAGE_CHILDREN
of a fresh wrapper process (`--exports` runs figure 9 alone).
"""
from __future__ import annotations

import html
import json
import math
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
SOURCE = Path(os.environ.get("PNP_BENCH_PROJECT", ROOT))  # where the sources to build are taken from
BIN = Path(sys.executable).parent
PNP, REFEREE = str(BIN / "pnp"), str(BIN / "referee")
BASELINE = ROOT / "benchmarks" / "baseline_reportlab.py"
FACECACHE = ROOT / "benchmarks" / "pnp_facecache.py"
QUICK = "--quick" in sys.argv
EXPORTS_ONLY = "--exports" in sys.argv   # figure 9 alone
RUNS = 3 if QUICK else 9          # the builds of a few seconds
QUICK_RUNS = 5 if QUICK else 11   # commands under a second or so: more turns, a steadier median
FACE_CACHE_TARGET = 0.9           # a cache earns its keep on a path if it saves at least a tenth of the time
CACHE_KEPT_FOR = ("pnp build --force", "build into a new --out")  # figure 7's paths where the face cache must pay


@dataclass
class Sample:
    """One side of a figure: medians over its runs, and the runs' spread."""
    walls: list[float]
    cpus: list[float]

    @property
    def wall(self) -> float:
        return statistics.median(self.walls)

    @property
    def cpu(self) -> float:
        return statistics.median(self.cpus)

    @property
    def use(self) -> float:
        """CPU utilisation: the median of each run's CPU time / wall time."""
        return statistics.median(c / w for c, w in zip(self.cpus, self.walls))

    def spread(self) -> str:
        return f"{min(self.walls):.3f}-{max(self.walls):.3f} s over {len(self.walls)} runs"


def snapshot(dest: Path) -> Path:
    """A copy of the project's sources and templates to build in."""
    for name in ("card_sources", "templates"):
        shutil.copytree(SOURCE / name, dest / name)
    return dest


def run(cmd: list[str], **kw) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and every child it waited for)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, **kw)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        sys.exit(f"benchmark command failed: {' '.join(cmd)}\n{done.stderr}")
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def interleaved(a: Callable[[], tuple[float, float]], b: Callable[[], tuple[float, float]],
                runs: int) -> tuple[Sample, Sample]:
    """Both measurements taken in turns (a, b, a, b, ...), so that a slow spell
    of a shared machine falls on both alike."""
    sa, sb = Sample([], []), Sample([], [])
    for _ in range(runs):
        for side, measure in ((sa, a), (sb, b)):
            wall, cpu = measure()
            side.walls.append(wall)
            side.cpus.append(cpu)
    return sa, sb


# ---------------------------------------------------------------- 1. cold build against a hand-written script

def baseline_cards(project: Path, out: Path) -> tuple[dict, dict]:
    """What the baseline script must draw to print the same cards as pnp's
    build into `out`: every printed copy of every deck, in the deck's card
    size and page grid, with its QR payload and the texts of its face (taken
    from the faces that build remembered: a fully cold build remembers none).
    Also the counts to compare."""
    texts: dict[str, list[tuple[str, str]]] = {}  # QR payload without the copy number -> [(style, text)]
    for path in (project / ".pnp-cache" / "faces").glob("*/*.json"):
        for face in json.loads(path.read_text())["faces"].values():
            qr = next((el[4] for el in face if el[0] == "QR"), None)
            if qr:
                texts[qr] = [(el[5], plain(el[6])) for el in face if el[0] == "Text"]
    decks, counts = [], {"cards": 0, "deck_pages": 0, "doc_pages": 0, "files": 0, "faces": len(texts)}
    for manifest in sorted(out.glob("*/manifest.json")):
        data = json.loads(manifest.read_text())
        for entry in data["files"]:
            counts["files"] += 1
            counts["deck_pages" if entry["kind"] == "deck" else "doc_pages"] += entry["pages"]
            if entry["kind"] != "deck":
                continue
            copies = [c for c in data["cards"] if c["file"] == entry["file"]]
            first = [c["front"]["trim_mm"] for c in copies if c["front"]["page"] == 1]
            x0, y0, x1, y1 = first[0]
            decks.append({"file": f"{data['game']}-{entry['file']}", "name": entry["deck"],
                          "card_mm": [round(x1 - x0, 2), round(y1 - y0, 2)],
                          "cols": len({round(b[0], 1) for b in first}), "rows": len({round(b[1], 1) for b in first}),
                          "sides": entry["sides"], "cards": [card_texts(c, texts) for c in copies]})
            counts["cards"] += len(copies)
    counts["baseline_pages"] = sum(math.ceil(len(d["cards"]) / (d["cols"] * d["rows"])) * d["sides"] for d in decks)
    counts["baseline_files"] = len(decks)
    return {"decks": decks}, counts


def plain(markup: str) -> str:
    """A face's text markup as plain text (icons and tags dropped), escaped for a Paragraph."""
    text = html.unescape(re.sub(r"<br\s*/?>", " ", markup))
    return html.escape(re.sub(r"\s+", " ", re.sub(r"<[^>]*>", "", text)).strip(), quote=False)


def card_texts(copy: dict, texts: dict) -> dict:
    """One printed copy for the baseline: its title, short texts as a stats
    line, longer ones as the rules paragraph, the flavor, the short code."""
    items = texts.get(copy["qr"].rsplit(":", 1)[0], [])
    title = next((t for s, t in items if s.startswith("title")), copy["id"].replace("-", " ").title())
    code = next((t for s, t in items if s == "code"), "")
    rest = [(s, t) for s, t in items if t and t not in (title, code)]
    return {"name": title, "code": code, "qr": copy["qr"],
            "stats": " · ".join(t for s, t in rest if len(t) <= 20 and s != "flavor"),
            "body": " ".join(t for s, t in rest if len(t) > 20 and s != "flavor"),
            "flavor": " ".join(t for s, t in rest if s == "flavor")}


def pdf_fonts(files: list[Path]) -> set[str]:
    """The fonts embedded in these PDFs (a font file inside), without their subset prefixes."""
    import pikepdf

    fonts = set()
    for path in files:
        with pikepdf.open(path) as pdf:
            for obj in pdf.objects:
                if (isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font" and "/FontDescriptor" in obj
                        and any(k in obj.FontDescriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))):
                    fonts.add(str(obj.BaseFont).split("+")[-1])
    return fonts


def cold_build(work: Path) -> tuple[Sample, Sample, dict]:
    project = snapshot(work / "cold")
    out, base_out = work / "out-cold", work / "out-baseline"

    def ours():  # fully cold: no outputs, no .pnp-cache (parsed sources, faces, build state), a new process
        shutil.rmtree(project / ".pnp-cache", ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)
        return run([PNP, "--project", str(project), "build", "--out", str(out)])

    def baseline():
        shutil.rmtree(base_out, ignore_errors=True)
        return run([sys.executable, str(BASELINE), str(work / "cards.json"), str(base_out)])

    ours()  # once first, to learn what the baseline must draw: the faces the build after a cold one remembers
    run([PNP, "--project", str(project), "build", "--force", "--out", str(out)])
    spec, counts = baseline_cards(project, out)
    (work / "cards.json").write_text(json.dumps(spec))
    baseline()
    counts["ours_fonts"] = pdf_fonts(sorted(out.glob("*/deck-*.pdf")))
    counts["baseline_fonts"] = pdf_fonts(sorted(base_out.glob("*.pdf")))
    if counts["ours_fonts"] - counts["baseline_fonts"]:
        sys.exit(f"the baseline does not embed the fonts pnp's cards do: {counts}")
    ours_s, base_s = interleaved(ours, baseline, RUNS)
    return ours_s, base_s, counts


# ---------------------------------------------------------------- 2.-5. the designer loop and the referee

def noop_rebuild(work: Path) -> tuple[Sample, Sample]:
    project = snapshot(work / "noop")
    run([PNP, "--project", str(project), "build"])
    return interleaved(lambda: run([PNP, "--project", str(project), "build"]), lambda: run([PNP, "--help"]),
                       QUICK_RUNS)


def deck_alone(project: Path, alone: Path) -> None:
    """A project holding only culture-war's anarchy deck (its game file, effect
    schema and pictures cut down to that deck)."""
    source = project / "card_sources/culture-war"
    shutil.copytree(project / "templates", alone / "templates")
    game = alone / "card_sources/culture-war"
    game.mkdir(parents=True)
    shutil.copy(source / "anarchy.yaml", game / "anarchy.yaml")
    shutil.copy(source / "effects.yaml", game / "effects.yaml")
    text = (source / "game.yaml").read_text().split("\ndocuments:")[0]
    head = text.split("\ndecks:")[0]
    anarchy = "\ndecks:" + text.split("\ndecks:")[1].split("  - id: community")[0]
    (game / "game.yaml").write_text(head + anarchy)
    art = (source / "art.yaml").read_text().splitlines()
    (game / "art.yaml").write_text("\n".join(l for l in art if not l.startswith("  ") or l.startswith("  anarchy-")) + "\n")


class CardEdit:
    """Edits one card of culture-war's anarchy deck (its flavor text), a new text each time."""

    def __init__(self, project: Path):
        self.deck = project / "card_sources/culture-war/anarchy.yaml"
        self.original = self.deck.read_text()
        self.count = 0

    def __call__(self) -> None:
        self.count += 1
        self.deck.write_text(self.original.replace("Came for the free snacks.",
                                                   f"Came for the free snacks ({self.count})."))


def one_card_edit(work: Path) -> tuple[Sample, Sample]:
    project = snapshot(work / "edit")
    run([PNP, "--project", str(project), "build"])
    run([PNP, "--project", str(project), "build", "--force"])  # a fully cold build remembers no faces; this one does
    alone = work / "alone"
    deck_alone(project, alone)
    edit = CardEdit(project)

    def edited():
        edit()
        return run([PNP, "--project", str(project), "build"])

    def by_itself():  # from nothing: no outputs, no parsed sources, no remembered faces
        shutil.rmtree(alone / ".pnp-cache", ignore_errors=True)
        return run([PNP, "--project", str(alone), "build", "--force", "--out", str(work / "alone-out")])

    return interleaved(edited, by_itself, QUICK_RUNS)


def referee_tables(work: Path) -> dict[int, Path]:
    sys.path.insert(0, str(ROOT))
    from referee.table import operations as table

    paths = {}
    for n in (10, 50, 10_000):
        path = work / f"table-{n}.db"
        table.new_table(path, "culture-war", ["ann:anarchy", "bo:technocracy"], seed=1)
        for i in range(n - 1):
            table.act(path, "life", {"player": "ann" if i % 2 else "bo", "by": 1 if i % 4 < 2 else -1, "reason": None})
        paths[n] = path
    return paths


# ---------------------------------------------------------------- 6. a 10,000-card deck

def short_code(i: int) -> str:
    alphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
    chars = []
    for _ in range(4):
        i, digit = divmod(i, len(alphabet))
        chars.append(alphabet[digit])
    return "S" + "".join(chars)


def synthetic_project(work: Path, n: int) -> Path:
    """A one-deck culture-war project of `n` distinct cards (each its own
    text and short code), drawn with culture-war's templates."""
    project = work / f"scale-{n}"
    if project.is_dir():
        return project
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
    return project


def scale(work: Path) -> tuple[dict[int, float], int]:
    """Build synthetic one-deck projects of 1,000 and 10,000 cards; seconds per
    card and peak memory. A 10,000-card build lasts over half a minute, so it
    averages this shared machine's fast and slow spells; the 1,000-card builds
    are spread over the same minutes (five before, between and after the two
    long builds) and averaged too, so both sides see the same machine."""
    projects = {n: synthetic_project(work, n) for n in (1_000, 10_000)}
    # the clock starts once the drawing modules and fonts are loaded: a constant that is not the deck's
    code = ("import resource,shutil,sys,time;from pathlib import Path;from pnp.pipeline.orchestrator import build;from pnp.pipeline.options import BuildOptions;"
            "from pnp.pipeline.jobs import warm;warm(Path(sys.argv[1]));"
            "shutil.rmtree(Path(sys.argv[1])/'.pnp-cache',ignore_errors=True);"
            "t=time.perf_counter();build(Path(sys.argv[1]),None,Path(sys.argv[2]),BuildOptions(),force=True);"
            "print(time.perf_counter()-t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    times: dict[int, list[float]] = {1_000: [], 10_000: []}
    peak = 0
    for n in [1_000] * 5 + [10_000] + [1_000] * 5 + [10_000] + [1_000] * 5:  # cold every time: no parsed-source memo
        done = subprocess.run([sys.executable, "-c", code, str(projects[n]), str(work / f"scale-out-{n}")],
                              capture_output=True, text=True)
        if done.returncode:
            sys.exit(f"the {n}-card build failed:\n{done.stderr}")
        out = done.stdout.split()
        times[n].append(float(out[0]) / n)
        peak = max(peak, int(out[1]) // 1024)
    return {n: statistics.mean(t) for n, t in times.items()}, peak


# ---------------------------------------------------------------- 7. what the face cache saves

def face_cache(work: Path) -> dict[str, tuple[Sample, Sample]]:
    """Three paths a user takes, each with the face cache (remembered faces
    from the previous build) and without it (benchmarks/pnp_facecache.py off:
    no keys, no look-ups, nothing saved; the parsed-source memo stays on);
    then, where it can only cost, a build with a cache folder but no faces
    remembered (it keys and saves them all) and a fully cold build (no cache
    folder: it stays off)."""
    def pnp(mode: str, *args: str):
        return run([sys.executable, str(FACECACHE), mode, *args])

    def remembered(project: Path) -> None:  # a fully cold build remembers no faces: the next one does
        pnp("on", "--project", str(project), "build")
        pnp("on", "--project", str(project), "build", "--force")

    results = {}
    project = snapshot(work / "fc-edit")
    remembered(project)
    edit = CardEdit(project)

    def edited(mode: str):
        edit()
        return pnp(mode, "--project", str(project), "build")

    results["one-card edit"] = interleaved(lambda: edited("on"), lambda: edited("off"), QUICK_RUNS)

    project = snapshot(work / "fc-force")
    remembered(project)
    results["pnp build --force"] = interleaved(lambda: pnp("on", "--project", str(project), "build", "--force"),
                                               lambda: pnp("off", "--project", str(project), "build", "--force"), RUNS)

    project = snapshot(work / "fc-out")
    remembered(project)
    fresh = iter(range(1_000))

    def new_out(mode: str):
        out = work / f"fc-out-{next(fresh)}"
        try:
            return pnp(mode, "--project", str(project), "build", "--out", str(out))
        finally:
            shutil.rmtree(out, ignore_errors=True)

    results["build into a new --out"] = interleaved(lambda: new_out("on"), lambda: new_out("off"), RUNS)

    def forgotten(mode: str):  # what the cache costs where it cannot help: keys, encoding, saving
        shutil.rmtree(project / ".pnp-cache" / "faces", ignore_errors=True)
        return new_out(mode)

    def cold(mode: str):  # no cache folder at all: the cache stays off
        shutil.rmtree(project / ".pnp-cache", ignore_errors=True)
        return new_out(mode)

    results["no faces remembered, what it costs"] = interleaved(lambda: forgotten("on"), lambda: forgotten("off"), RUNS)
    results["fully cold build, what it costs"] = interleaved(lambda: cold("on"), lambda: cold("off"), RUNS)
    return results


# ---------------------------------------------------------------- 9. exports against the build

PEAK = ("import resource,subprocess,sys,time;t=time.perf_counter();"
        "d=subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,stderr=subprocess.PIPE,text=True);"
        "w=time.perf_counter()-t;u=resource.getrusage(resource.RUSAGE_CHILDREN);"
        "sys.stderr.write(d.stderr);print(w,u.ru_utime+u.ru_stime,u.ru_maxrss);sys.exit(d.returncode)")


@dataclass
class Peaked(Sample):
    """A Sample that also keeps each run's peak memory: the largest resident
    set of any one process of the command (pnp, its workers, Ghostscript)."""
    peaks: list[int]

    @property
    def peak(self) -> int:
        return max(self.peaks) // 1024  # MB


def peaked(cmd: list[str]) -> tuple[float, float, int]:
    """(wall s, CPU s, peak resident KB of the largest process): measured in a
    fresh wrapper process, whose RUSAGE_CHILDREN holds this command alone."""
    done = subprocess.run([sys.executable, "-c", PEAK, *cmd], capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"benchmark command failed: {' '.join(cmd)}\n{done.stderr}")
    wall, cpu, peak = done.stdout.split()
    return float(wall), float(cpu), int(peak)


def in_turns(a: Callable[[], tuple[float, float, int]], b: Callable[[], tuple[float, float, int]],
             runs: int) -> tuple[Peaked, Peaked]:
    sa, sb = Peaked([], [], []), Peaked([], [], [])
    for _ in range(runs):
        for side, measure in ((sa, a), (sb, b)):
            wall, cpu, peak = measure()
            side.walls.append(wall)
            side.cpus.append(cpu)
            side.peaks.append(peak)
    return sa, sb


def exports(work: Path) -> dict[str, tuple[Peaked, Peaked, float]]:
    """Each export against the PDF build of the same game, both from nothing
    (no .pnp-cache, no output): the Tabletop Simulator export of a deck of
    1,000 distinct cards, and the DriveThruCards export (every deck, PDF/X-1a
    by Ghostscript) of culture-war, of a small game, petri-dish (where
    Ghostscript's cost per run weighs most against a short build), and of a
    PNG-heavy designer game (benchmarks/designer_png.py: 26 cards, 40 copies,
    26 pictures of 1200 x 800 px, where the pictures' CMYK conversion and
    ink limit weigh most)."""
    import designer_png  # benchmarks/designer_png.py, beside this file

    out = {}
    runs = 3 if QUICK else 5
    designer = designer_png.make(work / "designer-png", PNP)
    for name, project, game, shop in (("TTS export, 1,000 distinct cards", synthetic_project(work, 1_000), "culture-war", "tts"),
                                      ("DriveThru export, culture-war", snapshot(work / "shop"), "culture-war", "drivethru"),
                                      ("DriveThru export, petri-dish (small game)", snapshot(work / "shop-small"),
                                       "petri-dish", "drivethru"),
                                      ("DriveThru export, PNG-heavy designer game (26 PNGs)", designer,
                                       designer_png.GAME, "drivethru")):
        def export(project=project, game=game, shop=shop):
            shutil.rmtree(project / ".pnp-cache", ignore_errors=True)
            return peaked([PNP, "--project", str(project), "export", game, "--shop", shop,
                           "--out", str(work / "export-out")])

        def build(project=project, game=game):
            shutil.rmtree(project / ".pnp-cache", ignore_errors=True)
            return peaked([PNP, "--project", str(project), "build", game, "--force", "--out", str(work / "build-out")])

        out[name] = (*in_turns(export, build, runs), os.getloadavg()[0])
    return out


def export_figures(work: Path, add: Callable[[str], None], notes: list[str]) -> None:
    for name, (exp, pdf, load) in exports(work).items():
        ratio = exp.wall / pdf.wall
        add(row(f"9. {name}, against the PDF build", f"{secs(exp)}, CPU {exp.cpu:.2f} s ({exp.use:.0%})",
                f"PDF build {secs(pdf)}, CPU {pdf.cpu:.2f} s ({pdf.use:.0%})", ratio, "<= 3x", ratio <= 3))
        if name.startswith("TTS"):
            add(row(f"9. {name}, peak memory", f"{exp.peak} MB", f"PDF build {pdf.peak} MB",
                    exp.peak / pdf.peak, "< 250 MB", exp.peak < 250))
        notes.append(f"9. {name}: export {exp.spread()}, peak {exp.peak} MB; "
                     f"build {pdf.spread()}, peak {pdf.peak} MB; load average {load:.2f} after it")


# ---------------------------------------------------------------- 10. pnp diff

def card_diff(work: Path) -> tuple[Sample, Sample]:
    """`pnp diff` of the five games against their last build (one card edited
    since), against `pnp list` of the same games: reading and checking the
    sources is the work a diff cannot avoid; comparing the cards is its own.
    (`pnp validate` would be no baseline: it also draws every face.)"""
    project = snapshot(work / "diff")
    out = work / "diff-out"
    run([PNP, "--project", str(project), "build", "--out", str(out)])
    deck = project / "card_sources" / "culture-war" / "anarchy.yaml"
    deck.write_text(deck.read_text().replace("atk: 2", "atk: 3", 1))

    def diff():
        return run([PNP, "--project", str(project), "diff", "--out", str(out)])

    def listed():
        return run([PNP, "--project", str(project), "list"])

    return interleaved(diff, listed, QUICK_RUNS)


# ---------------------------------------------------------------- the table

def row(name: str, value: str, baseline: str, ratio: float | None, target: str, ok: bool | None) -> str:
    r = f"{ratio:.2f}x" if ratio is not None else "-"
    result = "-" if ok is None else "PASS" if ok else "FAIL"
    return f"| {name} | {value} | {baseline} | {r} | {target} | {result} |"


def secs(s: Sample) -> str:
    return f"{s.wall:.2f} s" if s.wall >= 1 else f"{s.wall * 1000:.0f} ms"


def main() -> None:
    # byte-compile once, as an installed package would be, so no figure pays for compiling
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "pnp"), str(ROOT / "referee")],
                   check=True, stdout=subprocess.DEVNULL)
    work = Path(tempfile.mkdtemp(prefix="pnp-bench-"))
    rows = ["| figure | measured | baseline | ratio | target | result |", "|---|---|---|---|---|---|"]
    notes = []

    def add(line: str) -> None:
        rows.append(line)
        print(line, flush=True)

    print(f"ratio = ours / baseline, medians of wall-clock time (figure 7: of CPU time), lower is better; "
          f"{os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f} at the start{' (--quick)' if QUICK else ''}", flush=True)
    try:
        if EXPORTS_ONLY:
            export_figures(work, add, notes)
            print("\n" + "\n".join(notes))
            return
        ours, base, counts = cold_build(work)
        add(row(f"1. cold build, all games ({counts['cards']} cards), every cache removed",
                f"{secs(ours)}, CPU {ours.cpu:.2f} s ({ours.use:.0%})",
                f"hand-written script {secs(base)}, CPU {base.cpu:.2f} s ({base.use:.0%})",
                ours.wall / base.wall, "<= 0.5x", ours.wall / base.wall <= 0.5))
        add(row("1b. the same, CPU time", f"{ours.cpu:.2f} s", f"{base.cpu:.2f} s", ours.cpu / base.cpu,
                "none (shown for honesty)", None))
        notes += [f"1. ours {ours.spread()}; baseline {base.spread()}",
                  f"1. ours: {counts['files']} files, {counts['deck_pages']} pages of cards + {counts['doc_pages']} "
                  f"of boards, sheets and rules, {counts['faces']} distinct faces; baseline: "
                  f"{counts['baseline_files']} files, {counts['baseline_pages']} pages of cards, no documents, "
                  f"every copy drawn in full, no illustrations or icons",
                  f"1. fonts in pnp's decks: {', '.join(sorted(counts['ours_fonts']))}; "
                  f"in the baseline's: {', '.join(sorted(counts['baseline_fonts']))}"]
        noop, help_ = noop_rebuild(work)
        add(row("2. no-op rebuild", secs(noop), f"pnp --help {secs(help_)}", noop.wall / help_.wall, "<= 2x",
                noop.wall / help_.wall <= 2))
        edit, alone = one_card_edit(work)
        add(row("3. rebuild after one card edit", secs(edit), f"its deck alone, from nothing {secs(alone)}",
                edit.wall / alone.wall, "<= 1.2x", edit.wall / alone.wall <= 1.2))
        tables = referee_tables(work)
        status = lambda n: lambda: run([REFEREE, "status", "--db", str(tables[n])])
        s50, imp = interleaved(status(50), lambda: run([sys.executable, "-c", "import click, sqlite3"]), QUICK_RUNS)
        s10k, s10 = interleaved(status(10_000), status(10), QUICK_RUNS)
        add(row("4. referee status, 50 actions", secs(s50), f"python -c 'import click, sqlite3' {secs(imp)}",
                s50.wall / imp.wall, "<= 1.5x", s50.wall / imp.wall <= 1.5))
        add(row("5. referee status, 10,000 actions", secs(s10k), f"10 actions {secs(s10)}", s10k.wall / s10.wall,
                "<= 1.5x", s10k.wall / s10.wall <= 1.5))
        notes += [f"4. referee status {s50.spread()}; import click, sqlite3 {imp.spread()}"]
        if not QUICK:
            per_card, peak = scale(work)
            drift = per_card[10_000] / per_card[1_000]
            add(row("6. 10,000-card deck, time per card", f"{per_card[10_000] * 1000:.2f} ms",
                    f"1,000 cards {per_card[1_000] * 1000:.2f} ms", drift, "0.8x-1.2x", 0.8 <= drift <= 1.2))
            add(row("6. 10,000-card deck, peak memory", f"{peak} MB", "-", None, "< 300 MB", peak < 300))
        for name, (on, off) in face_cache(work).items():  # work saved: CPU time, steadier than wall time here
            ratio = on.cpu / off.cpu
            pays = name in CACHE_KEPT_FOR  # the paths the cache is kept for must pass; the others are shown
            add(row(f"7. face cache, CPU time: {name}", f"with CPU {on.cpu:.2f} s, {secs(on)}",
                    f"without CPU {off.cpu:.2f} s, {secs(off)}", ratio,
                    f"<= {FACE_CACHE_TARGET}x" if pays else
                    ("none (what it costs)" if "cost" in name else "none (not a path it is kept for)"),
                    ratio <= FACE_CACHE_TARGET if pays else None))
            notes.append(f"7. {name}: with {on.spread()}; without {off.spread()}; wall ratio {on.wall / off.wall:.2f}x")
        export_figures(work, add, notes)
        diffed, listed = card_diff(work)
        add(row("10. pnp diff, five games, since the last build", secs(diffed), f"pnp list {secs(listed)}",
                diffed.wall / listed.wall, "<= 1.5x", diffed.wall / listed.wall <= 1.5))
        notes.append(f"10. pnp diff {diffed.spread()}; pnp list {listed.spread()}")
        import preflight_time  # benchmarks/preflight_time.py: figure 11, pnp preflight (issue 37)

        for line in preflight_time.main():
            add(line)
        import selfplay  # benchmarks/selfplay.py, beside this file: figure 8, self-play (issue 27)

        for line in selfplay.main():
            add(line)
        import selfplay_ab  # benchmarks/selfplay_ab.py: figure 12, the A/B statistics (issue 35)

        for line in selfplay_ab.main():
            add(line)
        import play_latency  # benchmarks/play_latency.py: figure 9, a phone's move to another page (issue 26)

        for line in play_latency.main():
            add(line)
        import table_trust  # benchmarks/table_trust.py: figure 10, what the checksummed table costs (issue 38)

        for line in table_trust.main():
            add(line)
        import cluster  # benchmarks/cluster.py: figure 12, self-play through a Dask cluster (issue 39)

        for line in cluster.main():
            add(line)
        import tune_planted  # benchmarks/tune_planted.py: figure 13, tune finds a planted imbalance (issue 39)

        for line in tune_planted.main():
            add(line)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end\n")
    print("\n".join(rows))
    print()
    print("\n".join(notes))


if __name__ == "__main__":
    main()
