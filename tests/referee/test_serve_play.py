"""`referee serve --play`: moves from each player's private link.

The routes are driven through Starlette's TestClient (the app as the server
runs it) and the CLI through CliRunner: every contract status, forged
requests that must change nothing (the table's `status --json` and `log
--json` compared before and after), 50 concurrent submissions from phones
and the CLI, token rotation in a running server, and Cold War setups
entered privately from two phones with the twins check (two tables that
differ only in one player's face-down cards give identical public output).
"""
from __future__ import annotations

import json
import random
import re
import shlex
import subprocess
import sys
import threading
import time

import pytest
from starlette.testclient import TestClient

from conftest import Table
from helpers.twins import first_event
from test_rules_cold_war_hidden import ANN_SETUP, BO_SETUP

from referee.rules import legal
from referee.table.moves import moves_view
from referee.table import operations as core
from referee.cli.main import cli
from referee.rules import rules_for
from referee.serve.app import create_app
from referee.serve.play import Play, RateLimit
from referee.serve.tokens import TokenStore
from referee.serve.watch import TableWatch

COLD = "new cold-war --player Ann:westmark --player Bo:vostokia --seed 3"
PETRI = "new petri-dish --player Ana --player Ben --seed 7"


class Served:
    """A table, its app with --play (or not), the phones' links and the echoes."""

    def __init__(self, folder, new_line: str, play: bool = True, limit: RateLimit | None = None,
                 reads: RateLimit | None = None):
        self.table = Table(folder / "t.db")
        self.table.run(new_line)
        self.db = self.table.db
        watch = TableWatch(self.db)
        watch.poll()
        self.tokens = TokenStore(self.db, watch.players())
        self.echoes: list = []
        self.play = Play(self.db, on_act=self.echoes.append, limit=limit, reads=reads) if play else None
        self.client = TestClient(create_app(watch, self.tokens, poll_s=0.05, keepalive_s=0.3, play=self.play))

    def link(self, player: str) -> str:
        return f"/p/{self.tokens.tokens[player]}"

    def post(self, player: str, body, **kw):
        url = f"{self.link(player)}/act"
        if isinstance(body, (bytes, str)):
            return self.client.post(url, content=body, **kw)
        return self.client.post(url, json=body, **kw)

    def moves(self, player: str):
        return self.client.get(f"{self.link(player)}/moves")

    def seen(self) -> tuple[dict, dict]:
        """What must not change under a refused request: status and the whole log."""
        return self.table.status(), self.table.log()


@pytest.fixture
def cold(tmp_path):
    served = Served(tmp_path, COLD)
    with served.client:
        yield served


@pytest.fixture
def petri(tmp_path):
    served = Served(tmp_path, PETRI)
    with served.client:
        yield served


# ---- GET /p/<token>/moves -------------------------------------------------------------


def test_moves_list_the_players_moves_with_the_cards_for_a_card_slot(cold):
    got = cold.moves("Ann")
    assert got.status_code == 200
    data = got.json()
    assert data["player"] == "Ann" and data["version"] == cold.table.status()["log_length"] == 1
    assert data["waiting"] is None
    setup = next(m for m in data["moves"] if m["kind"] == "setup")
    assert setup["command"].startswith("setup Ann <CARD>") and setup["text"]
    ids = {c["id"] for c in setup["cards"]}
    assert "cold-wm-kitchen" in ids and not any(i.startswith("cold-vk-") for i in ids)  # Ann's deck only
    assert all(len(c["code"]) == 5 and c["name"] for c in setup["cards"])


def test_moves_say_whose_turn_it_is_when_the_player_has_none(petri):
    data = petri.moves("Ben").json()
    assert data["moves"] == [] and data["waiting"] == "Ana's turn"
    assert petri.moves("Ana").json()["waiting"] is None
    assert all("cards" not in m for m in petri.moves("Ana").json()["moves"])


def test_moves_of_an_unknown_token_are_a_404_json_error(cold):
    got = cold.client.get("/p/" + "x" * 32 + "/moves")
    assert got.status_code == 404 and "error" in got.json()


