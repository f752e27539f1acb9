"""The target of a balance search (`--target`) and how far a set of games is from it.

A seat is a place in the turn order (seat 1 moves first): the search and the
verification count records turned by verify.by_place, so `seat=fair` asks
that no place in the turn order wins more than its share."""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from referee.errors import RefereeError
from referee.simulate.play import GameRecord, Outcome
from referee.simulate.stats import wilson


@dataclass(frozen=True)
class Target:
    by: str  # "faction" or "seat"
    name: str | None = None  # one faction, or every one (None)
    share: float | None = None  # its wanted win rate; None: the fair share

    @property
    def text(self) -> str:
        return f"{self.by}=fair" if self.name is None else f"{self.by}:{self.name}={self.share}"


def parse_target(text: str, factions: tuple[str, ...]) -> Target:
    head, sep, value = text.partition("=")
    by, _, name = head.partition(":")
    if by not in ("faction", "seat") or not sep:
        raise RefereeError(f"--target {text!r}: give faction=fair, seat=fair or faction:NAME=SHARE (e.g. 0.5)")
    if not name:
        if value != "fair":
            raise RefereeError(f"--target {text!r}: every {by} can only be asked to be fair ({by}=fair)")
        if by == "faction" and not factions:
            raise RefereeError(f"--target {text!r}: this game has no factions; try seat=fair")
        return Target(by)
    if by == "faction" and name not in factions:
        raise RefereeError(f"--target {text!r}: no faction {name!r}; choose one of: {', '.join(factions)}")
    try:
        share = float(value)
    except ValueError:
        raise RefereeError(f"--target {text!r}: the share is a number between 0 and 1, not {value!r}") from None
    if not 0 <= share <= 1:
        raise RefereeError(f"--target {text!r}: the share is between 0 and 1, not {share}")
    return Target(by, name, share)


@dataclass
class Count:
    """The win counts a target reads, by faction and by seat; kept as JSON for --resume."""

    games: int = 0
    wins: int = 0
    seat_total: int = 0
    faction_games: Counter = field(default_factory=Counter)
    faction_wins: Counter = field(default_factory=Counter)
    seat_games: Counter = field(default_factory=Counter)
    seat_wins: Counter = field(default_factory=Counter)
    plays: Counter = field(default_factory=Counter)  # card -> times played

    def add(self, record: GameRecord) -> None:
        self.games += 1
        for cards in record.cards_played:
            self.plays.update(cards)
        if record.outcome not in (Outcome.WIN, Outcome.DRAW):
            return
        self.wins += record.outcome is Outcome.WIN
        for i, seat in enumerate(record.seats):
            won = int(record.winner == i)
            self.seat_total += 1
            self.seat_games[str(i)] += 1
            self.seat_wins[str(i)] += won
            self.faction_games[seat.faction or "(none)"] += 1
            self.faction_wins[seat.faction or "(none)"] += won

    def fair(self) -> float:
        return self.wins / self.seat_total if self.seat_total else 0.0

    def rates(self, by: str) -> dict[str, Any]:
        games, wins = (self.faction_games, self.faction_wins) if by == "faction" else (self.seat_games, self.seat_wins)
        return {k: wilson(wins[k], games[k]) for k in sorted(games)}

    def gap(self, target: Target) -> tuple[float, float, str | None]:
        """(how far from the target, its standard error, the faction or seat furthest off)."""
        rates = self.rates(target.by)
        if target.name is not None:
            rate = rates.get(target.name)
            if rate is None or rate.n == 0:
                return 1.0, 1.0, target.name
            return abs(rate.value - target.share), _se(rate), target.name
        fair = self.fair()
        worst = max(rates.items(), key=lambda kv: abs(kv[1].value - fair), default=None)
        if worst is None or worst[1].n == 0:
            return 1.0, 1.0, None
        return abs(worst[1].value - fair), _se(worst[1]), worst[0]

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "wins": self.wins, "seat_total": self.seat_total,
                "faction_games": dict(self.faction_games), "faction_wins": dict(self.faction_wins),
                "seat_games": dict(self.seat_games), "seat_wins": dict(self.seat_wins), "plays": dict(self.plays)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Count:
        return cls(data["games"], data["wins"], data["seat_total"], Counter(data["faction_games"]),
                   Counter(data["faction_wins"]), Counter(data["seat_games"]), Counter(data["seat_wins"]),
                   Counter(data.get("plays", {})))


def _se(rate) -> float:
    p = min(max(rate.value, 0.02), 0.98)
    return math.sqrt(p * (1 - p) / rate.n)
