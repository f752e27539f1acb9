"""Copy conservation in the debate, as properties over random play.

Random actions, most of them legal, are thrown at the rules. After every
accepted one: no card is in more places than its printed copies, no deck
uses more copies than it holds, and each player's 15 cards are all somewhere
(draw pile, hand, discard pile or forum). After every refused one the table
is unchanged, byte for byte, in its stored form and in `status --json`.
"""
from __future__ import annotations

import json
import shlex
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cards import lookup
from referee.cards.index import load_index, project_root
from referee.cli.main import cli
from referee.errors import RefereeError
from referee.rules import rules_for
from referee.games.debate import cards as dcards
from referee.model import Action, GameSlug, Setup
from referee.table.views import StatusView

RULES = rules_for("debate")
INDEX = load_index(project_root())
TACTICS = sorted(c.id for c in INDEX.cards.values() if c.game == "debate" and c.type in ("argument", "rhetorical-device"))
POTUSES = sorted(c.id for c in INDEX.cards.values() if c.game == "debate" and c.type == "potus")
PRINTED = {c.id: c.quantity for c in INDEX.cards.values() if c.game == "debate"}
STATS = {i: dcards.from_lookup(lookup(i)) for i in TACTICS}
POTUS_STATS = {i: dcards.from_lookup(lookup(i)) for i in POTUSES}


def status_json(state) -> str:
    view = StatusView(state, "Debate", 1, Path("table.db"), 1)
    return json.dumps(view.to_json(), sort_keys=True)


def stored(state) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def check_conservation(state) -> None:
    f = state.fields
    where: Counter = Counter()
    owned: dict[str, Counter] = {p.name: Counter() for p in state.players}
    for side, slots in f["forum"].items():
        for slot in slots:
            if slot:
                for card in (slot["argument"], *slot["devices"]):
                    where[card["id"]] += 1
                    owned[card["owner"]][card["id"]] += 1
    for name, pile in f["piles"].items():
        for card_id in (*pile["discard"], *pile["seen"]):
            where[card_id] += 1
            owned[name][card_id] += 1
        deck = Counter(c["id"] for c in pile["deck"])
        assert len(pile["deck"]) == 15 if pile["named"] else len(pile["deck"]) <= 15
        for card_id, n in owned[name].items():
            assert n <= deck[card_id], (name, card_id, n, deck[card_id])
        in_forum = sum(1 for slots in f["forum"].values() for s in slots if s
                       for c in (s["argument"], *s["devices"]) if c["owner"] == name)
        assert pile["draw"] >= 0 and pile["hand"] >= len(pile["seen"])
        assert pile["draw"] + pile["hand"] + len(pile["discard"]) + in_forum == 15, (name, pile, in_forum)
    for card_id, n in where.items():
        assert n <= PRINTED[card_id], (card_id, n)
    # Each deck list on its own keeps to the printed copies. The two lists together may both
    # claim one copy: a list named with `deck` is the player's word, never checked against the
    # other player's hidden list (that refusal would read the hidden list out); the copies in
    # sight, above, never exceed what is printed.
    for pile in f["piles"].values():
        for card_id, n in Counter(c["id"] for c in pile["deck"]).items():
            assert n <= PRINTED[card_id], (card_id, n)


def unseen(state, name: str) -> list[str]:
    """The cards of NAME's deck that may be in the draw pile or the unseen
    part of the hand (any tactic while the deck is not fully known)."""
    pile = state.fields["piles"][name]
    pool = Counter(c["id"] for c in pile["deck"]) if pile["named"] else Counter({t: 1 for t in TACTICS})
    for slots in state.fields["forum"].values():
        for slot in slots:
            if slot:
                for card in (slot["argument"], *slot["devices"]):
                    if card["owner"] == name:
                        pool[card["id"]] -= 1
    for card_id in (*pile["discard"], *pile["seen"]):
        pool[card_id] -= 1
    return sorted(i for i, n in pool.items() if n > 0) + list(pile["seen"])


def an_action(data, state) -> Action:
    names = [p.name for p in state.players]
    kind = data.draw(st.sampled_from(
        ["argue"] * 5 + ["device"] * 4 + ["end-turn"] * 5 + ["ability"] * 2 + ["round-end"] * 3
        + ["destroy", "return", "no-argument", "deck", "potus"]))
    who = data.draw(st.sampled_from([state.active_player.name] * 3 + names))
    thread = data.draw(st.integers(1, 7))
    if kind in ("argue", "device"):
        pool = unseen(state, who)
        code = data.draw(st.sampled_from(pool)) if pool and data.draw(st.booleans()) else data.draw(
            st.sampled_from(TACTICS))
        discard = state.fields["piles"][who]["discard"]
        return Action(kind, {"player": who, "thread": thread, "card": code, "_card": STATS[code],
                             "target": data.draw(st.integers(1, 7)),
                             "device": data.draw(st.sampled_from(TACTICS)),
                             "to": data.draw(st.integers(1, 7)), "toward": data.draw(st.sampled_from(["mob", "citizen"])),
                             "back": data.draw(st.sampled_from(discard)) if discard else None}, who)
    if kind == "ability":
        discard = state.fields["piles"][who]["discard"]
        return Action(kind, {"player": who, "target": thread, "to": data.draw(st.integers(1, 7)),
                             "device": data.draw(st.sampled_from(TACTICS)),
                             "toward": data.draw(st.sampled_from(["mob", "citizen"])),
                             "back": data.draw(st.sampled_from(discard)) if discard else None}, who)
    if kind in ("destroy", "return"):
        return Action(kind, {"player": data.draw(st.sampled_from(names)), "thread": thread}, who)
    if kind == "deck":
        ids = data.draw(st.one_of(st.permutations(TACTICS).map(lambda p: p[:15]),
                                  st.lists(st.sampled_from(TACTICS), min_size=14, max_size=16)))
        return Action(kind, {"player": who, "_deck": [STATS[i] for i in ids]})
    if kind == "potus":
        code = data.draw(st.sampled_from(POTUSES))
        return Action(kind, {"player": who, "card": code, "_card": POTUS_STATS[code]})
    if kind == "no-argument":
        return Action(kind, {"player": who}, who)
    return Action(kind, {}, who if kind == "end-turn" and data.draw(st.booleans()) else None)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(-10, 10), st.sampled_from(POTUSES), st.sampled_from(POTUSES),
       st.sampled_from(["opener", "both"]))
