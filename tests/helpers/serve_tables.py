"""Tables for the `referee serve` tests (not a test module): made with the CLI."""
from __future__ import annotations

from pathlib import Path

from conftest import Table
from referee.games.cold_war import cards as carddata

from test_rules_cold_war_hidden import ANN_SETUP, BO_SETUP  # the same two setups as the hidden-output tests
HIDDEN = {  # each player's face-down cards after the setups
    "Ann": ["cold-wm-forward-base", "cold-wm-tank-battalion", "cold-wm-proxy-war", "cold-wm-big-brain"],
    "Bo": ["cold-vk-fortress-line", "cold-vk-tank-column", "cold-vk-air-defence", "cold-vk-chess-academy"],
}


def card_name(cid: str) -> str:
    cards = {c: stats for deck in carddata.countries().values() for c, stats in deck["cards"].items()}
    return cards[cid]["name"]


def secrets_of(player: str) -> list[str]:
    """The ids and printed names of `player`'s face-down cards."""
    return HIDDEN[player] + [card_name(c) for c in HIDDEN[player]]


def leaks(text: str, player: str) -> list[str]:
    low = text.lower()
    return [s for s in secrets_of(player) if s.lower() in low]


def cold_war(folder: Path) -> Path:
    """A Cold War table after both setups and `start`: face-down cards on both sides."""
    t = Table(folder / "cold.db")
    t.run("new cold-war --player Ann:westmark --player Bo:vostokia --seed 3")
    t.run(ANN_SETUP)
    t.run(BO_SETUP)
    t.run("start")
    return t.db


def culture_war(folder: Path) -> Path:
    t = Table(folder / "cw.db")
    t.run("new culture-war --player Ana:anarchy --player Ben:technocracy --seed 7")
    return t.db


def each_game(folder: Path) -> dict[str, Path]:
    """A fresh table of every game, for drawing each game's picture."""
    lines = {
        "culture-war": "new culture-war --player Ana:anarchy --player Ben:technocracy --seed 7",
        "divide-and-conquer": "new divide-and-conquer --player Ana --player Ben --player Cy --player Di --seed 7",
        "petri-dish": "new petri-dish --player Ana --player Ben --seed 7",
        "debate": "new debate --player Ana:Lincoln --player Ben:Truman --seed 12",
    }
    out = {}
    for game, line in lines.items():
        t = Table(folder / f"{game}.db")
        t.run(line)
        out[game] = t.db
    out["cold-war"] = cold_war(folder)
    return out
