"""Card text = rules for the debate: every effect kind of
card_sources/debate/effects.yaml has a referee handler (or a prompt), every
card's ability is built from its effects, and every rules card, played in a
legal situation, leaves a trace: the referee changed the table by its
effect, or asked the table to act."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from referee.rules import prompts
from referee.cards.index import load_index, project_root
from referee.errors import CardError, RuleViolation
from referee.games.debate import effects as dfx
from test_rules_debate import RULES, card, finish, start, step

ROOT = Path(__file__).resolve().parents[2]
VOCABULARY = yaml.safe_load((ROOT / "card_sources" / "debate" / "effects.yaml").read_text())
ABILITY = ("target", "action", "action_count", "max_strength", "crowd_shift", "crowd_toward", "effects", "prompts")


def rules_cards(*types: str) -> list:
    index = load_index(project_root())
    return sorted((c for c in index.cards.values() if c.game == "debate" and c.type in types
                   and c.fields.get("effects")), key=lambda c: c.id)


# ---- the vocabulary and the handlers ----------------------------------------------------


def test_every_applied_kind_has_a_referee_handler_and_every_other_kind_a_prompt():
    kinds = VOCABULARY["kinds"]
    applied = {k for k, spec in kinds.items() if spec["applied"]}
    prompted = {k for k, spec in kinds.items() if not spec["applied"]}
    assert applied - set(dfx.HANDLERS) == set(), "applied: true without a handler"
    assert prompted - set(dfx.PROMPTED) == set(), "applied: false without a prompt"
    assert set(dfx.HANDLERS) <= applied and set(dfx.PROMPTED) <= prompted, "a handler for a kind not applied"
    assert set(VOCABULARY["triggers"]) == set(dfx.TIMING)


def test_a_kind_without_a_handler_is_refused_never_ignored():
    with pytest.raises(CardError, match="no handler for effect kind 'juggle'"):
        dfx.ability([{"kind": "juggle", "when": "on-play"}])
    with pytest.raises(CardError, match="only as a card is played"):
        dfx.ability([{"kind": "look-at-hand", "when": "round-end"}])


def test_each_card_runs_the_effects_it_prints():
    """The referee's card is made from the index's effects, and the index's
    text is the text generated from those same effects."""
    for c in rules_cards("potus", "argument", "rhetorical-device"):
        entry = card(c.id)
        assert c.fields["text"], c.id
        for effect in c.fields["effects"]:
            kind = effect["kind"]
            if kind in dfx.PROMPTED:
                assert entry["prompts"][0]["text"].lower() in c.fields["text"].replace("**", "").lower(), c.id
            elif kind in ("crowd", "device-crowd"):
                assert entry["crowd_shift"] == effect["amount"], c.id
            elif kind in ("strength", "cost", "thread-bonus"):
                assert {e["amount"] for e in entry["effects"]} >= {effect["amount"]}, c.id
            else:
                assert entry.get("action"), c.id
        if c.type != "potus":
            when = c.fields["effects"][0]["when"]
            assert entry["timing"] == ("round-end" if when == "round-end" else "instant"), c.id


# ---- every card in a legal situation ---------------------------------------------------------------

# Helpers each side plays before the card under test; a helper that is the
# card under test (or taken) is replaced by the next one in its list.
ANA_DISCARD = ["deb-measured-rebuttal-1", "deb-measured-rebuttal-2"]          # round 1, then in the discard pile
BEN_ROUND_1 = ["deb-talking-over-you-2", "deb-talking-over-you-3"]
BEN_T1 = ["deb-talking-over-you-1", "deb-measured-rebuttal-2"]                 # printed strength 5 or less
BEN_T1_DEVICE = ["deb-cheap-laugh", "deb-appeal-to-reason"]
BEN_T2 = ["deb-shouting-match-1", "deb-shouting-match-2"]
BEN_T3 = ["deb-measured-rebuttal-3", "deb-socratic-questioning-2"]
ANA_T1 = ["deb-socratic-questioning-1", "deb-socratic-questioning-3"]
ANA_T2 = ["deb-shouting-match-3", "deb-socratic-questioning-3"]
ANA_T2_DEVICE = ["deb-appeal-to-fear", "deb-appeal-to-reason"]


def _pick(options: list[str], taken: set[str]) -> str:
    chosen = next(o for o in options if o not in taken)
    taken.add(chosen)
    return chosen


def situation(test_id: str | None, ana: str = "deb-lincoln", ben: str = "deb-truman"):
    """Round 2, Ana answering: Ana's discard pile holds a GF argument; Ben
    opened threads 1-3 (a BF argument of strength 5 with a device on it in
    thread 1); Ana answered threads 1 and 2 and has a device on thread 2.
    Returns the state and the cards each side played."""
    taken = {test_id} if test_id else set()
    names = {k: _pick(v, taken) for k, v in (
        ("ana_discard", ANA_DISCARD), ("ben_r1", BEN_ROUND_1), ("ben_t1", BEN_T1),
        ("ben_t1_device", BEN_T1_DEVICE), ("ben_t2", BEN_T2), ("ben_t3", BEN_T3), ("ana_t1", ANA_T1),
        ("ana_t2", ANA_T2), ("ana_t2_device", ANA_T2_DEVICE))}
    ana_deck = [names[k] for k in ("ana_discard", "ana_t1", "ana_t2", "ana_t2_device")] + ([test_id] if test_id else [])
    ben_deck = [names[k] for k in ("ben_r1", "ben_t1", "ben_t1_device", "ben_t2", "ben_t3")]
    state = start(f"Ana:{ana}", f"Ben:{ben}", decks={"Ana": ana_deck, "Ben": ben_deck})
    state = _play(state, "argue", "Ana", names["ana_discard"], 1)
    state = step(state, "end-turn")
    state = _play(state, "argue", "Ben", names["ben_r1"], 1)
    state = finish(state)
    assert state.fields["opener"] == "Ben" and names["ana_discard"] in state.fields["piles"]["Ana"]["discard"]
    state = _play(state, "argue", "Ben", names["ben_t1"], 1)
    state = _play(state, "device", "Ben", names["ben_t1_device"], 1)
    state = _play(state, "argue", "Ben", names["ben_t2"], 2)
    state = _play(state, "argue", "Ben", names["ben_t3"], 3)
    state = step(state, "end-turn")
    state = _play(state, "argue", "Ana", names["ana_t1"], 1)
    state = _play(state, "argue", "Ana", names["ana_t2"], 2)
    state = _play(state, "device", "Ana", names["ana_t2_device"], 2)
    assert state.fields["phase"] == "answer" and state.active_player.name == "Ana"
    return state, names


def _play(state, name, player, card_id, thread, c=None, **opts):
    c = c or card(card_id)
    return step(state, name, player, player=player, thread=thread, card=card_id, _card=c, **opts)


def options(c: dict, names: dict) -> dict:
    """What the card's ability picks in the situation, as the command's options."""
    target = c.get("target")
    if c.get("action") == "return-from-discard":
        return {"back": names["ana_discard"]}
    if c.get("action") == "take-control":
        return {"target": 1, "to": 4}
    if target == "opposing-rd":
        return {"target": 1, "device": names["ben_t1_device"]}
    if target == "own-rd":
        return {"target": 2, "device": names["ana_t2_device"], "to": 1}
    if target in ("opposing-argument", "own-argument", "own-thread"):
        return {"target": 1}
    if c.get("crowd_toward") == "either":
        return {"toward": "mob"}
    return {}


def blank(c: dict) -> dict:
    """The same card with no ability: what playing it does without its text."""
    out = {k: v for k, v in c.items() if k not in ABILITY}
    if "timing" in out:
        out["timing"] = "instant"
    return out


def trace(state) -> tuple:
    return state.fields, state.crowd, RULES.report(state).to_json(), prompts.pending(state)


TACTICS = rules_cards("argument", "rhetorical-device")


@pytest.mark.parametrize("c", TACTICS, ids=[c.id for c in TACTICS])
def test_every_tactic_played_leaves_a_trace_of_its_text(c):
    state, names = situation(c.id)
    entry = card(c.id)
    name, thread = ("argue", 3) if entry["kind"] == "argument" else ("device", 1)
    opts = options(entry, names)
    played = _play(state, name, "Ana", c.id, thread, entry, **opts)
    without = _play(state, name, "Ana", c.id, thread, blank(entry), **opts)
    assert trace(played) != trace(without), f"{c.id}: its text changed nothing: {c.fields['text']}"
    # and the round ends cleanly with it
    done = finish(played)
    assert done.round == 3


POTUSES = rules_cards("potus")


@pytest.mark.parametrize("c", POTUSES, ids=[c.id for c in POTUSES])
def test_every_potus_ability_used_in_its_window_leaves_a_trace(c):
    ben = "deb-lincoln" if c.id == "deb-truman" else "deb-truman"
    state, names = situation(None, ana=c.id, ben=ben)
    entry = card(c.id)
    if entry["uses"] == "passive":
        with pytest.raises(RuleViolation, match="passive"):
            RULES.check(state, _action("ability", {"player": "Ana"}, "Ana"))
        quiet = replace(state, fields={**state.fields, "potus": {**state.fields["potus"], "Ana": blank(entry)}})
        assert RULES.report(state).to_json() != RULES.report(quiet).to_json(), c.id
        return
    after = _apply(state, _ability(state, names, entry))
    changed = {k: v for k, v in after.fields.items() if k not in ("used", "prompts", "prompt_next")}
    before = {k: v for k, v in state.fields.items() if k not in ("used", "prompts", "prompt_next")}
    assert (changed, after.crowd) != (before, state.crowd) or prompts.pending(after), c.id
    if entry.get("prompts"):
        assert [p.card_id for p in prompts.pending(after)] == [c.id]
        with pytest.raises(RuleViolation, match="must wait"):
            RULES.check(after, _action("end-turn", {}, None))
        after = _apply(after, _action("resolve", {"answer": "done"}, "Ana"))
    # used once: a second use in the same round is refused
    with pytest.raises(RuleViolation, match="once per"):
        RULES.check(after, _ability(after, names, entry))
    # never in the opponent's turn
    ben_turn = step(after, "end-turn")
    with pytest.raises(RuleViolation, match="POTUS timing"):
        RULES.check(ben_turn, _ability(ben_turn, names, entry))


def _action(name, args, actor):
    from referee.model import Action

    return Action(name, args, actor)


def _ability(state, names, entry):
    return _action("ability", {"player": "Ana", **options(entry, names)}, "Ana")


def _apply(state, action):
    RULES.check(state, action)
    return RULES.apply(state, action, ())
