"""Watch mode, driven by editing a temp copy of the sources."""
import json
import signal
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pnp.pipeline.options import BuildOptions
from pnp.pipeline.report import BuildReport
from pnp.errors import PnpError
from pnp.extras.watch import watch

pytestmark = pytest.mark.pdf

DECK = "card_sources/culture-war/anarchy.yaml"


def test_watch_rebuilds_on_save_and_survives_errors(mini_project, tmp_path):
    out = tmp_path / "out"
    outcomes = []
    stop = threading.Event()
    thread = threading.Thread(target=watch, args=(mini_project, None, out, BuildOptions(),
                                                  lambda o, changed: outcomes.append((o, changed)), stop, 50))
    thread.start()
    try:
        _wait(lambda: len(outcomes) >= 1)
        first, _ = outcomes[0]
        assert isinstance(first, BuildReport) and len(first.files) == 1
        pdf = out / "culture-war/deck-anarchy.pdf"
        good = pdf.read_bytes()
        time.sleep(0.3)  # let the watcher settle before the first edit

        deck = mini_project / DECK
        deck.write_text(deck.read_text().replace("atk: 2", "atk: two"))
        _wait(lambda: len(outcomes) >= 2)
        error, changed = outcomes[1]
        assert isinstance(error, PnpError) and "atk must be a whole number" in str(error)
        assert changed == [DECK]
        assert pdf.read_bytes() == good  # the last good PDF stays

        deck.write_text(deck.read_text().replace("atk: two", "atk: 3"))
        _wait(lambda: len(outcomes) >= 3)
        fixed, _ = outcomes[2]
        assert isinstance(fixed, BuildReport) and [f.path.name for f in fixed.files] == ["deck-anarchy.pdf"]
        assert pdf.read_bytes() != good
    finally:
        stop.set()
        thread.join(10)
    assert not thread.is_alive()


def _wait(condition, timeout=20.0):
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError("watch did not react in time")
        time.sleep(0.05)


def test_watch_with_a_cutter_rebuilds_the_cutting_file_on_save(mini_project, tmp_path):
    """`pnp watch --cutter silhouette --marks 4` as a user runs it (its own process): the first
    build writes the cutter sheet and its cutting file; one more copy of a card saved, the
    cutting file is rebuilt with one more cut path, as `pnp build --cutter` makes it."""
    out = tmp_path / "out"
    folder = out / "culture-war" / "cutter-silhouette"
    svg = folder / "deck-anarchy-cut-1.svg"
    command = [str(Path(sys.executable).parent / "pnp"), "--project", str(mini_project), "watch", "culture-war",
               "--cutter", "silhouette", "--marks", "4", "--out", str(out)]
    lines: list[str] = []
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as watcher:
        reader = threading.Thread(target=lambda: lines.extend(iter(watcher.stdout.readline, "")), daemon=True)
        reader.start()
        try:
            _wait(lambda: sum("watching" in line for line in lines) >= 1, 120)
            assert svg.is_file(), lines
            assert len(_cut_paths(svg)) == 5   # MINI_DECK: 2 + 1 + 1 + 1 copies
            marks = json.loads((folder / "manifest.json").read_text())["files"][0]["cutter"]["marks"]
            assert marks == 4
            time.sleep(0.5)   # let the watcher settle before the edit
            deck = mini_project / DECK
            deck.write_text(deck.read_text().replace("    name: Test Brawler\n", "    name: Test Brawler\n    quantity: 2\n"))
            _wait(lambda: sum("watching" in line for line in lines) >= 2, 120)
            assert any(f"rebuilt {svg}  (cutting file, 6 cards)" in line for line in lines), lines
            assert len(_cut_paths(svg)) == 6
        finally:
            watcher.send_signal(signal.SIGINT)
            try:
                watcher.wait(20)
            except subprocess.TimeoutExpired:
                watcher.kill()


def _cut_paths(svg) -> list:
    return list(ET.parse(svg).getroot().iter("{http://www.w3.org/2000/svg}path"))
