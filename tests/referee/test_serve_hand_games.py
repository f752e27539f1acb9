"""The hand kept on the phone in Culture War, Divide and Conquer and Cold War
(issue 36 item 2; the debate's is in test_serve_hand.py). In each game the
player's moves become concrete (no `<CARD>`, targets listed), a card played
from the phone leaves the kept hand, and the hand shows nowhere else: twin
tables that differ only in the rest of the kept hand give byte-identical
TV page, other phone's page, moves and hand, log, status, export and
terminal echo. In Cold War the player's own face-down spots a move names
come with their cards on their own phone only."""
from __future__ import annotations

import json
from dataclasses import dataclass

import pytest
from starlette.testclient import TestClient

from conftest import Table

from referee.serve.app import create_app
from referee.serve.play import Play
from referee.serve.tokens import TokenStore
from referee.serve.watch import TableWatch


@dataclass(frozen=True)
class Game:
    new: str
    before: tuple[str, ...]  # typed at the terminal on both twins
    me: str
    other: str
    played: str  # the card the phone plays
    command: str  # the listed move that plays it
    rest: dict[str, tuple[str, ...]]  # the rest of the kept hand on each twin
    targeted: str  # a listed move of twin "a" with its target named


CW_SETUP_ANA = ("setup Ana cold-wm-bomber-wing cold-wm-cavalry cold-wm-deep-sub cold-wm-joint-brass "
                "--propaganda cold-wm-kitchen --propaganda cold-wm-rapid-deploy --discard cold-wm-airborne "
                "--discard cold-wm-backyard-shelter --discard cold-wm-big-brain")
CW_SETUP_BEN = ("setup Ben cold-vk-five-year-plan cold-vk-fortress-line cold-vk-heavy-icbm cold-vk-ideologist "
                "cold-vk-interceptors --propaganda cold-vk-fraternal-drill --discard cold-vk-air-defence "
                "--discard cold-vk-chess-academy --discard cold-vk-deep-bunker")

GAMES = {
    "culture-war": Game(
        "new culture-war --player Ana:anarchy --player Ben:technocracy --seed 3", ("rolloff",), "Ben", "Ana",
        "technocracy-data-intern", "deploy technocracy-data-intern",
        {"a": ("technocracy-precision-strike", "technocracy-quarterly-review"),
         "b": ("technocracy-compliance-review", "technocracy-blue-screen")},
        "play technocracy-quarterly-review --on 4"),  # a targeted Happening, with its target
    "divide-and-conquer": Game(
        "new divide-and-conquer --player Ana --player Ben --player Cy --player Di --seed 7", (), "Ana", "Ben",
        "dc-left-bike-lane-coalition", "recruit dc-left-bike-lane-coalition --by Ana",
        {"a": ("dc-event-leaked-memo", "dc-asset-catchy-slogan"),
         "b": ("dc-left-campus-outrage", "dc-asset-basement-theorist")},  # ids of other lengths too
        "event dc-event-leaked-memo --player Ben --by Ana"),  # an event picking a player
    "cold-war": Game(
        "new cold-war --player Ana:westmark --player Ben:vostokia --seed 7",
        (CW_SETUP_ANA, CW_SETUP_BEN, "start --first Ana"), "Ana", "Ben",
        "cold-wm-marines", "attack Ben M2 cold-wm-marines --by Ana",
        {"a": ("cold-wm-fighter-wing", "cold-wm-proxy-war"),
         "b": ("cold-wm-space-agency", "cold-wm-liberty-silo")},
        "attack Ben L cold-wm-fighter-wing cold-wm-marines --by Ana"),
}
TOKENS = {"Ana": "a" * 32, "Ben": "b" * 32, "Cy": "c" * 32, "Di": "d" * 32}