# ---- Cold War's card slots: an optional second card, a card's own flag -------------------


def _fill(move: dict, picks: list) -> str:
    """A `<CARD>` move's command with the cards in, as the phone page fills it
    (docs/play-api.md): a pick is a card id, (flag, card id) for a card that
    carries its slot's flag, or None to leave out an optional slot's word."""
    words, at, slots = [], 0, move["details"].get("slots", [])
    for word in move["command"].split(" "):
        if word != legal.CARD_PLACEHOLDER:
            words.append(word)
            continue
        pick, slot = picks[at], slots[at] if at < len(slots) else {}
        at += 1
        if pick is None:
            assert slot.get("optional"), f"slot {at} may not be left out"
        elif isinstance(pick, tuple):
            assert slot.get("flag") == pick[0], f"slot {at} takes no {pick[0]}"
            words += list(pick)
        else:
            words.append(pick)
    assert at == len(picks)
    return " ".join(words)


def _known_commands(db, player: str, hand: list[str]) -> set[str]:
    """What `referee moves` lists for `player` when their hand is known (self-play's view)."""
    state = core.status(db).state
    return {m.command for m in legal.legal_moves(rules_for("cold-war"), state, player, {player: hand})}


def test_a_cold_war_attack_takes_one_card_or_two_from_a_phone(cold, tmp_path):
    (tmp_path / "twin").mkdir()
    twin = Served(tmp_path / "twin", COLD)  # the same table, where Airborne attacks alone
    for served in (cold, twin):
        for line in (ANN_SETUP, BO_SETUP, "start --first Ann"):
            served.table.run(line)
    moves = cold.moves("Ann").json()["moves"]
    attack = next(m for m in moves if m["kind"] == "attack" and m["details"]["at"] == "S1")
    assert attack["command"] == "attack Bo S1 <CARD> <CARD> --by Ann"
    assert attack["details"]["slots"] == [{}, {"optional": True}]  # the second card may be left out
    assert {"cold-wm-airborne", "cold-wm-deep-sub"} <= {c["id"] for c in attack["cards"]}
    one, two = _fill(attack, ["cold-wm-airborne", None]), _fill(attack, ["cold-wm-airborne", "cold-wm-deep-sub"])
    assert one == "attack Bo S1 cold-wm-airborne --by Ann"
    assert two == "attack Bo S1 cold-wm-airborne cold-wm-deep-sub --by Ann"
    known = _known_commands(cold.db, "Ann", ["cold-wm-airborne", "cold-wm-deep-sub"])
    assert one in known and two in known  # the very lines `referee moves` gives for that hand
    # First Dog in Orbit defends with 200: Airborne's 150 alone fails, with the Deep Sub's 150 it falls
    with twin.client:
        alone = twin.post("Ann", {"command": one})
        assert alone.status_code == 200, alone.text
        # the attack waits for Bo, who answers from his own phone (issue 36: the answer window)
        assert core.status(twin.db).state.fields["pending"]["target"] == "Bo"
        answered = twin.post("Bo", {"command": "answer none"})
    assert answered.status_code == 200, answered.text
    bo = core.status(twin.db).state.fields["desks"]["Bo"]
    assert bo["science"] == [{"cards": ["cold-vk-orbit-dog"], "n": 1}]
    got = cold.post("Ann", {"command": two})
    assert got.status_code == 200, got.text
    offered = [m["command"] for m in cold.moves("Bo").json()["moves"]]
    assert "answer none --by Bo" in offered and not any(m["command"].startswith("answer") for m in
                                                          cold.moves("Ann").json()["moves"])
    assert cold.post("Bo", {"command": "answer none --by Bo"}).status_code == 200
    bo = core.status(cold.db).state.fields["desks"]["Bo"]
    assert bo["science"] == [] and "cold-vk-orbit-dog" in bo["discard"]
    attack, answer = cold.table.log()["events"][-2:]
    assert attack["action"] == "attack" and attack["args"]["cards"] == ["cold-wm-airborne", "cold-wm-deep-sub"]
    assert answer["action"] == "answer" and answer["actor"] == "Bo"


