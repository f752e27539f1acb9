"""docs/status-json.md against the real `status --json`, both ways.

Each game plays a short game through the CLI to a mid-game table (cards in
play, an attack or a prompt under way), reading `status --json` after every
command, with `--reveal` for every player too in the games with hidden
cards. Then:
  (a) every key printed at a path the doc documents (`state`,
      `players[].state` and the nested shapes such as `state.pieces.*`) is
      listed in that game's section;
  (b) every key the section lists at a path was printed at least once;
  (c) the top-level keys, and each player's, are exactly the doc's.

The doc's tables are read as: a `## GAME` section per game slug; a `###`
heading naming one or more paths in backticks; table rows whose first cell
is a key in backticks. In a path, `*` is each value of an object and `[]`
each item of an array.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterable, Iterator

import pytest

from referee.rules import rules_for
from referee.model import GameSlug

DOC = Path(__file__).resolve().parents[2] / "docs" / "status-json.md"
SHARED = "Top-level fields"  # the section of the fields every game shares
ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|")


# ---- reading the doc ---------------------------------------------------------------


Shape = tuple[str, ...]  # the paths of one `###` heading: objects of one shape


def read_doc(text: str) -> tuple[dict[str, dict[Shape, set[str]]], dict[str, list[str]]]:
    """The keys each section documents, by heading (("",) for rows before
    any heading), and the JSON examples of each section."""
    keys: dict[str, dict[Shape, set[str]]] = {}
    examples: dict[str, list[str]] = {}
    section: str | None = None
    paths: Shape = ()
    code: list[str] | None = None
    for line in text.splitlines():
        if code is not None:
            if line.startswith("```"):
                if section is not None:
                    examples.setdefault(section, []).append("\n".join(code))
                code = None
            else:
                code.append(line)
            continue
        if line.startswith("```json"):
            code = []
        elif line.startswith("## "):
            section, paths = line[3:].strip(), ("",)
            keys[section] = {}
        elif line.startswith("### ") and section is not None:
            paths = tuple(re.findall(r"`([^`]+)`", line))  # none for "### Example": its rows are not keys
        elif section is not None and paths and (row := ROW.match(line)):
            keys[section].setdefault(paths, set()).add(row.group(1))
    return keys, examples


DOC_KEYS, DOC_EXAMPLES = read_doc(DOC.read_text(encoding="utf-8"))


def objects_at(value: Any, path: str) -> Iterator[dict[str, Any]]:
    """The objects a path names in a status (nulls along the way are skipped)."""
    found = [value]
    for step in path.split(".") if path else ():
        name, brackets = step.rstrip("[]"), (len(step) - len(step.rstrip("[]"))) // 2
        nxt: list[Any] = []
        for v in found:
            if not isinstance(v, dict):
                continue
            if name == "*":
                nxt.extend(v.values())
            elif name in v:
                nxt.append(v[name])
        for _ in range(brackets):
            nxt = [item for v in nxt if isinstance(v, list) for item in v]
        found = [v for v in nxt if v is not None]
    yield from (v for v in found if isinstance(v, dict))


# ---- the checks -------------------------------------------------------------------


def game_problems(documented: dict[Shape, set[str]], statuses: Iterable[dict[str, Any]]) -> list[str]:
    """(a) and (b) for one game's section. A heading naming several paths
    documents one shape: each object is checked against its keys, and the
    keys against everything printed at any of them."""
    statuses = list(statuses)
    out: set[str] = set()
    if ("",) in documented:
        out.add(f"rows before any path heading: {sorted(documented[('',)])}")
    for required in ("state", "players[].state"):
        if (required,) not in documented:
            out.add(f"no table for `{required}`")
    for paths, keys in documented.items():
        seen: set[str] = set()
        for path in paths:
            for status in statuses:
                for obj in objects_at(status, path):
                    seen |= set(obj)
                    if set(obj) - keys:
                        out.add(f"`{path}` printed {sorted(set(obj) - keys)}, which the doc does not list")
        if keys - seen:
            where = ", ".join(f"`{p}`" for p in paths)
            out.add(f"the doc lists {sorted(keys - seen)} under {where}, which no status printed")
    return sorted(out)


def shared_problems(documented: dict[Shape, set[str]], statuses: Iterable[dict[str, Any]]) -> list[str]:
    """(c): the top-level keys and each player's are exactly the doc's; a
    prompt's keys are the doc's (when the game raised one)."""
    out: set[str] = set()

    def compare(where: str, printed: Iterable[str], listed: set[str]) -> None:
        if set(printed) - listed:
            out.add(f"{where}: printed {sorted(set(printed) - listed)}, which the doc does not list")
        if listed - set(printed):
            out.add(f"{where}: the doc lists {sorted(listed - set(printed))}, which the status did not print")

    top, player_keys, prompt_keys = (documented.get((p,), set()) for p in ("", "players[]", "prompts[]"))
    for status in statuses:
        compare("top level", status, top)
        for player in status["players"]:
            compare("players[]", player, player_keys)
        for prompt in status["prompts"]:
            compare("prompts[]", prompt, prompt_keys)
    return sorted(out)


# ---- short games that reach the middle of the table ------------------------------------

GAMES: dict[str, list[str]] = {
    "culture-war": [
        "new culture-war --player ann:anarchy --player bo:technocracy --player cy:community "
        "--player di:libertarian --seed 21",
        "rolloff --dice 5,2,5,1",  # ann and cy tie ...
        "rolloff --dice 6,3",  # ... and ann goes first
        "capital ann +40",
        "draw 6 --by ann",
        "deploy anarchy-window-smasher",  # #9
        "play anarchy-brick-in-a-tote-bag --on 9",  # a Mod
        "buy anarchy-pawn-shop-backroom",  # Real Estate #10
        "play anarchy-direct-action",  # an Operation, #11
        "play anarchy-riot-night",  # timed: every unit of ann's
        "battle 9 4 --window --dice 3,4",  # the window after the dice
        "play anarchy-lucky-throw --on 9",  # timed: one unit, for that battle
        "play technocracy-emergency-patch --by bo --on 4",  # a reroll
        "settle",
        "ally ann cy",
        "discard-hand anarchy-masked-rioter",
        "end-turn",
        "capital bo +40",
        "draw 6 --by bo",
        "deploy technocracy-data-intern",  # a prompt
        "resolve",
        "deploy technocracy-predictive-model",  # #13
        "play technocracy-acqui-hire --on 2",  # bo takes ann's recruit: `home`
        "capital cy +40",
        "battle 12 6 --window --dice 3,4",
        "play community-group-hug --by cy --on 6",  # a shield
        "settle",
        "end-turn",
        "capital cy +40",
        "draw 6 --by cy",
        "play community-consensus-meeting",  # a truce
        "end-turn",
        "capital di +40",
        "deploy libertarian-private-fire-brigade",
        "deploy libertarian-bootstrap-hustler",
        "play libertarian-bug-out-bag --on di/bootstrap-hustler",  # two cards could save it: a prompt
        "resolve bug-out-bag",  # `save_first`
        "end-turn",
        "play anarchy-general-strike",  # no income
        "life cy -200",  # cy is out: cy's cards are removed from the game
        "play anarchy-leaked-group-chat --on bo",  # a prompt left waiting
    ],
    "divide-and-conquer": [
        "new divide-and-conquer --player Ana --player Ben --player Cy --player Dee --seed 1 "
        "--house-rule deck-size=60",
        "recruit dc-left-prestige-media",
        "attach dc-asset-circled-wagons g1",
        "recruit dc-right-talk-radio-empire",
        "attach dc-asset-basement-theorist g2",
        "recruit dc-left-tenured-faculty-lounge",
        "attach dc-asset-attorneys-on-retainer g3",
        "attack g1 --intent take-over",
        "team dc-right-hedge-fund-golf --join g2",
        "raise dc-left-campus-outrage --attach dc-deficit-hot-mic-moment=g4",
        "team --attach dc-asset-offshore-trust=g2",
        "fight --dice 6,1",
        "unaffiliate dc-right-oil-baron-club",
        "recruit dc-right-crypto-bros",
        "recruit dc-right-flat-tax-crusaders",
        "event dc-event-market-crash",  # Cy's pick waits (two right-wing groups); one-group owners are not asked
        "resolve 1 g2",
        # a short deck, played to the end
        "new divide-and-conquer --player Ana --player Ben --player Cy --player Dee --seed 1 "
        "--house-rule deck-size=27 --force",
        "recruit dc-right-defence-contractor",
        "recruit dc-left-prestige-media",
        "attach dc-asset-attorneys-on-retainer g2",
    ],
    "petri-dish": [
        "new petri-dish --player Ann --player Bo --seed 5",
        "place c2",
        "place e7",
        "grow c2",
        "pass",
        "grow c2",
        "pass",
        "divide c2 b3",
    ],
    "debate": [
        "new debate --player Ana:deb-jackson --player Ben:deb-hw-bush --seed 1 --house-rule starting-crowd=0",
        "deck Ana deb-shouting-match-1 deb-shouting-match-3 deb-talking-over-you-1 deb-talking-over-you-2 "
        "deb-slippery-slope-2 deb-loaded-question-1 deb-steamroller-2 deb-socratic-questioning-2 "
        "deb-appeal-to-fear deb-revisit-the-record deb-moving-the-goalposts deb-rehearsed-line deb-filibuster "
        "deb-gish-gallop deb-mic-drop",
        "deck Ben deb-measured-rebuttal-3 deb-whataboutism deb-common-ground-1 deb-soothing-tone "
        "deb-socratic-questioning-1 deb-socratic-questioning-3 deb-measured-rebuttal-1 deb-measured-rebuttal-2 "
        "deb-common-ground-2 deb-cite-the-source-1 deb-steelman-2 deb-shouting-match-2 deb-talking-over-you-3 "
        "deb-slippery-slope-1 deb-appeal-to-reason",
        "argue deb-shouting-match-1 1",
        "device deb-filibuster 1",  # a protected thread
        "argue deb-talking-over-you-1 2",
        "argue deb-shouting-match-3 3",
        "ability Ana --target 2",  # a column bonus
        "next",
        "argue deb-measured-rebuttal-3 2",
        "device deb-whataboutism 2 --target 2",
        "argue deb-common-ground-1 1",
        "device deb-soothing-tone 1",  # a mod on the facing argument
        "ability Ben --target 1",
        "next",
        "next",
        "next",
        "round-end",
        # other POTUS cards: a prompt, a once-per-match ability, a crowd shift
        "new debate --player Ana:deb-johnson --player Ben:deb-nixon --seed 1 --house-rule starting-crowd=0 --force",
        "deck Ana a",
        "argue deb-cite-the-source-1 1",
        "next",
        "argue deb-loaded-question-1 1",
        "ability Ben",
        "resolve 1 done",
        "next",
        "ability Ana --target 1 --to 2",
        "new debate --player Ana:deb-f-roosevelt --player Ben:deb-lincoln --seed 2 --force",
    ],
    "cold-war": [
        "new cold-war --player Ann:westmark --player Bo:vostokia --player Cy:albion --seed 7 "
        "--house-rule rounds=1",
        "setup Ann cold-wm-kitchen cold-wm-rock-radio cold-wm-cavalry cold-wm-marines cold-wm-radar-line "
        "--propaganda cold-wm-dream-studios --discard cold-wm-supercarrier --discard cold-wm-fighter-wing "
        "--discard cold-wm-forward-base",
        "setup Bo cold-vk-orbit-dog cold-vk-state-ballet cold-vk-fortress-line cold-vk-air-defence "
        "cold-vk-motor-rifles cold-vk-marshal --discard cold-vk-rocket-artillery --discard cold-vk-ocean-squadron "
        "--discard cold-vk-metro-palace",
        "regroup Bo --stack M1,M2,M3",
        "setup Cy cold-al-codebreakers cold-al-broadcaster cold-al-home-fleet cold-al-commandos "
        "cold-al-armoured-regt cold-al-highlanders --discard cold-al-leased-deterrent --discard cold-al-delta-bomber "
        "--discard cold-al-coastal-guns",
        "start",
        "triad Cy cold-wm-liberty-silo cold-wm-deep-sub cold-wm-bomber-wing",  # waits for Cy's answer
        "answer none --by Cy",
        "attack Cy L cold-vk-tank-column",
        "answer none --by Cy",  # Cy's Leader falls
        "discard cold-vk-paratroops",
        "end-turn",
        "fallen Ann cold-al-broadcaster",  # a card lent to Ann
    ],
}


def play(table, game: str) -> list[dict[str, Any]]:
    """Every status the game's commands lead to (with --reveal too where it applies)."""
    statuses = []
    for line in GAMES[game]:
        table.run(line)
        status = table.status([])
        statuses.append(status)
        if rules_for(game).has_hidden_cards:  # a game with hidden cards: --reveal each player
            statuses.append(table.status([p["name"] for p in status["players"]]))
    return statuses


