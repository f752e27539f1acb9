"""The debate game's card content: it validates, its composition rules bite,
and the numbers the issue and the rulebook ask for hold in the card data."""
from __future__ import annotations

import datetime
import math
import shutil
from collections import defaultdict
from pathlib import Path

import pytest

from pnp.pipeline.prepare import validate
from pnp.errors import ValidationFailed

ROOT = Path(__file__).resolve().parents[2]
GAME = "debate"
GAME_FILE = f"card_sources/{GAME}/game.yaml"


@pytest.fixture(scope="module")
def game(checkout):
    return validate(checkout, [GAME]).games[GAME]


def cards_of(game, ctype):
    return [c for c in game.cards if c.type == ctype]


def has_ability(card) -> bool:
    return bool(card.fields.get("effects"))


def kinds(card) -> set[str]:
    return {e["kind"] for e in card.fields.get("effects") or ()}


def round_half_away(x: float) -> int:
    """The project's rounding: halves go away from zero (8.5 -> 9)."""
    return int(math.copysign(math.floor(abs(x) + 0.5), x))


def crowd_strength(card, crowd: int) -> int:
    """An argument's strength after the crowd (-N: Irrational Mob, +N: Enlightened Citizen)."""
    sign = 1 if card.fields["alignment"] == "gf" else -1
    return round_half_away(card.fields["strength"] * (1 + sign * crowd / 100))


# ------------------------------------------------------------------ (a)

def test_the_real_sources_validate(game):
    decks = {d.id: d for d in game.decks}
    assert {"potus", "arguments", "devices"} <= set(decks)  # plus tokens and the quick reference
    assert decks["potus"].copies >= 8
    assert len(decks["arguments"].cards) >= 30
    assert len(decks["devices"].cards) >= 12


# ------------------------------------------------------------------ (b)