def test_a_cold_war_setup_from_a_phone_places_propaganda(cold):
    setup = next(m for m in cold.moves("Ann").json()["moves"] if m["kind"] == "setup")
    slots = setup["details"]["slots"]
    assert [s.get("flag") for s in slots] == ["--propaganda"] * 6 + [None] * 3  # placed cards, then the discards
    assert not any(s.get("optional") for s in slots)
    command = _fill(setup, ["cold-wm-kitchen", ("--propaganda", "cold-wm-big-brain"), "cold-wm-forward-base",
                            "cold-wm-tank-battalion", "cold-wm-joint-brass", "cold-wm-proxy-war",
                            "cold-wm-vice-president", "cold-wm-snoop-director", "cold-wm-rapid-deploy"])
    assert "cold-wm-kitchen --propaganda cold-wm-big-brain cold-wm-forward-base" in command
    got = cold.post("Ann", {"command": command})
    assert got.status_code == 200, got.text
    ann = core.status(cold.db).state.fields["desks"]["Ann"]
    assert sorted(ann["propaganda"]) == ["cold-wm-big-brain", "cold-wm-proxy-war"]  # the flagged card, and a Special
    assert "cold-wm-big-brain" in [c for g in ann["military"] for c in g["cards"]]
    assert [c for g in ann["science"] for c in g["cards"]] == ["cold-wm-kitchen"]


def test_a_cold_war_setup_offers_no_propaganda_when_the_house_rule_is_off(tmp_path):
    served = Served(tmp_path, COLD + " --house-rule propaganda=off")
    with served.client:
        setup = next(m for m in served.moves("Ann").json()["moves"] if m["kind"] == "setup")
    assert not any(s.get("flag") for s in setup["details"]["slots"])


# ---- POST /p/<token>/act: played ----------------------------------------------------


def test_a_phone_move_is_played_logged_as_the_phone_echoed_and_undoable(petri):
    version = petri.moves("Ana").json()["version"]
    got = petri.post("Ana", {"command": "place c1", "version": version})
    assert got.status_code == 200, got.text
    assert got.json()["version"] == version + 1 and "c1" in got.json()["echo"]
    assert got.headers["cache-control"] == "no-store"
    log = petri.table.run("log").output
    assert "Ana (phone)" in log
    event = petri.table.log()["events"][-1]
    assert event["actor"] == "Ana" and event["args"]["_via"] == "phone"
    assert [e.player for e in petri.echoes] == ["Ana"] and "c1" in petri.echoes[0].public_echo
    page = petri.client.get("/api/state").json()
    assert page["log"][-1]["actor"] == "Ana (phone)" and page["log"][-1]["via"] == "phone"
    assert petri.client.get(f"/api{petri.link('Ana')}/state").json()["play"] is True
    petri.table.run("undo")  # the scorekeeper undoes a phone's move like any other
    assert petri.table.status()["active"] == "Ana"
    assert petri.moves("Ana").json()["version"] == version + 2


def test_a_phone_move_replays_from_the_export(petri, tmp_path):
    petri.post("Ana", {"command": "place c1"})
    petri.post("Ben", {"command": "place d1 --by Ben"})
    out = tmp_path / "export.json"
    petri.table.run(["export", str(out), "--full"])
    again = Table(tmp_path / "again.db")
    again.run(["replay", str(out)])
    assert again.log()["events"][-1]["args"]["_via"] == "phone"
    assert "Ben (phone)" in again.run("log").output
    assert again.status()["players"] == petri.table.status()["players"]


# ---- POST /p/<token>/act: refused, and nothing changes ------------------------------