def test_random_play_never_uses_a_copy_twice_and_refusals_change_nothing(data, crowd, ana, ben, threads):
    house = {"starting-crowd": str(crowd), "starting-fortitude": "500", "open-threads": threads}
    setup = Setup(GameSlug.DEBATE, (("Ana", ana), ("Ben", ben)), 1, house_rules=house)
    try:
        state = RULES.setup(setup, ())
    except RefereeError:
        assert ana == ben  # the same POTUS twice is refused
        return
    check_conservation(state)
    before, shown = stored(state), status_json(state)
    for _ in range(120):
        action = an_action(data, state)
        try:
            RULES.check(state, action)
        except RefereeError:
            assert stored(state) == before and status_json(state) == shown, action
            continue
        state = RULES.apply(state, action, ())
        check_conservation(state)
        before, shown = stored(state), status_json(state)
        if state.winner is not None:
            break


def test_status_json_shows_counts_and_hides_hands_unless_revealed():
    state = RULES.setup(Setup(GameSlug.DEBATE, (("Ana", None), ("Ben", None)), 1,
                              house_rules={"starting-crowd": "0"}), ())
    state = RULES.apply(state, Action("deck", {"player": "Ben", "_deck": [STATS[i] for i in TACTICS[:15]]}), ())
    public = json.loads(status_json(state))
    assert public["state"]["piles"]["Ana"] == {"deck": 15, "draw": 10, "hand": 5, "discard": []}
    assert public["state"]["piles"]["Ben"] == {"deck": 15, "draw": 10, "hand": 5, "discard": []}
    text = json.dumps(public)
    for card_id in TACTICS:
        assert card_id not in text  # no deck list, no hand
    shown = StatusView(state, "Debate", 1, Path("t.db"), 1).to_json(["Ben"])
    assert "deck_list" in shown["state"]["piles"]["Ben"] and "deck_list" not in shown["state"]["piles"]["Ana"]
    assert shown["state"]["piles"]["Ben"]["deck_list"] == TACTICS[:15] and shown["state"]["piles"]["Ben"]["deck_named"]


def test_a_deck_action_reads_as_a_count_for_players():
    deck = [STATS[i] for i in TACTICS[:15]]
    args = RULES.public_args(Action("deck", {"player": "Ana", "_deck": deck}))
    assert args == {"player": "Ana", "deck": "15 tactics (hidden)"}
    assert not any(i in json.dumps(args) for i in TACTICS)
    played = Action("argue", {"player": "Ana", "thread": 1, "card": TACTICS[0]})
    assert RULES.public_args(played) == dict(played.args)  # a played card is face up for all


# ---- the same through the command line: a refusal leaves `status --json` as it was ----------

LINES = ["argue deb-shouting-match-2 1", "argue deb-shouting-match-1 1", "next", "round-end",
         "device deb-cheap-laugh 1", "ability Ana --target 1", "ability Ben --target 2", "no-argument",
         "argue deb-measured-rebuttal-1 2", "argue deb-socratic-questioning-2 1", "destroy Ben 1",
         "return Ana 1", "deck Ana b", "potus Ben deb-jackson", "argue deb-talking-over-you-1 3",
         "device deb-point-of-order 1 --target 1 --device deb-cheap-laugh", "fortitude Ana =-5"]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(LINES), min_size=8, max_size=14))
def test_refused_commands_leave_status_json_byte_identical(tmp_path_factory, lines):
    db = tmp_path_factory.mktemp("debate") / "table.db"
    runner = CliRunner()

    def run(line):
        return runner.invoke(cli, ["--db", str(db), *shlex.split(line)])

    assert run("new debate --player Ana:deb-jackson --player Ben:deb-truman --house-rule starting-crowd=0").exit_code == 0
    for line in lines:
        before = run("status --json").output
        result = run(line)
        assert "Traceback" not in result.output
        if result.exit_code != 0:
            assert run("status --json").output == before, line


@pytest.mark.parametrize("same", ["deb-lincoln", "Lincoln"])
def test_both_players_may_not_take_the_same_potus(same):
    with pytest.raises(RefereeError, match=r"Abraham Lincoln \(deb-lincoln\) has 1 printed copy.*Ana's POTUS"):
        RULES.setup(Setup(GameSlug.DEBATE, (("Ana", "deb-lincoln"), ("Ben", same)), 1,
                          house_rules={"starting-crowd": "0"}), ())
