"""The TV says what happened and fits every game's largest table (issue 36
item 6), in headless Chromium at 1920x1080: each table filled the way real
play fills it (a self-played game replayed up to a point), the debate's
thread strengths and totals and its round-end crowd on screen."""
from __future__ import annotations

import pytest

from helpers.played_tables import LARGEST, played
from test_serve_browser import CHROMIUM, DRIVER, driver, loaded, serving  # noqa: F401  (driver: the fixture)

pytestmark = [pytest.mark.skipif(not (CHROMIUM.exists() and DRIVER.exists()), reason="needs Debian's chromium"),
              pytest.mark.slow]


def _tv(browser) -> None:
    browser.set_window_size(1920, 1080)
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False})


def _calm(browser) -> None:
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    browser.set_window_size(1280, 1000)


@pytest.mark.parametrize("game", sorted(LARGEST))
def test_the_tv_fits_the_largest_table_after_real_play(tmp_path, driver, game):  # noqa: F811
    players, upto = LARGEST[game]
    db = played(tmp_path, game, players, upto)
    _tv(driver)
    try:
        with serving(db, driver) as (base, _):
            loaded(driver, base + "/")
            assert driver.execute_script("return window.innerHeight") == 1080
            zones = driver.execute_script("return document.querySelectorAll('#picture .zone').length")
            assert zones == players  # every player's table is drawn
            bottoms = driver.execute_script(
                "return Array.from(document.querySelectorAll('.player, #picture .zone, #picture svg, #crowd'))"
                ".map(function (e) { return e.getBoundingClientRect().bottom; })")
            assert max(bottoms) <= 1080, (game, max(bottoms))
            cards = driver.execute_script("return document.querySelectorAll('#picture .card').length")
            assert cards >= players  # a table in play, not an empty one
            size = driver.execute_script("return parseFloat(getComputedStyle(document.documentElement).fontSize)")
            assert size >= 14, (game, size)  # readable across a room
            driver.save_screenshot(str(tmp_path / f"tv-{game}.png"))
    finally:
        _calm(driver)


def test_the_cold_war_tv_says_how_each_attack_and_challenge_ended(tmp_path, driver):  # noqa: F811
    db = played(tmp_path, "cold-war", 4, 16)
    from conftest import Table

    rows = Table(db).log()["events"]
    # an attack or challenge ends where it lands: at the target's answer when it waited for one
    # (cold-war-6's answer window), else at its own line
    fought = []
    for i, e in enumerate(rows):
        if e["action"] in ("attack", "challenge"):
            answer = next((r for r in rows[i + 1:] if r["action"] == "answer"), None)
            waited = answer is not None and not any(r["action"] in ("attack", "challenge")
                                                    for r in rows[i + 1:rows.index(answer)])
            fought.append(answer["seq"] if waited else e["seq"])
    assert fought
    with serving(db, driver) as (base, _):
        loaded(driver, base + "/")
        latest = {int(li.get_attribute("value")): li.text
                  for li in driver.find_elements("css selector", "#log li")}
    for seq in fought:
        if seq in latest:
            text = latest[seq]
            assert any(w in text for w in (" beats ", " fails", " names ", " blocks", " takes ")), text


def test_the_debate_tv_shows_strengths_totals_and_the_round_end_crowd(tmp_path, driver):  # noqa: F811
    db = played(tmp_path, "debate", 2, 14)
    from conftest import Table

    from referee.games.debate.actions import round_report
    from referee.table.operations import status

    state = status(db).state
    end, now = round_report(state).crowd, state.crowd
    assert end != now  # this table's devices move the crowd at round end: the two must not be confused
    Table(db).status()
    _tv(driver)
    try:
        with serving(db, driver) as (base, _):
            loaded(driver, base + "/")
            sums = [e.text for e in driver.find_elements("css selector", "table.threads .sums")]
            totals = driver.find_element("css selector", "table.threads tr.totals").text
            crowd = driver.find_element("id", "crowd").text
    finally:
        _calm(driver)
    assert sums and all(s.startswith("strength ") and " total " in s for s in sums)
    assert " v " in totals
    assert crowd.startswith(f"Crowd at round end {end:+d} (now {now:+d})"), crowd
