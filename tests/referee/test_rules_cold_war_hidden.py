"""15 Minute Cold War: face-down cards and Propaganda never reach a player.

A table where both players place face-down Military cards and Propaganda
(at setup, on their turn, and named by id while regrouping); then every
output a player can read is searched for the ids and names of those cards.
The game's own parts (public_args, the echo lines, status) are tested
directly; the generic outputs (echo, log, log --json, undo, redo, replay
--step, export) are expected to pass once the core prints `public_args`
everywhere (see GenericRules.public_args)."""
from __future__ import annotations

import json
from pathlib import Path


from referee.rules import rules_for
from referee.games.cold_war import cards as carddata
from referee.games.cold_war.hidden import PLACEHOLDER
from referee.games.cold_war.words import VIEW
from referee.model import Action

RULES = rules_for("cold-war")

ANN_SETUP = ("setup Ann cold-wm-kitchen cold-wm-forward-base cold-wm-tank-battalion cold-wm-joint-brass "
             "cold-wm-proxy-war --propaganda cold-wm-big-brain --discard cold-wm-vice-president "
             "--discard cold-wm-snoop-director --discard cold-wm-rapid-deploy")
BO_SETUP = ("setup Bo cold-vk-orbit-dog cold-vk-fortress-line cold-vk-tank-column cold-vk-marshal cold-vk-air-defence "
            "--propaganda cold-vk-chess-academy --discard cold-vk-five-year-plan --discard cold-vk-metro-palace "
            "--discard cold-vk-ideologist")
PLAY = [
    "start",
    "place cold-wm-cavalry",                     # face down
    "place cold-wm-rock-radio --propaganda",     # Propaganda
    "discard cold-wm-airborne",
    "end-turn",
    "regroup Bo --stack M1,M2,M4",                  # fortress line, tank column, chess academy
    "place cold-vk-photographs",                 # a Special: face down as Propaganda
    "discard cold-vk-paratroops",
    "end-turn",
]
HIDDEN = ["cold-wm-forward-base", "cold-wm-tank-battalion", "cold-wm-proxy-war", "cold-wm-big-brain",
          "cold-wm-cavalry", "cold-wm-rock-radio", "cold-vk-fortress-line", "cold-vk-tank-column",
          "cold-vk-air-defence", "cold-vk-chess-academy", "cold-vk-photographs"]
FACE_UP = ["cold-wm-kitchen", "cold-wm-joint-brass", "cold-vk-orbit-dog", "cold-vk-marshal"]


def _secrets() -> list[str]:
    """The ids and printed names of the hidden cards (names matched case-insensitively)."""
    cards = {cid: stats for deck in carddata.countries().values() for cid, stats in deck["cards"].items()}
    return HIDDEN + [cards[cid]["name"] for cid in HIDDEN]


def _leaks(text: str) -> list[str]:
    low = text.lower()
    return [secret for secret in _secrets() if secret.lower() in low]


def _play(table) -> list[str]:
    """Set the table up and play; returns every command's echo."""
    table.run("new cold-war --player Ann:westmark --player Bo:vostokia --seed 3")
    return [table.run(line).output for line in [ANN_SETUP, BO_SETUP, *PLAY]]


def _wired() -> bool:
    """True once the core (any module of referee/ outside the games) calls public_args."""
    import referee

    core = Path(referee.__file__).parent
    return any("public_args" in path.read_text(encoding="utf-8")
               for path in core.rglob("*.py") if "games" not in path.relative_to(core).parts)


def test_public_args_hide_face_down_cards_and_the_propaganda_flag():
    setup = Action("setup", {"player": "Ann", "cards": ["cold-wm-kitchen", "cold-wm-forward-base",
                                                         "cold-wm-joint-brass", "cold-wm-proxy-war"],
                             "propaganda": ["cold-wm-big-brain"], "discard": ["cold-wm-vice-president"]})
    shown = RULES.public_args(setup)
    assert shown["cards"] == ["cold-wm-kitchen", "cold-wm-joint-brass", PLACEHOLDER, PLACEHOLDER, PLACEHOLDER]
    assert "propaganda" not in shown and shown["discard"] == ["cold-wm-vice-president"]
    assert setup.args["propaganda"] == ["cold-wm-big-brain"]  # the action itself is untouched
    # a face-down placement reads the same whatever the card, Propaganda or not
    military = RULES.public_args(Action("place", {"card": "cold-wm-cavalry"}))
    propaganda = RULES.public_args(Action("place", {"card": "cold-wm-rock-radio", "propaganda": True}))
    special = RULES.public_args(Action("place", {"card": "cold-wm-proxy-war"}))
    assert military == propaganda == special == {"card": PLACEHOLDER}
    assert RULES.public_args(Action("place", {"card": "cold-wm-kitchen"})) == {"card": "cold-wm-kitchen"}
    regroup = RULES.public_args(Action("regroup", {"player": "Ann", "stacks": [["M1", "cold-wm-cavalry", "S2"]]}))
    assert regroup["stacks"] == [["M1", PLACEHOLDER, "S2"]]
    attack = Action("attack", {"target": "Bo", "at": "M1", "cards": ["cold-wm-supercarrier"]})
    assert RULES.public_args(attack) == dict(attack.args)  # played face up: nothing to hide


