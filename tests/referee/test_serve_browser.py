"""`referee serve` in a real browser: headless Chromium driven by Selenium.

The server runs in-process (uvicorn in a thread, on a free port) against
tables made with the CLI; changes come from the real command line in
another process, as at a table. `make test` installs Debian's chromium and
chromium-driver when they are missing.
"""
from __future__ import annotations

import contextlib
import json
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import PYTHON, ROOT, Table
from helpers.serve_tables import HIDDEN, card_name, cold_war, culture_war, each_game, leaks

CHROMIUM = Path("/usr/bin/chromium")
DRIVER = Path("/usr/bin/chromedriver")

pytestmark = [pytest.mark.skipif(not (CHROMIUM.exists() and DRIVER.exists()),
                                 reason="needs Debian's chromium and chromium-driver (make test installs them)"),
              pytest.mark.slow]  # a browser starts


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serving(db: Path, driver=None):
    """`referee serve` for `db` in a thread; yields (base URL, tokens)."""
    import uvicorn

    from referee.serve.app import create_app
    from referee.serve.tokens import TokenStore
    from referee.serve.watch import TableWatch

    watch = TableWatch(db)
    watch.poll()
    tokens = TokenStore(db, watch.players())
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(watch, tokens), host="127.0.0.1", port=port,
                                           log_level="warning", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", tokens.tokens
    finally:
        if driver is not None:  # leave the page first, so its event stream closes cleanly
            driver.get("about:blank")
        server.should_exit = True
        thread.join(5)


@pytest.fixture(scope="module")
def driver():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="referee-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--no-first-run",
                 "--disable-sync", f"--user-data-dir={profile}", "--window-size=1280,1000"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    browser = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    browser.set_page_load_timeout(20)
    try:
        yield browser
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)


def console_errors(driver) -> list[dict]:
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def wait_for(driver, condition, timeout: float):
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    # the page redraws on every update: an element found a moment ago may be gone; look again
    return WebDriverWait(driver, timeout, poll_frequency=0.05,
                         ignored_exceptions=(StaleElementReferenceException, NoSuchElementException)).until(condition)


def loaded(driver, url: str):
    driver.get(url)
    wait_for(driver, lambda d: d.execute_script("return document.body.dataset.seq"), 5)


def referee(*args: str) -> None:
    subprocess.run([PYTHON, "-m", "referee", *args], cwd=ROOT, check=True, capture_output=True, timeout=60)


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.read().decode()


