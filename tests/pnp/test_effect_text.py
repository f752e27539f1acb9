"""Card rules text generated from effects (card_sources/<game>/effects.yaml):
phrases, sentence joining, nested roll outcomes, every validation error
with file:line: card-id, and coverage."""
from pathlib import Path

import pytest

from helpers.effects_fixture import DECK, EFFECTS, edit, line_of, write_effects_project
from pnp.pipeline.options import BuildOptions
from pnp.pipeline.orchestrator import build
from pnp.pipeline.prepare import validate
from pnp.errors import Problems, ValidationFailed
from pnp.model import Coverage
from pnp.sources.effectcheck import load_vocabulary
from pnp.sources.effecttext import capitalise, face_words, is_sentence, join_and
from pnp.sources.loader import load_sources


@pytest.fixture
def fx_project(mini_project: Path) -> Path:
    return write_effects_project(mini_project)


def cards(project: Path):
    return load_sources(project).cards


def problems(project: Path) -> list[str]:
    with pytest.raises(ValidationFailed) as info:
        validate(project, None)
    return str(info.value).splitlines()


# ---------------------------------------------------------------- rendering

def test_same_trigger_joins_into_one_sentence(fx_project):
    assert cards(fx_project)["fx-diver"].text == "When you play this, gain 1 {capital} and each opponent loses 1 {life}."


def test_nested_roll_outcomes_render_recursively(fx_project):
    assert cards(fx_project)["fx-smasher"].text == (
        "At the end of your turn, roll {dice}: on a 1, destroy this and lose 1 {life}; on a 5 or 6, gain 2 {capital}.")


def test_different_triggers_make_separate_sentences(fx_project):
    assert cards(fx_project)["fx-oracle"].text == (
        "This gets +1 {atk}. When you play this, look at the top card of any deck and put it back.")


def test_a_keyword_phrase_is_its_own_sentence_without_a_second_stop(fx_project):
    assert cards(fx_project)["fx-squat"].text == "**Shelter**: units here cannot be attacked. When you play this, gain 1 {life}."


def test_a_card_without_effects_has_no_text(fx_project):
    assert cards(fx_project)["fx-recruit"].text == ""


def test_three_phrases_and_a_nested_list_through_phrase(fx_project):
    edit(fx_project, DECK, "      - {kind: gain, what: capital, amount: 1, when: on-play}\n",
         "      - {kind: gain, what: capital, amount: 1, when: on-play}\n"
         "      - {kind: choose, when: on-play, options: [{kind: gain, what: life, amount: 2},"
         " {kind: lose, what: capital, amount: 1}, {kind: destroy-self}]}\n")
    assert cards(fx_project)["fx-diver"].text == (
        "When you play this, gain 1 {capital}, choose one: gain 2 {life}, lose 1 {capital} and destroy this"
        " and each opponent loses 1 {life}.")


def test_editing_a_phrase_changes_the_text_and_the_revision(fx_project):
    before = cards(fx_project)["fx-diver"]
    edit(fx_project, EFFECTS, '{% else %}gain{% endif %}', '{% else %}collect{% endif %}')
    after = cards(fx_project)["fx-diver"]
    assert after.text == "When you play this, collect 1 {capital} and each opponent loses 1 {life}."
    assert after.revision != before.revision


def test_the_index_fields_carry_the_text_and_the_effects(fx_project):
    card = cards(fx_project)["fx-smasher"]
    assert card.fields["text"] == card.text
    roll = card.fields["effects"][0]
    assert roll["kind"] == "roll" and set(roll["outcomes"]) == {"1", "5-6"}  # faces as text, even `1:`


@pytest.mark.parametrize("key, words", [("1", "1"), ("5-6", "5 or 6"), ("2-4", "2 to 4"), ("4+", "4 or more")])
def test_face_words(key, words):
    assert face_words(key) == words


def test_small_helpers():
    assert join_and(["a"]) == "a" and join_and(["a", "b"]) == "a and b" and join_and(["a", "b", "c"]) == "a, b and c"
    assert capitalise("**gain** it") == "**Gain** it" and capitalise("{atk} up") == "{atk} up"
    assert is_sentence("Draw.") and is_sentence("**Burnout**") and not is_sentence("gain 1")


# ---------------------------------------------------------------- coverage

def test_coverage_is_computed_from_the_effects(fx_project):
    got = {cid: c.coverage for cid, c in cards(fx_project).items()}
    assert got == {"fx-recruit": Coverage.NONE, "fx-diver": Coverage.FULL, "fx-smasher": Coverage.FULL,
                   "fx-oracle": Coverage.PROMPT, "fx-squat": Coverage.FULL}


def test_a_prompt_nested_in_an_outcome_makes_the_card_prompt(fx_project):
    edit(fx_project, DECK, '"5-6": [{kind: gain, what: capital, amount: 2}]',
         '"5-6": [{kind: prompt, text: "steal a card of your choice"}]')
    card = cards(fx_project)["fx-smasher"]
    assert card.coverage is Coverage.PROMPT
    assert card.text.endswith("on a 5 or 6, steal a card of your choice.")


def test_a_game_without_effects_yaml_is_unchecked_where_it_has_text(mini_project):
    got = {cid: c.coverage for cid, c in cards(mini_project).items()}
    assert got["test-recruit"] is Coverage.NONE
    assert got["test-brawler"] is Coverage.UNCHECKED and got["test-squat"] is Coverage.UNCHECKED


# ---------------------------------------------------------------- validation

