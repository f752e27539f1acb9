"""Hidden stays hidden, through every door: a non-interference property.

For each game with hidden cards (`has_hidden_cards`: Cold War and the
debate game), two tables are built equal in everything public and
different in their hidden cards: other face-down cards and Propaganda, in
other spots, other deck lists. Random command lines (accepted and refused
alike) then run on both, and every output a player reads must be
byte-identical (tests/helpers/twins.py says what is compared and where the
game itself may turn a card over). Divide & Conquer keeps no hidden card:
its hands are counts typed by the table (`hand`), the same for everyone.
"""
from __future__ import annotations

import random

import pytest

from helpers.twins import NAMES, REVEALS, TIME, Twins
from referee.rules import rules_for
from referee.model import GameSlug
from referee.games.cold_war import cards as carddata


@pytest.fixture(autouse=True)
def _clock(monkeypatch):
    """Both twins write the same times, so their logs can be compared byte for byte."""
    import referee.table.ledger

    monkeypatch.setattr(referee.table.ledger, "now", lambda: TIME)


def test_the_games_with_hidden_cards_are_the_ones_tested_here():
    hidden = {slug.value for slug in GameSlug if rules_for(slug).has_hidden_cards}
    assert hidden == {"cold-war", "debate"}


# ---- Cold War ------------------------------------------------------------------------

WM, VK = "cold-wm-", "cold-vk-"
# (face up, face down, propaganda, discards): the face-up cards and discards are the
# same on both twins; the face-down cards and the Propaganda are not
ANN = (["kitchen", "joint-brass"], ["vice-president", "snoop-director", "rapid-deploy"])
BO = (["orbit-dog", "marshal"], ["five-year-plan", "metro-palace", "ideologist"])
TWIN_DOWN = {
    "Ann": (["forward-base", "tank-battalion", "proxy-war"], ["big-brain"]),
    "Bo": (["fortress-line", "tank-column", "air-defence"], ["chess-academy"]),
}
OTHER_DOWN = {
    "Ann": (["cavalry", "marines", "backyard-shelter"], ["rock-radio"]),
    "Bo": (["motor-rifles", "paratroops", "interceptors"], ["state-ballet"]),
}
# the same number of face-down cards, but three Military and one Propaganda
FEWER_PROPAGANDA = {
    "Ann": (["cavalry", "marines", "radar-line"], ["rock-radio"]),
    "Bo": (["motor-rifles", "paratroops", "interceptors"], ["state-ballet"]),
}
COMMON = {  # in neither twin's setup: in the hand or the draw pile on both
    "Ann": ["liberty-silo", "deep-sub", "bomber-wing", "supercarrier", "fighter-wing", "airborne",
            "dream-studios", "space-agency", "orbital-umbrella", "defector-grant"],
    "Bo": ["heavy-icbm", "northern-sub", "polar-bomber", "rocket-artillery", "ocean-squadron",
           "tractor-deputy", "missile-ring", "deep-bunker", "sabotage-cell", "photographs",
           "fraternal-drill"],
}


def _prefix(player: str) -> str:
    return WM if player == "Ann" else VK


def _setup(player: str, down: dict, order: int = 0) -> str:
    up, discards = ANN if player == "Ann" else BO
    p = _prefix(player)
    placed, propaganda = down[player]
    cards = [up[0], *placed, up[1]]
    if order:
        cards = [up[0], *reversed(placed), up[1]]
    return (f"setup {player} " + " ".join(p + c for c in cards)
            + "".join(f" --propaganda {p}{c}" for c in propaganda)
            + "".join(f" --discard {p}{c}" for c in discards))


def _names() -> dict[str, str]:
    return {cid: stats["name"] for deck in carddata.countries().values() for cid, stats in deck["cards"].items()}


def _cold_secrets(downs: tuple[dict, dict]):
    names = _names()

    def secrets(twin: int) -> list[tuple[str, str]]:
        ids = [_prefix(pl) + c for pl, (placed, prop) in downs[twin].items() for c in placed + prop]
        return [(i, names[i]) for i in ids]

    return secrets