@pytest.mark.parametrize("body, status", [
    (b"{not json", 400),
    (b"[1, 2]", 400),
    (json.dumps({"version": 1}), 400),
    (json.dumps({"command": ""}), 400),
    (json.dumps({"command": "frobnicate c1"}), 400),
    (json.dumps({"command": "status"}), 400),
    (json.dumps({"command": "undo"}), 400),
    (json.dumps({"command": "new petri-dish --player X --player Y --force"}), 400),
    (json.dumps({"command": "place c1 --db other.db"}), 400),
    (json.dumps({"command": "place --help"}), 400),
    (json.dumps({"command": "place 'c1"}), 400),
    (json.dumps({"command": "place"}), 422),  # not a listed move: nothing parses it
    (json.dumps({"command": "place c1 --sideways"}), 422),
    (json.dumps({"command": "place <CARD>"}), 400),
    (json.dumps({"command": "place c1", "version": "7"}), 400),
    (json.dumps({"command": "place c1 " + "x" * 5000}), 413),
    (json.dumps({"command": "place c1 --by Ben"}), 403),
    (json.dumps({"command": "place zz99"}), 422),
], ids=lambda v: str(v)[:40])
def test_bad_requests_get_one_json_error_and_change_nothing(petri, body, status):
    before = petri.seen()
    got = petri.post("Ana", body)
    assert got.status_code == status, got.text
    assert set(got.json()) == {"error"} and got.json()["error"]
    assert "Traceback" not in got.text and str(petri.db.parent) not in got.text
    assert petri.seen() == before and not petri.echoes


def test_a_move_out_of_turn_is_refused_by_the_rules(petri):
    before = petri.seen()
    got = petri.post("Ben", {"command": "place c1 --by Ben"})  # Ana's turn
    assert got.status_code == 422 and "Ben" in got.json()["error"]
    other = petri.post("Ben", {"command": "place c1"})  # a phone's command is its player's: --by Ben
    assert other.status_code == 422 and "Ben" in other.json()["error"]
    assert petri.seen() == before


def test_forged_requests_change_nothing(petri):
    before = petri.seen()
    ana = petri.link("Ana")
    assert petri.client.post("/p/" + "y" * 32 + "/act", json={"command": "place c1"}).status_code == 404
    assert petri.client.post(f"{ana}x/act", json={"command": "place c1"}).status_code == 404
    foreign = petri.post("Ana", {"command": "place c1"}, headers={"origin": "http://evil.example"})
    assert foreign.status_code == 403 and "error" in foreign.json()
    assert petri.post("Ana", {"command": "place c1"}, headers={"origin": "null"}).status_code == 403
    assert petri.post("Ana", {"command": "place c1"}, headers={"sec-fetch-site": "cross-site"}).status_code == 403
    assert petri.post("Ben", {"command": "place c1 --by Ana"}).status_code == 403  # another player's move
    for method in ("GET", "PUT", "DELETE", "PATCH"):  # only POST changes anything
        got = petri.client.request(method, f"{ana}/act", params={"command": "place c1"}, json={"command": "place c1"})
        assert got.status_code == 405 and got.json()["error"] and got.headers["allow"] == "POST"
    assert petri.seen() == before
    own = petri.post("Ana", {"command": "place c1"}, headers={"origin": "http://testserver"})
    assert own.status_code == 200  # the page's own origin is taken


def test_a_stale_page_gets_409_no_longer_possible(petri):
    version = petri.moves("Ana").json()["version"]
    assert petri.post("Ana", {"command": "place c1", "version": version}).status_code == 200
    petri.table.run("place d1")  # the scorekeeper plays Ben's move
    stale = petri.post("Ben", {"command": "place c1 --by Ben", "version": version + 1})
    assert stale.status_code == 409 and stale.json()["error"].startswith("no longer possible: ")
    refused = petri.post("Ana", {"command": "place c1", "version": version + 2})  # current, but taken
    assert refused.status_code == 422 and not refused.json()["error"].startswith("no longer")
    free = petri.moves("Ana").json()["moves"][0]["command"]
    still = petri.post("Ana", {"command": free, "version": version})  # stale but still possible
    assert still.status_code == 200, still.text


