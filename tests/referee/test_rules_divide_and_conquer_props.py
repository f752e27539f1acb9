"""Divide & Conquer, copy conservation as a property.

Random play, mostly legal (cards of the right type, targets on the table,
players at the table) and sometimes not: after every applied action no card
is in more places than it is printed, and every printed card is somewhere
(deck, hands, table, discard pile, set aside), whatever corrections
of a hand's count the scorekeeper makes. After every refused action
`status --json` is byte-identical. A second, smaller property drives the
real command line and compares the raw `status --json` output."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
import pytest

from referee.rules import prompts
from referee.cards import lookup
from referee.cards.index import load_index, project_root
from referee.errors import RefereeError
from referee.rules import rules_for
from referee.games.divide_and_conquer import cards as dcards
from referee.games.divide_and_conquer import printed, zones
from referee.games.divide_and_conquer.phases import Phase
from referee.model import Action, GameSlug, Setup
from referee.table.views import StatusView

from tests.referee.conftest import Table

RULES = rules_for("divide-and-conquer")
PLAYERS = ("Ana", "Ben", "Cy", "Dee", "Eve")


def _catalogue() -> dict[str, dict]:
    index = load_index(project_root())
    return {c.id: dcards.from_lookup(lookup(c.id)) for c in sorted(index.cards.values(), key=lambda c: c.id)
            if c.game == "divide-and-conquer" and c.type in dcards.PLAYABLE}


STATS = _catalogue()
BY_TYPE = {t: sorted(cid for cid, c in STATS.items() if c["type"] == t) for t in dcards.PLAYABLE}
ALL = sorted(STATS)


def _status_bytes(state) -> str:
    return json.dumps(StatusView(state, RULES.title, 1, Path("t.db"), 1).to_json())


def _groups(fields) -> list[dict]:
    attack = fields.get("attack") or {}
    return [g for _, gs in zones.places(fields) for g in gs] + list(attack.get("team") or ()) + list(
        attack.get("defence") or ())


def _seen(fields) -> Counter:
    seen = Counter()
    for g in _groups(fields):
        seen[g["id"]] += 1
        seen.update(a["id"] for a in g["attached"])
    seen.update(fields["discard"])
    return seen


def _check_invariants(state) -> None:
    f = state.fields
    seen = _seen(f)
    assert seen == Counter(printed.counts(f))
    for cid, n in seen.items():
        assert n <= STATS[cid]["quantity"], f"{cid} is in {n} places, printed {STATS[cid]['quantity']}"
    hands = sum(p.fields["hand"] for p in state.players)
    on_table = sum(seen.values())
    total = f["deck"] + hands + on_table + f["hidden_discards"] + f["set_aside"]
    assert total == dcards.PRINTED_DECK
    assert all(p.fields["hand"] >= 0 for p in state.players)
    refs = [g["ref"] for g in _groups(f)]
    assert len(refs) == len(set(refs))
    attack = f.get("attack")
    if attack:
        assert len(attack["joined"]) == len(set(attack["joined"]))
    assert RULES.phase(state) == f["phase"] and Phase(f["phase"])
    for p in state.players:
        assert {k: p.fields[k] for k in ("left", "right", "net", "cards")} == zones.score(f["bases"][p.name])


def _card_of(draw, wanted: str) -> str:
    """Mostly a card of the wanted type; now and then any card."""
    pool = BY_TYPE[wanted] if draw(st.integers(0, 9)) else ALL
    return draw(st.sampled_from(pool))


def _action(draw, state) -> tuple[str, dict, tuple[int, ...]]:
    f = state.fields
    refs = [g["ref"] for g in _groups(f)] + ["g99"]
    names = [p.name for p in state.players]
    ref = lambda: draw(st.sampled_from(refs))  # noqa: E731
    waiting = prompts.pending(state)
    if waiting and draw(st.integers(0, 5)):  # an owner's pick for an event (now and then a wrong one)
        prompt = draw(st.sampled_from(waiting))
        answer = draw(st.sampled_from(prompt.choices)) if draw(st.integers(0, 4)) else ref()
        return "resolve", {"prompt": prompt.number, "answer": answer}, ()
    attack = f.get("attack")
    if attack:
        stage = Phase(attack["stage"])
        if stage == Phase.ROLL or (stage == Phase.ADD and draw(st.booleans())):
            return "fight", {}, (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
        if stage == Phase.CALL_OR_RAISE and draw(st.booleans()):
            return "call", {"player": attack["defender"]}, ()
        who = attack["defender"] if stage == Phase.CALL_OR_RAISE else attack["attacker"]
        groups = [STATS[_card_of(draw, "group")] for _ in range(draw(st.integers(0, 2)))]
        attaches = [{"card": STATS[_card_of(draw, draw(st.sampled_from(["asset", "deficit"])))],
                     "onto": ref()} for _ in range(draw(st.integers(0, 1)))]
        args = {"player": who, "cards": [g["id"] for g in groups], "_groups": groups, "_attach": attaches}
        if stage != Phase.CALL_OR_RAISE and draw(st.integers(0, 3)) == 0:
            args["join"] = [ref() for _ in range(draw(st.integers(1, 2)))]
        name = "raise" if stage == Phase.CALL_OR_RAISE else "team"
        return name, args, ()
    actor = state.active_player.name
    name = draw(st.sampled_from(["event", "event", "unaffiliate", "recruit", "recruit", "attach", "attack",
                                 "end-turn"]))
    if name == "end-turn":
        if draw(st.integers(0, 5)) == 0:  # now and then a scorekeeper's correction of a hand's count
            return "hand", {"player": draw(st.sampled_from(names)), "by": draw(st.integers(-3, 3))}, ()
        return name, {}, ()
    if name == "attack":
        return name, {"player": actor, "target": ref(), "intent": draw(st.sampled_from(["take-over", "destroy"]))}, ()
    wanted = {"event": "event", "unaffiliate": "group", "recruit": "group",
              "attach": draw(st.sampled_from(["asset", "deficit"]))}[name]
    cid = _card_of(draw, wanted)
    args: dict = {"player": actor, "card": cid, "_card": STATS[cid]}
    if name == "attach":
        args["onto"] = ref()
    if name == "event":
        if draw(st.booleans()):
            args["groups"] = [ref() for _ in range(draw(st.integers(1, 3)))]
        args["pick"] = draw(st.sampled_from(names))
        on = [a["id"] for g in _groups(f) for a in g["attached"]]
        if on:
            args["attachment"] = draw(st.sampled_from(on))
    return name, args, ()


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_play_never_puts_a_card_in_more_places_than_printed(data):
    draw = data.draw
    players = PLAYERS[:draw(st.integers(4, 5))]
    size = draw(st.sampled_from([None, 60, 40]))
    house = {} if size is None else {"deck-size": str(size)}
    state = RULES.setup(Setup(GameSlug.DIVIDE_AND_CONQUER, tuple((p, None) for p in players), 1,
                              house_rules=house), ())
    _check_invariants(state)
    for _ in range(draw(st.integers(10, 80))):
        if state.fields["over"]:
            break
        name, args, dice = _action(draw, state)
        action = Action(name, args, None)
        before = _status_bytes(state)
        try:
            RULES.check(state, action)
        except RefereeError:
            assert _status_bytes(state) == before, f"a refused {name} changed the table"
            continue
        state = RULES.apply(state, action, dice)
        _check_invariants(state)
        json.dumps(state.to_dict())  # stays plain JSON


# ---- the same through the command line: raw status --json bytes ---------------------------------

LINES = st.sampled_from([
    "recruit {group}", "unaffiliate {group}", "attach {asset} {ref}", "attach {deficit} {ref}",
    "event {event}", "event {event} --group {ref}", "event {event} --player {player}",
    "attack {ref} --intent take-over", "attack {ref} --intent destroy", "team", "team {group}",
    "team {group} --join {ref}", "team --attach {deficit}={ref}", "raise", "raise {group}",
    "raise --attach {deficit}={ref}", "call", "fight --dice 4,3", "next", "hand {player} -9",
    "resolve 1 {ref}", "resolve {ref}",
])


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(st.data())
def test_every_refused_command_leaves_status_json_byte_identical(tmp_path_factory, data):
    draw = data.draw
    table = Table(tmp_path_factory.mktemp("dc") / "table.db")
    table.run("new divide-and-conquer --player Ana --player Ben --player Cy --player Dee --house-rule deck-size=60")
    for _ in range(draw(st.integers(8, 16))):
        line = draw(LINES).format(
            group=draw(st.sampled_from(BY_TYPE["group"][:6])), asset=draw(st.sampled_from(BY_TYPE["asset"])),
            deficit=draw(st.sampled_from(BY_TYPE["deficit"])), event=draw(st.sampled_from(BY_TYPE["event"])),
            ref=draw(st.sampled_from(["g1", "g2", "g3", "g9"])), player=draw(st.sampled_from(["Ana", "Cy"])))
        before = table.run("status --json").output
        result = table.run(line, ok=False)
        if result.exit_code != 0:
            assert "Traceback" not in result.output
            assert table.run("status --json").output == before, f"refused `{line}` changed the table"