def test_each_mistake_is_one_line_with_file_line_and_card_all_in_one_run(fx_project, tmp_path):
    edit(fx_project, DECK, "{kind: gain, what: capital, amount: 1, when: on-play}",
         "{kind: gian, what: capital, amount: 1, when: on-play}")
    edit(fx_project, DECK, "{kind: lose, what: life, amount: 1, who: each-opponent, when: on-play}",
         "{kind: lose, what: life, who: each-opponent, when: on-pay, colour: red}")
    edit(fx_project, DECK, '"5-6": [{kind: gain, what: capital, amount: 2}]',
         '"5-6": [{kind: gain, what: capital, amount: two}]')
    edit(fx_project, DECK, "    production: 1\n", "    production: 1\n    text: \"Gain 1 {life}.\"\n")
    lines = problems(fx_project)
    squat = line_of(fx_project, DECK, 'text: "Gain 1')
    diver, diver2 = line_of(fx_project, DECK, "kind: gian"), line_of(fx_project, DECK, "kind: lose, what: life, who")
    expected = [
        f"{DECK}:{diver}: fx-diver: effect 1 has unknown kind 'gian' (did you mean gain?)",
        f"{DECK}:{diver2}: fx-diver: effect 2 (lose): missing param 'amount' (a whole number >= 1)",
        f"{DECK}:{diver2}: fx-diver: effect 2 (lose): unknown param 'colour' (lose takes: what, amount, who)",
        f"{DECK}:{diver2}: fx-diver: effect 2 (lose): unknown trigger 'on-pay' (triggers: on-play, end-of-turn, on-kill, while-in-play)",
        f"{DECK}:{line_of(fx_project, DECK, 'amount: two')}: fx-smasher: effect 1 (roll) outcomes on 5-6: "
        "effect 1 (gain): amount must be a whole number >= 1, got 'two'",
        f"{DECK}:{squat}: fx-squat: hand-written text in a game with effects.yaml: "
        "the text is printed from `effects` (write each rule as an effect; what needs a person's judgement is kind prompt)"
        "; its effects print: '**Shelter**: units here cannot be attacked. When you play this, gain 1 {life}.'",
    ]
    assert sorted(lines) == sorted(expected)
    with pytest.raises(ValidationFailed):
        build(fx_project, None, tmp_path / "out", BuildOptions())
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.pdf"))


def test_an_unknown_variable_in_a_phrase_names_effects_yaml_its_line_and_kind(fx_project):
    edit(fx_project, EFFECTS, 'phrase: "destroy this"', 'phrase: "destroy {{ thing }}"')
    (line,) = problems(fx_project)
    assert line == (f"{EFFECTS}:{line_of(fx_project, EFFECTS, 'destroy {{ thing }}')}: -: "
                    "kind 'destroy-self': phrase uses unknown variable thing (its params: none)")


def test_a_phrase_that_fails_at_render_names_the_card_and_the_kind(fx_project):
    edit(fx_project, EFFECTS, "phrase: \"this gets {{ amount | signed }}", "phrase: \"this gets {{ amount ~ 1 / 0 }}")
    (line,) = problems(fx_project)
    effects_line = line_of(fx_project, DECK, "{kind: stat, stat: atk") - 1  # fx-oracle's `effects:`
    assert line.startswith(f"{DECK}:{effects_line}: fx-oracle: ")
    assert "ZeroDivisionError" in line and "kind 'stat'" in line and f"effects.yaml:{line_of(fx_project, EFFECTS, 'this gets')}" in line


def test_mistakes_in_effects_yaml_itself(fx_project):
    edit(fx_project, EFFECTS, "    applied: false\n", "    applied: maybe\n")
    edit(fx_project, EFFECTS, "  stat:\n    params: {stat: [atk, def], amount: int}",
         "  stat:\n    params: {stat: [atk, def], amount: integer, when: str}")
    lines = problems(fx_project)
    assert any(l.startswith(f"{EFFECTS}:") and "kind 'prompt' needs applied: true" in l for l in lines)
    assert any("kind 'stat' param 'amount': unknown field type 'integer'" in l for l in lines)
    assert any("kind 'stat': 'when' is reserved" in l for l in lines)
    assert all(l.startswith(f"{EFFECTS}:") for l in lines)  # cards using a broken kind add no noise


def test_the_vocabulary_alone_compiles_each_phrase_once(fx_project):
    p = Problems(fx_project)
    vocabulary = load_vocabulary(fx_project / EFFECTS, p)
    assert not p and set(vocabulary.templates) == set(vocabulary.kinds)
    assert vocabulary.text([{"kind": "gain", "what": "life", "amount": 3, "when": "on-kill"},
                            {"kind": "destroy-self", "when": "on-kill"}]) == "When this kills a unit, gain 3 {life} and destroy this."


def test_an_empty_effects_field_is_no_effects(fx_project):
    edit(fx_project, DECK, "    traits: [base]\n", "    traits: [base]\n    effects:\n")
    card = cards(fx_project)["fx-recruit"]
    assert card.text == "" and card.coverage is Coverage.NONE and card.fields["effects"] == []


def test_phrases_are_compiled_once_per_game_per_read_not_per_card(fx_project, monkeypatch):
    from jinja2.sandbox import SandboxedEnvironment

    compiled = []
    original = SandboxedEnvironment.compile

    def counting(self, source, *args, **kw):
        compiled.append(source)
        return original(self, source, *args, **kw)

    monkeypatch.setattr(SandboxedEnvironment, "compile", counting)
    sources = load_sources(fx_project)
    assert sum(1 for c in sources.cards.values() if c.text) == 4
    assert len(compiled) == 8  # the eight kinds of the fixture vocabulary, each once