def _cold_twins(tmp_path, other: dict, order: int = 0) -> Twins:
    twins = Twins(tmp_path, _cold_secrets((TWIN_DOWN, other)))
    new = "new cold-war --player Ann:westmark --player Bo:vostokia --seed 3"
    echoes = twins.each([new, _setup("Ann", TWIN_DOWN), _setup("Bo", TWIN_DOWN)],
                        [new, _setup("Ann", other, order), _setup("Bo", other, order)])
    for a, b in echoes:
        assert a == b, f"the setups' echoes differ:\n--- a:\n{a}--- b:\n{b}"
    return twins


COLD_PARTS = ("attack", "challenge", "special", "fallen", "triad", "answer")  # may turn a face-down card over (an answer lands the attack)


def _cold_part(line: str) -> str | None:
    """Only a line the game itself turns a card over with may tell the twins
    apart. A line naming a card hidden on one twin (face down there, in the
    hand on the other) may not (issue 36): it is accepted, or refused in the
    same words, on both."""
    return REVEALS if line.split()[0] in COLD_PARTS else None


def _cold_line(rng: random.Random, mover: str) -> str:
    other = "Bo" if mover == "Ann" else "Ann"
    p = _prefix(mover)
    mine = [p + c for c in COMMON[mover]]
    hidden = [p + c for down in (TWIN_DOWN, OTHER_DOWN) for c in sum(down[mover], [])]
    spots = ["M1", "M2", "M3", "M4", "M1.1", "M5", "S1", "S2", "L", "A1"]
    pick = rng.random
    card = rng.choice(mine if pick() < 0.8 else hidden)
    who = rng.choice([mover, other])
    kinds = [
        lambda: f"place {card}" + (" --propaganda" if pick() < 0.3 else ""),
        lambda: f"discard {card}",
        lambda: f"card {rng.choice(mine + hidden)}",
        lambda: f"regroup {who} --stack {','.join(rng.sample(['M1', 'M2', 'M3', 'M4', 'S1'], 3))}",
        lambda: f"regroup {who} --break {rng.choice(spots)}",
        # a face-down card named by id: it lies face down on one twin and in the hand on the other
        lambda: f"regroup {mover} --stack {','.join(rng.sample(hidden + ['M1', 'M2', 'S1'], 3))}",
        lambda: f"special {card} {other} --at {rng.choice(spots)} --with {rng.choice(hidden)}",
        lambda: f"challenge {other} 1 --own {rng.choice(hidden)}",
        lambda: f"challenge {other} {rng.randint(1, 3)}" + "".join(
            f" --their {s}" for s in rng.sample(spots[:5], rng.randint(0, 2)))
        + "".join(f" --own {s}" for s in rng.sample(spots[:4], rng.randint(0, 2))),
        lambda: f"challenge {mover} 1",
        lambda: f"special {card} {other} --at {rng.choice(spots)}",
        lambda: f"attack {other} {rng.choice(spots)} {card}",
        lambda: "end-turn",
        lambda: f"answer none --by {other}",  # an attack waits for its target's answer (the answer window)
        lambda: "answer none",
        lambda: f"answer block {rng.choice([_prefix(other) + c for c in COMMON[other]])} --by {other}",
        lambda: f"place {rng.choice(hidden)}",  # a card face down on one twin, in the hand on the other
        lambda: "undo",
        lambda: "redo",
        lambda: "odds",
        lambda: "status",
    ]
    return rng.choice(kinds)()


def _cold_views(twins: Twins) -> None:
    ids = [_prefix(pl) + c for down in (TWIN_DOWN, OTHER_DOWN, FEWER_PROPAGANDA)
           for pl, parts in down.items() for c in sum(parts, [])]
    twins.same_views(["status", "status --json", "log", "log --json", "odds", "odds --json",
                      *[f"card {cid}" for cid in random.Random(len(twins.steps)).sample(sorted(set(ids)), 6)],
                      f"card {ids[0]} --json"])


def _run_cold(twins: Twins, seed: int, steps: int) -> int:
    rng = random.Random(seed)
    twins.step("start", _cold_part)
    mover = "Ann"
    for _ in range(steps):
        step = twins.step(_cold_line(rng, mover), _cold_part)
        if step.line in ("end-turn", "undo", "redo") and not any(step.refused) and not step.parted:
            mover = twins.tables[0].status()["active"]
    return len(twins.steps)


def test_cold_war_setups_read_the_same_whatever_is_face_down(tmp_path):
    twins = _cold_twins(tmp_path, OTHER_DOWN, order=1)
    _cold_views(twins)
    twins.same_page()


