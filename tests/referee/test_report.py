"""`referee report`: a match report PDF for each of the five games.

Each test plays a short game through the CLI, recording `status --json`
after every command, then writes the report and checks that its chart series
are what the status said turn by turn, that each battle's chance is the one
the game's own odds gave before the dice, and that the PDF's text names the
players, the winner, the key moments and the house rules (and no hidden
card).
"""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from conftest import Table
from referee.games.petri_dish.geometry import PRIME_AREAS
from referee.report import build, default_out

pytestmark = pytest.mark.pdf


class Recorder:
    """Runs commands and keeps, for each turn, what `status --json` showed
    after the last command played in that turn (turn 0: the table as set
    up), as the battle table counts turns; an `end-turn` belongs to the turn
    it starts (its draw and income)."""

    def __init__(self, table: Table, measure):
        self.table, self.measure = table, measure
        self.seen: dict[int, dict[str, int]] = {}

    def new(self, line: str) -> None:
        self.table.run(line)
        self.seen[0] = self.measure(self.table.status())

    def run(self, line: str) -> dict:
        played_in = self.table.status()["turn"]
        self.table.run(line)
        status = self.table.status()
        self.seen[status["turn"] if line.split()[0] == "end-turn" else played_in] = self.measure(status)
        return status

    def series(self, label: str) -> dict[int, int]:
        return {turn: values[label] for turn, values in self.seen.items()}


def by_player(key: str, own: bool = True):
    """Each player's value of `key`: a game's own field (under `state`) or, with
    own=False, a field every game shares."""
    return lambda s: {p["name"]: (p["state"] if own else p)[key] for p in s["players"]}


def pdf_text(path: Path) -> str:
    doc = pdfium.PdfDocument(str(path))
    try:
        return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()


def write(table: Table, *extra: str) -> tuple[Path, str]:
    out = Path(table.run(["report", *extra]).output.strip())
    out = out if out.is_absolute() else Path.cwd() / out
    assert out.is_file()
    assert not [p for p in out.parent.iterdir() if p.name.endswith(".tmp")]  # written through a temp file
    return out, " ".join(pdf_text(out).split())


def check_charts(report, measure: str, recorder: Recorder, labels) -> None:
    chart = report.chart(measure)
    assert sorted(s.label for s in chart.series) == sorted(labels)
    for label in labels:
        assert chart.get(label).as_dict() == recorder.series(label), (measure, label)


# ---- Culture War: battles with exact odds, a Hero lost, an elimination; replayed -----------


def test_culture_war_report(table: Table, tmp_path: Path) -> None:
    rec = Recorder(table, by_player("life", own=False))
    rec.new("new culture-war --player ann:community --player bo:conservative --seed 11 "
            "--house-rule first-player=seating --house-rule counter-fail=normal")
    rec.run("capital ann +20")
    rec.run("deploy community-eternal-facilitator")
    chances = []
    odds = json.loads(table.run("odds ann/eternal-facilitator bo/loyal-recruit --json").output)
    rec.run("battle ann/eternal-facilitator bo/loyal-recruit")
    rec.run("undo")  # the undone battle is not in the report
    rec.run("battle ann/eternal-facilitator bo/loyal-recruit")
    chances.append(Fraction(odds["kill"]))
    rec.run("end-turn")
    rec.run("capital bo +20")
    rec.run("deploy conservative-beat-cop")
    odds = json.loads(table.run("odds bo/beat-cop ann/eternal-facilitator --json").output)
    pieces = table.status()["state"]["pieces"]
    hero = next(h for h, p in pieces.items() if p.get("card") == "community-eternal-facilitator")
    after = rec.run("battle bo/beat-cop ann/eternal-facilitator --dice 6,1")
    chances.append(Fraction(odds["kill"]))
    hero_lost = hero not in after["state"]["pieces"]
    rec.run("end-turn")
    final = rec.run("life bo =0")
    assert final["winner"] == "ann"

    report = build(table.db)
    check_charts(report, "life", rec, ["ann", "bo"])
    assert [f.chance for f in report.fights] == chances
    assert [f.attacker for f in report.fights] == ["ann", "bo"]
    for luck in report.luck:  # expected wins: own chances as attacker, 1 - theirs as defender
        mine = [c if f.attacker == luck.player else 1 - c for f, c in zip(report.fights, chances)]
        assert luck.expected == sum(mine) and luck.contests == 2
    moments = [m.text for m in report.moments]
    assert "bo is eliminated" in moments and "ann wins" in moments
    assert any("loses the Hero Eternal Facilitator" in m for m in moments) == hero_lost

    out, text = write(table)
    assert out == default_out(table.db) and out.name == "table-report.pdf"
    assert "Culture War: match report" in text
    assert "Players: ann (faction community); bo (faction conservative)" in text
    assert "Winner: ann" in text
    assert "bo is eliminated" in text
    for f in report.fights:
        assert f"{f.chance.numerator}/{f.chance.denominator}" in text
    assert "ann: 2 contests, expected" in text and "bo: 2 contests, expected" in text
    assert "House rules in force" in text
    assert "first-player seating set for this table" in text
    assert "counter-fail normal set for this table" in text
    assert "hero-kills-hero once default" in text

    # the same report from the log exported and replayed into another table
    table.run(f"export {tmp_path / 'game.json'} --full")
    copy = tmp_path / "copy.db"
    table.run(f"replay {tmp_path / 'game.json'} --db {copy}")
    again = build(copy)
    assert again.charts == report.charts and again.fights == report.fights and again.moments == report.moments
    out, text = write(table, "--db", str(copy), "--out", str(tmp_path / "replayed.pdf"))
    assert out == tmp_path / "replayed.pdf" and "Winner: ann" in text