# ---- the tests ----------------------------------------------------------------------


def test_the_doc_has_a_section_per_game() -> None:
    assert {g.value for g in GameSlug} <= set(DOC_KEYS), "docs/status-json.md lacks a `## GAME` section"
    assert set(GAMES) == {g.value for g in GameSlug}
    assert {("",), ("players[]",), ("prompts[]",)} <= set(DOC_KEYS[SHARED])


@pytest.mark.parametrize("game", sorted(GAMES))
def test_status_json_matches_the_doc(table, game: str) -> None:
    statuses = play(table, game)
    assert statuses[-1]["game"] == game
    problems = shared_problems(DOC_KEYS[SHARED], statuses) + game_problems(DOC_KEYS[game], statuses)
    assert not problems, f"docs/status-json.md, section {game}:\n" + "\n".join(problems)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_examples_are_json_with_documented_keys(game: str) -> None:
    assert DOC_EXAMPLES.get(game), f"no example in section {game}"
    for text in DOC_EXAMPLES[game]:
        example = json.loads(text)
        if "state" not in example:
            continue  # a fragment of one object, not a status
        for paths, keys in DOC_KEYS[game].items():
            for path in paths:
                for obj in objects_at(example, path):
                    assert set(obj) <= keys, f"{game} example: `{path}` has {sorted(set(obj) - keys)}"


