"""15 Minute Cold War card effects (issue 14): every rules card's printed
text comes from its `effects`, and the referee applies each kind that
card_sources/cold-war/effects.yaml marks `applied: true` or asks the table.

- every `applied: true` kind has a referee handler (and a made-up one is caught);
- the icons and the effects agree (Shield icon <-> shield, Triad icon <-> triad);
- every rules card of every country, played in a legal situation, leaves a
  trace: the table changed by its effect, or a prompt waits;
- a kind the referee cannot apply becomes a prompt at the effect's moment, and
  play waits for `resolve`.
The effect scenarios are tests/referee/scenarios/cold-war-effect-*.yaml.
"""
from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from referee.rules import prompts
from referee.errors import RuleViolation
from referee.rules import rules_for
from referee.games.cold_war import cards as carddata
from referee.games.cold_war import effects as E
from referee.games.cold_war.actions import EFFECT_HANDLERS
from referee.model import Action, GameSlug, Setup, State

RULES = rules_for("cold-war")
ROOT = Path(__file__).resolve().parents[2]
VOCABULARY = ROOT / "card_sources" / "cold-war" / "effects.yaml"
OPPONENT = {"westmark": "vostokia", "albion": "vostokia", "vostokia": "westmark", "grauberg": "westmark"}


def step(state: State, name: str, actor: str | None = None, **args) -> State:
    action = Action(name, args, actor)
    RULES.check(state, action)
    return RULES.apply(state, action, ())


def by_type(deck: dict, kind: str, triad: bool = False) -> list[str]:
    return [cid for cid, c in deck["cards"].items()
            if c["type"] == kind and bool(c.get("triad")) == triad]


def table(country: str, first: str) -> tuple[State, dict, dict]:
    """P (country) against Q: each with Science & Culture, Military and an
    Assistant Leader on the table, no Special or Triad card used; `first` plays first."""
    countries = carddata.countries()
    other = OPPONENT[country]
    s = RULES.setup(Setup(GameSlug.COLD_WAR, (("P", country), ("Q", other)), 1), ())
    for name, deck in (("P", countries[country]), ("Q", countries[other])):
        science, military = by_type(deck, "science"), by_type(deck, "military")
        s = step(s, "setup", player=name, cards=science[:2] + military[:3] + by_type(deck, "assistant")[:1],
                 discard=science[2:5])
    return step(s, "start", first=first), countries[country], countries[other]


def tables(state: State) -> dict:
    return copy.deepcopy(state.fields["desks"])


# ---------------------------------------------------------------- the vocabulary and the referee

def test_every_applied_kind_has_a_referee_handler():
    applied = E.applied_kinds(VOCABULARY)
    assert applied and E.unhandled(applied) == []
    assert set(EFFECT_HANDLERS) == set(E.HANDLED), "effects.HANDLED and the handlers disagree"
    assert set(E.HANDLED) <= set(applied), "a handler for a kind effects.yaml no longer has"
    assert all(callable(h) for h in EFFECT_HANDLERS.values())


def test_a_kind_marked_applied_without_a_handler_is_caught(tmp_path):
    data = yaml.safe_load(VOCABULARY.read_text())
    data["kinds"]["teleport"] = {"phrase": "teleport", "applied": True}
    data["kinds"]["ponder"] = {"phrase": "ponder", "applied": False}
    path = tmp_path / "effects.yaml"
    path.write_text(yaml.safe_dump(data))
    assert E.unhandled(E.applied_kinds(path)) == ["teleport"]


def test_the_cards_carry_their_rules_as_effects_and_their_text_is_generated():
    for country, deck in carddata.countries().items():
        for cid, card in deck["cards"].items():
            kinds = [e["kind"] for e in card.get("effects") or ()]
            assert bool(card.get("shield")) == ("shield" in kinds), cid
            assert bool(card.get("triad")) == ("triad" in kinds), cid
            if card["type"] == "special":
                assert kinds and kinds[0] in E.ACTIONS and sum(k in E.ACTIONS for k in kinds) == 1, cid
                assert card["text"], cid
            elif card["type"] != "military":
                assert not kinds, cid
            if kinds:
                assert E.unhandled({k: True for k in kinds}) == [], cid