def test_report_refusals(table: Table, tmp_path: Path) -> None:
    assert "no table file" in table.fail("report").output
    table.run("new culture-war --player ann --player bo --seed 1 --house-rule first-player=seating")
    result = table.fail(["report", "--out", str(tmp_path / "missing" / "r.pdf")])
    assert "does not exist" in result.output
    assert not (tmp_path / "missing").exists()


# ---- Divide & Conquer: an attack on a player's group, its odds from the totals ---------------


def test_divide_and_conquer_report(table: Table) -> None:
    rec = Recorder(table, by_player("net"))
    rec.new("new divide-and-conquer --player Ana --player Ben --player Cy --player Dee --seed 1 "
            "--house-rule deck-size=60")
    for line in ("recruit dc-left-prestige-media", "attach dc-asset-circled-wagons g1",
                 "recruit dc-right-talk-radio-empire", "attach dc-asset-basement-theorist g2",
                 "recruit dc-left-tenured-faculty-lounge", "attach dc-asset-attorneys-on-retainer g3",
                 "attack g1 --intent take-over", "team dc-right-hedge-fund-golf --join g2",
                 "raise dc-left-campus-outrage --attach dc-deficit-hot-mic-moment=g4",
                 "team --attach dc-asset-offshore-trust=g2"):
        rec.run(line)
    fights = [rec.run("fight")["state"]["last_attack"]]
    for line in ("attack g3 --intent take-over", "team dc-right-defence-contractor", "call --by Ana"):
        rec.run(line)
    fights.append(rec.run("fight")["state"]["last_attack"])

    report = build(table.db)
    check_charts(report, "net influence", rec, ["Ana", "Ben", "Cy", "Dee"])
    assert len(report.fights) == 2
    for fight, last in zip(report.fights, fights):
        a_roll, d_roll = last["dice"]
        a_inf, d_inf = last["attack"] - a_roll, last["defence"] - d_roll
        wins = sum(1 for a in range(1, 7) for d in range(1, 7) if a + a_inf > d + d_inf)
        assert fight.chance == Fraction(wins, 36)
        assert fight.won == last["won"] and fight.dice == (a_roll, d_roll)
        assert fight.defender == "Ana"
    assert [f.attacker for f in report.fights] == ["Cy", "Dee"]
    takes = [m.text for m in report.moments]
    assert takes == [f"{last['attacker']} takes over {last['target']}" for last in fights if last["won"]]

    _, text = write(table)
    assert "Political Divide & Conquer: match report" in text
    assert "Players: Ana; Ben; Cy; Dee" in text
    assert "Winner: no winner yet" in text
    assert "Net influence per turn" in text
    assert "deck-size 60 set for this table" in text
    assert "last-card-by-event drawer-plays default" in text
    for name in ("Ana", "Ben", "Cy", "Dee"):
        assert f"{name}: " in text


# ---- Cold War: a Nuclear Triad, Leaders falling, a Fallen Leader's flips; nothing hidden -------


COLD_SETUPS = {
    "Ann": "cold-wm-kitchen cold-wm-rock-radio cold-wm-dream-studios cold-wm-cavalry cold-wm-marines "
           "cold-wm-radar-line --discard cold-wm-supercarrier --discard cold-wm-fighter-wing "
           "--discard cold-wm-forward-base",
    "Bo": "cold-vk-orbit-dog cold-vk-state-ballet cold-vk-fortress-line cold-vk-air-defence cold-vk-motor-rifles "
          "cold-vk-marshal --discard cold-vk-rocket-artillery --discard cold-vk-ocean-squadron "
          "--discard cold-vk-metro-palace",
    "Cy": "cold-al-codebreakers cold-al-broadcaster cold-al-home-fleet cold-al-commandos cold-al-armoured-regt "
          "cold-al-highlanders --discard cold-al-leased-deterrent --discard cold-al-delta-bomber "
          "--discard cold-al-coastal-guns",
}


