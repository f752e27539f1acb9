"""Phones as controllers (`referee serve --play`), in real browsers.

Two phone-sized headless Chromium sessions (360 x 800, touch, a phone's
viewport) and the command line play one Cold War table at once through the
real `referee serve --play`: both setups are entered from the phones with
their face-down cards (cards picked by typed code, by name, and one by
scanning its printed QR code with a fake camera that films it), a few turns
are played from the phones (a card placed face down as Propaganda through
the confirmation's toggle) and from the CLI, a stale move is refused with
"no longer possible", a card already on the table and a typed probe for
another player's face-down card are refused (saying nothing of where it
lies), and neither the other phone, the public page nor the scorekeeper's
output ever shows a face-down card. The controller is checked
for a phone's sake: touch targets of 44 px or more, no sideways scrolling
with a long player name, and readable contrast.

REFEREE_SHOTS=folder also saves screenshots of the phones there.
"""
from __future__ import annotations

import contextlib
import functools
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from conftest import PYTHON, ROOT, Table
from test_serve_browser import CHROMIUM, DRIVER, console_errors, wait_for

pytestmark = [pytest.mark.skipif(not (CHROMIUM.exists() and DRIVER.exists()),
                                 reason="needs Debian's chromium and chromium-driver (make test installs them)"),
              pytest.mark.slow]  # browsers start

BO = "BogdanaKonstantinopolitanskaWierzbickaNowak"  # one long unbroken name: the page must wrap it
ANN_SETUP = {"cards": ["cold-wm-kitchen", "cold-wm-forward-base", "cold-wm-tank-battalion", "cold-wm-joint-brass",
                       "cold-wm-proxy-war", "cold-wm-big-brain"],
             "discard": ["cold-wm-vice-president", "cold-wm-snoop-director", "cold-wm-rapid-deploy"]}
BO_SETUP = {"cards": ["cold-vk-marshal", "cold-vk-orbit-dog", "cold-vk-fortress-line", "cold-vk-tank-column",
                      "cold-vk-air-defence", "cold-vk-chess-academy"],
            "discard": ["cold-vk-five-year-plan", "cold-vk-metro-palace", "cold-vk-ideologist"]}
ANN_PLACES, BO_PLACES = "cold-wm-airborne", "cold-vk-interceptors"  # Military Power: placed face down
ANN_DISCARDS, BO_DISCARDS = "cold-wm-cavalry", "cold-vk-motor-rifles"  # face up: a turn discards one card
ANN_ATTACKS = "cold-wm-marines"  # Attack 200 at Bo's First Dog in Orbit (Defence 200): alone, and it falls
BO_PROPAGANDA = "cold-vk-state-ballet"  # Science & Culture placed face down as Propaganda (the confirm's toggle)
SECRET = {  # what each player's phone put face down
    "Ann": ["cold-wm-forward-base", "cold-wm-tank-battalion", "cold-wm-proxy-war", "cold-wm-big-brain", ANN_PLACES],
    BO: ["cold-vk-fortress-line", "cold-vk-tank-column", "cold-vk-air-defence", BO_PLACES, BO_PROPAGANDA],
}


@functools.lru_cache(maxsize=1)
def cards() -> dict:
    from referee.cards.index import load_index, project_root

    return {c.id: c for c in load_index(project_root(ROOT)).cards.values() if c.game == "cold-war"}


def secret_words(player: str) -> list[str]:
    index = cards()
    return [w for cid in SECRET[player] for w in (cid, index[cid].name)]


def shown(driver, player: str) -> list[str]:
    """Which of `player`'s face-down cards the page in `driver` shows, in its text or anywhere in its DOM."""
    dom = driver.page_source.lower()
    text = driver.execute_script("return document.body.innerText").lower()
    return [w for w in secret_words(player) if w.lower() in dom or w.lower() in text]