# ---------------------------------------------------------------- every rules card, played

def rules_cards() -> list[tuple[str, str]]:
    return [(country, cid) for country, deck in carddata.countries().items()
            for cid, card in deck["cards"].items() if card.get("effects")]


def test_the_walk_covers_every_special_and_triad_card():
    cards = rules_cards()
    assert len(cards) == 32  # 20 Specials and 12 Triad cards
    assert {c for _, c in cards} == {cid for deck in carddata.countries().values()
                                     for cid, card in deck["cards"].items()
                                     if card["type"] == "special" or card.get("triad")}


def play_card(country: str, cid: str) -> list[tuple[State, State, str]]:
    """Each moment the card's effects act: (before, after, what must have happened)."""
    out = []
    card = carddata.countries()[country]["cards"][cid]
    kinds = [e["kind"] for e in card["effects"]]
    for kind in kinds:
        if kind == "remove":
            s, own, _ = table(country, "P")
            spot = {"science": "S1", "military": "M1", "assistant": "A1"}[card["effects"][0]["what"]]
            out.append((s, step(s, "special", card=cid, target="Q", at=spot), "remove"))
        elif kind == "redeploy":
            s, own, _ = table(country, "P")
            out.append((s, step(s, "special", card=cid, target="Q", at="S1", **{"with": ["M1", "M2"]}),
                        "redeploy"))
        elif kind in ("block", "redirect"):
            s, own, theirs = table(country, "Q")
            attacker = by_type(theirs, "military")[3]
            args = {"block": cid} if kind == "block" else {"redirect": cid, "onto": "Q", "onto_at": "S1"}
            out.append((s, step(s, "attack", target="P", at="S1", cards=[attacker], **args), kind))
        elif kind == "shield":
            s, own, theirs = table(country, "Q")
            pair = [c for c, x in own["cards"].items() if x.get("shield")]
            out.append((s, step(s, "triad", target="P", cards=by_type(theirs, "military", triad=True),
                                shields=pair), "shield"))
        elif kind == "triad":
            s, own, _ = table(country, "P")
            out.append((s, step(s, "triad", target="Q", cards=by_type(own, "military", triad=True)), "triad"))
        else:  # a kind the referee cannot apply: it must be asked when the card is played
            s, own, _ = table(country, "P")
            out.append((s, step(s, "special", card=cid, target="Q"), "prompt"))
    return out


@pytest.mark.parametrize("country,cid", rules_cards(), ids=[c for _, c in rules_cards()])
def test_every_rules_card_played_leaves_a_trace(country, cid):
    for before, after, kind in play_card(country, cid):
        was, now = tables(before), tables(after)
        assert was != now or prompts.pending(after), (cid, kind, "no trace")
        if kind == "remove":
            zone = {"science": "science", "military": "military", "assistant": "assistants"}[
                after.fields["decks"]["P"]["cards"][cid]["effects"][0]["what"]]
            assert len(now["Q"][zone]) == len(was["Q"][zone]) - 1, cid
            assert cid in now["P"]["discard"]
        elif kind == "redeploy":
            assert len(now["P"]["military"]) == len(was["P"]["military"]) - 2
            assert len(now["Q"]["science"]) == len(was["Q"]["science"]) - 1  # 2 attacks beat one card
        elif kind == "block":
            assert now["P"]["science"] == was["P"]["science"] and cid in now["P"]["discard"]
            assert "blocks" in " ".join(after.fields["report"])
        elif kind == "redirect":
            assert now["P"]["science"] == was["P"]["science"] and cid in now["P"]["discard"]
            assert "the attack goes to Q" in " ".join(after.fields["report"])
        elif kind == "shield":
            assert cid in now["P"]["removed"] and now["P"]["science"] == was["P"]["science"]
        elif kind == "triad":
            assert cid in now["P"]["removed"] and now["Q"]["science"] == [] and now["Q"]["military"] == []
        else:
            assert prompts.pending(after), cid