def test_cold_war_report(table: Table) -> None:
    rec = Recorder(table, by_player("score"))

    def run(line: str) -> None:  # an attack aimed at a player who could answer waits: they answer none
        rec.run(line)
        waiting = table.status()["state"].get("pending")
        if waiting:
            rec.run(f"answer none --by {waiting['target']}")

    rec.new("new cold-war --player Ann:westmark --player Bo:vostokia --player Cy:albion --seed 7 "
            "--house-rule rounds=1")
    for name, cards in COLD_SETUPS.items():
        rec.run(f"setup {name} {cards}")
    rec.run("start")
    run("triad Cy cold-wm-liberty-silo cold-wm-deep-sub cold-wm-bomber-wing")
    run("attack Cy L cold-vk-tank-column")
    rec.run("discard cold-vk-paratroops")
    rec.run("end-turn")
    flips = []
    for line in ("fallen Ann cold-al-broadcaster", None, "fallen Bo cold-al-four-minutes", None,
                 "fallen Ann cold-al-patrol-sub"):
        if line is None:
            continue
        odds = json.loads(table.run("odds Cy --json").output)[0]
        flips.append(Fraction(odds["odds"]["attack"]))
        run(line)
        if line.endswith("broadcaster"):
            for step in ("discard cold-wm-space-agency", "end-turn", "attack Ann S4 cold-vk-interceptors",
                         "discard cold-vk-five-year-plan", "end-turn"):
                run(step)
        elif line.endswith("four-minutes"):
            for step in ("discard cold-wm-airborne", "end-turn",
                         "triad Ann cold-vk-heavy-icbm cold-vk-northern-sub cold-vk-polar-bomber"):
                run(step)
    final = table.status()
    assert final["winner"] == "Bo"

    report = build(table.db)
    check_charts(report, "score", rec, ["Ann", "Bo", "Cy"])
    flipped = [f for f in report.fights if "Fallen Leader flips" in f.what]
    assert [f.chance for f in flipped] == flips
    assert [f.won for f in flipped] == [False, False, True]  # lent, nothing, an attack
    assert [f.attacker for f in report.fights if f.chance is None][:1] == ["Bo"]
    assert report.luck[[p for p, _ in report.players].index("Cy")].expected == sum(flips)
    moments = " | ".join(m.text for m in report.moments)
    assert moments.count("launches the Nuclear Triad") == 2
    assert "Cy's Leader" in moments and "Ann's Leader" in moments and "falls and becomes" in moments
    assert "Bo wins with 10 points" in moments

    _, text = write(table)
    assert "15 Minute Cold War: match report" in text
    assert "Players: Ann (country westmark); Bo (country vostokia); Cy (country albion)" in text
    assert "Winner: Bo" in text
    assert "rounds 1 set for this table" in text and "nuclear-triad on default" in text
    # face-down cards never appear: the setups' cards the log hides from players
    logged = [e for e in table.log()["events"] if e["action"] == "setup"]
    for event in logged:
        typed = COLD_SETUPS[event["args"]["player"]].split(" --discard")[0].split()
        shown = event["args"]["cards"][:len(typed)]
        hidden = [c for c, s in zip(typed, shown) if s == "a face-down card"]
        assert hidden
        for cid in hidden:
            name = json.loads(table.run(f"card {cid} --json").output)["name"]
            assert cid not in text and name not in text, cid


# ---- Debate: fortitude and the crowd per turn, round ends ------------------------------------


def test_debate_report(table: Table) -> None:
    rec = Recorder(table, lambda s: {**by_player("fortitude")(s), "crowd": s["crowd"]})
    rec.new("new debate --player Ana --player Ben --seed 1 --house-rule starting-crowd=0 "
            "--house-rule starting-fortitude=5")
    for line in ("argue deb-shouting-match-2 1", "next", "argue deb-talking-over-you-1 1", "next", "next", "next"):
        rec.run(line)
    rec.run("crowd +3 --reason heckling")
    final = rec.run("round-end")
    assert final["winner"] == "Ana"

    report = build(table.db)
    check_charts(report, "fortitude", rec, ["Ana", "Ben"])
    assert report.chart("crowd").get("crowd").as_dict() == rec.series("crowd")
    assert report.fights == ()
    ends = [m.text for m in report.moments]
    fort = {p["name"]: p["state"]["fortitude"] for p in final["players"]}
    assert ends[0] == f"round 1 ends: Ana fortitude {fort['Ana']}, Ben fortitude {fort['Ben']}; " \
                      f"the crowd at {final['crowd']:+d}"
    assert "Ana wins" in ends
    assert [s.player for s in report.standings] == ["Ana", "Ben"]

    _, text = write(table)
    assert "Debate: match report" in text and "Winner: Ana" in text
    assert "Fortitude per turn" in text and "The crowd per turn" in text
    assert "starting-fortitude 5 set for this table" in text
    assert "starting-crowd 0 set for this table" in text and "crowd-spread 10 default" in text
    assert "no dice contests" in text