def test_status_names_a_hidden_card_only_to_its_owner(table):
    _play(table)
    plain = table.run("status --json").output + table.run("status").output
    assert _leaks(plain) == []
    assert all(cid in plain for cid in FACE_UP)
    bo = table.run("status --json --reveal Bo").output + table.run("status --reveal Bo").output
    assert {s for s in _leaks(bo) if s.startswith("cold-")} == {c for c in HIDDEN if c.startswith("cold-vk")}


def test_change_lines_never_name_a_hidden_card():
    from referee.model import GameSlug, Setup

    s = RULES.setup(Setup(GameSlug.COLD_WAR, (("Ann", "westmark"), ("Bo", "vostokia")), 3), ())
    lines: list[str] = []
    for text in [ANN_SETUP, BO_SETUP, *PLAY]:
        action = _action(text)
        RULES.check(s, action)
        after = RULES.apply(s, action, ())
        lines += VIEW.change_lines(s, after) + VIEW.change_lines(after, s)  # done, and taken back
        s = after
    assert lines and _leaks("\n".join(lines)) == []


def _action(text: str) -> Action:
    """The action a command line records (as commands.py builds it)."""
    words = text.split()
    name, rest = words[0], words[1:]
    if name == "setup":
        args: dict = {"player": rest[0], "cards": [], "propaganda": [], "discard": []}
        key = "cards"
        for word in rest[1:]:
            if word.startswith("--"):
                key = word[2:]
                continue
            args[key].append(word)
        return Action("setup", args, rest[0])
    if name == "place":
        return Action("place", {"card": rest[0], "propaganda": "--propaganda" in rest})
    if name == "discard":
        return Action("discard", {"cards": rest})
    if name == "regroup":
        return Action("regroup", {"player": rest[0], "stacks": [rest[2].split(",")]}, rest[0])
    return Action(name, {})


def test_every_player_readable_output_hides_face_down_cards_and_propaganda(table, tmp_path: Path):
    assert _wired(), "the core shows actions through public_args"
    outputs = {f"echo of `{line}`": out for line, out in zip([ANN_SETUP, BO_SETUP, *PLAY], _play(table))}
    outputs["status --json"] = table.run("status --json").output
    outputs["log"] = table.run("log").output
    outputs["log --json"] = table.run("log --json").output
    outputs["undo"] = table.run("undo").output
    outputs["redo"] = table.run("redo").output
    export, full = tmp_path / "game.json", tmp_path / "game-full.json"
    table.run(["export", str(export)])
    outputs["export"] = export.read_text()
    refused = table.run(["replay", str(export), "--db", str(tmp_path / "players.db")], ok=False)
    assert refused.exit_code != 0 and "--full" in refused.output  # a players' export cannot rebuild the game
    outputs["replay of a players' export"] = refused.output
    table.run(["export", str(full), "--full"])
    assert _leaks(full.read_text()), "export --full keeps the hidden cards for the scorekeeper"
    outputs["replay --step"] = table.run(["replay", str(full), "--db", str(tmp_path / "copy.db"), "--step"]).output
    leaks = {where: _leaks(text) for where, text in outputs.items() if _leaks(text)}
    assert leaks == {}
    json.loads(outputs["log --json"])


def test_a_face_down_card_a_special_names_by_id_stays_hidden():
    named = Action("special", {"card": "cold-al-gentleman-spy", "target": "Bo", "at": "cold-vk-fortress-line",
                               "block": "cold-vk-missile-ring"})
    assert RULES.public_args(named)["at"] == PLACEHOLDER
    by_spot = Action("special", {"card": "cold-al-gentleman-spy", "target": "Bo", "at": "M1"})
    assert RULES.public_args(by_spot) == dict(by_spot.args)
    face_up = Action("special", {"card": "cold-wm-defector-grant", "target": "Bo", "at": "cold-vk-orbit-dog"})
    assert RULES.public_args(face_up)["at"] == "cold-vk-orbit-dog"


def test_a_refusal_does_not_tell_a_propaganda_card_from_a_face_up_one(table):
    _play(table)
    table.run("place cold-wm-space-agency")
    # face down, as Propaganda: taken as Ann's word (cold-war-6), as it would be on a table where that
    # card is in her hand, so nothing tells the two tables apart; a face-up card is refused as public
    propaganda = table.run("discard cold-wm-big-brain").output
    face_up = table.fail("discard cold-wm-kitchen").output
    assert "already in use: on Ann's table [rule: printed copies]" in face_up
    for out in (propaganda, face_up):
        assert "Military" not in out and "Propaganda" not in out and "face down" not in out