def test_cold_war_propaganda_count_is_not_told_by_any_door(tmp_path):
    twins = _cold_twins(tmp_path, FEWER_PROPAGANDA)
    twins.step("start", _cold_part)
    _cold_views(twins)


def _seeds(fast: int, total: int) -> list:
    """`fast` seeds in the fast layer, the rest marked slow (each is a few seconds)."""
    return [pytest.param(s, marks=() if s < fast else pytest.mark.slow) for s in range(total)]


@pytest.mark.parametrize("seed", _seeds(2, 8))
def test_cold_war_random_lines_read_the_same_on_both_twins(tmp_path, seed):
    twins = _cold_twins(tmp_path, OTHER_DOWN if seed % 2 else FEWER_PROPAGANDA, order=seed % 3 == 0)
    _run_cold(twins, seed, 30)
    _cold_views(twins)
    twins.same_export()
    if seed == 0:
        twins.same_page()


def test_cold_war_scan_mode_never_names_a_face_down_setup_card(tmp_path):
    """The same setup scanned card by card: other face-down cards, the same words."""
    twins = Twins(tmp_path, _cold_secrets((TWIN_DOWN, OTHER_DOWN)))
    twins.each(["new cold-war --player Ann:westmark --player Bo:vostokia --seed 3"])
    outs = []
    for i, down in enumerate((TWIN_DOWN, OTHER_DOWN)):
        placed, propaganda = down["Ann"]
        up, discards = ANN
        lines = ["setup Ann " + " ".join(f"--propaganda {WM}{c}" for c in propaganda)
                 + "".join(f" --discard {WM}{c}" for c in discards),
                 *[WM + c for c in [up[0], *placed, up[1]]], "done", "card " + WM + "supercarrier", "status"]
        result = twins.tables[i].run("scan", input="\n".join(lines) + "\n")
        outs.append(twins.norm(i, result.output))
        assert not twins.leaks(i, result.output), result.output
    assert outs[0] == outs[1], f"scan mode differs:\n--- a:\n{outs[0]}--- b:\n{outs[1]}"
    assert "Kitchen of Tomorrow" in outs[0]  # a face-up card is named (status names cards, not ids)
    assert outs[0].count("(a card)") >= 4


def test_cold_war_propaganda_spot_follows_neither_typing_nor_list():
    """Door: where the Propaganda sits among the M spots. The Military cards
    keep the order typed; where the Propaganda goes among them is drawn from
    the face-down cards themselves, so over many setups it lands on every spot."""
    from referee.games.cold_war.actions import face_down_order

    military, propaganda = ["m1", "m2", "m3"], ["p1"]
    first = face_down_order("Ann", 1, military, propaganda)
    assert sorted(first) == sorted(military + propaganda)
    assert [c for c in first if c in military] == military  # Military keep the order typed
    spots = set()
    for k in range(40):
        cards = [f"cold-wm-card-{k}-{j}" for j in range(4)]
        spots.add(face_down_order("Ann", 1, cards[:3], cards[3:]).index(cards[3]))
    assert spots == {0, 1, 2, 3}


# ---- the debate game -------------------------------------------------------------------

DECK_A = ["appeal-to-reason", "cheap-laugh", "cite-the-source-1", "common-ground-2", "measured-rebuttal-1",
          "measured-rebuttal-2", "point-of-order", "revisit-the-record", "shouting-match-2", "slippery-slope-1",
          "socratic-questioning-1", "socratic-questioning-3", "soothing-tone", "steelman-2", "talking-over-you-3"]
SWAP = {"cite-the-source-1": "cite-the-source-2", "slippery-slope-1": "slippery-slope-3", "cheap-laugh": "strawman"}
DECK_B = [SWAP.get(c, c) for c in DECK_A]
SHARED = [c for c in DECK_A if c in DECK_B]
BEN = ["appeal-to-fear", "common-ground-1", "loaded-question-1", "measured-rebuttal-3", "moving-the-goalposts",
       "rehearsed-line", "shouting-match-1", "shouting-match-3", "slippery-slope-2", "socratic-questioning-2",
       "steamroller-2", "talking-over-you-1", "talking-over-you-2", "whataboutism", "steelman-3"]


def _debate_secrets(twin: int) -> list[tuple[str, str]]:
    from referee.cards.index import load_index, project_root

    index = load_index(project_root())
    deck = DECK_A if twin == 0 else DECK_B
    return [(f"deb-{c}", index.cards[f"deb-{c}"].name) for c in deck if c not in SHARED]