# ---- Petri dish: no dice; prime areas and captures -------------------------------------------


def petri_measures(status: dict) -> dict[str, int]:
    colour = {p["name"]: p["faction"] for p in status["players"]}
    board = status["state"]["board"]
    out = {}
    for name, c in colour.items():
        alone = sum(1 for points in PRIME_AREAS.values()
                    if {board[p]["owner"] for p in points if board.get(p)} == {c})
        tokens = sum(cell["size"] for cell in board.values() if cell and cell["owner"] == c)
        out[f"areas:{name}"], out[f"tokens:{name}"] = alone, tokens
    return out


PETRI_WIN = ("place c3", "place e5", "grow c3", "pass", "divide c3 c4", "pass", "move c4 c5", "pass",
             "move c5 c6", "pass", "grow c3", "pass", "divide c3 d3", "move e5 f4", "move d3 e3", "move f4 g3",
             "move e3 f3", "move g3 h4")
PETRI_CAPTURE = ("place d2", "place d1", "grow d2", "grow d1", "divide d2 e1", "pass", "grow d2", "pass",
                 "divide d2 c2", "pass", "grow c2", "pass", "divide c2 b2", "pass", "move b2 c1")


@pytest.mark.parametrize("moves", [PETRI_WIN, PETRI_CAPTURE], ids=["win", "capture"])
def test_petri_dish_report(table: Table, moves) -> None:
    rec = Recorder(table, petri_measures)
    rec.new("new petri-dish --player Ann --player Bo --seed 8")
    for line in moves:
        rec.run(line)
    final = table.status()

    report = build(table.db)
    for measure, key in (("prime areas", "areas"), ("tokens", "tokens")):
        chart = report.chart(measure)
        for name in ("Ann", "Bo"):
            assert chart.get(name).as_dict() == rec.series(f"{key}:{name}")
    assert report.fights == ()
    moments = [m.text for m in report.moments]
    _, text = write(table)
    assert "Battle for the Petri Dish: match report" in text
    assert "Players: Ann (colour white); Bo (colour black)" in text
    assert "areas-to-win 3 default" in text and "large-divide-liberties 3 default" in text
    if moves is PETRI_WIN:
        assert final["winner"] == "Ann" and "Winner: Ann" in text
        assert "Ann now holds 3 prime area(s) alone (was 2)" in moments and "Ann wins" in moments
    else:
        assert final["winner"] is None and "Winner: no winner yet" in text
        assert "Ann (white) captures Bo's black germ of 2 at d1" in moments
        assert "captures Bo's black germ of 2 at d1" in text


def test_the_crowd_chart_spans_the_whole_track(table: Table) -> None:
    table.run("new debate --player Ana --player Ben --seed 1 --house-rule starting-crowd=-6")
    table.run("crowd -1 --reason heckling")
    out, _ = write(table)
    doc = pdfium.PdfDocument(str(out))
    try:
        labels = set()
        for i in range(len(doc)):
            labels |= set(doc[i].get_textpage().get_text_range().split())
    finally:
        doc.close()
    assert {"-30", "30", "0"} <= labels  # the axis of the crowd chart: the track's ends, not -7..-5


def test_a_long_name_stays_on_the_page(table: Table) -> None:
    long_name = "Bartholomew-Maximilian-Fitzgerald-Worthington-the-Third"
    table.run(f"new culture-war --player {long_name}:anarchy --player Bo:technocracy --seed 4")
    table.run(f"life {long_name} -3")
    out, text = write(table)
    doc = pdfium.PdfDocument(str(out))
    try:
        for i in range(len(doc)):
            page = doc[i]
            width = page.get_width()
            textpage = page.get_textpage()
            for c in range(textpage.count_chars()):
                left, _, right, _ = textpage.get_charbox(c)
                assert right <= width - 10, f"page {i + 1}: a character ends at {right:.0f} of {width:.0f} pt"
    finally:
        doc.close()
    assert "\u2026" in text  # the legend shortened the name rather than run off the page
