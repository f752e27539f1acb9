"""Every game's phone page in real browsers (issue 36 item 8): for each game
a full turn is played from two 360 px phones through the real `referee serve
--play`, with the TV (the public page at 1920x1080) open; each move the
phones send shows on the TV at once, in its "Latest".

REFEREE_SHOTS=folder also saves the phones' and the TV's screenshots there.
"""
from __future__ import annotations

import contextlib

import pytest

from conftest import Table
from test_serve_browser import CHROMIUM, DRIVER, console_errors, wait_for
from test_serve_play_browser import fits_a_phone, note, open_page, phone, seq, serve_play, shot, tap_move

pytestmark = [pytest.mark.skipif(not (CHROMIUM.exists() and DRIVER.exists()), reason="needs Debian's chromium"),
              pytest.mark.slow]

# Each game: the table as the CLI starts it, the CLI's own setup lines, then the turn: (player, the command
# its phone taps, the picker's offered cards it takes, by place in the list: a card already in play is refused).
GAMES = {
    "petri-dish": ("new petri-dish --player Ana --player Ben --seed 7", [],
                   [("Ana", "place ", []), ("Ben", "place ", [])]),
    "culture-war": ("new culture-war --player Ana:anarchy --player Ben:technocracy --seed 7", ["rolloff"],
                    [("Ben", "deploy <CARD>", [0]), ("Ben", "end-turn", []), ("Ana", "deploy <CARD>", [1]),
                     ("Ana", "end-turn", [])]),
    "divide-and-conquer": ("new divide-and-conquer --player Ana --player Ben --player Cy --player Di --seed 7", [],
                           [("Ana", "recruit <CARD>", [0]), ("Ben", "recruit <CARD>", [1])]),  # one action a turn
    "debate": ("new debate --player Ana:Lincoln --player Ben:Truman --seed 12", [],
               [("Ana", "argue <CARD> 1", [0]), ("Ana", "end-turn", []), ("Ben", "argue <CARD> 1", [1])]),
}


@pytest.fixture(scope="module")
def devices():
    """Two phones and a TV."""
    with contextlib.ExitStack() as stack:
        ana, ben = stack.enter_context(phone()), stack.enter_context(phone())
        tv = stack.enter_context(phone(width=1920, height=1080))
        yield ana, ben, tv


@contextlib.contextmanager
def _leaving(*drivers):
    """Each page is left before the server stops, so no stream is cut (and logged) under it."""
    for driver in drivers:
        driver.get_log("browser")  # what an earlier game left
    try:
        yield
    finally:
        for driver in drivers:
            with contextlib.suppress(Exception):
                driver.get("about:blank")


def _answer_prompts(driver, tv) -> int:
    """A card's text the referee asks its player about (a prompt): answered `done` from the phone."""
    answered = 0
    while True:
        # the phone's list must be the table's latest (the TV's), not the one from before the move just sent
        wait_for(driver, lambda d: int(d.find_element("id", "play").get_attribute("data-version") or 0) >= seq(tv), 10)
        wait_for(driver, lambda d: d.find_elements("css selector", "#play button.move, #play .waiting"), 10)
        waiting = [b for b in driver.find_elements("css selector", "#play button.move")
                   if (b.get_attribute("data-command") or "").startswith("resolve ")
                   and " done" in (b.get_attribute("data-command") or "")]
        if not waiting:
            return answered
        before = seq(tv)
        command = waiting[0].get_attribute("data-command")
        tap_move(driver, command)
        ok, echo = _send(driver)
        assert ok, echo
        wait_for(tv, lambda d: seq(d) > before, 10)
        answered += 1


def _pick_card(driver, place: int) -> None:
    wait_for(driver, lambda d: len(d.find_elements("css selector", ".sheet .pick")) > place, 5)
    driver.find_elements("css selector", ".sheet .pick")[place].click()


def _send(driver) -> tuple[bool, str]:
    wait_for(driver, lambda d: d.find_element("css selector", ".sheet.confirm .send"), 5).click()
    wait_for(driver, lambda d: not d.find_elements("css selector", ".sheet"), 10)
    return note(driver)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_full_turn_of_each_game_from_two_phones_with_the_tv_open(tmp_path, devices, game):
    new, lines, turn = GAMES[game]
    ana, ben, tv = devices
    t = Table(tmp_path / f"{game}.db")
    t.run(new)
    for line in lines:
        t.run(line)
    with serve_play(t.db, "--play") as (base, tokens, said), _leaving(ana, ben, tv):
        open_page(tv, base + "/")
        phones = {"Ana": ana, "Ben": ben}
        for name, driver in phones.items():
            open_page(driver, f"{base}/p/{tokens[name]}")
        answered = 0
        for name, command, cards in turn:
            driver = phones[name]
            before = seq(tv)
            try:
                tap_move(driver, command)
            except Exception:
                listed = [b.get_attribute("data-command") for b in driver.find_elements("css selector", "#play button.move")]
                raise AssertionError(f"{game}: {name}'s phone offers no `{command}`: {listed}; "
                                     f"{driver.find_element('id', 'play').text[:300]}") from None
            for place in cards:
                _pick_card(driver, place)
            fits_a_phone(driver)
            ok, echo = _send(driver)
            assert ok, (game, name, command, echo)
            wait_for(tv, lambda d: seq(d) > before, 10)  # the TV hears of it at once
            latest = tv.find_element("css selector", "#log li").text
            assert latest.startswith(f"{name} (phone):"), latest
            answered += _answer_prompts(driver, tv)
        shot(ana, f"{game}-phone-ana")
        shot(tv, f"{game}-tv")
        assert console_errors(tv) == []
    events = t.log()["events"]
    played = [(e["actor"], e["action"]) for e in events if e["args"].get("_via") == "phone"]
    assert [p for p in played if p[1] != "resolve"] == [(p, c.split()[0].replace("deploy", "play")) for p, c, _ in turn]
    assert len(played) == len(turn) + answered
    assert "traceback" not in "\n".join(said).lower()