def test_a_finished_game_refuses_moves(petri):
    petri.table.run("win Ana --force")
    before = petri.seen()
    got = petri.post("Ben", {"command": "place c1 --by Ben"})
    assert got.status_code == 422 and "over" in got.json()["error"]
    assert petri.moves("Ben").json()["waiting"].startswith("the game is over")
    assert petri.seen() == before


def test_the_scorekeepers_corrections_are_not_a_phones(petri):
    before = petri.seen()
    for line in ("life Ana +5", "win Ana --force", "roll 2d6", "redo", "log"):
        got = petri.post("Ana", {"command": line})
        assert got.status_code == 400, (line, got.text)
    assert petri.seen() == before


def test_read_only_without_play(tmp_path):
    served = Served(tmp_path, PETRI, play=False)
    with served.client:
        before = served.seen()
        got = served.post("Ana", {"command": "place c1"})
        assert got.status_code == 403
        assert got.json() == {"error": "this table is served read-only; start it with referee serve --play"}
        assert served.client.get(f"/api{served.link('Ana')}/state").json()["play"] is False
        assert served.seen() == before


def test_each_token_is_rate_limited(tmp_path):
    clock = [0.0]
    served = Served(tmp_path, PETRI, limit=RateLimit(burst=3, rate=5.0, clock=lambda: clock[0]))
    with served.client:
        codes = [served.post("Ben", {"command": "place c1 --by Ben"}).status_code for _ in range(5)]  # refused moves count too
        assert codes == [422, 422, 422, 429, 429]
        assert served.post("Ana", {"command": "place c1"}).status_code == 200  # each token its own bucket
        clock[0] += 0.25  # ~5 a second
        assert served.post("Ben", {"command": "place c2 --by Ben"}).status_code == 200


def test_an_internal_error_is_one_json_line_without_a_traceback(tmp_path, monkeypatch):
    served = Served(tmp_path, PETRI)
    served.client = TestClient(served.client.app, raise_server_exceptions=False)

    def broken(*args):
        raise ValueError("/secret/path/table.db exploded")

    monkeypatch.setattr(served.play, "act", broken)
    with served.client:
        got = served.post("Ana", {"command": "place c1"})
    assert got.status_code == 500 and set(got.json()) == {"error"}
    assert "Traceback" not in got.text and "/secret" not in got.text


def test_an_oversized_body_is_refused_without_reading_it_all(petri):
    before = petri.seen()
    got = petri.client.post(f"{petri.link('Ana')}/act", content=b"x" * 100_000,
                            headers={"content-type": "application/json"})
    assert got.status_code == 413 and "error" in got.json()
    assert petri.seen() == before


# ---- links ------------------------------------------------------------------------------


def test_links_json_and_rotate_in_a_running_server(petri):
    data = json.loads(petri.table.run("links --json").output)
    assert data == {"players": {"Ana": petri.link("Ana"), "Ben": petri.link("Ben")}}
    old = petri.link("Ana")
    assert petri.client.get(f"{old}/moves").status_code == 200
    out = petri.table.run("links --rotate ana").output
    assert "Ana's old link no longer works" in out
    new = json.loads(petri.table.run("links --json").output)["players"]
    assert new["Ana"] != old and new["Ben"] == petri.link("Ben")
    assert petri.client.get(f"{old}/moves").status_code == 404  # the running server noticed at once
    assert petri.client.post(f"{old}/act", json={"command": "place c1"}).status_code == 404
    assert petri.client.get(f"{new['Ana']}/moves").status_code == 200
    assert petri.table.run("links --rotate Zed", ok=False).exit_code != 0


def test_tokens_never_reach_the_public_page_log_or_export(petri, tmp_path):
    petri.post("Ana", {"command": "place c1"})
    out = tmp_path / "export.json"
    petri.table.run(["export", str(out)])
    texts = [petri.client.get("/api/state").text, petri.client.get("/").text, petri.table.run("log").output,
             petri.table.run("log --json").output, out.read_text(), petri.db.read_bytes().decode("latin-1")]
    for token in petri.tokens.tokens.values():
        assert not any(token in text for text in texts)


