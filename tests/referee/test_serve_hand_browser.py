"""The Hand panel of a phone (issue 36 item 2), in real browsers: at a Culture
War table served with `referee serve --play`, Ben's 360 px phone adds two
drawn cards to his hand (one picked by name, one by scanning its printed QR
code with a fake camera that films it), sees his moves become concrete (no
`<CARD>`, the targeted Happening with its target), plays one card from the
list and marks the other played. Ana's phone and the TV (1920x1080) are open
throughout and never show his kept cards.

REFEREE_SHOTS=folder also saves the phones' and the TV's screenshots there.
"""
from __future__ import annotations

import contextlib
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import ROOT, Table
from test_serve_browser import CHROMIUM, DRIVER, console_errors, wait_for
from test_serve_play_browser import CONTRAST, no_sideways_scroll, note, open_page, phone, qr_video, seq, serve_play, shot

pytestmark = [pytest.mark.skipif(not (CHROMIUM.exists() and DRIVER.exists()), reason="needs Debian's chromium"),
              pytest.mark.slow]

NEW = "new culture-war --player Ana:anarchy --player Ben:technocracy --seed 3"  # Ben plays first
BY_NAME, BY_QR = "technocracy-data-intern", "technocracy-quarterly-review"
TARGETED = "play technocracy-quarterly-review --on 4"  # on his own #4 Technocrat Recruit


def _card(card_id: str):
    from referee.cards.index import load_index, project_root

    return load_index(project_root(ROOT)).cards[card_id]


@pytest.fixture(scope="module")
def devices(tmp_path_factory):
    """Ben's phone (its camera films Quarterly Review's printed QR code), Ana's phone and the TV."""
    card = _card(BY_QR)
    camera = qr_video(tmp_path_factory.mktemp("camera") / "card.y4m", f"PNP:{card.id.upper()}:{card.revision}:1")
    managers = [phone(camera), phone(), phone(width=1920, height=1080)]
    with contextlib.ExitStack() as stack, ThreadPoolExecutor(3) as pool:
        started = [pool.submit(stack.enter_context, m) for m in managers]
        yield [f.result() for f in started]


def _hand(driver) -> list[str]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#hand li.held')).map(function (e) { return e.dataset.card; })")


def _commands(driver) -> list[str]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#play button.move')).map(function (b) { return b.dataset.command; })")


def _fits(driver) -> None:
    """The panel on a phone: touch targets of 44 px or more, no sideways scroll, 7:1 contrast."""
    sizes = driver.execute_script(
        "return Array.from(document.querySelectorAll('#hand button, .sheet button, .sheet input'))"
        ".filter(function (e) { return e.offsetParent !== null; })"
        ".map(function (e) { var r = e.getBoundingClientRect(); return [e.textContent.slice(0, 40), r.width, r.height]; })")
    assert sizes and not [s for s in sizes if s[1] < 44 or s[2] < 44], sizes
    no_sideways_scroll(driver)
    ratios = driver.execute_script(CONTRAST.replace("'#play button, .sheet button'", "'#hand button, .sheet button'"))
    assert ratios and not [r for r in ratios if r[1] < 7], ratios


def _chip(driver, kind: str, row: str, choice: str) -> None:
    """Tap the choice `choice` of the row `row` in the narrowed list of `kind` (narrow.js)."""
    def tapped(d):
        for facet in d.find_elements("css selector", f"#play section[data-kind='{kind}'] .facet"):
            if facet.find_element("css selector", ".fk").text == row:
                for chip in facet.find_elements("css selector", ".chip"):
                    if chip.text == choice and chip.is_enabled():
                        chip.click()
                        return True
        return False
    wait_for(driver, tapped, 10)
    wait_for(driver, lambda d: any(c.text == choice for c in d.find_elements(
        "css selector", f"#play section[data-kind='{kind}'] .chip.on")), 5)