# ---------------------------------------------------------------- what the referee cannot apply is asked

def with_effects(state: State, player: str, cid: str, effects: list[dict]) -> State:
    fields = copy.deepcopy(dict(state.fields))
    fields["decks"][player]["cards"][cid]["effects"] = effects
    return replace(state, fields=fields)


def test_an_effect_the_referee_cannot_apply_is_asked_when_the_card_is_played_and_play_waits():
    s, own, _ = table("westmark", "P")
    card = "cold-wm-defector-grant"
    s = with_effects(s, "P", card, [{"kind": "remove", "what": "science", "when": "your-turn"},
                                    {"kind": "prompt", "text": "Each opponent hums their anthem.",
                                     "when": "your-turn"}])
    after = step(s, "special", card=card, target="Q", at="S1")
    assert len(after.fields["desks"]["Q"]["science"]) == len(s.fields["desks"]["Q"]["science"]) - 1
    [asked] = prompts.pending(after)
    assert (asked.player, asked.card_id, asked.moment) == ("P", card, "played on their turn")
    assert asked.text == "Each opponent hums their anthem." and asked.enter == "referee resolve 1 done"
    with pytest.raises(RuleViolation, match="must wait"):
        RULES.check(after, Action("discard", {"cards": [by_type(own, "military")[3]]}, None))
    done = step(after, "resolve", prompt=1, answer="done")
    assert prompts.pending(done) == ()
    step(done, "discard", cards=[by_type(own, "military")[3]])


def test_a_special_with_only_prompts_is_played_and_asked():
    s, own, _ = table("westmark", "P")
    card = "cold-wm-rapid-deploy"
    s = with_effects(s, "P", card, [{"kind": "prompt", "text": "Swap hands with the player on your left.",
                                     "when": "your-turn"}])
    after = step(s, "special", card=card)
    assert card in after.fields["desks"]["P"]["discard"]
    assert [p.text for p in prompts.pending(after)] == ["Swap hands with the player on your left."]


def test_an_answer_is_asked_at_its_own_moment_and_a_blocked_special_asks_nothing():
    s, own, theirs = table("westmark", "Q")
    block = "cold-wm-orbital-umbrella"
    s = with_effects(s, "P", block, [{"kind": "block", "when": "when-targeted"}, {"kind": "shield"},
                                     {"kind": "prompt", "text": "Say 'duck and cover'.", "when": "when-targeted"}])
    after = step(s, "attack", target="P", at="S1", cards=[by_type(theirs, "military")[3]], block=block)
    [asked] = prompts.pending(after)
    assert (asked.player, asked.moment) == ("P", "played when targeted")
    # a Special that is blocked does not take effect, so its own prompt is not asked
    s, own, _ = table("westmark", "P")
    card = "cold-wm-defector-grant"
    s = with_effects(s, "P", card, [{"kind": "remove", "what": "science", "when": "your-turn"},
                                    {"kind": "prompt", "text": "Gloat.", "when": "your-turn"}])
    after = step(s, "special", card=card, target="Q", at="S1", block="cold-vk-missile-ring")
    assert prompts.pending(after) == ()


def test_redeploy_takes_at_most_the_cards_its_effect_names():
    s, own, _ = table("westmark", "P")
    card = "cold-wm-rapid-deploy"
    one = with_effects(s, "P", card, [{"kind": "redeploy", "most": 1, "when": "your-turn"}])
    with pytest.raises(RuleViolation, match="sends 1 of P's own"):
        step(one, "special", card=card, target="Q", at="S1", **{"with": ["M1", "M2"]})
    step(one, "special", card=card, target="Q", at="S1", **{"with": ["M1"]})


