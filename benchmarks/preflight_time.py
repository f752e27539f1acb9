"""`make bench` figure 11 (issue 37): how long `pnp preflight` takes on the
exports of culture-war (the largest game), against the PDF build of the same
game from nothing, both in turns, medians of wall-clock time.

    python benchmarks/preflight_time.py [--quick]

DriveThruCards is the costly shop: every distinct page is rendered into its
CMYK separations by Ghostscript to measure ink, as well as read by pikepdf
and pypdfium2; pdf-single reads 362 small PDFs (copies checked once).
"""
from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PNP = str(Path(sys.executable).parent / "pnp")
QUICK = "--quick" in sys.argv
GAME = "culture-war"
TARGET = 2.0     # a preflight takes at most twice the build of the game it checks


def _timed(cmd: list[str], ok: tuple[int, ...] = (0,)) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode not in ok:
        raise RuntimeError(f"{' '.join(cmd)} failed: {done.stderr.strip()[-300:]}")
    return time.perf_counter() - start


def main() -> list[str]:
    work = Path(tempfile.mkdtemp(prefix="pnp-bench-preflight-"))
    rows = []
    try:
        project = work / "project"
        for name in ("card_sources", "templates"):
            shutil.copytree(ROOT / name, project / name)
        out = work / "out"
        runs = 2 if QUICK else 4
        for shop in ("drivethru", "pdf-single"):
            _timed([PNP, "--project", str(project), "export", GAME, "--shop", shop, "--out", str(out)])
            checks, builds = [], []
            for _ in range(runs):
                checks.append(_timed([PNP, "--project", str(project), "preflight", GAME, "--shop", shop,
                                      "--out", str(out)]))
                shutil.rmtree(project / ".pnp-cache", ignore_errors=True)
                builds.append(_timed([PNP, "--project", str(project), "build", GAME, "--force",
                                      "--out", str(work / "build")]))
            check, build = statistics.median(checks), statistics.median(builds)
            ratio = check / build
            rows.append(f"| 11. preflight {GAME} --shop {shop}, against the PDF build | {check:.2f} s "
                        f"({min(checks):.2f}-{max(checks):.2f} s over {runs} runs) | PDF build {build:.2f} s | "
                        f"{ratio:.2f}x | <= {TARGET:g}x | {'PASS' if ratio <= TARGET else 'FAIL'} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return rows


if __name__ == "__main__":
    print("\n".join(main()))