def test_the_checks_notice_a_doc_that_drifts(table) -> None:
    """Take a key out of the doc (or add one that is never printed): the checks say so."""
    statuses = play(table, "petri-dish")
    text = DOC.read_text(encoding="utf-8")
    keys, _ = read_doc(text)
    assert game_problems(keys["petri-dish"], statuses) == []
    assert shared_problems(keys[SHARED], statuses) == []

    def without(row: str, section: str) -> str:
        start = text.index(f"## {section}")
        at = text.index(f"| `{row}` |", start)
        return text[:at] + text[text.index("\n", at) + 1:]

    for row in ("passed", "size"):  # in `state`, in `state.board.*`
        drifted, _ = read_doc(without(row, "petri-dish"))
        found = game_problems(drifted["petri-dish"], statuses)
        assert any(f"'{row}'" in p and "does not list" in p for p in found), found
    drifted, _ = read_doc(without("reserve", "petri-dish"))  # the only row of `players[].state`
    assert "no table for `players[].state`" in game_problems(drifted["petri-dish"], statuses)
    drifted, _ = read_doc(without("seed", SHARED))
    assert any("top level" in p for p in shared_problems(drifted[SHARED], statuses))
    extra = text.replace("| `passed` |", "| `ghost` | boolean | Never printed. |\n| `passed` |", 1)
    found = game_problems(read_doc(extra)[0]["petri-dish"], statuses)
    assert any("'ghost'" in p and "no status printed" in p for p in found), found