def _secret_on(driver) -> list[str]:
    words = [BY_QR, _card(BY_QR).name]
    dom = driver.page_source.lower()
    return [w for w in words if w.lower() in dom]


def test_a_phone_keeps_its_hand_plays_from_it_and_nobody_else_sees_it(tmp_path, devices):
    ben, ana, tv = devices
    table = Table(tmp_path / "t.db")
    table.run(NEW)
    table.run("rolloff")
    with serve_play(table.db, "--play") as (base, tokens, said):
        open_page(tv, base + "/")
        open_page(ana, f"{base}/p/{tokens['Ana']}")
        open_page(ben, f"{base}/p/{tokens['Ben']}")
        panel = wait_for(ben, lambda d: d.find_element("css selector", "#hand .count"), 10)
        assert "Not kept on this phone" in panel.text
        wait_for(ben, lambda d: "deploy <CARD>" in _commands(d), 10)  # the hand unknown: templates
        assert tv.find_element("id", "hand").get_attribute("hidden") is not None  # the TV has no hand

        ben.find_element("css selector", "#hand .add").click()
        _fits(ben)
        field = wait_for(ben, lambda d: d.find_element("id", "hand-find"), 5)
        field.send_keys("data int")  # by name, as a thumb types it
        wait_for(ben, lambda d: d.find_element("css selector", f".sheet .pick[data-card='{BY_NAME}']"), 5).click()
        wait_for(ben, lambda d: "added: Data Intern" in d.find_element("css selector", ".sheet .said").text, 10)
        ben.find_element("css selector", ".sheet .scan").click()  # the second by its printed QR code
        with contextlib.suppress(Exception):
            wait_for(ben, lambda d: "added: Quarterly Review" in d.find_element("css selector", ".sheet .said").text, 20)
        assert "added: Quarterly Review" in ben.find_element("css selector", ".sheet .said").text, ben.find_element("css selector", ".sheet").text
        shot(ben, "hand-phone-ben-adding")
        ben.find_element("css selector", ".sheet .foot .cancel").click()  # Done
        wait_for(ben, lambda d: not d.find_elements("css selector", ".sheet"), 5)
        wait_for(ben, lambda d: _hand(d) == [BY_NAME, BY_QR], 10)
        assert "2 cards kept of the 5 the table counts" in ben.find_element("css selector", "#hand .count").text

        commands = wait_for(ben, lambda d: (lambda c: c if "deploy " + BY_NAME in c else None)(_commands(d)), 10)
        assert TARGETED in commands and not any("<CARD>" in c for c in commands), commands
        _fits(ben)
        shot(ben, "hand-phone-ben-kept")

        before = seq(tv)
        ben.find_element("css selector", f"#play button.move[data-command='deploy {BY_NAME}']").click()
        wait_for(ben, lambda d: d.find_element("css selector", ".sheet.confirm .send"), 5).click()
        ok, echo = note(ben)
        assert ok, echo
        wait_for(tv, lambda d: seq(d) > before, 10)
        assert tv.find_element("css selector", "#log li").text.startswith("Ben (phone):")
        wait_for(ben, lambda d: _hand(d) == [BY_QR], 10)  # the card played left the kept hand
        assert "1 card kept of the 4 the table counts" in ben.find_element("css selector", "#hand .count").text
        shot(ben, "hand-phone-ben-played")

        ben.find_element("css selector", f"#hand li.held[data-card='{BY_QR}'] .played").click()  # marked played
        wait_for(ben, lambda d: _hand(d) == [], 10)
        wait_for(ben, lambda d: TARGETED not in _commands(d), 10)

        for driver in (ana, tv):
            assert _secret_on(driver) == [], "another page shows Ben's kept card"
            assert driver.execute_script("return document.querySelectorAll('#hand li.held').length") == 0
        ana_panel = ana.find_element("css selector", "#hand .count").text
        assert "Not kept on this phone" in ana_panel  # Ana's own panel: hers, empty
        shot(ana, "hand-phone-ana")
        shot(tv, "hand-tv")
        assert console_errors(ben) == [] and console_errors(ana) == [] and console_errors(tv) == []
        for driver in devices:
            driver.get("about:blank")  # each page is left before the server stops
    assert "traceback" not in "\n".join(said).lower()
    assert BY_QR not in table.run("log").output