def _twin(folder, game: Game, twin: str) -> tuple[dict[str, str], dict]:
    """A table played to the same point, `game.me` keeping a hand of the
    played card and the twin's rest; what everyone else sees, and what the
    phone itself saw."""
    folder.mkdir()
    table = Table(folder / "t.db")
    table.run(game.new)
    for line in game.before:
        table.run(line)
    watch = TableWatch(table.db)
    watch.poll()
    tokens = TokenStore(table.db, watch.players())
    tokens.tokens.update({n: t for n, t in TOKENS.items() if n in tokens.tokens})
    echoes: list[str] = []
    play = Play(table.db, on_act=lambda acted: echoes.append(acted.public_echo))
    me, other = "/p/" + TOKENS[game.me], "/p/" + TOKENS[game.other]
    kept = [game.played, *game.rest[twin]]
    own: dict = {}
    with TestClient(create_app(watch, tokens, poll_s=0.05, play=play)) as client:
        got = client.post(f"{me}/hand", json={"drew": kept})
        assert got.status_code == 200, got.text
        assert [c["id"] for c in got.json()["cards"]] == kept and got.json()["warnings"] == []
        listed = client.get(f"{me}/moves").json()
        assert listed["hand_kept"]
        assert not any("<CARD>" in m["command"] for m in listed["moves"]), "a card move is still a template"
        commands = [m["command"] for m in listed["moves"]]
        assert game.command in commands
        if twin == "a":
            assert game.targeted in commands
        own["moves"] = listed["moves"]
        move = next(m for m in listed["moves"] if m["command"] == game.command)
        acted = client.post(f"{me}/act", json={"action": move["action"]})
        assert acted.status_code == 200, acted.text
        after = client.get(f"{me}/hand").json()
        assert [c["id"] for c in after["cards"]] == list(game.rest[twin]), "the played card left the kept hand"
        assert after["warnings"] == []
        out = table.db.parent / "export.json"
        table.run(["export", str(out)])
        seen = {
            "TV page": client.get("/api/state").text,
            "TV html": client.get("/").text,
            "other's page": client.get(f"/api/p/{TOKENS[game.other]}/state").text,
            "other's moves": client.get(f"{other}/moves").text,
            "other's hand": client.get(f"{other}/hand").text,
            "terminal echo": json.dumps(echoes),
            "log": table.run("log").output,
            "log --json": table.run("log --json").output,
            "status": table.run("status").output.replace(str(table.db), "TABLE"),
            "export": out.read_text(encoding="utf-8").replace(str(table.db), "TABLE"),
        }
        own["page"] = client.get(f"/api/p/{TOKENS[game.me]}/state").text
    return seen, own


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_kept_hand_makes_moves_concrete_and_twins_differing_in_it_look_alike(slug, tmp_path, monkeypatch):
    import referee.table.ledger

    monkeypatch.setattr(referee.table.ledger, "now", lambda: "2026-12-04T04:30:00.000Z")
    game = GAMES[slug]
    a, own_a = _twin(tmp_path / "a", game, "a")
    b, _ = _twin(tmp_path / "b", game, "b")
    for what in a:
        assert a[what] == b[what], f"{slug}: the {what} tells the twins' kept hands apart"
    for card in {*game.rest["a"], *game.rest["b"]}:
        for what, text in a.items():  # (another phone's card pickers list what any hand of the deck may hold)
            if not what.startswith("other's"):
                assert card not in text, f"{slug}: {card}, kept on the phone, is in the {what}"


def test_cold_war_own_face_down_cards_are_named_on_their_own_phone_only(tmp_path, monkeypatch):
    import referee.table.ledger

    monkeypatch.setattr(referee.table.ledger, "now", lambda: "2026-12-04T04:30:00.000Z")
    game = GAMES["cold-war"]
    seen, own = _twin(tmp_path / "a", game, "a")
    regroup = next(m for m in own["moves"] if m["command"] == "regroup Ana --stack M1,M2,M3")
    # Ana's M1 is the Rapid Deployment Doctrine she put face down as Propaganda at setup
    assert regroup["own"][0] == {"spot": "M1", "cards": ["Rapid Deployment Doctrine"]}
    attack = next(m for m in own["moves"] if m["command"] == game.command)
    assert "own" not in attack  # Ben's M2 is Ben's: never named
    assert "Rapid Deployment Doctrine" in own["page"]  # her own page's "your cards"
    for what, text in seen.items():
        assert "Rapid Deployment Doctrine" not in text and "cold-wm-rapid-deploy" not in text, what
    ben = json.loads(seen["other's moves"])["moves"]
    assert ben and not any(m.get("own") and "Rapid" in json.dumps(m["own"]) for m in ben)


def test_cold_war_a_challenge_loser_sees_which_of_their_cards_each_spot_gives(tmp_path):
    from referee.model import Action
    from referee.rules import rules_for
    from referee.table import operations

    table = Table(tmp_path / "t.db")
    for line in (GAMES["cold-war"].new, *GAMES["cold-war"].before):
        table.run(line)
    state = operations.status(table.db).state
    rules = rules_for(state.game)
    give = Action("answer", {"their": ["M1", "m2"]})
    assert rules.own_face_down(state, "Ana", give) == [("M1", ["cold-wm-rapid-deploy"]), ("M2", ["cold-wm-bomber-wing"])]
    assert rules.own_face_down(state, "Ana", Action("attack", {"target": "Ben", "at": "M1"})) == []


def test_cold_war_the_defender_answers_from_the_kept_hand_and_a_discarded_card_cannot_be_kept(tmp_path):
    game = GAMES["cold-war"]
    table = Table(tmp_path / "t.db")
    for line in (game.new, *game.before):
        table.run(line)
    play = Play(table.db)
    refused = table.fail("hand Ben --drew cold-vk-deep-bunker")  # discarded face up at Ben's setup
    assert "Ben's hand cannot hold Deep Command Bunker (cold-vk-deep-bunker) now: its printed copy is in " \
           "Ben's discard pile" in refused.output
    table.run("hand Ben --drew cold-vk-missile-ring --drew cold-vk-photographs")
    play.hand("Ana", json.dumps({"drew": ["cold-wm-marines"]}).encode())
    attack = next(m for m in play.moves("Ana", False)["moves"] if m["command"] == game.command)
    play.act("Ana", json.dumps({"action": attack["action"]}).encode(), False)  # the answer window opens for Ben
    answers = [m["command"] for m in play.moves("Ben", False)["moves"]]
    assert answers == ["answer none --by Ben", "answer block cold-vk-missile-ring --by Ben"]  # from his kept hand
    block = next(m for m in play.moves("Ben", False)["moves"] if m["command"].startswith("answer block"))
    assert "blocks Ana's attack" in play.act("Ben", json.dumps({"action": block["action"]}).encode(), False).echo
    kept = play.hand("Ben")
    assert [c["id"] for c in kept["cards"]] == ["cold-vk-photographs"] and kept["warnings"] == []
    assert [c["id"] for c in play.hand("Ana")["cards"]] == []  # her Marines went into the attack
