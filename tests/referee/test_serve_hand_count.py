"""A hand kept on the phone is held to the table's public count of that hand
(issue 36 item 2): a card drawn past the count, or a card played that is not
kept, is one error naming the player and the rule, with nothing written;
when the table's count drops under the kept hand (a card played at the
terminal), `hand --show` and `GET /p/TOKEN/hand` say so and keep every card."""
from __future__ import annotations

import json

from starlette.testclient import TestClient

from conftest import Table

from referee.serve.app import create_app
from referee.serve.hands import hand_file
from referee.serve.play import Play
from referee.serve.tokens import TokenStore
from referee.serve.watch import TableWatch

NEW = "new culture-war --player Ana:anarchy --player Ben:technocracy --seed 3"  # Ben plays first; hands of 5
HAND = ["technocracy-data-intern", "technocracy-precision-strike", "technocracy-compliance-review",
        "technocracy-quarterly-review", "technocracy-blue-screen"]
RULE = "no more cards than the table counts"


def _started(tmp_path) -> Table:
    table = Table(tmp_path / "t.db")
    table.run(NEW)
    table.run("rolloff")
    assert table.status()["active"] == "Ben"
    return table


def _kept(table: Table) -> list[str] | None:
    path = hand_file(table.db)
    return json.loads(path.read_text())["Ben"] if path.exists() else None


def test_a_drawn_card_past_the_tables_count_is_one_error_and_nothing_is_written(tmp_path):
    table = _started(tmp_path)
    refused = table.fail(["hand", "Ben", *(w for c in [*HAND, "technocracy-data-harvest"] for w in ("--drew", c))])
    assert "Ben's hand would hold 6 cards on the phone, and the table counts 5" in refused.output
    assert RULE in refused.output and "Traceback" not in refused.output
    assert _kept(table) is None  # nothing written, not even an empty hand
    table.run(["hand", "Ben", *(w for c in HAND for w in ("--drew", c))])
    assert _kept(table) == HAND
    refused = table.fail("hand Ben --drew technocracy-data-harvest")
    assert "would hold 6 cards" in refused.output and RULE in refused.output
    refused = table.fail("hand Ben --played technocracy-data-harvest")  # not kept
    assert "technocracy-data-harvest is not in the hand Ben keeps on the phone" in refused.output
    refused = table.fail("hand Ben --played technocracy-data-intern --played technocracy-data-harvest")
    assert _kept(table) == HAND  # refused whole: the first, kept card stayed too
    assert table.log()["events"][-1]["kind"] == "action"  # the rolloff: the kept hand is never in the log


def test_the_phone_is_refused_alike_and_a_card_played_at_the_terminal_is_a_stated_warning(tmp_path):
    table = _started(tmp_path)
    watch = TableWatch(table.db)
    watch.poll()
    tokens = TokenStore(table.db, watch.players())
    ben = f"/p/{tokens.tokens['Ben']}/hand"
    with TestClient(create_app(watch, tokens, play=Play(table.db))) as client:
        got = client.post(ben, json={"drew": [*HAND, "technocracy-data-harvest"]})
        assert got.status_code == 422 and RULE in got.json()["error"] and "Ben" in got.json()["error"]
        assert _kept(table) is None
        kept = client.post(ben, json={"drew": HAND}).json()
        assert (kept["count"], kept["table_count"], kept["missing"], kept["warnings"]) == (5, 5, 0, [])
        table.run("deploy technocracy-data-intern --by Ben")  # the scorekeeper plays Ben's card at the terminal
        assert table.status()["players"][1]["state"]["hand"] == 4
        seen = client.get(ben).json()
        assert [c["id"] for c in seen["cards"]] == HAND  # nothing dropped silently
        assert seen["warnings"] == ["5 cards kept, the table says 4: mark the cards that left the hand as played"]
        shown = table.run("hand Ben --show")
        assert "warning: 5 cards kept, the table says 4" in shown.output
        assert "technocracy-data-intern" in shown.output
        assert client.post(ben, json={"drew": ["technocracy-data-harvest"]}).status_code == 422  # still past the count
        after = client.post(ben, json={"played": ["technocracy-data-intern"]}).json()
        assert (after["count"], after["table_count"], after["warnings"]) == (4, 4, [])
        assert "warning" not in table.run("hand Ben --show").output


def test_a_game_without_a_hand_now_keeps_none(tmp_path):
    table = Table(tmp_path / "p.db")
    table.run("new petri-dish --player Ana --player Ben --seed 1")
    assert table.run("hand Ana --show").output.strip() == \
        "Ana's hand (kept on the phone): no cards; Ana holds no hand now"
    refused = table.fail("hand Ana --drew petri-germ-white")
    assert "Ana holds no hand now, so the phone keeps none" in refused.output


def test_a_drawn_card_named_by_its_qr_text_is_kept_and_a_copy_never_printed_says_so(tmp_path):
    from referee.cards.index import load_index, project_root

    card = load_index(project_root()).cards["technocracy-quarterly-review"]
    table = _started(tmp_path)
    watch = TableWatch(table.db)
    watch.poll()
    tokens = TokenStore(table.db, watch.players())
    ben = f"/p/{tokens.tokens['Ben']}/hand"
    with TestClient(create_app(watch, tokens, play=Play(table.db))) as client:
        got = client.post(ben, json={"drew": [f"PNP:{card.id.upper()}:{card.revision}:1"]})
        assert got.status_code == 200 and [c["id"] for c in got.json()["cards"]] == [card.id]
        assert got.json()["cards"][0]["name"] == card.name
        refused = client.post(ben, json={"drew": [f"PNP:{card.id.upper()}:{card.revision}:7"]})
        assert refused.status_code == 422
        assert "copy 7" in refused.json()["error"] and str(tmp_path) not in refused.json()["error"]
        nowhere = client.post(ben, json={"drew": ["technocracy-no-such-card"]}).json()["error"]
        assert "card sources at" not in nowhere and "/" not in nowhere.split(":", 1)[-1]  # no folder named
    assert _kept(table) == [card.id]


def test_a_card_the_table_saw_go_back_to_the_hand_and_not_kept_is_a_stated_warning(tmp_path):
    table = Table(tmp_path / "d.db")
    table.run("new debate --player Ana:Lincoln --player Ben:Truman --seed 12")
    watch = TableWatch(table.db)
    watch.poll()
    tokens = TokenStore(table.db, watch.players())
    ana = f"/p/{tokens.tokens['Ana']}"
    with TestClient(create_app(watch, tokens, play=Play(table.db))) as client:
        client.post(f"{ana}/hand", json={"drew": ["deb-common-ground-1", "deb-steelman-2"]})
        argue = next(m for m in client.get(f"{ana}/moves").json()["moves"]
                     if m["kind"] == "argue" and m["action"]["args"]["card"] == "deb-common-ground-1")
        assert client.post(f"{ana}/act", json={"action": argue["action"]}).status_code == 200
        thread = argue["action"]["args"]["thread"]
        table.run(f"return Ana {thread}")  # the scorekeeper sends it back to her hand, in front of everyone
        seen = client.get(f"{ana}/hand").json()
        assert [c["id"] for c in seen["cards"]] == ["deb-steelman-2"]
        assert seen["warnings"] == ["the table knows Common Ground is in Ana's hand, and it is not kept: add it"]
        assert "the table knows deb-common-ground-1 is in Ana's hand" in table.run("hand Ana").output
        again = client.post(f"{ana}/hand", json={"drew": ["deb-common-ground-1"]}).json()
        assert again["warnings"] == []