def test_cold_war_a_kept_hand_by_code_and_own_face_down_cards_named_on_that_phone_only(tmp_path, devices):
    from test_serve_hand_games import GAMES

    ben, ana, tv = devices
    game = GAMES["cold-war"]
    table = Table(tmp_path / "cw.db")
    for line in (game.new, *game.before):  # both setups typed at the terminal; Ana plays first
        table.run(line)
    with serve_play(table.db, "--play") as (base, tokens, said):
        open_page(tv, base + "/")
        open_page(ana, f"{base}/p/{tokens['Ana']}")
        open_page(ben, f"{base}/p/{tokens['Ben']}")
        wait_for(ana, lambda d: d.find_element("css selector", "#hand .add"), 10).click()
        for card_id in ("cold-wm-marines", "cold-wm-fighter-wing"):  # by the printed code, in lower case
            field = wait_for(ana, lambda d: d.find_element("id", "hand-find"), 5)
            field.send_keys(_card(card_id).fields["code"].lower())
            wait_for(ana, lambda d: f"added: {_card(card_id).name}" in d.find_element("css selector", ".sheet .said").text, 10)
        ana.find_element("css selector", ".sheet .foot .cancel").click()
        wait_for(ana, lambda d: _hand(d) == ["cold-wm-marines", "cold-wm-fighter-wing"], 10)
        hint = wait_for(ana, lambda d: d.find_element(
            "css selector", "#play button.move[data-command='regroup Ana --stack M1,M2,M3'] .own"), 10)
        assert hint.text.startswith("your M1: Rapid Deployment Doctrine · M2: Round-the-Clock Bomber Wing")
        assert not any("<CARD>" in c for c in _commands(ana))
        # 24 concrete attacks (6 spots, 4 ways): too many for buttons, so the list is narrowed by spot and by the cards used
        fit = ana.find_element("css selector", "#play section[data-kind='attack'] .fit")
        assert fit.text == "24 of 24 fit: choose above to narrow them"
        _chip(ana, "attack", "at", "L")
        _chip(ana, "attack", "Expeditionary Marines", "used")
        _chip(ana, "attack", "Supersonic Fighter Wing", "used")
        for driver in (ben, tv):  # the kept cards, before they are played: on Ana's phone only
            assert "Expeditionary Marines" not in driver.page_source and "Supersonic" not in driver.page_source
        attack = "attack Ben L cold-wm-fighter-wing cold-wm-marines --by Ana"
        wait_for(ana, lambda d: attack in _commands(d), 10)  # both orders of the two cards are left, as buttons
        assert ana.find_element("css selector", "#play section[data-kind='attack'] .fit").text == "2 of 24 fit"
        _fits(ana)
        ana.execute_script("document.querySelector(\"#play section[data-kind='attack']\").scrollIntoView()")
        shot(ana, "hand-cold-war-ana")
        ana.find_element("css selector", f"#play button.move[data-command='{attack}']").click()
        wait_for(ana, lambda d: d.find_element("css selector", ".sheet.confirm .send"), 5).click()
        ok, echo = note(ana)
        assert ok and "Ana attacks Ben's leader with" in echo, echo
        wait_for(ana, lambda d: _hand(d) == [], 10)  # both cards went into the attack
        for who, driver in (("Ben", ben), ("TV", tv)):
            dom = driver.page_source
            at = dom.find("Rapid Deployment Doctrine")
            assert at < 0, (who, dom[max(0, at - 300):at + 100])
        assert console_errors(ana) == [] and console_errors(ben) == [] and console_errors(tv) == []
        for driver in devices:
            driver.get("about:blank")
    assert "traceback" not in "\n".join(said).lower()