@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the project holding only the debate game."""
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    shutil.copytree(ROOT / "card_sources" / GAME, tmp_path / "card_sources" / GAME)
    return tmp_path


def edit(project: Path, name: str, old: str, new: str, count: int = 1) -> None:
    path = project / "card_sources" / GAME / name
    text = path.read_text()
    assert text.count(old) >= count, f"{old!r} not found {count} times in {name}"
    path.write_text(text.replace(old, new, count))


def broken_rules(project: Path) -> list[str]:
    with pytest.raises(ValidationFailed) as info:
        validate(project, [GAME])
    return str(info.value).splitlines()


def test_the_copy_is_valid(project):
    validate(project, [GAME])


BREAKS = [
    ("Starter deck A has exactly 15 tactics",
     "arguments.yaml", "    starter: [a]\n    flavor: \"Calm, reasonable", "    flavor: \"Calm, reasonable", 1),
    ("Starter deck B has exactly 15 tactics",
     "devices.yaml", "starter: [a, b]", "starter: [a]", 1),
    ("The rulebook's 2-star Shouting Match is there",
     "arguments.yaml", "    stars: 2\n    strength: 9\n    cost: 5\n", "    stars: 2\n    strength: 10\n    cost: 5\n", 1),
    ("The POTUS deck has at least 4 Democratic presidents",
     "potus.yaml", "party: democratic", "party: republican", 3),
    ("At least one rhetorical device destroys a tactic",
     "devices.yaml", "      - {kind: destroy,", "      # - {kind: destroy,", 2),
    ("At least one rhetorical device returns a card from the discard pile",
     "devices.yaml", "      - {kind: take-back,", "      # - {kind: take-back,", 1),
    ("At least one rhetorical device shifts the crowd",
     "devices.yaml", "      - {kind: crowd,", "      # - {kind: crowd,", 5),
]


@pytest.mark.parametrize("rule, deck_file, old, new, count", BREAKS, ids=[b[0][:40] for b in BREAKS])
def test_breaking_a_composition_rule_names_it(project, rule, deck_file, old, new, count):
    edit(project, deck_file, old, new, count)
    lines = [line for line in broken_rules(project) if "composition rule broken" in line]
    assert lines, "no composition rule was reported"
    assert any(rule in line and line.startswith(GAME_FILE + ":") for line in lines), lines


def test_too_few_arguments_is_reported(project):
    path = project / "card_sources" / GAME / "arguments.yaml"
    text = path.read_text()
    cut = text.index("  - id: deb-cite-the-source-1")
    path.write_text(text[:cut])
    lines = broken_rules(project)
    assert any("The arguments deck has at least 30 arguments" in line and "has 27" in line for line in lines), lines


# ------------------------------------------------------------------ (c)

def test_potus_cards_are_late_presidents_balanced_by_party(game):
    presidents = cards_of(game, "potus")
    assert len(presidents) >= 8
    this_year = datetime.date.today().year
    by_party = defaultdict(list)
    for p in presidents:
        f = p.fields
        end = int(f["term"].split("–")[-1])
        assert end <= f["died"] <= this_year, p.id
        assert 1 <= f["number"] <= 46
        by_party[f["party"]].append(p)
    assert len({p.fields["number"] for p in presidents}) == len(presidents)
    assert set(by_party) == {"democratic", "republican"}
    dem, rep = by_party["democratic"], by_party["republican"]
    assert len(dem) == len(rep)
    total = lambda ps: sum(p.fields["gf_bonus"] + p.fields["bf_bonus"] for p in ps)
    assert total(dem) == total(rep)
    # the rulebook's examples: a 1/1 Truman and a 0/1 Bush
    truman = next(p for p in presidents if "Truman" in p.name)
    bush = next(p for p in presidents if "Bush" in p.name)
    assert (truman.fields["gf_bonus"], truman.fields["bf_bonus"]) == (1, 1)
    assert (bush.fields["gf_bonus"], bush.fields["bf_bonus"]) == (0, 1)


def test_every_potus_has_a_machine_readable_ability(game):
    for p in cards_of(game, "potus"):
        assert p.fields["ability"] and p.text, p.id
        assert has_ability(p), p.id


def test_arguments_star_levels_raise_the_stats(game):
    args = cards_of(game, "argument")
    assert len(args) >= 30
    families = defaultdict(list)
    for a in args:
        families[a.name].append(a)
    for name, members in families.items():
        members.sort(key=lambda c: c.fields["stars"])
        stars = [c.fields["stars"] for c in members]
        assert stars == list(range(1, len(members) + 1)), name
        assert len({c.fields["alignment"] for c in members}) == 1, name
        for lower, higher in zip(members, members[1:]):
            lo, hi = lower.fields, higher.fields
            assert hi["strength"] > lo["strength"], (name, hi["stars"])
            assert hi["cost"] >= lo["cost"], (name, hi["stars"])
            assert [e["kind"] for e in hi["effects"]] == [e["kind"] for e in lo["effects"]], name
            for low, high in zip(lo["effects"], hi["effects"]):  # never a weaker ability
                for key in ("amount", "count"):
                    assert abs(high.get(key) or 0) >= abs(low.get(key) or 0), (name, key)
    alignments = [a.fields["alignment"] for a in args]
    assert alignments.count("gf") == alignments.count("bf")


def test_the_rulebook_examples_come_out_of_the_card_data(game):
    args = {(a.name, a.fields["stars"]): a for a in cards_of(game, "argument")}
    shouting2 = args[("Shouting Match", 2)]
    socratic2 = args[("Socratic Questioning", 2)]
    shouting1 = args[("Shouting Match", 1)]
    assert (shouting2.fields["alignment"], shouting2.fields["strength"], shouting2.fields["cost"]) == ("bf", 9, 5)
    assert (socratic2.fields["alignment"], socratic2.fields["strength"], socratic2.fields["cost"]) == ("gf", 9, 6)
    assert (shouting1.fields["strength"], shouting1.fields["cost"]) == (8, 5)
    # at +10% Enlightened Citizen: 9 x 0.9 = 8.1 -> 8 and 9 x 1.1 = 9.9 -> 10
    assert crowd_strength(shouting2, 10) == 8
    assert crowd_strength(socratic2, 10) == 10
    assert round_half_away(8.5) == 9 and round_half_away(-8.5) == -9


def test_rhetorical_devices_cover_the_abilities_asked_for(game):
    rds = cards_of(game, "rhetorical-device")
    assert len(rds) >= 12
    assert all(has_ability(r) for r in rds)
    assert any("crowd" in kinds(r) for r in rds)
    assert any("destroy" in kinds(r) for r in rds)
    assert any("take-back" in kinds(r) for r in rds)


PLAYING = ("potus", "argument", "rhetorical-device")


def test_ability_data_is_consistent(game):
    for c in (c for c in game.cards if c.type in PLAYING):
        f = c.fields
        assert bool(c.text) == has_ability(c), c.id
        whens = {e.get("when", "while-in-play") for e in f["effects"] or ()}
        assert len(whens) <= 1, c.id  # one moment per card
        if c.type == "potus":
            assert has_ability(c), c.id
            assert (f["uses"] == "passive") == (whens == {"while-in-play"}), c.id
            assert whens <= {"while-in-play", "ability"}, c.id
        else:
            assert whens <= {"on-play", "round-end"}, c.id


def test_two_starter_decks_of_15_tactics(game):
    notes = game.extra["notes"]
    tactics = {c.id: c for c in game.cards if c.type in PLAYING and c.type != "potus"}
    for deck in ("a", "b"):
        listed = notes[f"starter_{deck}"]
        marked = sorted(i for i, c in tactics.items() if deck in c.fields["starter"])
        assert len(listed) == len(set(listed)) == 15
        assert sorted(listed) == marked
        assert sum(tactics[i].type == "argument" for i in listed) >= 8
    for card in tactics.values():
        assert card.quantity >= len(card.fields["starter"]), card.id
    assert all(not c.fields.get("starter") for c in cards_of(game, "potus"))


def test_ids_carry_the_game_prefix(game):
    ids = [c.id for c in game.cards]
    assert len(ids) == len(set(ids))
    assert all(i.startswith("deb-") and len(i) <= 32 for i in ids)