def test_a_prompt_at_the_table_through_the_command_line(table, monkeypatch):
    """With a card whose effect the referee cannot apply, the command's echo and
    status show the prompt, play waits, and `resolve` answers it; the echo of a
    face-down placement still names no card."""
    real = carddata.stats_of

    def with_prompt(info):
        out = real(info)
        if out["id"] == "cold-wm-defector-grant":
            out["effects"] = [*out["effects"], {"kind": "prompt", "text": "Read the defector's letter aloud.",
                                                "when": "your-turn"}]
        return out

    monkeypatch.setattr(carddata, "stats_of", with_prompt)
    table.run("new cold-war --player Ann:westmark --player Bo:vostokia --seed 2")
    table.run("setup Ann cold-wm-rock-radio cold-wm-kitchen cold-wm-cavalry cold-wm-marines cold-wm-radar-line "
              "cold-wm-joint-brass --discard cold-wm-dream-studios --discard cold-wm-big-brain "
              "--discard cold-wm-space-agency")
    table.run("setup Bo cold-vk-orbit-dog cold-vk-state-ballet cold-vk-fortress-line cold-vk-air-defence "
              "cold-vk-motor-rifles cold-vk-marshal --discard cold-vk-chess-academy --discard cold-vk-five-year-plan "
              "--discard cold-vk-metro-palace")
    table.run("start")
    out = table.run("special cold-wm-defector-grant Bo --at S1").output
    assert "Bo discards" in out
    assert ("waiting for Ann: Scholarships for Defectors (played on their turn): Read the defector's letter aloud. "
            "Enter: referee resolve 1 done") in out
    assert table.status()["prompts"][0]["card_id"] == "cold-wm-defector-grant"
    assert table.status(reveal=[])["prompts"][0]["text"] == "Read the defector's letter aloud."
    assert "waiting for Ann: Scholarships for Defectors" in table.run("status").output
    refused = table.fail("place cold-wm-supercarrier")
    assert "must wait" in refused.output and "rule: card text" in refused.output
    assert "prompt 1 (Scholarships for Defectors) answered" in table.run("resolve 1 done").output
    assert "waiting" not in table.run("status").output
    placed = table.run("place cold-wm-supercarrier").output
    assert "supercarrier" not in placed.lower() and "face down" in placed


def test_the_match_report_puts_a_redirected_attack_where_it_landed(table):
    """Issue 25: the report named the player the attack was aimed at. Bo's
    200 aimed at Ann's S1 is sent by Ann to Cy's S2 (150), which falls."""
    from referee.report import build

    table.run("new cold-war --player Ann:westmark --player Bo:vostokia --player Cy:albion --seed 8")
    table.run("setup Ann cold-wm-rock-radio cold-wm-kitchen cold-wm-cavalry cold-wm-marines cold-wm-radar-line "
              "cold-wm-joint-brass --discard cold-wm-dream-studios --discard cold-wm-big-brain "
              "--discard cold-wm-space-agency")
    table.run("setup Bo cold-vk-orbit-dog cold-vk-state-ballet cold-vk-chess-academy cold-vk-fortress-line "
              "cold-vk-air-defence cold-vk-marshal --discard cold-vk-five-year-plan --discard cold-vk-metro-palace "
              "--discard cold-vk-ideologist")
    table.run("setup Cy cold-al-codebreakers cold-al-broadcaster cold-al-beat-groups cold-al-home-fleet "
              "cold-al-commandos cold-al-foreign-sec --discard cold-al-old-colleges --discard cold-al-jet-airliner "
              "--discard cold-al-chief-whip")
    table.run("start --first Bo")
    table.run("attack Ann S1 cold-vk-tank-column --redirect cold-wm-proxy-war --onto Cy:S2")
    (fight,) = build(table.db).fights
    assert (fight.attacker, fight.defender, fight.won) == ("Bo", "Cy", True)
    assert fight.what == "Bo attacks Cy's S2 with 200 against defence 150 (aimed at Ann's S1; Ann redirected it)"