def qr_video(path: Path, text: str) -> Path:
    """A two-frame Y4M video of the QR code `text` on white, for Chromium's fake camera."""
    import qrcode

    code = qrcode.QRCode(border=4, box_size=8)
    code.add_data(text)
    picture = code.make_image().get_image().convert("L")
    width, height = 640, 480
    frame = bytearray([255]) * (width * height)
    size = min(picture.size[0], height - 20)
    picture = picture.resize((size, size))
    left, top = (width - size) // 2, (height - size) // 2
    pixels = picture.tobytes()
    for y in range(size):
        frame[(top + y) * width + left:(top + y) * width + left + size] = pixels[y * size:(y + 1) * size]
    chroma = bytes([128]) * (width * height // 2)
    with path.open("wb") as out:
        out.write(f"YUV4MPEG2 W{width} H{height} F5:1 Ip A1:1 C420jpeg\n".encode())
        for _ in range(2):
            out.write(b"FRAME\n" + bytes(frame) + chroma)
    return path


@contextlib.contextmanager
def phone(camera: Path | None = None, width: int = 360, height: int = 800):
    """A phone-sized headless Chromium: a phone's viewport, touch, and (given a video) a camera filming it."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="referee-phone-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--no-first-run",
                 "--disable-sync", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    if camera is not None:
        for flag in ("--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                     f"--use-file-for-fake-video-capture={camera}"):
            options.add_argument(flag)
    options.add_experimental_option("mobileEmulation", {
        "deviceMetrics": {"width": width, "height": height, "pixelRatio": 2.0, "touch": True},
        "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                     "Chrome/120.0 Mobile Safari/537.36"})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    browser = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    browser.set_page_load_timeout(20)
    try:
        yield browser
    finally:
        with contextlib.suppress(Exception):
            browser.get("about:blank")  # its event stream closes before the server stops
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)


@contextlib.contextmanager
def serve_play(db: Path, *flags: str):
    """The real `referee serve --play` for `db` on a free port; yields (base URL, tokens, its output so far)."""
    from referee.serve.tokens import token_file

    proc = subprocess.Popen([PYTHON, "-m", "referee", "--db", str(db), "serve", "--port", "0", "--no-qr", *flags],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout], daemon=True).start()
    said: list[str] = []
    base = None
    try:
        while not any("Ctrl-C" in line for line in said):
            said.append(lines.get(timeout=15))
            found = re.search(r"public page (http://\S+?)/?$", said[-1].strip())
            base = found.group(1) if found else base
        assert base, said
        yield base, json.loads(token_file(db).read_text()), said
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        while not lines.empty():
            said.append(lines.get())


def cli(db: Path, *args: str) -> str:
    """The scorekeeper types a command: another process, as at a table."""
    done = subprocess.run([PYTHON, "-m", "referee", "--db", str(db), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


def open_page(driver, url: str) -> None:
    driver.get(url)
    wait_for(driver, lambda d: d.execute_script("return document.body.dataset.seq"), 10)


def seq(driver) -> int:
    return int(driver.execute_script("return document.body.dataset.seq") or 0)


def tap_move(driver, command: str) -> None:
    """Tap the move whose command starts with `command`, once the moves list has it."""
    def tapped(d):
        for b in d.find_elements("css selector", "#play button.move"):
            if (b.get_attribute("data-command") or "").startswith(command):
                b.click()  # a list redrawn meanwhile: stale, and wait_for looks again
                return True
        return False
    wait_for(driver, tapped, 10)


def note(driver, timeout: float = 10) -> tuple[bool, str]:
    """What the last send said: (accepted, its text)."""
    said = wait_for(driver, lambda d: d.execute_script(  # read at once: the list redraws on every update
        "var n = document.querySelector('#play .note'); return n && [n.className, n.innerText]"), timeout)
    heading, _, text = said[1].partition("\n")  # "Sent" or "Not sent", then what the referee said
    assert heading == ("Sent" if "ok" in said[0].split() else "Not sent"), said
    return "ok" in said[0].split(), text


def pick_by_code(driver, card_id: str) -> None:
    field = driver.find_element("id", "pick-find")
    field.send_keys(cards()[card_id].fields["code"].lower())  # any case, as a thumb types it


def pick_by_name(driver, card_id: str) -> None:
    name = cards()[card_id].name
    driver.find_element("id", "pick-find").send_keys(name.split()[0])
    wait_for(driver, lambda d: d.find_element("css selector", f".sheet .pick[data-card='{card_id}']"), 5).click()


def send(driver) -> tuple[bool, str]:
    wait_for(driver, lambda d: d.find_element("css selector", ".sheet.confirm .send"), 5).click()
    wait_for(driver, lambda d: not d.find_elements("css selector", ".sheet"), 10)
    return note(driver)


def play(driver, command: str) -> tuple[bool, str]:
    """Tap a move with no cards, confirm it, send it."""
    tap_move(driver, command)
    return send(driver)


def no_sideways_scroll(driver) -> None:
    width = driver.execute_script("return window.innerWidth")
    assert width == 360
    assert driver.execute_script("return document.documentElement.scrollWidth") <= width
    assert driver.execute_script("return document.body.scrollWidth") <= width


def fits_a_phone(driver) -> None:
    """Touch targets of 44 px or more, no sideways scrolling, and text readable in a dim room."""
    sizes = driver.execute_script(
        "return Array.from(document.querySelectorAll('#play button, .sheet button, .sheet input'))"
        ".filter(function (e) { return e.offsetParent !== null; })"
        ".map(function (e) { var r = e.getBoundingClientRect(); return [e.textContent.slice(0, 40), r.width, r.height]; })")
    assert sizes
    small = [s for s in sizes if s[1] < 44 or s[2] < 44]
    assert not small, small
    no_sideways_scroll(driver)
    fonts = driver.execute_script(
        "return Array.from(document.querySelectorAll('.sheet input'))"
        ".map(function (e) { return parseFloat(getComputedStyle(e).fontSize); })")
    assert all(f >= 16 for f in fonts), fonts  # a phone does not zoom in on a field
    ratios = driver.execute_script(CONTRAST)
    low = [r for r in ratios if r[1] < 7]
    assert ratios and not low, low


# The contrast (WCAG) of each visible controller button's text on its own background.
CONTRAST = """
function rgb(s) { return s.match(/[\\d.]+/g).slice(0, 3).map(Number); }
function lum(c) { c = c.map(function (v) { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]; }
return Array.from(document.querySelectorAll('#play button, .sheet button'))
  .filter(function (e) { return e.offsetParent !== null && !e.disabled; })
  .map(function (e) { var s = getComputedStyle(e), a = lum(rgb(s.color)), b = lum(rgb(s.backgroundColor));
    return [e.textContent.slice(0, 30), (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)]; });
"""


def shot(driver, name: str) -> None:
    folder = os.environ.get("REFEREE_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(folder) / f"{name}.png"))


@pytest.fixture(scope="module")
def phones(tmp_path_factory):
    """Two phones, started side by side; the second one's camera films the Marshal's printed QR code."""
    marshal = cards()["cold-vk-marshal"]
    camera = qr_video(tmp_path_factory.mktemp("camera") / "marshal.y4m",
                      f"PNP:{marshal.id.upper()}:{marshal.revision}:1")
    managers = [phone(), phone(camera)]
    with ThreadPoolExecutor(2) as pool:
        started = [pool.submit(m.__enter__) for m in managers]
    try:
        yield [f.result() for f in started]
    finally:
        for manager, future in zip(managers, started):
            if future.exception() is None:
                manager.__exit__(None, None, None)


def test_two_phones_and_the_cli_play_cold_war_and_keep_their_secrets(tmp_path, phones):
    t = Table(tmp_path / "cold.db")
    t.run(["new", "cold-war", "--player", "Ann:westmark", "--player", f"{BO}:vostokia", "--seed", "3"])
    marshal = cards()["cold-vk-marshal"]
    ann, bo = phones
    with serve_play(t.db, "--play") as (base, tokens, served):
        open_page(ann, f"{base}/p/{tokens['Ann']}")
        open_page(bo, f"{base}/p/{tokens[BO]}")

        # Cold War setup, each player on their own phone: 6 cards placed (Military ones face down), 3 discarded
        tap_move(ann, "setup Ann")
        fits_a_phone(ann)
        pick_by_name(ann, ANN_SETUP["cards"][0])
        for cid in ANN_SETUP["cards"][1:] + ANN_SETUP["discard"]:
            pick_by_code(ann, cid)
        confirm = wait_for(ann, lambda d: d.find_element("css selector", ".sheet.confirm"), 5)
        for cid in ANN_SETUP["cards"] + ANN_SETUP["discard"]:
            assert cards()[cid].name in confirm.text  # the move in words, every card by name
        ticks = confirm.find_elements("css selector", ".chosen .option[data-option='--propaganda']")
        assert len(ticks) == 6  # each placed card may go face down as Propaganda
        ticks[5].click()  # the Big Brain Initiative: Propaganda
        assert "--propaganda cold-wm-big-brain --discard" in confirm.find_element("css selector", ".command").text
        fits_a_phone(ann)
        shot(ann, "phone-confirm")
        ok, echo = send(ann)
        assert ok, echo
        assert shown(bo, "Ann") == []

        tap_move(bo, f"setup {BO}")
        bo.find_element("css selector", ".sheet .scan").click()  # the printed QR code, through the camera
        wait_for(bo, lambda d: marshal.name in d.find_element("css selector", ".sheet .slot").get_attribute("textContent"), 15)
        for cid in BO_SETUP["cards"][1:] + BO_SETUP["discard"]:
            pick_by_code(bo, cid)
        assert "PNP:COLD-VK-MARSHAL" in bo.find_element("css selector", ".sheet .command").text  # that very copy
        ok, echo = send(bo)
        assert ok, echo
        assert shown(ann, BO) == []

        # the turns: from the phones, one from the command line
        assert play(ann, "start --first Ann")[0]
        wait_for(bo, lambda d: d.find_elements("css selector", "#play .waiting"), 10)  # not Bo's turn: waiting
        tap_move(ann, "place <CARD> --by Ann")
        pick_by_code(ann, ANN_PLACES)
        ok, echo = send(ann)
        assert ok, echo
        tap_move(ann, "discard <CARD> --by Ann")
        pick_by_name(ann, ANN_DISCARDS)
        assert send(ann)[0]
        tap_move(ann, f"attack {BO} S1 <CARD> <CARD>")  # one Military Power card or two: the second is optional
        pick_by_code(ann, ANN_ATTACKS)
        wait_for(ann, lambda d: d.find_element("css selector", ".sheet .without"), 5).click()
        line = wait_for(ann, lambda d: d.find_element("css selector", ".sheet.confirm .command"), 5).text
        assert line == f"referee attack {BO} S1 {ANN_ATTACKS} --by Ann", line
        ok, echo = send(ann)
        assert ok, echo
        assert play(bo, f"answer none --by {BO}")[0]  # the attack waits for Bo, who answers from his phone
        assert play(ann, "end-turn --by Ann")[0]
        # refusals: a card lying face up on the table (422), and a probe for where Ann's face-down card is.
        # (A card of Bo's own that lies face down would be taken as Bo's word: refusing it would tell the
        # terminal what lies there, issue 36 item 4.)
        tap_move(bo, "place <CARD>")
        pick_by_code(bo, "cold-vk-chess-academy")
        ok, refused = send(bo)
        # read by name, not parsed: one refusal whatever the card's whereabouts (issue 36 item 4)
        assert not ok and "not a move" in refused and not refused.startswith("no longer possible"), refused
        tap_move(bo, "place <CARD>")
        bo.find_element("id", "pick-find").send_keys(cards()["cold-wm-forward-base"].fields["code"])
        wait_for(bo, lambda d: d.find_element("css selector", ".sheet .pick.typed"), 5).click()  # not Bo's card: typed
        ok, refused = send(bo)
        assert not ok and "not a move" in refused, refused
        assert "table" not in refused and not re.search(r"\bM\d\b", refused), refused  # where it lies stays hidden
        tap_move(bo, "place <CARD>")
        fits_a_phone(bo)
        pick_by_code(bo, BO_PLACES)
        ok, echo = send(bo)
        assert ok, echo
        tap_move(bo, "place <CARD>")
        pick_by_code(bo, BO_PROPAGANDA)
        wait_for(bo, lambda d: d.find_element("css selector", ".sheet .option"), 5).click()
        assert bo.find_element("css selector", ".sheet .command").text.endswith("--propaganda")
        ok, echo = send(bo)
        assert ok, echo
        tap_move(bo, "discard <CARD>")
        pick_by_code(bo, BO_DISCARDS)
        assert send(bo)[0]
        shot(bo, "phone-sent")
        at = seq(ann)
        said = cli(t.db, "end-turn", "--by", BO)
        wait_for(ann, lambda d: seq(d) > at, 5)

        # a stale move: the page still offers it when the table has moved on
        tap_move(ann, f"challenge {BO} 1")
        wait_for(ann, lambda d: d.find_element("css selector", ".sheet.confirm"), 5)
        ann.execute_script("document.addEventListener('table', function (e) { e.stopImmediatePropagation(); }, true)")
        said += cli(t.db, "undo")  # Bo's end-turn: it is Bo's turn again
        ok, echo = send(ann)
        assert not ok and echo.startswith("no longer possible"), echo
        wait_for(ann, lambda d: d.find_elements("css selector", "#play .waiting"), 5)  # the moves as they are now
        assert play(bo, f"end-turn --by {BO}")[0]

        # nobody sees another's face-down cards: the other phone, the public page, the scorekeeper
        assert shown(ann, BO) == [] and shown(bo, "Ann") == []
        no_sideways_scroll(bo)
        ann.get(base + "/")
        wait_for(ann, lambda d: "(phone)" in d.find_element("id", "log").text, 10)
        assert shown(ann, "Ann") == [] and shown(ann, BO) == []
        said += cli(t.db, "log")
        for player in SECRET:
            assert not [w for w in secret_words(player) if w.lower() in said.lower()], player
        # no script error; the refused sends are the only failed requests (Chromium logs each)
        assert [e for e in console_errors(bo) if "/act - Failed to load resource" not in e["message"]] == []
        for driver in phones:
            driver.get("about:blank")  # their event streams close before the server stops
    served_text = "\n".join(served).lower()
    for player in SECRET:
        assert not [w for w in secret_words(player) if w.lower() in served_text], player
        assert "traceback" not in served_text


def test_without_play_a_private_page_stays_read_only(tmp_path, phones):
    t = Table(tmp_path / "cold.db")
    t.run(["new", "cold-war", "--player", "Ann:westmark", "--player", "Bo:vostokia", "--seed", "3"])
    ann = phones[0]
    ann.get_log("browser")  # what the other test left: its refused moves
    with serve_play(t.db) as (base, tokens, _):
        open_page(ann, f"{base}/p/{tokens['Ann']}")
        assert not ann.find_element("id", "play").is_displayed()
        assert not ann.find_elements("css selector", "button.move")
        assert console_errors(ann) == []