def _debate_twins(tmp_path, ben_named: bool) -> Twins:
    twins = Twins(tmp_path, _debate_secrets)
    new = "new debate --player Ana:Lincoln --player Ben:Truman --seed 12 --house-rule starting-crowd=0"
    ana = [new, "deck Ana " + " ".join(f"deb-{c}" for c in DECK_A)]
    anb = [new, "deck Ana " + " ".join(f"deb-{c}" for c in DECK_B)]
    if ben_named:
        ben = "deck Ben " + " ".join(f"deb-{c}" for c in BEN)
        ana.append(ben)
        anb.append(ben)
    for a, b in twins.each(ana, anb):
        assert a == b, f"the decks' echoes differ:\n--- a:\n{a}--- b:\n{b}"
    return twins


def _debate_part(line: str) -> str | None:
    """Only a line naming a card of one twin's hidden deck may tell them apart."""
    if line.split()[0] != "deck":  # a tactic played or read: the same words on both twins (issue 36)
        return None
    return NAMES if any(f"deb-{c}" in line.split() for c in set(DECK_A) ^ set(DECK_B)) else None


def _debate_line(rng: random.Random) -> str:
    who = rng.choice(["Ana", "Ben"])
    pool = [f"deb-{c}" for c in (SHARED if rng.random() < 0.6 else BEN if rng.random() < 0.6
                                  else list(set(DECK_A) ^ set(DECK_B)))]
    card = rng.choice(pool)
    thread = rng.randint(1, 7)
    kinds = [
        lambda: f"argue {card} {thread}" + (f" --by {who}" if rng.random() < 0.3 else ""),
        lambda: f"device {card} {thread}",
        lambda: "no-argument",
        lambda: "end-turn",
        lambda: "round-end",
        lambda: f"destroy {who} {thread}",
        lambda: f"return {who} {thread}",
        lambda: f"ability {who}",
        lambda: f"card {card}",
        lambda: "undo",
        lambda: "status",
    ]
    weights = [6, 3, 1, 3, 1, 1, 1, 1, 2, 1, 1]
    return rng.choices(kinds, weights)[0]()


def _debate_views(twins: Twins) -> None:
    ids = [f"deb-{c}" for c in sorted(set(DECK_A) | set(DECK_B))]
    twins.same_views(["status", "status --json", "status --reveal Ben", "log", "log --json", "round-end --preview",
                      *[f"card {cid}" for cid in random.Random(len(twins.steps)).sample(ids, 6)]])


@pytest.mark.parametrize("seed", _seeds(2, 6))
def test_debate_random_lines_read_the_same_on_both_twins(tmp_path, seed):
    twins = _debate_twins(tmp_path, ben_named=seed % 2 == 0)
    rng = random.Random(100 + seed)
    for _ in range(30):
        twins.step(_debate_line(rng), _debate_part)
    _debate_views(twins)
    twins.same_export()
    if seed == 0:
        twins.same_page()


def test_debate_a_deck_clash_never_reads_out_the_hidden_deck(tmp_path):
    """Door: naming Ben's deck against Ana's hidden one. The clash is refused on both
    twins in the same words, naming no card of Ana's list."""
    twins = _debate_twins(tmp_path, ben_named=False)
    clash = [*BEN[:12], "point-of-order", "soothing-tone", "steelman-2"]  # in both of Ana's lists
    step = twins.step("deck Ben " + " ".join(f"deb-{c}" for c in clash), lambda line: None)
    assert step.refused == (True, True)
    out = twins.tables[0].run("deck Ben " + " ".join(f"deb-{c}" for c in clash), ok=False).output
    assert "Point of Order" not in out and "hidden" in out


def test_cold_war_a_triad_sends_face_down_cards_to_the_box_unseen(tmp_path):
    """Door: `card` said "out of the game" for a face-down card the Nuclear
    Triad removed, telling it from a card still in the hand."""
    twins = _cold_twins(tmp_path, OTHER_DOWN)
    twins.step("start", _cold_part)
    step = twins.step(f"triad Bo {WM}liberty-silo {WM}deep-sub {WM}bomber-wing", lambda line: None)
    assert step.same and step.refused == (False, False)
    _cold_views(twins)
    out = twins.tables[0].run(f"card {VK}fortress-line").output
    assert "out of the game" not in out
