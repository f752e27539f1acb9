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

from helpers.twins import REVEALS, TIME, Twins
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


def _clocks(twins: Twins, seconds: float = 45) -> list[tuple[str, object, object]]:
    """Each twin's served page with the answer window's clock (`serve --play --answer-timeout`):
    the public JSON whole, and the clock on each player's own page."""
    import json

    from referee.serve.watch import TableWatch

    out = []
    for t in twins.tables:
        watch = TableWatch(t.db)
        watch.play, watch.answer_timeout_s = True, seconds
        watch.poll()
        out.append((watch.public_json(), *(json.loads(watch.private_json(p)).get("answer_clock") for p in ("Ann", "Bo"))))
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cold_war_the_answer_clock_tells_nothing_hidden(tmp_path, seed):
    """Door: the answer window's countdown (issue 36 item 1). Whether a clock runs, for
    whom, from when and for how long reads the same on both twins after every line."""
    twins = _cold_twins(tmp_path, OTHER_DOWN if seed % 2 else FEWER_PROPAGANDA)
    twins.step("start", _cold_part)
    rng, mover, shown = random.Random(200 + seed), "Ann", 0
    lines = [f"attack Bo S1 {WM}airborne", "answer none --by Bo"]  # S1 lies face up: the window opens on both
    for _ in range(30):
        line = lines.pop(0) if lines else _cold_line(rng, mover)
        step = twins.step(line, _cold_part)
        if step.line in ("end-turn", "undo", "redo") and not any(step.refused) and not step.parted:
            mover = twins.tables[0].status()["active"]
        a, b = _clocks(twins)
        assert a == b, f"after `{line}` the clock differs:\n--- a: {a[1:]}\n--- b: {b[1:]}"
        if a[1] is not None:
            shown += 1
            assert a[1] == a[2] and a[1]["seconds"] == 45 and a[1]["opened"] == TIME
    assert shown  # a window did wait, so the clock was compared while it ran


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
    """No line may tell the twins apart, not even one naming a card of one twin's hidden
    deck (issue 36): a tactic played or read, another player's `deck` and a device
    `--by` a player naming a card of the other's hidden list read the same on both."""
    return None


ONE_TWIN = sorted(set(DECK_A) ^ set(DECK_B))  # in Ana's hidden deck on one twin only


def _debate_line(rng: random.Random) -> str:
    who = rng.choice(["Ana", "Ben"])
    pool = [f"deb-{c}" for c in (SHARED if rng.random() < 0.6 else BEN if rng.random() < 0.6
                                  else ONE_TWIN + sorted(BEN_SWAP.values()))]
    card = rng.choice(pool)
    thread = rng.randint(1, 7)
    kinds = [
        lambda: f"argue {card} {thread}" + (f" --by {who}" if rng.random() < 0.3 else ""),
        lambda: f"device {card} {thread}" + (f" --by {who}" if rng.random() < 0.5 else ""),
        lambda: "no-argument",
        lambda: "end-turn",
        lambda: "round-end",
        lambda: f"destroy {who} {thread}",
        lambda: f"return {who} {thread}",
        lambda: f"ability {who}",
        lambda: f"card {card}",
        lambda: "undo",
        lambda: "status",
        lambda: _debate_deck(rng, who),
    ]
    weights = [6, 3, 1, 3, 1, 1, 1, 1, 2, 1, 1, 1]
    return rng.choices(kinds, weights)[0]()


def _debate_deck(rng: random.Random, who: str) -> str:
    """A `deck` line naming cards of the other player's hidden list (on one twin, or on both)."""
    named = rng.sample(BEN, 15 - rng.randint(0, 3))
    named += rng.sample([*ONE_TWIN, *SHARED], 15 - len(named))
    return f"deck {who} " + " ".join(f"deb-{c}" for c in named)


def _debate_views(twins: Twins, shown: str = "Ben") -> None:
    """`shown`: the player whose list is the same on both twins (`status --reveal` them)."""
    ids = [f"deb-{c}" for c in sorted(set(DECK_A) | set(DECK_B))]
    twins.same_views(["status", "status --json", f"status --reveal {shown}", "log", "log --json", "round-end --preview",
                      *[f"card {cid}" for cid in random.Random(len(twins.steps)).sample(ids, 6)]])


@pytest.mark.parametrize("seed", _seeds(2, 6))
def test_debate_random_lines_read_the_same_on_both_twins(tmp_path, seed):
    ben_hidden = seed % 3 == 1  # the twins differ in Ben's list, and Ana's deck is learned as she plays
    twins = _ben_twins(tmp_path) if ben_hidden else _debate_twins(tmp_path, ben_named=seed % 2 == 0)
    rng = random.Random(100 + seed)
    if seed % 2 and not ben_hidden:  # Ben's deck not named yet: his list may name cards of Ana's hidden one
        twins.step(_debate_deck(rng, "Ben"), _debate_part)
    for _ in range(30):
        twins.step(_debate_line(rng), _debate_part)
    _debate_views(twins, "Ana" if ben_hidden else "Ben")
    twins.same_export()
    if seed == 0:
        twins.same_page()