def first_event(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        while True:
            line = response.readline().decode()
            if line.startswith("data: "):
                return line


def test_the_page_shows_the_players_and_follows_the_command_line_without_a_reload(tmp_path, driver):
    db = culture_war(tmp_path)
    with serving(db, driver) as (base, _):
        loaded(driver, base + "/")
        players = [e.get_attribute("data-player") for e in driver.find_elements("css selector", ".player")]
        assert players == ["Ana", "Ben"]
        assert "Anarchist Recruit" in driver.find_element("id", "picture").text  # units and Real Estate
        driver.execute_script("window.notReloaded = true")
        referee("--db", str(db), "life", "Ana", "-3")
        done = time.monotonic()
        wait_for(driver, lambda d: "97" in d.find_element("css selector", "[data-player=Ana]").text, 2)
        assert time.monotonic() - done < 2
        assert driver.execute_script("return window.notReloaded") is True
        assert "life Ana -3" in driver.find_element("id", "log").text
        assert console_errors(driver) == []


def test_a_private_link_shows_its_players_hidden_cards_and_the_public_page_none(tmp_path, driver):
    db = cold_war(tmp_path)
    with serving(db, driver) as (base, tokens):
        loaded(driver, f"{base}/p/{tokens['Ann']}")
        mine = driver.find_element("id", "you").text
        for cid in HIDDEN["Ann"]:
            assert card_name(cid) in mine
        assert leaks(driver.page_source, "Bo") == []

        loaded(driver, base + "/")
        assert driver.find_elements("css selector", ".card.back")  # face-down cards as card backs
        assert not driver.find_element("id", "you").is_displayed()
        for text in (driver.page_source, get(base + "/"), get(base + "/api/state"), first_event(base + "/api/events")):
            for player in HIDDEN:
                assert leaks(text, player) == []
        assert console_errors(driver) == []


def test_every_games_picture_draws_without_a_console_error(tmp_path, driver):
    for game, db in each_game(tmp_path).items():
        with serving(db, driver) as (base, _):
            loaded(driver, base + "/")
            picture = driver.find_element("id", "picture")
            assert picture.find_elements("css selector", ".zone"), game
            if game == "petri-dish":
                assert len(picture.find_elements("css selector", "svg [data-point]")) == 52
            if game == "debate":
                assert driver.find_element("id", "crowd").is_displayed()
                assert picture.find_elements("css selector", "table.threads")
            assert console_errors(driver) == [], game


def test_the_server_survives_gone_slow_and_malformed_clients(tmp_path, driver):
    db = culture_war(tmp_path)
    with serving(db, driver) as (base, _):
        port = int(base.rsplit(":", 1)[1])
        gone = socket.create_connection(("127.0.0.1", port))
        gone.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        gone.recv(100)
        gone.close()  # went away mid-stream
        slow = socket.create_connection(("127.0.0.1", port))
        slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        slow.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")  # and never reads
        bad = socket.create_connection(("127.0.0.1", port))
        bad.sendall(b"\x00\xffNOT HTTP AT ALL\r\n\r\n")
        assert bad.recv(100).split(b" ")[1] == b"400"
        bad.close()
        loaded(driver, base + "/")
        for i in range(5):
            referee("--db", str(db), "capital", "Ben", "+1")
        wait_for(driver, lambda d: d.execute_script("return document.body.dataset.seq") == "6", 3)
        assert driver.find_element("id", "log").text.count("capital Ben +1") == 5
        assert json.loads(get(base + "/api/state"))["players"][1]["capital"] == 6
        slow.close()
        assert console_errors(driver) == []


def test_long_and_right_to_left_names_keep_the_page_in_shape(tmp_path, driver):
    long_name = "Z" * 400
    t = Table(tmp_path / "names.db")
    t.run(f"new culture-war --player {long_name}:anarchy --player \u0633\u0627\u0631\u0629:technocracy --seed 7")
    t.run(f"life {long_name} -3 --reason " + "because" * 80)
    with serving(t.db, driver) as (base, _):
        driver.set_window_size(1920, 1080)
        loaded(driver, base + "/")
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 1920
        driver.set_window_size(360, 740)
        loaded(driver, base + "/")
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 360
        assert "\u0633\u0627\u0631\u0629" in driver.find_element("id", "players").text
        assert console_errors(driver) == []
        driver.set_window_size(1280, 1000)


def test_a_tv_shows_the_whole_table_without_scrolling(tmp_path, driver):
    tables = each_game(tmp_path)
    for game, players in (("culture-war", "Ana:anarchy Ben:technocracy Cy:community Di:conservative"),
                          ("divide-and-conquer", "Ana Ben Cy Di Eve Fay"),
                          ("cold-war", "Ann:westmark Bo:vostokia Cy:albion Di:grauberg")):
        t = Table(tmp_path / f"{game}-4.db")
        t.run(f"new {game} " + " ".join(f"--player {p}" for p in players.split()) + " --seed 5")
        tables[f"{game} ({len(players.split())} players)"] = t.db
    driver.set_window_size(1920, 1080)
    try:
        for name, db in tables.items():
            with serving(db, driver) as (base, _):
                loaded(driver, base + "/")
                height = driver.execute_script("return window.innerHeight")
                assert driver.execute_script("return document.documentElement.scrollHeight") <= height, name
                bottoms = driver.execute_script(
                    "return Array.from(document.querySelectorAll('.player, .zone, #picture svg'))"
                    ".map(function (e) { return e.getBoundingClientRect().bottom; })")
                assert bottoms and max(bottoms) <= height, name
                size = driver.execute_script("return parseFloat(getComputedStyle(document.documentElement).fontSize)")
                assert size >= 14, name  # still readable across a room
    finally:
        driver.set_window_size(1280, 1000)


def test_debate_threads_show_their_arguments_and_a_waiting_prompt_is_in_sight(tmp_path, driver, monkeypatch):
    from dataclasses import replace

    from conftest import Table
    from referee.rules import prompts
    from referee.rules import action_table, rules_for
    from referee.model import GameSlug

    t = Table(tmp_path / "debate.db")
    t.run("new debate --player Ana:Lincoln --player Ben:Truman --seed 12 --house-rule starting-crowd=0")
    t.run("argue deb-steelman-1 2")
    t.run("end-turn")
    rules = rules_for(GameSlug.DEBATE)
    argue = rules.actions["argue"]

    def argue_and_ask(rules, state, action, dice):
        return prompts.ask(argue.apply(rules, state, action, dice), "Ana", "c", "Card", "played", "Count to three.")

    monkeypatch.setattr(rules, "actions", action_table(rules.actions.values(), [replace(argue, apply=argue_and_ask)]))
    t.run("argue deb-common-ground-1 2")
    with serving(t.db, driver) as (base, _):
        loaded(driver, base + "/")
        threads = driver.find_element("css selector", "table.threads").text
        assert "Steelman" in threads and "Common Ground" in threads and "?" not in threads
        assert "Ben argues Common Ground in thread 2" in driver.find_element("id", "log").text
        waiting = driver.find_element("id", "prompts")
        assert waiting.is_displayed() and "waiting for Ana: Card (played)" in waiting.text
        assert not driver.find_element("id", "text-section").get_attribute("open")  # the folded text is not needed
        assert console_errors(driver) == []
