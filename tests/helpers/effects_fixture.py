"""A throw-away effect vocabulary and deck for the effects machinery tests
(written into the `mini_project` copy of the culture-war game)."""
from pathlib import Path

GAME_DIR = "card_sources/culture-war"
DECK = f"{GAME_DIR}/anarchy.yaml"
EFFECTS = f"{GAME_DIR}/effects.yaml"

VOCABULARY = """\
triggers:
  on-play: "When you play this, "
  end-of-turn: "At the end of your turn, "
  on-kill: "When this kills a unit, "
  while-in-play: ""
kinds:
  gain:
    params: {what: [life, capital], amount: "int>=1", who: "[owner, each-opponent]?"}
    phrase: "{% if who == 'each-opponent' %}each opponent gains{% else %}gain{% endif %} {{ amount }} {{ '{' ~ what ~ '}' }}"
    applied: true
  lose:
    params: {what: [life, capital], amount: "int>=1", who: "[owner, each-opponent]?"}
    phrase: "{% if who == 'each-opponent' %}each opponent loses{% else %}lose{% endif %} {{ amount }} {{ '{' ~ what ~ '}' }}"
    applied: true
  stat:
    params: {stat: [atk, def], amount: int}
    phrase: "this gets {{ amount | signed }} {{ '{' ~ stat ~ '}' }}"
    applied: true
  destroy-self:
    phrase: "destroy this"
    applied: true
  roll:
    params: {outcomes: outcomes}
    phrase: "roll {dice}: {{ outcome_text(outcomes) }}"
    applied: true
  choose:
    params: {options: effects}
    phrase: "choose one: {{ phrase(options) }}"
    applied: true
  keyword:
    params: {word: str, reminder: str}
    phrase: "**{{ word }}**: {{ reminder }}."
    applied: true
  prompt:
    params: {text: str}
    phrase: "{{ text }}"
    applied: false
"""

DECK_TEXT = """\
cards:
  - id: fx-recruit
    name: Fx Recruit
    type: unit
    cost: 1
    atk: 0
    def: 0
    unit_type: Recruit
    traits: [base]
  - id: fx-diver
    name: Fx Diver
    type: unit
    cost: 1
    atk: 1
    def: 1
    unit_type: Citizen
    effects:
      - {kind: gain, what: capital, amount: 1, when: on-play}
      - {kind: lose, what: life, amount: 1, who: each-opponent, when: on-play}
  - id: fx-smasher
    name: Fx Smasher
    type: unit
    cost: 1
    atk: 2
    def: 0
    unit_type: Criminal
    effects:
      - kind: roll
        when: end-of-turn
        outcomes:
          1: [{kind: destroy-self}, {kind: lose, what: life, amount: 1}]
          "5-6": [{kind: gain, what: capital, amount: 2}]
  - id: fx-oracle
    name: Fx Oracle
    type: unit
    cost: 2
    atk: 1
    def: 2
    unit_type: Mystic
    effects:
      - {kind: stat, stat: atk, amount: 1}
      - {kind: prompt, text: "look at the top card of any deck and put it back.", when: on-play}
  - id: fx-squat
    name: Fx Squat
    type: real-estate
    production: 1
    effects:
      - {kind: keyword, word: Shelter, reminder: "units here cannot be attacked"}
      - {kind: gain, what: life, amount: 1, when: on-play}
"""


def write_effects_project(project: Path) -> Path:
    (project / EFFECTS).write_text(VOCABULARY)
    (project / DECK).write_text(DECK_TEXT)
    return project


def edit(project: Path, rel: str, old: str, new: str) -> None:
    path = project / rel
    text = path.read_text()
    assert old in text, f"fixture text {old!r} not found in {rel}"
    path.write_text(text.replace(old, new, 1))


def line_of(project: Path, rel: str, needle: str) -> int:
    for i, line in enumerate((project / rel).read_text().splitlines(), 1):
        if needle in line:
            return i
    raise AssertionError(needle)