@pytest.mark.parametrize("clash", [["cite-the-source-1"], ["point-of-order", "soothing-tone", "steelman-2"],
                                   ["cheap-laugh", "point-of-order"]])
def test_debate_a_deck_naming_the_hidden_deck_s_cards_reads_the_same(tmp_path, clash):
    """Door: naming Ben's deck against Ana's hidden one (issue 36 item 4). Whether Ana's
    list holds Ben's cards (on one twin, on both) tells nothing: Ben's list is taken as
    his word on both twins, with the same stated note, naming no card of Ana's list."""
    twins = _debate_twins(tmp_path, ben_named=False)
    line = "deck Ben " + " ".join(f"deb-{c}" for c in [*BEN[:15 - len(clash)], *clash])
    step = twins.step(line, _debate_part)
    assert step.same and step.refused == (False, False)
    twins.step("undo", _debate_part)
    echoes = [twins.norm(i, t.run(line).output) for i, t in enumerate(twins.tables)]  # the echo, read again
    assert echoes[0] == echoes[1]
    assert "Ana's deck list is hidden, so the referee does not check it against Ben's" in echoes[0]
    assert not twins.leaks(0, echoes[0], typed=line) and not twins.leaks(1, echoes[1], typed=line)
    _debate_views(twins)


BEN_SWAP = {"steelman-3": "steelman-1", "rehearsed-line": "cheap-laugh"}  # Ben's hidden list, one twin to the other
BEN_B = [BEN_SWAP.get(c, c) for c in BEN]


def _ben_twins(tmp_path) -> Twins:
    """Twins that differ in Ben's hidden deck list only; Ana's deck is learned as she plays."""
    from referee.cards.index import load_index, project_root

    index = load_index(project_root())
    ids = (sorted(set(BEN) - set(BEN_B)), sorted(set(BEN_B) - set(BEN)))
    twins = Twins(tmp_path, lambda twin: [(f"deb-{c}", index.cards[f"deb-{c}"].name) for c in ids[twin]])
    new = "new debate --player Ana:Lincoln --player Ben:Truman --seed 12 --house-rule starting-crowd=0"
    for a, b in twins.each([new, "deck Ben " + " ".join(f"deb-{c}" for c in BEN)],
                           [new, "deck Ben " + " ".join(f"deb-{c}" for c in BEN_B)]):
        assert a == b, f"the decks' echoes differ:\n--- a:\n{a}--- b:\n{b}"
    return twins


OPEN_ANA, ANSWER_BEN = ["argue deb-common-ground-2 1 --by Ana"], ["argue deb-common-ground-2 1 --by Ana", "end-turn"]


@pytest.mark.parametrize("hidden, before, line", [
    # Ben (his deck learned as played) names a card Ana's hidden list holds on one twin only
    ("Ana", ANSWER_BEN, "argue deb-cite-the-source-1 1 --by Ben"),
    ("Ana", ANSWER_BEN, "argue deb-slippery-slope-1 1 --by Ben"),
    ("Ana", [*ANSWER_BEN, "argue deb-common-ground-1 1 --by Ben"], "device deb-cheap-laugh 1 --by Ben"),
    ("Ana", [*ANSWER_BEN, "argue deb-common-ground-1 1 --by Ben"], "device deb-strawman 1 --target 1 --by Ben"),
    # Ana names a card of her own hidden list, held on one twin only (her word)
    ("Ana", OPEN_ANA, "device deb-cheap-laugh 1 --by Ana"),
    # Ana (her deck learned as played) names a card Ben's hidden list holds on one twin only
    ("Ben", [], "argue deb-steelman-3 1 --by Ana"),
    ("Ben", [], "argue deb-steelman-1 1 --by Ana"),
    ("Ben", OPEN_ANA, "device deb-rehearsed-line 1 --by Ana"),
    ("Ben", OPEN_ANA, "device deb-cheap-laugh 1 --by Ana"),
])
def test_debate_a_tactic_naming_a_hidden_deck_s_card_reads_the_same(tmp_path, hidden, before, line):
    """Door: a tactic naming a card that one twin's hidden deck list holds and the other's
    does not (issue 36 item 4): the same words on both twins, so no line tests a list."""
    twins = _debate_twins(tmp_path, ben_named=False) if hidden == "Ana" else _ben_twins(tmp_path)
    for setup in before:
        assert not any(twins.step(setup, _debate_part).refused), setup
    step = twins.step(line, _debate_part)
    assert step.same and step.refused == (False, False), step
    _debate_views(twins, "Ben" if hidden == "Ana" else "Ana")


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
