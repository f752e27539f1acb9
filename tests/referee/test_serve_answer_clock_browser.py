"""The answer window's countdown in Chromium (issue 36 item 1): the TV and the
target's phone show the time left, counted to the deadline the server read
from the log, by the server's clock (a page whose own clock disagrees shows
the server's count), and the clock goes when the target answers.

REFEREE_SHOTS=folder also saves screenshots of the TV and the phone there.
"""
from __future__ import annotations

import os
import re
from datetime import timedelta
from pathlib import Path

import pytest

from test_serve_answer_timeout import ATTACK, Running, cold
from test_serve_browser import CHROMIUM, DRIVER, console_errors, driver, wait_for  # noqa: F401  (a fixture)

pytestmark = [pytest.mark.skipif(not (CHROMIUM.exists() and DRIVER.exists()),
                                 reason="needs Debian's chromium and chromium-driver (make test installs them)"),
              pytest.mark.slow]  # a browser starts

PATIENCE_S = 60


def clock_text(browser) -> str:
    box = browser.find_element("id", "clock")
    return box.text if box.is_displayed() else ""


def left(browser, who: str) -> int | None:
    found = re.fullmatch(rf"{who}: (\d+) s left", clock_text(browser))
    return int(found[1]) if found else None


def shot(browser, name: str) -> None:
    folder = os.environ.get("REFEREE_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(Path(folder) / name))


def test_the_tv_and_the_target_s_phone_count_the_window_down(tmp_path, driver, monkeypatch):  # noqa: F811
    import referee.serve.app

    table = cold(tmp_path)
    real = referee.serve.app.utc_now
    # the server's clock runs 100 s behind the browser's: a page that counted by its own clock alone
    # would show at most 120 s left; one that counts by the server's shows about 220
    monkeypatch.setattr(referee.serve.app, "utc_now", lambda: real() - timedelta(seconds=100))
    with Running(table.db, seconds=120) as running:
        base = f"http://127.0.0.1:{running.port}"
        table.run(ATTACK)
        driver.set_window_size(1920, 1080)
        driver.get(base + "/")
        tv = wait_for(driver, lambda d: left(d, "Bo answers"), PATIENCE_S)
        assert 120 < tv <= 220, clock_text(driver)
        shot(driver, "clock-tv.png")
        # it counts down (by whole seconds, as time passes: wait for a smaller number)
        wait_for(driver, lambda d: (left(d, "Bo answers") or tv) < tv, PATIENCE_S)
        driver.set_window_size(390, 844)
        driver.get(base + f"/p/{running.tokens.tokens['Bo']}")
        mine = wait_for(driver, lambda d: left(d, "You answer"), PATIENCE_S)
        assert 120 < mine <= 220
        shot(driver, "clock-phone-bo.png")
        driver.get(base + f"/p/{running.tokens.tokens['Ann']}")
        assert wait_for(driver, lambda d: left(d, "Bo answers"), PATIENCE_S)
        status, text = running.request("POST", f"/p/{running.tokens.tokens['Bo']}/act", {"command": "answer none"})
        assert status == 200, text
        wait_for(driver, lambda d: clock_text(d) == "", PATIENCE_S)  # answered: the clock is gone
        assert not console_errors(driver)
        driver.get("about:blank")