# ---- concurrency ------------------------------------------------------------------------


def test_fifty_concurrent_submissions_lose_nothing_and_double_nothing(tmp_path):
    """Ten workers at once (four on each phone, two typing `referee` in a
    shell), five submissions each: each picks a move the table offered a
    moment ago and sends it, so many race for the same turn. Every 200 and
    every CLI success is exactly one new event; every refusal is none."""
    served = Served(tmp_path, PETRI, limit=RateLimit(burst=100, rate=100.0), reads=RateLimit(burst=10_000, rate=1e4))
    workers = ["Ana"] * 4 + ["Ben"] * 4 + ["cli"] * 2
    results: list = []
    lock = threading.Lock()
    start = threading.Barrier(len(workers))

    def run(k: int, who: str) -> None:
        rng = random.Random(k)

        def _busy(commands: list[str]) -> str:
            """A move that keeps the game going: a pass answered by a pass ends it
            in a draw, and then every later submission is refused (a flake seen
            in CI: the game ended after 4 phone moves)."""
            return rng.choice([c for c in commands if not c.startswith("pass")] or commands)

        start.wait()
        for _ in range(5):
            if who == "cli":
                state = core.status(served.db).state
                offered = moves_view(state).moves
                line = _busy([m.command for m in offered]) if offered else "place a1"
                proc = subprocess.run([sys.executable, "-m", "referee", "--db", str(served.db), *shlex.split(line)],
                                      capture_output=True, text=True, timeout=60)
                found = re.match(r"#(\d+) ", proc.stdout)
                outcome = ("cli", int(found[1]) if proc.returncode == 0 and found else None, proc.stderr)
            else:
                data = served.moves(who).json()
                for _ in range(100):  # a phone waits for its turn, as its page does
                    if data["moves"]:
                        break
                    time.sleep(0.02)
                    data = served.moves(who).json()
                line = _busy([m["command"] for m in data["moves"]]) if data["moves"] else f"place a1 --by {who}"
                got = served.post(who, {"command": line, "version": data["version"]})
                outcome = (who, got.status_code, got.json())
            with lock:
                results.append(outcome)

    with served.client:
        before = served.table.log()["events"]
        threads = [threading.Thread(target=run, args=(k, who)) for k, who in enumerate(workers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    assert len(results) == 50
    events = served.table.log()["events"][len(before):]
    cli_played = [r[1] for r in results if r[0] == "cli" and r[1] is not None]
    phone_played = [r for r in results if r[0] != "cli" and r[1] == 200]
    assert len(phone_played) >= 5 and len(events) == len(cli_played) + len(phone_played)  # nothing lost or doubled
    seqs = sorted(cli_played + [r[2]["version"] for r in phone_played])
    assert seqs == [e["seq"] for e in events]  # each success is its own event, once
    phone_events = {e["seq"]: e for e in events if e["args"].get("_via") == "phone"}
    assert sorted(phone_events) == sorted(r[2]["version"] for r in phone_played)
    assert all(phone_events[r[2]["version"]]["actor"] == r[0] for r in phone_played)
    for r in results:
        if r[0] != "cli" and r[1] != 200:
            assert r[1] in (409, 422) and r[2]["error"], r
    turns = [e["actor"] or e["active"] for e in events]  # Petri alternates: judged against the state each met
    assert all(a != b for a, b in zip(turns, turns[1:])), turns


# ---- secrets stay with their owner ---------------------------------------------------


def _setup_line(line: str) -> str:
    return " ".join(shlex.quote(w) for w in shlex.split(line))


OTHER_ANN = ANN_SETUP.replace("cold-wm-forward-base", "cold-wm-cavalry").replace(
    "cold-wm-tank-battalion", "cold-wm-marines").replace("cold-wm-big-brain", "cold-wm-rock-radio")
ANN_SECRETS = ["cold-wm-forward-base", "cold-wm-tank-battalion", "cold-wm-proxy-war", "cold-wm-big-brain",
               "cold-wm-cavalry", "cold-wm-marines", "cold-wm-rock-radio"]


def _twin_outputs(tmp_path, monkeypatch, new_line: str, moves: list[tuple[str, str]]) -> tuple[dict, list[str]]:
    """Set a table up from the phones (each move: the player and the line its
    phone sends) and collect everything anyone but the first mover reads;
    also the first mover's own echo."""
    import referee.table.ledger

    monkeypatch.setattr(referee.table.ledger, "now", lambda: "2026-11-26T20:15:02.000Z")
    tmp_path.mkdir()
    served = Served(tmp_path, new_line)
    names = list(served.tokens.tokens)
    served.tokens.tokens.update({name: chr(ord("a") + i) * 32 for i, name in enumerate(names)})  # same links on both
    with served.client:
        echoes, others = [], {}
        for player, line in moves:
            if player != moves[0][0]:
                others[f"{player}'s moves before"] = _moves_text(served, player)
            got = served.post(player, {"command": _setup_line(line)})
            assert got.status_code == 200, got.text
            echoes.append(got.json()["echo"])
        out = served.db.parent / "export.json"
        served.table.run(["export", str(out)])
        first = moves[0][0]
        seen = {
            "public page": served.client.get("/api/state").text,
            "public stream": first_event(served.client, "/api/events"),
            "scorekeeper's terminal": "\n".join(e.public_echo for e in served.echoes),
            "log": served.table.run("log").output,
            "log --json": served.table.run("log --json").output,
            "export": out.read_text(encoding="utf-8").replace(str(served.db), "TABLE"),
            "status": served.table.run("status").output.replace(str(served.db), "TABLE"),
            **others,
        }
        for player, token in served.tokens.tokens.items():
            if player != first:
                seen[f"{player}'s page"] = served.client.get(f"/api/p/{token}/state").text
                seen[f"{player}'s moves"] = _moves_text(served, player)
                seen[f"{player}'s echoes"] = "\n".join(e for (p, _), e in zip(moves, echoes) if p == player)
    return seen, [e for (p, _), e in zip(moves, echoes) if p == first]


def _moves_text(served: Served, player: str) -> str:
    """A player's moves less each `<CARD>` move's offer of the cards any hand
    may hold (read from the card index: alike on both twins, secrets included)."""
    listed = served.moves(player).json()
    for move in listed["moves"]:
        move.pop("cards", None)
    return json.dumps(listed)


def _same_and_secret(a: dict, b: dict, secrets: list[tuple[str, str | None]]) -> None:
    assert a.keys() == b.keys()
    for what in a:
        assert a[what] == b[what], f"{what} tells the twins apart"
        low = a[what].lower()
        for cid, name in secrets:
            assert cid not in low and (name is None or name.lower() not in low), (what, cid)


def test_cold_war_setup_entered_privately_from_two_phones_leaks_nothing(tmp_path, monkeypatch):
    """Twins: two tables whose only difference is Ann's face-down cards, both
    set up from the phones. Everything anyone but Ann reads is identical."""
    from helpers.serve_tables import card_name

    a, own_a = _twin_outputs(tmp_path / "a", monkeypatch, COLD, [("Ann", ANN_SETUP), ("Bo", BO_SETUP)])
    b, own_b = _twin_outputs(tmp_path / "b", monkeypatch, COLD, [("Ann", OTHER_ANN), ("Bo", BO_SETUP)])
    assert card_name("cold-wm-forward-base") in own_a[0] and card_name("cold-wm-cavalry") in own_b[0]  # her own
    _same_and_secret(a, b, [(c, card_name(c)) for c in ANN_SECRETS])
    assert "a face-down card" in a["scorekeeper's terminal"] and "Ann (phone)" in a["log"]
    assert "start --first Ann" in a["Bo's moves"]  # everyone set up: the table goes on


def test_a_debate_deck_entered_from_a_phone_stays_hidden(tmp_path, monkeypatch):
    """Twins: Ana's hidden 15-card deck differs (three cards), entered from her phone."""
    from test_hidden_twins import BEN, DECK_A, DECK_B, _debate_secrets

    new = "new debate --player Ana:Lincoln --player Ben:Truman --seed 12 --house-rule starting-crowd=0"
    ben = ("Ben", "deck Ben " + " ".join(f"deb-{c}" for c in BEN))
    a, own_a = _twin_outputs(tmp_path / "a", monkeypatch, new, [("Ana", "deck Ana " + " ".join(f"deb-{c}" for c in DECK_A)), ben])
    b, own_b = _twin_outputs(tmp_path / "b", monkeypatch, new, [("Ana", "deck Ana " + " ".join(f"deb-{c}" for c in DECK_B)), ben])
    # ids only: a debate card's name is shared by its numbered versions (Ben holds a Slippery Slope too)
    _same_and_secret(a, b, [(cid, None) for cid, _ in _debate_secrets(0) + _debate_secrets(1)])
    assert own_a == own_b  # the CLI's own echo of a deck counts it, even for its owner
    assert "Ana (phone)" in a["log"]


# ---- the command ------------------------------------------------------------------------


def test_serve_play_gives_the_app_its_moves_and_without_it_none(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from referee.serve import server

    table = Table(tmp_path / "t.db")
    table.run(PETRI)
    apps = []
    monkeypatch.setattr(server, "run", lambda app, sock, closing: apps.append(app))
    for flags in (["--play"], []):
        result = CliRunner().invoke(cli, ["--db", str(table.db), "serve", "--port", "0", "--no-qr", *flags])
        assert result.exit_code == 0, result.output
        assert ("--play: each private link plays" in result.output) == bool(flags)
    links = json.loads(table.run("links --json").output)["players"]
    with TestClient(apps[0]) as played, TestClient(apps[1]) as read_only:
        assert played.post(f"{links['Ana']}/act", json={"command": "place c1"},
                           headers={"host": "127.0.0.1"}).status_code == 200
        assert read_only.post(f"{links['Ben']}/act", json={"command": "place d1"},
                              headers={"host": "127.0.0.1"}).status_code == 403


@pytest.mark.slow
def test_a_real_server_echoes_a_phone_move_on_the_terminal_and_every_page(tmp_path):
    import os
    import urllib.request

    from conftest import ROOT

    table = Table(tmp_path / "t.db")
    table.run(PETRI)
    links = json.loads(table.run("links --json").output)["players"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "referee", "--db", str(table.db), "serve", "--play", "--port", "0",
                             "--no-qr"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        port = int(proc.stdout.readline().split("http://127.0.0.1:")[1].split("/")[0])
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                urllib.request.urlopen(f"{base}/healthz", timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        seen: list[str] = []

        def listen() -> None:
            try:
                with urllib.request.urlopen(f"{base}/api{links['Ben']}/events", timeout=20) as r:
                    for line in r:
                        seen.append(line.decode())
            except (OSError, ValueError):
                pass

        threading.Thread(target=listen, daemon=True).start()
        while not any(line.startswith("data: ") for line in seen):
            time.sleep(0.02)
        request = urllib.request.Request(f"{base}{links['Ana']}/act", data=json.dumps({"command": "place c1"}).encode(),
                                         headers={"Content-Type": "application/json", "Origin": base}, method="POST")
        with urllib.request.urlopen(request, timeout=20) as r:
            assert r.status == 200 and json.loads(r.read())["version"] == 2
        deadline = time.time() + 10
        while not any('"seq":2' in line for line in seen) and time.time() < deadline:
            time.sleep(0.02)
        assert any('"seq":2' in line for line in seen)  # Ben's page heard of it
        proc.send_signal(2)
        out, err = proc.communicate(timeout=15)
    finally:
        proc.kill()
    assert "Ana (phone): #2 Ana places a cell at c1" in out
    assert "Traceback" not in err
