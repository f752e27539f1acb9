"""Every kind of bad input gets one readable line naming file, line and card."""
from pathlib import Path

import pytest

from pnp.pipeline.options import BuildOptions
from pnp.pipeline.orchestrator import build
from pnp.pipeline.prepare import validate
from pnp.errors import ValidationFailed

DECK = "card_sources/culture-war/anarchy.yaml"


def edit(project: Path, rel: str, old: str, new: str) -> None:
    path = project / rel
    text = path.read_text()
    assert old in text, f"fixture text {old!r} not found in {rel}"
    path.write_text(text.replace(old, new, 1))


def problems(project: Path) -> list[str]:
    with pytest.raises(ValidationFailed) as info:
        validate(project, None)
    return str(info.value).splitlines()


def line_of(project: Path, rel: str, needle: str) -> int:
    for i, line in enumerate((project / rel).read_text().splitlines(), 1):
        if needle in line:
            return i
    raise AssertionError(needle)


def test_the_fixture_is_valid(mini_project):
    sources = validate(mini_project, None)
    assert len(sources.games["culture-war"].cards) == 4


def test_yaml_syntax_error_names_file_and_line(mini_project):
    edit(mini_project, DECK, "    atk: 2\n", "    atk: [2\n")
    lines = problems(mini_project)
    assert len(lines) == 1
    assert lines[0].startswith(f"{DECK}:")
    assert "YAML syntax error" in lines[0]


def test_unknown_field(mini_project):
    edit(mini_project, DECK, "    atk: 2\n", "    atk: 2\n    attack_power: 3\n")
    (line,) = problems(mini_project)
    assert line.startswith(f"{DECK}:{line_of(mini_project, DECK, 'attack_power')}: test-brawler: ")
    assert "unknown field 'attack_power'" in line


def test_missing_field(mini_project):
    edit(mini_project, DECK, "    def: 1\n", "")
    (line,) = problems(mini_project)
    assert "test-brawler" in line and "missing field 'def'" in line


def test_wrong_type(mini_project):
    edit(mini_project, DECK, "    atk: 2\n", "    atk: lots\n")
    (line,) = problems(mini_project)
    assert f":{line_of(mini_project, DECK, 'atk: lots')}: test-brawler: atk must be a whole number" in line


def test_duplicate_id_names_both_places(mini_project):
    edit(mini_project, DECK, "id: test-squat", "id: test-brawler")
    (line,) = problems(mini_project)
    assert "duplicate id 'test-brawler'" in line
    assert f"first used at {DECK}:" in line


def test_unknown_icon_token(mini_project):
    edit(mini_project, DECK, "+1 {atk}", "+1 {atack}")
    (line,) = problems(mini_project)
    assert "test-brawler" in line and "unknown icon token {atack}" in line


def test_unknown_template_variable_names_template_line(mini_project):
    tpl = "templates/culture-war/unit.xml.j2"
    edit(mini_project, tpl, "{{ card.atk }}", "{{ card.atk_bonus }}")
    lines = problems(mini_project)
    expected = line_of(mini_project, tpl, "card.atk_bonus")
    assert lines and all(l.startswith(f"{tpl}:{expected}: ") for l in lines), lines
    assert any("test-brawler" in l for l in lines)
    assert "atk_bonus" in lines[0]


def test_text_that_does_not_fit(mini_project):
    long_text = "This rule goes on and on. " * 30
    edit(mini_project, DECK, '"Hits hard: +1 {atk} when attacking."', f'"{long_text}"')
    (line,) = problems(mini_project)
    assert line.startswith(f"{DECK}:{line_of(mini_project, DECK, 'This rule goes on')}: test-brawler: text:")
    assert "does not fit" in line and "6 pt" in line


def test_every_problem_in_one_run(mini_project):
    edit(mini_project, DECK, "    atk: 2\n", "    atk: lots\n")
    edit(mini_project, DECK, "+1 {atk}", "+1 {nope}")
    edit(mini_project, DECK, "id: test-squat", "id: test-recruit")
    assert len(problems(mini_project)) == 3


def test_bad_effect_is_reported(mini_project):
    edit(mini_project, DECK, "{stat: def, amount: 2, target: attached}", "{stat: defense, amount: 2, target: attached}")
    (line,) = problems(mini_project)
    assert "test-shield" in line and "stat must be one of" in line


@pytest.mark.pdf
def test_failed_build_writes_nothing_and_keeps_old_output(mini_project, tmp_path):
    out = tmp_path / "out"
    build(mini_project, None, out, BuildOptions())
    pdf = out / "culture-war" / "deck-anarchy.pdf"
    before = pdf.read_bytes()
    edit(mini_project, DECK, "    atk: 2\n", "    atk: lots\n")
    edit(mini_project, DECK, "name: Test Squat", "name: Test Squat Renamed")
    with pytest.raises(ValidationFailed):
        build(mini_project, None, out, BuildOptions())
    assert pdf.read_bytes() == before
    assert sorted(p.name for p in (out / "culture-war").iterdir() if not p.name.startswith(".")) == ["deck-anarchy.pdf", "manifest.json"]


RULES = """composition:
  - rule: Each faction deck has at least 40 cards
    min: 40
  - rule: Each deck has at least 1 Hero unit
    where: {type: unit, traits: hero}
    min: 1
decks:
"""


def test_broken_composition_rule_names_rule_deck_and_count(mini_project):
    edit(mini_project, "card_sources/culture-war/game.yaml", "decks:\n", RULES)
    lines = problems(mini_project)  # the mini deck has 5 copies and one hero
    assert len(lines) == 1, lines
    hit = [l for l in lines if "at least 40 cards" in l]
    assert hit, lines
    assert hit[0].startswith("card_sources/culture-war/game.yaml:")
    assert "deck anarchy" in hit[0] and "has 5" in hit[0]


def test_composition_rule_typo_is_reported(mini_project):
    edit(mini_project, "card_sources/culture-war/game.yaml", "decks:\n", RULES.replace("    min: 40", "    minimum: 40"))
    assert any("unknown key 'minimum'" in l for l in problems(mini_project))
