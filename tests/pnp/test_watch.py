"""Watch mode, driven by editing a temp copy of the sources."""
import threading
import time

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
