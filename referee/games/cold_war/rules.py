"""15 Minute Cold War rules: every action is checked and applied by one pure
function over a copy of the state (`Play`), so check and apply never disagree.

A round: each player records the six cards of their setup, `start` names who
plays first, then turns go round the table. A turn is up to three card moves:
at most two plays (place, attack, Special, Propaganda challenge) and at least
one discard; regrouping is free. A Nuclear Triad is the whole turn. A beaten
Leader flips to its Fallen Leader side and draws one card a turn at a target.
When one Leader is left the round is scored 10/6/3/2 by finishing order, plus
1 for each Leader a player beat while Fallen; after the last round the best
total wins.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from referee.errors import RefereeError, RuleViolation
from referee.games import HouseRule
from referee.games.cold_war import cards as carddata
from referee.games.cold_war import desk as D
from referee.games.cold_war.actions import HANDLERS
from referee.games.cold_war.play import Play
from referee.games.generic import GenericRules
from referee.model import Action, GameSlug, Player, PlayerName, Setup, State

GENERIC_ACTIONS = ("life", "capital", "crowd", "win")
SWITCHES = ("on", "off")


class ColdWarRules(GenericRules):
    slug = GameSlug.COLD_WAR
    title = "15 Minute Cold War"
    version = "cold-war-3"
    min_players, max_players = 2, 4
    faction_word = "country"
    house_rules = {
        "rounds": HouseRule("rounds", 3, "rounds played; their scores are summed (1 for a quick game)"),
        "place-points": HouseRule(
            "place-points", "10,6,3,2", "points for finishing 1st, 2nd, 3rd, 4th in a round", str),
        "fallen-bonus": HouseRule(
            "fallen-bonus", 1, "extra points for each Leader a player defeats while playing the Fallen Leader"),
        "propaganda-defence": HouseRule(
            "propaganda-defence", None,
            "defence a Propaganda card adds to its Military stack; default notes.propaganda_defence "
            "of card_sources/cold-war/game.yaml (100)"),
        "propaganda": HouseRule("propaganda", "on", "optional rule 1, Propaganda cards and challenges: on|off", str),
        "nuclear-triad": HouseRule("nuclear-triad", "on", "optional rule 2, the Nuclear Triad: on|off", str),
        "challenge-cost": HouseRule(
            "challenge-cost", "move",
            "a Propaganda challenge uses one of the turn's two plays (move) or the whole turn (turn)", str),
    }

    # ---- setup -------------------------------------------------------------

    def setup(self, setup: Setup, dice: Sequence[int]) -> State:
        self._check_players(setup)
        if setup.life is not None:
            raise RuleViolation("life", "cold-war keeps no life total, so --life does not apply")
        values = self._house_rules(setup)
        _check_house_rules(values, len(setup.players))
        countries = carddata.countries()
        if values["propaganda-defence"] is None:
            values["propaganda-defence"] = carddata.propaganda_defence()
        chosen: dict[str, str] = {}
        players = []
        decks = {}
        for name, wanted in setup.players:
            country = _country(name, wanted, countries)
            if country in chosen:
                raise RuleViolation(
                    "one deck per country",
                    f"{chosen[country]} and {name} both chose {country}; each country deck is played by one player")
            chosen[country] = name
            deck = countries[country]
            decks[name] = {"country": country, "country_name": deck["name"], "leader": deck["leader"],
                           "cards": deck["cards"]}
            players.append(Player(PlayerName(name), country, fields={"leader": "standing", "score": 0}))
        names = [p.name for p in players]
        fields = {
            "decks": decks,
            "phase": "setup",
            "desks": {n: D.new_desk() for n in names},
            "moves": {"plays": 0, "discards": 0},
            "knocked_out": [],
            "fallen_defeats": {n: 0 for n in names},
            "scores": {n: [] for n in names},
            "first": None,
            "result": None,
            "report": [f"round 1 of {values['rounds']}: each player records the six cards of their setup"],
            "step": 0,
        }
        return State(self.slug, tuple(players), house_rules=values, fields=fields)

    # ---- check and apply -----------------------------------------------------

    def check(self, state: State, action: Action) -> None:
        self._run(state, action)

    def apply(self, state: State, action: Action, dice: Sequence[int]) -> State:
        if action.name in GENERIC_ACTIONS:
            return super().apply(state, action, dice)
        return self._run(state, action)

    def _run(self, state: State, action: Action) -> State:
        if action.name in GENERIC_ACTIONS:
            super().check(state, action)
            return state
        handler = HANDLERS.get(action.name)
        if handler is None:
            raise RefereeError(f"cold-war has no action called {action.name!r}")
        if state.winner is not None or state.fields.get("phase") == "over":
            over = f"{state.winner} has won" if state.winner else state.fields.get("result") or "it is over"
            raise RuleViolation("game over", f"the game is over ({over}); undo to go back")
        play = Play(state, action)
        handler(play)
        return play.done()

    # ---- what status shows -----------------------------------------------------

    def visible_state(self, state: State, reveal: Sequence[str]) -> State:
        from referee.games.cold_war.view import visible_state

        return visible_state(state, reveal)

    def render_lines(self, state: State) -> list[str]:
        from referee.games.cold_war.view import render_lines

        return render_lines(state)

    def change_lines(self, before: State, after: State) -> list[str]:
        from referee.games.cold_war.view import change_lines

        return change_lines(before, after)


def _check_house_rules(values: dict[str, Any], count: int) -> None:
    if int(values["rounds"]) < 1:
        raise RuleViolation("rounds", f"house rule rounds must be at least 1, not {values['rounds']}")
    try:
        points = [int(x) for x in str(values["place-points"]).split(",")]
    except ValueError:
        raise RuleViolation("place-points", f"house rule place-points is a list like 10,6,3,2, "
                                            f"not {values['place-points']!r}") from None
    if len(points) < count or any(p < 0 for p in points):
        raise RuleViolation("place-points", f"house rule place-points needs a score of 0 or more for each of "
                                            f"the {count} places, not {values['place-points']!r}")
    values["place-points"] = ",".join(str(p) for p in points)
    if int(values["fallen-bonus"]) < 0:
        raise RuleViolation("fallen-bonus", "house rule fallen-bonus cannot be negative")
    if values["propaganda-defence"] is not None and int(values["propaganda-defence"]) < 0:
        raise RuleViolation("propaganda-defence", "house rule propaganda-defence cannot be negative")
    for key, allowed in (("propaganda", SWITCHES), ("nuclear-triad", SWITCHES),
                         ("challenge-cost", ("move", "turn"))):
        values[key] = str(values[key]).strip().lower()
        if values[key] not in allowed:
            raise RuleViolation(key, f"house rule {key} is {' or '.join(allowed)}, not {values[key]!r}")


def _country(name: str, wanted: str | None, countries: Mapping[str, Any]) -> str:
    choices = ", ".join(countries)
    if not wanted:
        raise RuleViolation("country deck", f"{name} needs a country deck: --player {name}:COUNTRY ({choices})")
    key = wanted.strip().lower()
    for country, deck in countries.items():
        if key in (country, str(deck["name"]).lower()):
            return country
    raise RuleViolation("country deck", f"{wanted!r} is not a country in cold-war; choose one of: {choices}")


RULES = ColdWarRules()
