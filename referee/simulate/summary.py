"""The running tally of simulated games, and the figures a report shows.

Games are added one at a time as they finish (`Tally.add`), so a run of any
length keeps only counters: no game state and no game record stays in
memory. `Tally.figures()` turns the counters into the report's figures, each
rate with its 95% Wilson interval, and `verdict` picks the findings that are
significant at the number of games played.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from referee.simulate.play import GameRecord, Outcome
from referee.simulate.stats import Rate, difference, wilson

# How long the rulebook says a game runs (referee/games' rulebooks, in our words).
RULEBOOK_LENGTH = {
    "culture-war": "about an hour, longer with more players",
    "cold-war": "15 minutes a round, three rounds",
    "debate": "three to four rounds",
    "divide-and-conquer": "until the last card of the deck is drawn",
    "petri-dish": "no length given (a draw by threefold repetition or two passes)",
}
RARE_SHARE = 0.01  # a card played in fewer than 1% of the games it could be is "almost never played"


@dataclass
class Tally:
    game: str
    games: int = 0
    outcomes: Counter = field(default_factory=Counter)
    seat_games: Counter = field(default_factory=Counter)  # seat index -> games decided (win or draw)
    seat_wins: Counter = field(default_factory=Counter)
    faction_games: Counter = field(default_factory=Counter)  # faction -> seat-games in decided games
    faction_wins: Counter = field(default_factory=Counter)
    first_games: int = 0
    first_wins: int = 0
    seats_total: int = 0  # seat-games in decided games (for the fair share)
    turns: Counter = field(default_factory=Counter)
    actions: Counter = field(default_factory=Counter)
    card_games: Counter = field(default_factory=Counter)  # card -> seat-games it was played in
    card_wins: Counter = field(default_factory=Counter)  # ... that that seat won
    card_plays: Counter = field(default_factory=Counter)  # total plays
    faction_cards: dict = field(default_factory=lambda: defaultdict(set))  # faction -> cards seen played
    agent_games: Counter = field(default_factory=Counter)  # agent -> decided games it held a seat in
    agent_wins: Counter = field(default_factory=Counter)  # ... that one of its seats won
    agent_seats: Counter = field(default_factory=Counter)  # agent -> seat-games in decided games (its fair share)

    def add(self, record: GameRecord) -> None:
        self.games += 1
        self.outcomes[record.outcome.value] += 1
        self.turns[record.turns] += 1
        self.actions[record.actions] += 1
        decided = record.outcome in (Outcome.WIN, Outcome.DRAW)
        for i, seat in enumerate(record.seats):
            won = record.winner == i
            cards = record.cards_played[i] if i < len(record.cards_played) else ()
            for card in cards:
                self.card_plays[card] += 1
            for card in set(cards):
                self.faction_cards[seat.faction or ""].add(card)
            if not decided:
                continue
            self.seats_total += 1
            self.seat_games[i] += 1
            self.seat_wins[i] += won
            faction = seat.faction or "(none)"
            self.faction_games[faction] += 1
            self.faction_wins[faction] += won
            for card in set(cards):
                self.card_games[card] += 1
                self.card_wins[card] += won
        if decided:
            self.first_games += 1
            self.first_wins += record.winner == record.first
            kinds = [seat.agent.value for seat in record.seats]
            for kind in set(kinds):
                self.agent_games[kind] += 1
                self.agent_wins[kind] += record.winner is not None and kinds[record.winner] == kind
                self.agent_seats[kind] += kinds.count(kind)

    # ---- figures ---------------------------------------------------------------

    def figures(self) -> dict[str, Any]:
        fair = self._fair()
        seats = {str(i): wilson(self.seat_wins[i], self.seat_games[i]) for i in sorted(self.seat_games)}
        factions = {f: wilson(self.faction_wins[f], self.faction_games[f]) for f in sorted(self.faction_games)}
        first = wilson(self.first_wins, self.first_games)
        cards = {}
        for card in sorted(set(self.card_plays) | set(self.card_games)):
            with_card = wilson(self.card_wins[card], self.card_games[card])
            faction = self._faction_of(card)
            base_games = self.faction_games.get(faction, self.seats_total) if faction else self.seats_total
            base_wins = self.faction_wins.get(faction, 0) if faction else self.outcomes["win"]
            without = (base_wins - self.card_wins[card], base_games - self.card_games[card])
            cards[card] = {"plays": self.card_plays[card], "played": with_card,
                           "not_played": wilson(max(0, without[0]), max(0, without[1])),
                           "test": difference(max(0, without[0]), max(0, without[1]),
                                              self.card_wins[card], self.card_games[card])}
        agents = {a: wilson(self.agent_wins[a], self.agent_games[a]) for a in sorted(self.agent_games)}
        return {"fair": fair, "seats": seats, "factions": factions, "first": first, "cards": cards, "agents": agents}

    def agent_fair(self, agent: str) -> float:
        """The share of decided games an agent would win if every seat were as strong as every other."""
        seats = self.seats_total / self.first_games if self.first_games else 0.0
        wins = self.outcomes["win"] / self.first_games if self.first_games else 0.0
        return wins * self.agent_seats[agent] / (self.agent_games[agent] * seats) \
            if self.agent_games[agent] and seats else 0.0

    def _fair(self) -> float:
        """The win rate every seat would have in a balanced game."""
        return self.outcomes["win"] / self.seats_total if self.seats_total else 0.0

    def faction_of(self, card: str) -> str | None:
        """The faction whose player was seen playing `card` (None: no faction's)."""
        return self._faction_of(card)

    def _faction_of(self, card: str) -> str | None:
        for faction, cards in self.faction_cards.items():
            if card in cards and faction:
                return faction
        return None

    def to_json(self) -> dict[str, Any]:
        from referee.simulate.findings import q_values  # lazy: loaded with the report
        f = self.figures()
        q = q_values(f)
        return {
            "game": self.game,
            "games": self.games,
            "outcomes": dict(self.outcomes),
            "fair_share": round(f["fair"], 4) if self.outcomes["win"] else None,
            "win_rate_by_seat": {k: v.to_json() for k, v in f["seats"].items()},
            "win_rate_by_faction": {k: v.to_json() for k, v in f["factions"].items()},
            "first_player": f["first"].to_json(),
            "win_rate_by_agent": {a: {**r.to_json(), "fair_share": round(self.agent_fair(a), 4)}
                                  for a, r in f["agents"].items()},
            "turns": _distribution(self.turns),
            "actions": _distribution(self.actions),
            "cards": {c: {"plays": d["plays"], "win_when_played": d["played"].to_json(),
                          "win_when_not": d["not_played"].to_json(),
                          "delta": round(d["test"].delta, 4),  # when played minus when not, as the text reads
                          "correlation": True, "p_value": round(d["test"].p_value, 6),
                          "q_value": round(q.get(f"card:{c}", 1.0), 6)}
                      for c, d in f["cards"].items()},
            "verdict": verdict(self),
        }


def _distribution(counter: Counter) -> dict[str, Any]:
    n = sum(counter.values())
    if not n:
        return {"n": 0}
    values = sorted(counter.elements())
    return {"n": n, "min": values[0], "median": values[n // 2], "mean": round(sum(values) / n, 2),
            "p90": values[min(n - 1, (9 * n) // 10)], "max": values[-1],
            "histogram": {str(k): counter[k] for k in sorted(counter)}}


def verdict(tally: Tally) -> list[str]:
    """The findings significant at 95% with the games played, most important first."""
    f = tally.figures()
    lines = []
    if not tally.games:
        return ["no game finished"]
    capped = tally.outcomes["capped"] + tally.outcomes["jam"]
    if capped:
        lines.append(f"{capped} of {tally.games} games did not finish ({tally.outcomes['capped']} capped, "
                     f"{tally.outcomes['jam']} jammed)")
    if len(f["agents"]) > 1:
        for name, rate in f["agents"].items():
            lines.append(f"agent {name} wins {_pct(rate)} of the decided games it sat in "
                         f"(fair {tally.agent_fair(name):.0%})")
    turns = _distribution(tally.turns)
    lines.append(f"length: median {turns['median']} turns (90% within {turns['p90']}); the rulebook: "
                 f"{RULEBOOK_LENGTH.get(tally.game, 'not said')}")
    from referee.simulate.findings import findings  # lazy: loaded with the verdict
    lines += findings(tally.games, tally.outcomes, f)
    return lines


def _pct(rate: Rate) -> str:
    return f"{rate.value:.0%} (95% {rate.low:.0%}-{rate.high:.0%}, n={rate.n})"
